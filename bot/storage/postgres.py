"""The repository on PostgreSQL (asyncpg): for several bot processes and more than one machine.

`TABULA_DATABASE=postgresql://user@host/db` selects it. The schema has its own numbered
migrations (`bot/storage/migrations_postgres/`) with the same meaning as SQLite's, in
PostgreSQL's types (BIGINT ids, TIMESTAMPTZ times, BOOLEAN flags). Every process keeps
a pool of connections; a transaction holds one of them until it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import urllib.parse
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from typing import Any, TypeAlias

import asyncpg

from bot.storage.changes import GameChanges
from bot.storage.database import Connection, Dialect, OpenTransaction, Params, Row, UniqueViolation
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SchemaTooNewError, check_numbering

log = logging.getLogger(__name__)

MIGRATION_LOCK = "SELECT pg_advisory_{}(hashtextextended(current_schema() || '/migrations', 0))"
"""Takes (`lock`) or releases (`unlock`) the advisory lock that keeps two processes from
migrating the same schema at once; bots in other schemas of the server migrate freely."""

_COUNT = re.compile(r"(\d+)$")

_AnyConnection: TypeAlias = "asyncpg.Connection[Any] | asyncpg.pool.PoolConnectionProxy[Any]"


CHANGES_CHANNEL = "tabula_games"
"""Where the triggers of PostgreSQL migration 0007 announce changed games."""


def is_postgres_url(location: object) -> bool:
    """True for a `postgresql://` (or `postgres://`) connection URL."""
    text = str(location)
    return text.startswith(("postgresql://", "postgres://"))


def migrations() -> list[tuple[int, str, str]]:
    """Every PostgreSQL migration as (number, file name, SQL), in order."""
    found = []
    for entry in resources.files("bot.storage.migrations_postgres").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    found.sort()
    check_numbering([number for number, _, _ in found])
    return found


@lru_cache(maxsize=1)
def created_tables() -> list[str]:
    """The names of the tables the migrations create."""
    names = []
    for _, _, sql in migrations():
        names += re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", sql, re.IGNORECASE)
    return sorted(set(names))


@lru_cache(maxsize=1024)
def _numbered(sql: str) -> str:
    """The repository's `?` placeholders as PostgreSQL's `$1, $2, ...`."""
    parts = sql.split("?")
    out = [parts[0]]
    for index, part in enumerate(parts[1:], start=1):
        out.append(f"${index}{part}")
    return "".join(out)


def _translated(error: asyncpg.PostgresError) -> Exception:
    if isinstance(error, asyncpg.UniqueViolationError):
        return UniqueViolation(error.table_name or "", str(error))
    return error


def _count(status: str) -> int:
    """The rows a command changed, from its status ("UPDATE 3", "INSERT 0 1")."""
    found = _COUNT.search(status)
    return int(found.group(1)) if found else 0


class _PostgresConnection:
    """A transaction's connection: `?` placeholders and errors translated."""

    def __init__(self, connection: _AnyConnection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            return _count(await self._db.execute(_numbered(sql), *params))
        except asyncpg.PostgresError as error:
            raise _translated(error) from error

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        try:
            await self._db.executemany(_numbered(sql), batch)
        except asyncpg.PostgresError as error:
            raise _translated(error) from error

    async def insert(self, sql: str, params: Params = ()) -> int:
        try:
            value = await self._db.fetchval(_numbered(f"{sql} RETURNING id"), *params)
        except asyncpg.PostgresError as error:
            raise _translated(error) from error
        return int(value)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        try:
            row: Row | None = await self._db.fetchrow(_numbered(sql), *params)
        except asyncpg.PostgresError as error:
            raise _translated(error) from error
        return row

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return list(await self._db.fetch(_numbered(sql), *params))
        except asyncpg.PostgresError as error:
            raise _translated(error) from error


class PostgresDatabase:
    """A pool of asyncpg connections to one database (and one schema)."""

    dialect = Dialect.POSTGRESQL

    def __init__(self, pool: asyncpg.Pool[Any]) -> None:
        self._pool = pool
        self._current: ContextVar[OpenTransaction[_AnyConnection] | None] = ContextVar(
            "postgres_tx", default=None
        )
        self.changes = GameChanges()
        """Told of the games every commit changed, in any process, once `watch_games`
        was called."""
        self._listening: asyncio.Task[None] | None = None

    async def watch_games(self) -> None:
        """From now on, publish in `changes` what the `tabula_games` notifications name
        (the database's triggers send one per changed game row or clock, at commit)."""
        if self._listening is not None:
            return
        ready = asyncio.get_running_loop().create_future()
        self._listening = asyncio.create_task(self._listen(ready), name="tabula-listen")
        await ready

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        """Hold a connection listening on `tabula_games`; after losing it, connect again
        and tell the listeners that anything may have changed meanwhile."""
        delay = 0.5
        while True:
            lost = asyncio.get_running_loop().create_future()

            def notified(_connection: object, _pid: int, _channel: str, payload: object) -> None:
                if isinstance(payload, str) and payload.isdigit():
                    self.changes.publish([int(payload)])

            def terminated(_connection: object, lost: asyncio.Future[None] = lost) -> None:
                if not lost.done():
                    lost.set_result(None)

            try:
                async with self._pool.acquire() as connection:
                    connection.add_termination_listener(terminated)
                    await connection.add_listener(CHANGES_CHANNEL, notified)
                    if ready.done():
                        self.changes.publish([None])  # what was missed while away
                    else:
                        ready.set_result(None)
                    delay = 0.5
                    try:
                        await lost
                    finally:
                        if not connection.is_closed():
                            await connection.remove_listener(CHANGES_CHANNEL, notified)
                        connection.remove_termination_listener(terminated)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not ready.done():
                    ready.set_exception(error)
                    return
                log.warning("listening for game changes failed (%s); trying again", error)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    @property
    def pool(self) -> asyncpg.Pool[Any]:
        """The connection pool."""
        return self._pool

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A transaction on a pooled connection, or a savepoint inside the task's open one."""
        current = self._current.get()
        if current is not None and current.joinable():
            async with current.connection.transaction():
                yield _PostgresConnection(current.connection)
            return
        async with self._pool.acquire() as connection, connection.transaction():
            transaction = OpenTransaction[_AnyConnection](connection, asyncio.current_task())
            token = self._current.set(transaction)
            try:
                yield _PostgresConnection(connection)
            finally:
                transaction.open = False
                self._current.reset(token)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[_PostgresConnection]:
        current = self._current.get()
        if current is not None and current.joinable():
            yield _PostgresConnection(current.connection)
            return
        async with self._pool.acquire() as connection:
            yield _PostgresConnection(connection)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Read the first row."""
        async with self._reading() as db:
            return await db.fetch_one(sql, params)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Read every row."""
        async with self._reading() as db:
            return await db.fetch_all(sql, params)

    async def lock(self, key: int) -> None:
        """Hold the advisory lock `key` until the task's transaction ends.

        Advisory locks belong to the whole database; the key is hashed together with the
        schema's name, so that bots (or tests, or a benchmark) in other schemas of the same
        database never wait for each other's games."""
        current = self._current.get()
        if current is None or not current.joinable():
            raise RuntimeError("Database.lock() needs an open transaction")
        await current.connection.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/' || $1, 0))",
            str(key),
        )

    async def close(self) -> None:
        """Close the pool (waiting for connections in use to come back)."""
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
            self._listening = None
        await self._pool.close()


class PostgresRepository(SqlRepository):
    """The repository on a PostgreSQL database."""

    def __init__(self, database: PostgresDatabase, schema: str | None = None) -> None:
        super().__init__(database)
        self._postgres = database
        self.schema = schema
        """The schema the tables live in (None: the server's default search path)."""

    @classmethod
    async def open(
        cls, url: str, *, schema: str | None = None, max_connections: int = 10
    ) -> PostgresRepository:
        """Connect to the database at `url` and apply pending migrations.

        With `schema`, the tables live in that schema (created if needed): tests give
        each test its own.
        """
        settings = {"application_name": "tabula"}
        if schema is not None:
            if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
                raise ValueError(f"not a plain schema name: {schema!r}")
            connection = await asyncpg.connect(url)
            try:
                await connection.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
            except asyncpg.UniqueViolationError:
                pass  # another process created it at the same moment: IF NOT EXISTS can race
            finally:
                await connection.close()
            settings["search_path"] = schema
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=max_connections, server_settings=settings
        )
        assert pool is not None
        repository = cls(PostgresDatabase(pool), schema)
        try:
            await repository.migrate()
            await repository.optimize()
        except BaseException:
            await repository.close()
            raise
        return repository

    async def optimize(self) -> None:
        """ANALYZE the tables of this schema that hold rows but were never analyzed (filled
        in bulk, or restored, before autovacuum came by); autovacuum keeps the others
        current. Empty tables are left alone (their file size says so at once, where the
        row counts of the statistics views lag by seconds), so a new schema opens fast.

        The tables are looked up by name: the catalogue has no index by schema, and
        scanning it (as `pg_stat_user_tables` does) took a tenth of a second and more on
        a server holding many schemas."""
        async with self._postgres.pool.acquire() as connection:
            tables = await connection.fetch(
                "SELECT c.relname FROM pg_class c WHERE c.relname = ANY($1::name[]) "
                "AND c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' "
                "AND pg_stat_get_last_analyze_time(c.oid) IS NULL "
                "AND pg_stat_get_last_autoanalyze_time(c.oid) IS NULL "
                "AND pg_relation_size(c.oid) > 0",
                created_tables(),
            )
            for table in tables:
                await connection.execute(f'ANALYZE "{table["relname"]}"')

    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for an empty database)."""
        async with self._postgres.pool.acquire() as connection:
            exists = await connection.fetchval("SELECT to_regclass('tabula_schema') IS NOT NULL")
            if not exists:
                return 0
            value = await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM tabula_schema")
        return int(value)

    async def migrate(self) -> list[int]:
        """Apply the migrations not applied yet, each in its own transaction; return them.

        An advisory lock keeps several processes starting at once from racing."""
        applied = []
        known = migrations()
        async with self._postgres.pool.acquire() as connection:
            await connection.execute(MIGRATION_LOCK.format("lock"))
            try:
                await connection.execute(
                    "CREATE TABLE IF NOT EXISTS tabula_schema (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                current = int(
                    await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM tabula_schema")
                )
                if current > len(known):
                    raise SchemaTooNewError(
                        f"the database is at schema version {current}, newer than this version "
                        f"of Tabula knows ({len(known)}): upgrade Tabula, or restore a backup"
                    )
                for number, name, sql in known:
                    if number <= current:
                        continue
                    log.info("applying database migration %s", name)
                    async with connection.transaction():
                        await connection.execute(sql)
                        await connection.execute(
                            "INSERT INTO tabula_schema (version, name) VALUES ($1, $2)",
                            number,
                            name,
                        )
                    applied.append(number)
            finally:
                await connection.execute(MIGRATION_LOCK.format("unlock"))
        return applied


def in_schema(url: str, schema: str) -> str:
    """The URL with `schema` as its search path: the tables are found (and made) there."""
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}{urllib.parse.urlencode({'search_path': schema})}"


@asynccontextmanager
async def scratch_schema(url: str, prefix: str) -> AsyncIterator[str]:
    """A new, empty schema in the database at `url` (named `prefix` and a random part),
    dropped afterwards with everything in it: benchmarks work there without touching a
    community's tables. Yields the URL that uses it."""
    schema = f"{prefix}_{secrets.token_hex(4)}"
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"CREATE SCHEMA {schema}")
    finally:
        await connection.close()
    try:
        yield in_schema(url, schema)
    finally:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            await connection.close()


__all__ = [
    "PostgresDatabase",
    "PostgresRepository",
    "in_schema",
    "is_postgres_url",
    "migrations",
    "scratch_schema",
]
