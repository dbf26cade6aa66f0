"""Database errors sorted into what an operator must deal with: real SQLite errors
(with their codes) and errors made by hand (only the text)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.storage.failures import Failure, classify


def test_a_full_database_from_sqlite_itself(tmp_path: Path) -> None:
    """A page limit reached is SQLite's SQLITE_FULL, the same error as a full disk."""
    connection = sqlite3.connect(tmp_path / "t.sqlite3")
    connection.execute("CREATE TABLE t (x)")
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(sqlite3.OperationalError) as raised:
        connection.execute("INSERT INTO t VALUES (?)", ("x" * 100_000,))
    connection.close()
    assert raised.value.sqlite_errorcode == sqlite3.SQLITE_FULL
    assert classify(raised.value) is Failure.FULL


def test_a_lock_held_by_another_connection(tmp_path: Path) -> None:
    """Another writer past the wait: SQLITE_BUSY, "database is locked"."""
    path = tmp_path / "t.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(path, timeout=0)
    with pytest.raises(sqlite3.OperationalError, match="database is locked") as raised:
        waiter.execute("INSERT INTO t VALUES (1)")
    holder.close()
    waiter.close()
    assert classify(raised.value) is Failure.BUSY


def test_a_read_only_database(tmp_path: Path) -> None:
    """Opened read-only, a write is SQLITE_READONLY."""
    path = tmp_path / "t.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as raised:
        reader.execute("INSERT INTO t VALUES (1)")
    reader.close()
    assert classify(raised.value) is Failure.READ_ONLY


@pytest.mark.parametrize(
    ("text", "failure"),
    [
        ("database or disk is full", Failure.FULL),
        ("database is locked", Failure.BUSY),
        ("attempt to write a readonly database", Failure.READ_ONLY),
        ("database disk image is malformed", Failure.DAMAGED),
        ("file is not a database", Failure.DAMAGED),
        ("disk I/O error", Failure.DISK),
    ],
)
def test_errors_without_a_code_are_known_by_their_text(text: str, failure: Failure) -> None:
    """An error raised by hand (as tests inject them) carries SQLite's words only."""
    assert classify(sqlite3.OperationalError(text)) is failure


def test_other_errors_are_not_storage_failures() -> None:
    """Bugs and broken constraints are the code's business, not the operator's."""
    assert classify(sqlite3.IntegrityError("UNIQUE constraint failed: moves.game_id")) is None
    assert classify(sqlite3.OperationalError("no such table: movez")) is None
    assert classify(RuntimeError("database or disk is full")) is None


@pytest.mark.parametrize(
    ("error", "failure"),
    [
        (asyncpg.exceptions.DiskFullError("could not extend file"), Failure.FULL),
        (asyncpg.exceptions.LockNotAvailableError("could not obtain lock"), Failure.BUSY),
        (asyncpg.exceptions.ReadOnlySQLTransactionError("read-only"), Failure.READ_ONLY),
        (asyncpg.exceptions.DataCorruptedError("corrupt"), Failure.DAMAGED),
        (asyncpg.exceptions.ConnectionFailureError("gone"), Failure.UNREACHABLE),
        (ConnectionResetError("reset by peer"), Failure.UNREACHABLE),
        (asyncpg.exceptions.AdminShutdownError("terminating connection"), Failure.UNREACHABLE),
        (asyncpg.exceptions.CrashShutdownError("crash of another process"), Failure.UNREACHABLE),
        (asyncpg.exceptions.CannotConnectNowError("starting up"), Failure.UNREACHABLE),
        (asyncpg.exceptions.UniqueViolationError("duplicate key"), None),
    ],
)
def test_postgresql_errors_have_the_same_kinds(
    error: BaseException, failure: Failure | None
) -> None:
    """PostgreSQL's errors are told to players in the same words as SQLite's."""
    assert classify(error) is failure
