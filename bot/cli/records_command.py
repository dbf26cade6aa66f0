"""`tabula export GAME_ID` and `tabula import FILE`: game records from and into the database."""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import asyncpg

from bot.cli.startup import CONFIG_STATUS, settings_or_report
from bot.records.limits import MAX_RECORD_BYTES, too_big
from bot.services.clock import SystemClock
from bot.services.errors import ServiceError
from bot.services.records.records import (
    FORMATS,
    Imported,
    ImportRefusedError,
    RecordService,
    read_import,
    write,
)
from bot.storage.opening import (
    DatabaseLocation,
    display_location,
    open_repository,
    parse_location,
)
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SchemaTooNewError

T = TypeVar("T")
DATABASE_ERRORS = (sqlite3.Error, SchemaTooNewError, OSError, asyncpg.PostgresError)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `export` and `import` subcommands."""
    export = subparsers.add_parser(
        "export", help="print a game's record (AbstractPlay JSON, SGF or text)"
    )
    export.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number")
    export.add_argument(
        "--format",
        choices=FORMATS,
        help="json (finished games), sgf (Stones) or text; default: json for a finished "
        "game, text otherwise",
    )
    export.add_argument("--output", "-o", type=Path, help="write to this file, not the screen")
    _database(export)
    export.set_defaults(func=run_export)
    imported = subparsers.add_parser(
        "import", help="replay a record file and store it as a finished, unrated game"
    )
    imported.add_argument("file", type=Path, metavar="FILE", help="JSON, SGF or text record")
    imported.add_argument(
        "--guild",
        type=int,
        metavar="ID",
        help="list the game in this server's histories (default: only in its players' DMs)",
    )
    _database(imported)
    imported.set_defaults(func=run_import)


def _database(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        type=parse_location,
        help="a SQLite file or a postgresql:// URL (default: TABULA_DATABASE)",
    )


def _location(args: argparse.Namespace) -> DatabaseLocation | None:
    """`--database`, else the configured database; None (problems printed) if the
    settings are bad."""
    if args.database is not None:
        location: DatabaseLocation = args.database
        return location
    settings = settings_or_report(args)
    return None if settings is None else settings.database


class _Failed(Exception):
    """A command that cannot be done, with the one line that says why."""


async def _with_records(
    database: DatabaseLocation,
    work: Callable[[RecordService, SqlRepository], Awaitable[T]],
) -> T:
    repository = await open_repository(database)
    try:
        return await work(RecordService(repository, SystemClock()), repository)
    finally:
        await repository.close()


def _run(
    database: DatabaseLocation, work: Callable[[RecordService, SqlRepository], Awaitable[T]]
) -> T:
    """Run `work` on the database; `_Failed` for a refusal or a database failure."""
    try:
        return asyncio.run(_with_records(database, work))
    except ServiceError as error:
        raise _Failed(str(error)) from None
    except DATABASE_ERRORS as error:
        where = display_location(database)
        raise _Failed(f"cannot use the database {where}: {error}") from None


def run_export(args: argparse.Namespace) -> int:
    """Print (or write) the record; one line and exit 1 when there is none."""
    database = _location(args)
    if database is None:
        return CONFIG_STATUS

    async def export(records: RecordService, repository: SqlRepository) -> str:
        record = await repository.get_game(args.game_id)
        if record is None:
            raise ServiceError(f"there is no game #{args.game_id}")
        transcript = await records.transcript(record)
        chosen = args.format or ("json" if transcript.finished else "text")
        try:
            return write(transcript, chosen, SystemClock().now())
        except ValueError as exc:
            raise ServiceError(f"game #{args.game_id} has no {chosen} record: {exc}") from None

    try:
        if isinstance(database, Path) and not database.is_file():
            raise _Failed(f"there is no database at {database}")
        text = _run(database, export)
    except _Failed as error:
        print(f"tabula: {error}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


def _read_file(path: Path) -> bytes:
    """The file's bytes, refused unread when it is over the size limit."""
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_RECORD_BYTES:
                raise _Failed(f"{path}: {too_big(size)}; nothing was stored")
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise _Failed(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_RECORD_BYTES:  # a device or a file growing: more, of unknown size
        raise _Failed(f"{path}: {too_big(len(data), more=True)}; nothing was stored")
    return data


def run_import(args: argparse.Namespace) -> int:
    """Store the record's game and print its number; exit 1 (nothing stored) if refused.
    The file is read and checked before the database is opened: a refused file leaves
    no trace, not even a new database file."""
    database = _location(args)
    if database is None:
        return CONFIG_STATUS

    async def store(records: RecordService, repository: SqlRepository) -> Imported:
        return await records.store_import(plan, guild_id=args.guild)

    try:
        data = _read_file(args.file)
        try:
            plan = read_import(data)
        except ImportRefusedError as error:
            raise _Failed(f"{args.file}: {error}; nothing was stored") from None
        imported = _run(database, store)
    except _Failed as error:
        print(f"tabula: {error}", file=sys.stderr)
        return 1
    game_id = imported.record.id
    print(f"imported {args.file} as game #{game_id} (finished, unrated, marked imported)")
    for note in imported.notes:
        print(f"note: {note}")
    return 0
