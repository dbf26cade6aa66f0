"""`tabula run`: start the Discord bot, or the local console when no token is set."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace

from bot.cli.console_command import add_console_arguments, start_console
from bot.cli.startup import CONFIG_STATUS, database_problem, start
from bot.client import run_bot
from renderers.fonts import missing_fonts_warning

log = logging.getLogger(__name__)

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
    """Start the bot with the configured token, or the console without one.

    A bad configuration or a database the bot could not write stops it with one line per
    problem and a non-zero status, before anything connects.
    """
    settings = start(args)
    if settings is None:
        return CONFIG_STATUS
    if args.database is not None:
        settings = replace(settings, database=args.database)
    if settings.token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return start_console(settings.database, args.images, settings, log=args.log)
    problem = database_problem(settings.database)
    if problem is not None:
        print(f"tabula: {problem}", file=sys.stderr)
        return 1
    warning = missing_fonts_warning()
    if warning is not None:
        log.warning("%s", warning)
    return run_bot(settings)
