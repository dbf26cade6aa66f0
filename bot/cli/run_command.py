"""`tabula run`: start the bot."""

from __future__ import annotations

import argparse
import sys

from bot.config import load_settings

NO_TOKEN_HELP = (
    "No Discord token configured. Set DISCORD_TOKEN in the environment or in a .env file "
    "(a line DISCORD_TOKEN=...) and run again."
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `run` subcommand."""
    parser = subparsers.add_parser("run", help="start the bot (needs DISCORD_TOKEN)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the bot, or explain how to configure it."""
    settings = load_settings()
    if settings.token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 1
    print("The Discord bot is not available yet in this version.", file=sys.stderr)
    return 1
