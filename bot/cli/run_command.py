"""`tabula run`: start the Discord bot, or the local console when no token is set."""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace

from bot.cli.console_command import add_console_arguments, run_console
from bot.client import run_bot
from bot.config import SettingsError, load_settings

NO_TOKEN_HELP = (
    "No Discord token configured, so the local console opens instead. To run the Discord "
    "bot, set DISCORD_TOKEN in the environment or in a .env file (a line DISCORD_TOKEN=...)."
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `run` subcommand."""
    parser = subparsers.add_parser(
        "run", help="start the bot (the local console when DISCORD_TOKEN is not set)"
    )
    add_console_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the bot with the configured token, or the console without one."""
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"tabula: {exc}", file=sys.stderr)
        return 2
    database = args.database or settings.database
    if settings.token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        asyncio.run(run_console(database, args.images, settings))
        return 0
    if args.database is not None:
        settings = replace(settings, database=args.database)
    return run_bot(settings)
