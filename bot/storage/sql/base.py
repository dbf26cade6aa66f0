"""What every part of the SQL repository shares: its database and dialect."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from bot.storage.changes import GameChanges
from bot.storage.database import Connection, Database, Dialect
from bot.storage.repository import LockKind


class SqlBase:
    """Holds the database the queries run on."""

    def __init__(self, database: Database) -> None:
        self._db = database

    @property
    def database(self) -> Database:
        """The database the repository runs on."""
        return self._db

    @property
    def dialect(self) -> Dialect:
        """The SQL dialect of the database."""
        return self._db.dialect

    @property
    def changes(self) -> GameChanges:
        """Told of changed games once `watch_games` was called."""
        return self._db.changes

    async def watch_games(self) -> None:
        """Start publishing changed games in `changes` (see `bot.storage.changes`)."""
        await self._db.watch_games()

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self._db.transaction()

    async def lock(self, kind: LockKind, key: int) -> None:
        """Hold the lock on one game or tournament until the task's transaction ends."""
        await self._db.lock((int(kind) << 48) | key)

    def atomic(self) -> AbstractAsyncContextManager[Connection]:
        """A transaction spanning several repository calls of this task (see
        `bot.storage.database`): all of them are stored, or none."""
        return self._db.transaction()
