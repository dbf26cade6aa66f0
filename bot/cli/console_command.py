"""`tabula console`: play through the bot's services in a terminal, without Discord."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

from bot.cli.startup import CONFIG_STATUS, database_problem, start
from bot.config import Settings
from bot.console.app import ConsoleApp
from bot.logs import configure_logging
from bot.services.clock import Clock, ManualClock, SystemClock
from bot.services.computer.runner import TurnRunner
from bot.storage.opening import (
    DatabaseLocation,
    display_location,
    open_repository,
    parse_location,
)
from bot.web.server import WebServer

DEFAULT_IMAGE_DIR = Path("console-boards")
DEFAULT_LOG = Path("tabula-console.log")
"""Where the console's log lines go by default (they would mix with its output)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `console` subcommand."""
    parser = subparsers.add_parser(
        "console", help="play in the terminal: several local users, the same commands"
    )
    add_console_arguments(parser)
    parser.add_argument(
        "--manual-clock",
        action="store_true",
        help="keep time still except for /wait (to try clocks, reminders and timeouts)",
    )
    parser.set_defaults(func=run)


def add_console_arguments(parser: argparse.ArgumentParser) -> None:
    """The console's options (shared with `tabula run`, which opens it without a token)."""
    parser.add_argument(
        "--database",
        type=parse_location,
        help="SQLite file or postgresql:// URL (default: TABULA_DATABASE or data/tabula.sqlite3)",
    )
    parser.add_argument(
        "--images",
        type=Path,
        default=DEFAULT_IMAGE_DIR,
        help=f"folder for board pictures (default: {DEFAULT_IMAGE_DIR})",
    )
    parser.add_argument(
        "--log",
        default=str(DEFAULT_LOG),
        help=f"file for log lines, kept out of the console's output (default: {DEFAULT_LOG}; "
        "'-' for standard error)",
    )


async def run_console(
    database: DatabaseLocation,
    images: Path | None,
    settings: Settings | None = None,
    *,
    manual_clock: bool = False,
) -> None:
    """Open the database and read commands from standard input until it ends or /quit."""
    settings = settings or Settings()
    repository = await open_repository(database)
    app: ConsoleApp | None = None
    try:
        clock: Clock = ManualClock(SystemClock().now()) if manual_clock else SystemClock()
        app = ConsoleApp(
            repository,
            clock,
            out=sys.stdout,
            image_dir=images,
            runner=TurnRunner(workers=settings.ai_workers),
            ai_seconds=settings.ai_seconds,
            vacation_allowance=timedelta(days=settings.vacation_days),
        )
        if settings.web:
            await _start_web(app, settings)
        interactive = sys.stdin.isatty()
        if interactive:
            print(
                "Tabula console. Type as a user by starting the line with a name: "
                "alice> /play groups @bob  (/help lists the commands, /quit ends)."
            )
        await app.run(sys.stdin, prompt=interactive)
    finally:
        if app is not None:
            if app.web is not None:
                await app.web.stop()
            await app.computer.close()
        await repository.close()


async def _start_web(app: ConsoleApp, settings: Settings) -> None:
    """Serve the web pages beside the console; what they do is printed as it happens."""
    web = WebServer(app.services, settings, after_action=app.announce)
    try:
        address = await web.start()
    except OSError as error:
        print(f"web: cannot listen on {web.host}:{web.port}: {error}", file=sys.stderr)
        await web.stop()
        return
    app.web = web
    print(web.start_line(address), flush=True)


def start_console(
    database: DatabaseLocation,
    images: Path | None,
    settings: Settings,
    *,
    manual_clock: bool = False,
    log: str = str(DEFAULT_LOG),
) -> int:
    """Run the console; a database it cannot use is one line and status 1. Log lines go
    to the file `log` ('-': standard error), not into the console's output; with
    `manual_clock`, a SQLite database is played on a scratch copy (simulated dates never
    reach it), and a PostgreSQL one is used as it is, which is said first."""
    with contextlib.ExitStack() as stack:
        if log != "-":
            configure_logging(settings, path=Path(log))
            stack.callback(configure_logging, settings)  # back to standard error after
        problem = database_problem(database)
        if problem is not None:
            print(f"tabula: {problem}", file=sys.stderr)
            return 1
        if manual_clock:
            database = stack.enter_context(scratch_copy(database))
        try:
            asyncio.run(run_console(database, images, settings, manual_clock=manual_clock))
        except KeyboardInterrupt:
            print(file=sys.stderr)
    return 0


@contextlib.contextmanager
def scratch_copy(database: DatabaseLocation) -> Iterator[DatabaseLocation]:
    """Where a console with a manual clock plays: a temporary copy of a SQLite file
    (deleted afterwards), so the simulated future never reaches the real database; a
    PostgreSQL database cannot be copied, so the player is told it is used as it is."""
    if not isinstance(database, Path):
        print(MANUAL_CLOCK_IN_PLACE.format(database=display_location(database)), file=sys.stderr)
        yield database
        return
    with tempfile.TemporaryDirectory(prefix="tabula-manual-clock-") as folder:
        copy = Path(folder) / database.name
        if database.exists():
            with sqlite3.connect(database) as source, sqlite3.connect(copy) as target:
                source.backup(target)
        print(MANUAL_CLOCK_COPY.format(database=database), file=sys.stderr)
        yield copy


MANUAL_CLOCK_COPY = (
    "--manual-clock: playing on a scratch copy of {database}; nothing of this session "
    "is saved in it."
)
MANUAL_CLOCK_IN_PLACE = (
    "--manual-clock: {database} cannot be copied, so this session writes its simulated "
    "dates into it; use a database kept for trying things."
)


def run(args: argparse.Namespace) -> int:
    """Start the console."""
    settings = start(args)
    if settings is None:
        return CONFIG_STATUS
    database = args.database or settings.database
    return start_console(
        database, args.images, settings, manual_clock=args.manual_clock, log=args.log
    )
