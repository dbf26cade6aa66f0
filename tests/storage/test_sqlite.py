"""The SQLite repository: its migrations, WAL mode and the in-memory database."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage.repository import NewGame
from bot.storage.sqlite import MEMORY, SqliteDatabase, SqliteRepository, migrations
from tests.waiting import until

NOW = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)


def new_game() -> NewGame:
    return NewGame("groups", {"start": "standard"}, 1, 10, (100, 200), ("alice", "bob"), NOW)


async def test_migrations_from_empty_and_idempotent(tmp_path: Path) -> None:
    """A new file gets every migration; opening it again applies none."""
    path = tmp_path / "t.sqlite3"
    first = await SqliteRepository.open(path)
    assert await first.schema_version() == len(migrations())
    assert await first.migrate() == []
    await first.close()
    second = await SqliteRepository.open(path)
    assert await second.schema_version() == len(migrations())
    assert await second.migrate() == []
    await second.close()
    with sqlite3.connect(path) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert {"games", "moves", "challenges", "guild_settings", "user_settings"} <= tables
    assert mode == "wal"


def connection_threads() -> set[threading.Thread]:
    """The threads that keep a process alive at exit (aiosqlite runs one per connection)."""
    return {thread for thread in threading.enumerate() if not thread.daemon}


async def test_a_failed_open_leaves_no_connection_behind(tmp_path: Path) -> None:
    """A file that is not a database fails at the first pragma; the connection is closed
    all the same, or its thread would keep `tabula run` from ever exiting."""
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"garbage " * 1000)
    before = connection_threads()
    with pytest.raises(sqlite3.DatabaseError, match="file is not a database"):
        await SqliteRepository.open(path)
    # A closed connection's thread ends just after close() returns; none is left behind
    # (one from an earlier test may have ended meanwhile).
    await until(lambda: connection_threads() <= before, "the connection's thread to end")


def test_migration_files_are_numbered_without_gaps() -> None:
    """Migrations are 0001, 0002, ... and each sets up something."""
    found = migrations()
    assert [number for number, _, _ in found] == list(range(1, len(found) + 1))
    assert all("CREATE" in sql or "ALTER" in sql for _, _, sql in found)


async def test_in_memory_database() -> None:
    """`:memory:` works for quick tools and tests."""
    repo = await SqliteRepository.open(MEMORY)
    game = await repo.create_game(new_game())
    assert (await repo.get_game(game.id)) == game
    await repo.close()


async def test_each_statement_reports_what_it_did_in_one_trip() -> None:
    """`execute` counts the rows it changed, `insert` gives the new id, the fetches their
    rows; each is one trip to aiosqlite's thread (waking it costs more than most statements)."""
    repo = await SqliteRepository.open(MEMORY)
    db = repo.database
    assert isinstance(db, SqliteDatabase)
    connection = db.connection
    trips = 0
    real = connection._execute

    async def counted(fn: object, *args: object, **kwargs: object) -> object:
        nonlocal trips
        trips += 1
        return await real(fn, *args, **kwargs)

    connection._execute = counted  # type: ignore[method-assign]
    try:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)")
            before = trips
            first = await tx.insert("INSERT INTO t (v) VALUES (?)", ("a",))
            second = await tx.insert("INSERT INTO t (v) VALUES (?)", ("b",))
            assert (first, second) == (1, 2)
            assert await tx.execute("UPDATE t SET v = v || '!' WHERE id > ?", (0,)) == 2
            assert await tx.execute("UPDATE t SET v = 'c' WHERE id = ?", (9,)) == 0
            upsert = (
                "INSERT INTO t (id, v) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET v = excluded.v"
            )
            assert await tx.execute(upsert, (1, "z")) == 1
            assert await tx.execute("DELETE FROM t WHERE v = ?", ("z",)) == 1
            row = await tx.fetch_one("SELECT id, v FROM t ORDER BY id")
            assert row is not None and (row["id"], row["v"]) == (2, "b!")
            assert await tx.fetch_one("SELECT id FROM t WHERE id = ?", (7,)) is None
            assert [(r["id"], r["v"]) for r in await tx.fetch_all("SELECT id, v FROM t")] == [
                (2, "b!")
            ]
            assert trips - before == 9
    finally:
        await repo.close()
