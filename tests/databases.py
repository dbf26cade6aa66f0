"""Both storage backends for tests: SQLite in a temporary folder, PostgreSQL in a schema.

The `backend` fixture runs a test once per backend. PostgreSQL runs when
`TABULA_TEST_POSTGRES` names a server (CI sets it to the machine's local server); each
test gets its own schema, dropped afterwards. Without it the PostgreSQL half is skipped,
and the session ends with one line saying how to run it.
"""

from __future__ import annotations

import os
import urllib.parse
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from bot.storage.postgres import PostgresRepository
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository

POSTGRES_VARIABLE = "TABULA_TEST_POSTGRES"
POSTGRES_URL = os.environ.get(POSTGRES_VARIABLE) or None
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
        return f"{POSTGRES_URL}?{urllib.parse.urlencode({'search_path': self.schema})}"

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
        """Close every repository opened; drop the PostgreSQL schema."""
        for repository in self.opened:
            await repository.close()
        if self.is_postgres:
            assert POSTGRES_URL is not None
            connection = await asyncpg.connect(POSTGRES_URL)
            try:
                await connection.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
            finally:
                await connection.close()


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """Each backend in turn, with an empty database."""
    found = Backend(request.param, tmp_path / "tabula.sqlite3", f"test_{uuid.uuid4().hex[:16]}")
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
    found = Backend("postgres", tmp_path / "unused.sqlite3", f"test_{uuid.uuid4().hex[:16]}")
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
