"""What commands that use the settings do first: read them, or explain in one line each."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

from bot.config import ConfigReport, Settings, read_config
from bot.doctor import database_file_problem, database_location_problem, low_disk_note
from bot.logs import configure_logging
from bot.storage.sqlite import SchemaTooNewError, SqliteRepository

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
    """`--database`, else the configured database; None (problems printed) if the
    settings are bad."""
    if args.database is not None:
        return Path(args.database)
    settings = settings_or_report(args)
    return None if settings is None else settings.database


def start(args: argparse.Namespace) -> Settings | None:
    """Read the settings and configure logging; None (problems printed) if they are bad."""
    settings = settings_or_report(args)
    if settings is not None:
        configure_logging(settings)
    return settings


def database_problem(path: Path) -> str | None:
    """Why the database at `path` cannot be used, in one line; None if it can.

    Checks the file (`PRAGMA quick_check`; an empty file is refused unless this start
    creates it), then opens it once (creating it and applying pending migrations), so
    that a damaged file, a schema newer than this code or an unwritable folder is
    reported before the bot connects to Discord. A nearly full disk is named too.
    """
    problem = database_location_problem(path) or database_file_problem(path)
    if problem is None:
        try:
            asyncio.run(_open_and_close(path))
        except (sqlite3.Error, SchemaTooNewError) as error:
            problem = f"cannot use the database {path}: {error}"
    return None if problem is None else problem + low_disk_note(path)


async def _open_and_close(path: Path) -> None:
    repository = await SqliteRepository.open(path)
    await repository.close()
