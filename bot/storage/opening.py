"""Opening the configured database: a SQLite file path, or a PostgreSQL URL."""

from __future__ import annotations

import re
from pathlib import Path

from bot.storage.postgres import PostgresRepository, is_postgres_url
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository

DatabaseLocation = Path | str
"""Where the data lives: a SQLite file, or a `postgresql://` URL (as text)."""

_PASSWORD = re.compile(r"^(\w+://[^:/@]*:)([^@]*)(@)")


def parse_location(text: str) -> DatabaseLocation:
    """A location as written in the settings or on the command line."""
    text = text.strip()
    return text if is_postgres_url(text) else Path(text).expanduser()


def display_location(location: DatabaseLocation) -> str:
    """The location for messages and logs: a URL's password hidden."""
    return _PASSWORD.sub(r"\1***\3", str(location))


async def open_repository(
    location: DatabaseLocation, *, synchronous: str = "FULL"
) -> SqlRepository:
    """Open (creating and migrating as needed) the database at `location`."""
    if isinstance(location, str) and is_postgres_url(location):
        return await PostgresRepository.open(location)
    return await SqliteRepository.open(Path(location), synchronous=synchronous)


__all__ = [
    "DatabaseLocation",
    "display_location",
    "is_postgres_url",
    "open_repository",
    "parse_location",
]
