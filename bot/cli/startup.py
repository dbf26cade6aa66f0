"""What commands that use the settings do first: read them, or explain in one line each."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

import asyncpg

from bot.config import ConfigReport, Settings, read_config
from bot.doctor import database_file_problem, database_location_problem, low_disk_note
from bot.logs import configure_logging
from bot.storage.opening import (
    DatabaseLocation,
    display_location,
    open_repository,
    parse_location,
)
from bot.storage.sqlite import SchemaTooNewError

CONFIG_STATUS = 2
"""Exit status for a bad configuration (like a usage error)."""


DEFAULT_ENV_FILE = Path(".env")


def read(args: argparse.Namespace) -> ConfigReport:
    """Every setting with its origin, problems collected (`--env-file` honoured)."""
    return read_config(
        env_file=args.env_file or DEFAULT_ENV_FILE, require_env_file=bool(args.env_file)
    )


def settings_or_report(args: argparse.Namespace) -> Settings | None:
    """The settings, or None after printing one line per configuration problem."""
    report = read(args)
    for problem in report.problems:
        print(f"tabula: {problem}", file=sys.stderr)
    return None if report.problems else report.settings


def database_argument(args: argparse.Namespace) -> Path | None:
    """`--database`, else the configured SQLite database; None (problems printed) if the
    settings are bad or name a PostgreSQL database (these commands copy SQLite files)."""
    if args.database is not None:
        location = parse_location(str(args.database))
    else:
        settings = settings_or_report(args)
        if settings is None:
            return None
        location = settings.database
    if isinstance(location, Path):
        return location
    print(
        f"tabula: {display_location(location)} is a PostgreSQL database: back it up and "
        "restore it with PostgreSQL's own pg_dump and pg_restore",
        file=sys.stderr,
    )
    return None


def start(args: argparse.Namespace) -> Settings | None:
    """Read the settings and configure logging; None (problems printed) if they are bad."""
    settings = settings_or_report(args)
    if settings is not None:
        configure_logging(settings)
    return settings


def database_problem(location: DatabaseLocation) -> str | None:
    """Why the database at `location` cannot be used, in one line; None if it can.

    A file is checked first without reading all of it (`maintenance.startup_check`: its
    header and schema, and `PRAGMA quick_check` only while the file is small; an empty
    file is refused unless this start creates it; the full check is `tabula doctor`'s);
    then the database is opened once (creating it and applying pending migrations), so
    that a damaged file, an unreachable server, a schema newer than this code or an
    unwritable folder is reported before the bot connects to Discord. A nearly full disk
    is named too.
    """
    if not isinstance(location, Path):
        try:
            asyncio.run(_open_and_close(location))
        except (SchemaTooNewError, OSError, asyncpg.PostgresError) as error:
            return f"cannot use the database {display_location(location)}: {error}"
        return None
    problem = database_location_problem(location) or database_file_problem(location)
    if problem is None:
        try:
            asyncio.run(_open_and_close(location))
        except (sqlite3.Error, SchemaTooNewError) as error:
            problem = f"cannot use the database {location}: {error}"
    return None if problem is None else problem + low_disk_note(location)


async def _open_and_close(location: DatabaseLocation) -> None:
    repository = await open_repository(location)
    await repository.close()
