"""Both storage backends for tests: SQLite in a temporary folder, PostgreSQL in a schema.

The `backend` fixture runs a test once per backend. PostgreSQL runs when
`TABULA_TEST_POSTGRES` names a server (CI sets it to the machine's local server); each
test gets its own schema, emptied afterwards. Without it the PostgreSQL half is skipped,
and the session ends with one line saying how to run it.

Making and migrating a schema costs about a second of PostgreSQL's time, so a schema a
test leaves with exactly the migrated tables is emptied (rows deleted, sequences restarted)
and given to the next test of the same worker; any other is dropped. The spares are
dropped when the worker ends. The test connections commit without waiting for the disk
(`synchronous_commit=off`): the tests kill bots, never the database server.
"""

from __future__ import annotations

import asyncio
import os
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from bot.storage.postgres import PostgresRepository
from bot.storage.postgres import migrations as postgres_migrations
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository

POSTGRES_VARIABLE = "TABULA_TEST_POSTGRES"
POSTGRES_SERVER = os.environ.get(POSTGRES_VARIABLE) or None


def _without_waiting_for_the_disk(url: str | None) -> str | None:
    """`url` asking the server not to wait for the disk at each commit."""
    if url is None or "synchronous_commit" in url:
        return url
    return url + ("&" if "?" in url else "?") + "synchronous_commit=off"


POSTGRES_URL = _without_waiting_for_the_disk(POSTGRES_SERVER)
HOW_TO_RUN = (
    f"PostgreSQL tests skipped: set {POSTGRES_VARIABLE} to a server to run them, e.g. "
    f"{POSTGRES_VARIABLE}=postgresql://postgres@127.0.0.1:5432/test"
)

needs_postgres = pytest.mark.skipif(POSTGRES_URL is None, reason=HOW_TO_RUN)
"""For tests of several processes on one database, which only PostgreSQL allows."""

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgres",
        id="postgres",
        marks=pytest.mark.skipif(POSTGRES_URL is None, reason=HOW_TO_RUN),
    ),
]


@dataclass
class Backend:
    """One database for one test; `open()` connects to it again (a restart)."""

    name: str
    path: Path
    schema: str
    opened: list[SqlRepository] = field(default_factory=list)

    @property
    def is_postgres(self) -> bool:
        """True for the PostgreSQL backend."""
        return self.name == "postgres"

    @property
    def location(self) -> str:
        """Where another process finds the database: the SQLite file, or the server's URL
        with the test's schema as its search path."""
        if not self.is_postgres:
            return str(self.path)
        assert POSTGRES_URL is not None
        separator = "&" if "?" in POSTGRES_URL else "?"
        return f"{POSTGRES_URL}{separator}{urllib.parse.urlencode({'search_path': self.schema})}"

    async def open(self) -> SqlRepository:
        """A new repository (new connections) over the test's database."""
        repository: SqlRepository
        if self.is_postgres:
            assert POSTGRES_URL is not None
            repository = await PostgresRepository.open(POSTGRES_URL, schema=self.schema)
        else:
            repository = await SqliteRepository.open(self.path)
        self.opened.append(repository)
        return repository

    async def cleanup(self) -> None:
        """Close every repository opened; empty the PostgreSQL schema for the next test,
        or drop it."""
        for repository in self.opened:
            await repository.close()
        if self.is_postgres:
            assert POSTGRES_URL is not None
            connection = await asyncpg.connect(POSTGRES_URL)
            try:
                if await _emptied(connection, self.schema):
                    _SPARE_SCHEMAS.append(self.schema)
                else:
                    await connection.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
            finally:
                await connection.close()


_SPARE_SCHEMAS: list[str] = []
"""Schemas of this worker holding the migrated tables and no rows, for the next tests."""

_MIGRATED: list[frozenset[tuple[str, str]]] = []
"""The objects (kind, name) of the first schema this worker migrated: what a schema must
hold, and nothing more, to be emptied and used again."""

_OBJECTS = """
    SELECT 'table', tablename FROM pg_tables WHERE schemaname = $1
    UNION ALL SELECT 'sequence', sequencename FROM pg_sequences WHERE schemaname = $1
    UNION ALL SELECT 'index', indexname FROM pg_indexes WHERE schemaname = $1
    UNION ALL SELECT 'trigger', t.tgname FROM pg_trigger t
        JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND NOT t.tgisinternal
    UNION ALL SELECT 'function', p.proname FROM pg_proc p
        JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1
"""


async def _emptied(connection: asyncpg.Connection, schema: str) -> bool:
    """Delete every row of `schema` but its migration list and restart its sequences, if
    it holds exactly the migrated objects and every migration; False if not."""
    objects = frozenset((kind, name) for kind, name in await connection.fetch(_OBJECTS, schema))
    if ("table", "tabula_schema") not in objects:
        return False
    if not _MIGRATED:
        _MIGRATED.append(objects)
    if objects != _MIGRATED[0]:
        return False
    versions = [v for (v,) in await connection.fetch(f"SELECT version FROM {schema}.tabula_schema")]
    if sorted(versions) != [number for number, _, _ in postgres_migrations()]:
        return False
    statements = [
        f"DELETE FROM {schema}.{name}"
        for kind, name in sorted(objects)
        if kind == "table" and name != "tabula_schema"
    ]
    statements += [
        f"ALTER SEQUENCE {schema}.{name} RESTART" for kind, name in objects if kind == "sequence"
    ]
    # Without foreign keys' and triggers' checks, the tables empty in any order, and no
    # change notifications reach other tests' listeners.
    script = "; ".join(["SET LOCAL session_replication_role = replica", *statements])
    try:
        async with connection.transaction():
            await connection.execute(script)
    except asyncpg.PostgresError:
        return False
    return True


@pytest.fixture(scope="session", autouse=True)
def _drop_spare_schemas() -> Iterator[None]:
    """At the end of the worker's session, drop the schemas kept for reuse."""
    yield
    if POSTGRES_URL is None or not _SPARE_SCHEMAS:
        return

    async def drop() -> None:
        connection = await asyncpg.connect(POSTGRES_URL)
        try:
            for schema in _SPARE_SCHEMAS:
                await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            await connection.close()

    asyncio.run(drop())
    _SPARE_SCHEMAS.clear()


def _schema() -> str:
    """An emptied schema of an earlier test, or a new name."""
    return _SPARE_SCHEMAS.pop() if _SPARE_SCHEMAS else f"test_{uuid.uuid4().hex[:16]}"


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """Each backend in turn, with an empty database."""
    schema = _schema() if request.param == "postgres" else f"test_{uuid.uuid4().hex[:16]}"
    found = Backend(request.param, tmp_path / "tabula.sqlite3", schema)
    try:
        yield found
    finally:
        await found.cleanup()


@pytest.fixture
async def postgres_backend(tmp_path: Path) -> AsyncIterator[Backend]:
    """A PostgreSQL database of its own (a schema, created and migrated), for tests that
    need several processes on one database; skipped without `TABULA_TEST_POSTGRES`."""
    if POSTGRES_URL is None:
        pytest.skip(HOW_TO_RUN)
    found = Backend("postgres", tmp_path / "unused.sqlite3", _schema())
    try:
        await found.open()
        yield found
    finally:
        await found.cleanup()


@pytest.fixture
async def repo(backend: Backend) -> SqlRepository:
    """An empty, migrated repository on each backend."""
    return await backend.open()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say once how to run the PostgreSQL half when it was skipped."""
    if POSTGRES_URL is None and terminalreporter.stats.get("skipped"):
        terminalreporter.write_line(HOW_TO_RUN)
