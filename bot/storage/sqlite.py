"""The repository on SQLite (aiosqlite): the embedded default, one file, nothing to install."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.changes import GameChanges
from bot.storage.database import (
    Connection,
    Dialect,
    OpenTransaction,
    Params,
    Row,
    UniqueViolation,
)
from bot.storage.sql import SqlRepository

log = logging.getLogger(__name__)

MEMORY = ":memory:"
"""Pass as the path for a private in-memory database (tests)."""

BUSY_TIMEOUT_MS = 20_000
"""How long a write waits for another process's write lock before giving up (the
interaction is acknowledged meanwhile, so a slow lock delays the answer, not loses it)."""


ANALYSIS_LIMIT = 1000
"""Rows `ANALYZE` samples per index (SQLite's `analysis_limit`), so that refreshing the
statistics takes milliseconds whatever the size of the file."""


class SchemaTooNewError(Exception):
    """The database was migrated by a newer version of Tabula than this one."""


def migrations() -> list[tuple[int, str, str]]:
    """Every migration as (number, file name, SQL), in order."""
    found = []
    for entry in resources.files("bot.storage.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    found.sort()
    check_numbering([number for number, _, _ in found])
    return found


def check_numbering(numbers: list[int]) -> None:
    """Refuse migrations that are not numbered 1, 2, 3, ... (a gap or a duplicate)."""
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise RuntimeError(
            f"migrations must be numbered 0001, 0002, ... once each, without gaps: {numbers}"
        )


async def _connect(path: Path | str, *pragmas: str) -> aiosqlite.Connection:
    """A connection with `pragmas` set; closed again if any of them fails.

    aiosqlite runs each connection in its own non-daemon thread: a connection left open
    after a failure would keep the process from ever exiting.
    """
    connection = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        connection.row_factory = sqlite3.Row
        for pragma in (f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}", *pragmas):
            await connection.execute(pragma)
    except BaseException:
        await connection.close()
        raise
    return connection


_CHANGE_TRIGGERS = (
    ("tabula_games_inserted", "games", "INSERT", "id"),
    ("tabula_games_updated", "games", "UPDATE", "id"),
    ("tabula_clocks_inserted", "game_clocks", "INSERT", "game_id"),
    ("tabula_clocks_updated", "game_clocks", "UPDATE", "game_id"),
)
"""The temporary triggers noting changed games: (name, table, event, the game's column)."""


def _values(params: Params) -> tuple[Any, ...]:
    """Parameters as SQLite stores them: times as ISO 8601 text (bools are ints already)."""
    return tuple(value.isoformat() if isinstance(value, datetime) else value for value in params)


def _translated(error: sqlite3.Error) -> Exception:
    """SQLite's error as the repository's, where it has one."""
    text = str(error)
    if isinstance(error, sqlite3.IntegrityError) and text.startswith("UNIQUE constraint failed:"):
        table = text.split(":", 1)[1].strip().split(".", 1)[0]
        return UniqueViolation(table, text)
    return error


class _SqliteConnection:
    """A transaction's connection: converts values and errors.

    Each statement is one trip to aiosqlite's thread (`execute_fetchall`,
    `execute_insert`) rather than three (execute, fetch, close): every trip wakes that
    thread and then the event loop, which costs more CPU than most of the statements.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        # The rows changed, from the connection's running count: the statement is the only
        # one on this connection meanwhile (the caller holds its lock) and the schema has no
        # triggers or cascades that would count too.
        before = self._db.total_changes
        try:
            await self._db.execute_fetchall(sql, _values(params))
        except sqlite3.Error as error:
            raise _translated(error) from error
        return self._db.total_changes - before

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        try:
            await self._db.executemany(sql, [_values(row) for row in rows])
        except sqlite3.Error as error:
            raise _translated(error) from error

    async def insert(self, sql: str, params: Params = ()) -> int:
        try:
            row = await self._db.execute_insert(sql, _values(params))
        except sqlite3.Error as error:
            raise _translated(error) from error
        assert row is not None
        rowid: int = row[0]
        return rowid

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return list(await self._db.execute_fetchall(sql, _values(params)))
        except sqlite3.Error as error:
            raise _translated(error) from error


class SqliteDatabase:
    """SQLite in WAL mode, with a writing and a reading connection.

    Writes run under one asyncio lock, those that belong together in one `BEGIN
    IMMEDIATE` transaction, so concurrent coroutines never interleave their statements.
    Reads use their own connection, which sees committed data only and never waits for
    a write (WAL readers do not block on the writer). Reads take turns on it: a statement
    still open there would hold its snapshot for the reads of other coroutines, which
    would then miss writes committed since. An in-memory database has a single
    connection, and reads then take the write lock too. A task inside a transaction
    reads through it (seeing its own writes).
    """

    dialect = Dialect.SQLITE

    def __init__(
        self, connection: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._db = connection
        self._writer = _SqliteConnection(connection)
        self._reader = reader
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._current: ContextVar[OpenTransaction[_SqliteConnection] | None] = ContextVar(
            "sqlite_tx", default=None
        )
        self._closed = False
        self.changes = GameChanges()
        """Told of the games each commit changed, once `watch_games` was called."""
        self._changed: set[int] = set()

    async def watch_games(self) -> None:
        """From now on, publish the games each commit changes (rows and clocks) in
        `changes`: temporary triggers on the writing connection note them."""
        await self._db.create_function("tabula_game_changed", 1, self._note_change)
        for name, table, event, column in _CHANGE_TRIGGERS:
            await self._db.execute(
                f"CREATE TEMP TRIGGER IF NOT EXISTS {name} AFTER {event} ON main.{table} "
                f"BEGIN SELECT tabula_game_changed(NEW.{column}); END"
            )

    def _note_change(self, game_id: int) -> None:
        # Runs in aiosqlite's thread, inside the writing statement.
        self._changed.add(game_id)

    def _publish_changes(self, committed: bool) -> None:
        changed, self._changed = self._changed, set()
        if committed and changed:
            self.changes.publish(changed)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The writing connection (migrations, maintenance)."""
        return self._db

    @property
    def writing(self) -> bool:
        """True while a write transaction holds the connection."""
        return self._lock.locked()

    def attach_reader(self, reader: aiosqlite.Connection) -> None:
        """Use `reader` for reads outside transactions (once the schema is up to date)."""
        self._reader = reader

    async def replace_reader(self, reader: aiosqlite.Connection) -> None:
        """Read through `reader` from now on and close the one it replaces, once the read
        in progress (if any) ends; `reader` is closed instead if the database was."""
        old: aiosqlite.Connection | None = reader
        async with self._read_lock:
            if not self._closed:
                old, self._reader = self._reader, reader
        if old is not None:
            await old.close()

    async def script(self, sql: str) -> None:
        """Run several statements (`;`-separated, without parameters) as one `BEGIN
        IMMEDIATE` transaction, in one trip to the connection's thread. Not inside a
        transaction of this task."""
        async with self._lock:
            try:
                await self._db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nCOMMIT;")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    await self._db.rollback()
                raise _translated(error) from error

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A `BEGIN IMMEDIATE` transaction, or a savepoint inside the task's open one."""
        current = self._current.get()
        if current is not None and current.joinable():
            name = f"tabula_{current.savepoints}"
            current.savepoints += 1
            await self._db.execute(f"SAVEPOINT {name}")
            try:
                yield current.connection
            except BaseException:
                await self._db.execute(f"ROLLBACK TO {name}")
                await self._db.execute(f"RELEASE {name}")
                raise
            else:
                await self._db.execute(f"RELEASE {name}")
            finally:
                current.savepoints -= 1
            return
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise _translated(error) from error
            transaction = OpenTransaction(self._writer, asyncio.current_task())
            token = self._current.set(transaction)
            try:
                yield self._writer
            except BaseException:
                transaction.open = False
                if self._db.in_transaction:
                    await self._db.rollback()
                self._publish_changes(committed=False)
                raise
            finally:
                transaction.open = False
                self._current.reset(token)
            try:
                await self._db.commit()
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    await self._db.rollback()
                self._publish_changes(committed=False)
                raise _translated(error) from error
            self._publish_changes(committed=True)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[_SqliteConnection]:
        current = self._current.get()
        if current is not None and current.joinable():
            yield current.connection
            return
        if self._reader is not None:
            async with self._read_lock:
                yield _SqliteConnection(self._reader)
            return
        # One shared connection: without the lock a read could see the uncommitted
        # writes of a transaction in progress.
        async with self._lock:
            yield self._writer

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Read the first row."""
        async with self._reading() as db:
            return await db.fetch_one(sql, params)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Read every row."""
        async with self._reading() as db:
            return await db.fetch_all(sql, params)

    async def lock(self, key: int) -> None:
        """Nothing to do: a SQLite write transaction locks the whole database file."""

    async def close(self) -> None:
        """Close the connections once the transaction and read in progress (if any) end.

        Closing the last connection checkpoints the write-ahead log into the database
        file and removes the `-wal` and `-shm` files (a clean shutdown).
        """
        async with self._lock, self._read_lock:
            if self._closed:
                return
            self._closed = True
            if self._reader is not None:
                await self._reader.close()
            await self._db.close()


class SqliteRepository(SqlRepository):
    """The repository on a SQLite file (or in memory, for tests)."""

    def __init__(self, database: SqliteDatabase, path: Path | None = None) -> None:
        super().__init__(database)
        self._sqlite = database
        self._path = path
        """The file, for opening reading connections; None in memory."""

    def writing(self) -> bool:
        """True while a write transaction is under way (tests wait for it)."""
        return self._sqlite.writing

    @classmethod
    async def open(cls, path: Path | str, *, synchronous: str = "FULL") -> SqliteRepository:
        """Open (creating if needed) the database at `path` and apply pending migrations.

        `synchronous` is SQLite's durability setting: FULL survives power loss, NORMAL
        only process crashes.
        """
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        in_memory = str(path) == MEMORY
        if not in_memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await _connect(
            path,
            "PRAGMA journal_mode = WAL",
            f"PRAGMA synchronous = {synchronous.upper()}",
            "PRAGMA foreign_keys = ON",
        )
        repository = cls(SqliteDatabase(connection), None if in_memory else Path(path))
        try:
            await repository.migrate()
            await repository._analyze()
            if not in_memory:
                repository._sqlite.attach_reader(await repository._connect_reader())
        except BaseException:
            await repository.close()
            raise
        return repository

    async def optimize(self) -> None:
        """Refresh the query planner's statistics (`sqlite_stat1`) and have the reads use
        them. Without statistics SQLite may pick a worse index.

        `PRAGMA optimize` is not enough before SQLite 3.46 (Debian 12 and the Docker image
        have 3.40): it analyzes only tables its own connection's queries used, and the
        reads go through another connection, so it never analyzed anything. A sampled
        `ANALYZE` of every index (`ANALYSIS_LIMIT` rows each) takes milliseconds whatever
        the size of the file: index by index, because analyzing a whole table whose
        indexes are all partial (the moves, the announcements) counts every row of it
        (0.6 s for the moves of 100,000 games).
        """
        await self._analyze()
        if self._path is not None:
            # A connection loads the statistics with the schema, which a later ANALYZE
            # leaves unchanged: the reading connection would keep the old ones.
            await self._sqlite.replace_reader(await self._connect_reader())

    async def _analyze(self) -> None:
        indexes = await self._sqlite.fetch_all(
            "SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name"
        )
        names = [str(row[0]).replace('"', '""') for row in indexes]
        await self._sqlite.script(
            f"PRAGMA analysis_limit = {ANALYSIS_LIMIT};\n"
            + "".join(f'ANALYZE main."{name}";\n' for name in names)
        )

    async def _connect_reader(self) -> aiosqlite.Connection:
        assert self._path is not None
        return await _connect(self._path, "PRAGMA query_only = ON")

    async def schema_version(self) -> int:
        """The number of the last migration applied (`PRAGMA user_version`)."""
        async with self._sqlite.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def migrate(self) -> list[int]:
        """Apply the migrations not applied yet, each in its own transaction; return them."""
        applied = []
        connection = self._sqlite.connection
        current = await self.schema_version()
        known = migrations()
        latest = len(known)
        if current > latest:
            raise SchemaTooNewError(
                f"the database is at schema version {current}, newer than this version "
                f"of Tabula knows ({latest}): upgrade Tabula, or restore a backup"
            )
        for number, name, sql in known:
            if number <= current:
                continue
            log.info("applying database migration %s", name)
            try:
                await connection.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
                )
            except sqlite3.Error:
                if connection.in_transaction:
                    await connection.rollback()
                raise
            applied.append(number)
        return applied


__all__ = ["MEMORY", "SchemaTooNewError", "SqliteDatabase", "SqliteRepository", "migrations"]
