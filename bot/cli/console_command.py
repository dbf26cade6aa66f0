"""`tabula console`: play through the bot's services in a terminal, without Discord."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import load_settings
from bot.console.app import ConsoleApp
from bot.services.clock import SystemClock
from bot.storage.sqlite import SqliteRepository

DEFAULT_IMAGE_DIR = Path("console-boards")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `console` subcommand."""
    parser = subparsers.add_parser(
        "console", help="play in the terminal: several local users, the same commands"
    )
    add_console_arguments(parser)
    parser.set_defaults(func=run)


def add_console_arguments(parser: argparse.ArgumentParser) -> None:
    """The console's options (shared with `tabula run`, which opens it without a token)."""
    parser.add_argument(
        "--database",
        type=Path,
        help="SQLite file (default: TABULA_DATABASE or data/tabula.sqlite3)",
    )
    parser.add_argument(
        "--images",
        type=Path,
        default=DEFAULT_IMAGE_DIR,
        help=f"folder for board pictures (default: {DEFAULT_IMAGE_DIR})",
    )


async def run_console(database: Path, images: Path | None) -> None:
    """Open the database and read commands from standard input until it ends or /quit."""
    repository = await SqliteRepository.open(database)
    try:
        app = ConsoleApp(repository, SystemClock(), out=sys.stdout, image_dir=images)
        interactive = sys.stdin.isatty()
        if interactive:
            print(
                "Tabula console. Type as a user by starting the line with a name: "
                "alice> /play groups @bob  (/help lists the commands, /quit ends)."
            )
        await app.run(sys.stdin, prompt=interactive)
    finally:
        await repository.close()


def run(args: argparse.Namespace) -> int:
    """Start the console."""
    database = args.database or load_settings().database
    asyncio.run(run_console(database, args.images))
    return 0
