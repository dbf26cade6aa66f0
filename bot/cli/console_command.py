"""`tabula console`: play through the bot's services in a terminal, without Discord."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import timedelta
from pathlib import Path

from bot.cli.startup import CONFIG_STATUS, database_problem, start
from bot.config import Settings
from bot.console.app import ConsoleApp
from bot.services.clock import Clock, ManualClock, SystemClock
from bot.services.computer.runner import TurnRunner
from bot.storage.opening import DatabaseLocation, open_repository, parse_location
from bot.web.server import WebServer

DEFAULT_IMAGE_DIR = Path("console-boards")


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
    print(f"web: {address}", flush=True)


def start_console(
    database: DatabaseLocation,
    images: Path | None,
    settings: Settings,
    *,
    manual_clock: bool = False,
) -> int:
    """Run the console; a database it cannot use is one line and status 1."""
    problem = database_problem(database)
    if problem is not None:
        print(f"tabula: {problem}", file=sys.stderr)
        return 1
    try:
        asyncio.run(run_console(database, images, settings, manual_clock=manual_clock))
    except KeyboardInterrupt:
        print(file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    """Start the console."""
    settings = start(args)
    if settings is None:
        return CONFIG_STATUS
    database = args.database or settings.database
    return start_console(database, args.images, settings, manual_clock=args.manual_clock)
