"""The query planner's statistics are made at start and kept current by the hourly job,
whatever the SQLite version, and the reads use the fresh ones."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from bot.bench.history_bench import fill
from bot.services.clock import ManualClock
from bot.services.statistics import OPTIMIZE_EVERY, PlannerStatistics
from bot.storage.postgres import PostgresRepository
from bot.storage.sqlite import SqliteRepository
from tests.databases import POSTGRES_URL, Backend


async def analyzed_rows(repository: SqliteRepository, table: str) -> dict[str, int]:
    """The rows `sqlite_stat1` counts in each index of `table`; {} without statistics."""
    found = await repository.database.fetch_one(
        "SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'"
    )
    if found is None:
        return {}
    rows = await repository.database.fetch_all(
        "SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?", (table,)
    )
    return {str(row[0]): int(str(row[1]).split()[0]) for row in rows}


async def test_sqlite_start_analyzes_a_filled_database(tmp_path: Path) -> None:
    """Opening a database whose statistics are missing makes them."""
    path = tmp_path / "t.sqlite3"
    repository = await SqliteRepository.open(path)
    await fill(repository, games=400, players=20, active=3)
    await repository._sqlite.connection.execute("DROP TABLE IF EXISTS sqlite_stat1")
    await repository.close()

    repository = await SqliteRepository.open(path)
    try:
        assert (await analyzed_rows(repository, "games"))["games_finished_player0"] == 400
        assert await analyzed_rows(repository, "ratings")
    finally:
        await repository.close()


async def test_sqlite_hourly_job_refreshes_the_statistics(tmp_path: Path) -> None:
    """Games stored after start are counted once an hour has passed, not before."""
    repository = await SqliteRepository.open(tmp_path / "t.sqlite3")
    try:
        clock = ManualClock()
        job = PlannerStatistics(repository, clock)
        assert await analyzed_rows(repository, "games") == {}  # empty at start
        await fill(repository, games=400, players=20, active=3)
        clock.advance(OPTIMIZE_EVERY - timedelta(seconds=1))
        await job.keep_current()
        assert await analyzed_rows(repository, "games") == {}
        clock.advance(timedelta(seconds=1))
        await job.keep_current()
        assert (await analyzed_rows(repository, "games"))["games_finished_player0"] == 400
    finally:
        await repository.close()


async def probe_plan(repository: SqliteRepository) -> str:
    """The plan the reading connection makes for a query two indexes could serve."""
    rows = await repository.database.fetch_all(
        "EXPLAIN QUERY PLAN SELECT * FROM probe WHERE a = 1 AND b = 1"
    )
    return " ".join(str(row[3]) for row in rows)


async def test_sqlite_reads_plan_with_the_refreshed_statistics(tmp_path: Path) -> None:
    """After the job, the reading connection picks its index by the new statistics: the
    statistics are loaded with the schema, which a later ANALYZE does not change."""
    repository = await SqliteRepository.open(tmp_path / "t.sqlite3")
    try:
        async with repository.database.transaction() as db:
            await db.execute("CREATE TABLE probe (a INTEGER, b INTEGER)")
            await db.execute("CREATE INDEX probe_a ON probe (a)")
            await db.execute("CREATE INDEX probe_b ON probe (b)")
            # `a` tells the rows apart, `b` does not: an index on `a` finds one row.
            await db.execute_many("INSERT INTO probe VALUES (?, 1)", [(n,) for n in range(2000)])
        await repository.optimize()
        assert "INDEX probe_a" in await probe_plan(repository)

        async with repository.database.transaction() as db:
            await db.execute("UPDATE probe SET b = a, a = 1")  # now the other way round
        await repository.optimize()
        assert "INDEX probe_b" in await probe_plan(repository)
    finally:
        await repository.close()


async def test_postgresql_start_analyzes_tables_never_analyzed(tmp_path: Path) -> None:
    """Opening a schema whose filled tables were never analyzed (autovacuum has not come
    by yet) analyzes them."""
    if POSTGRES_URL is None:
        pytest.skip("needs PostgreSQL")
    # A schema of its own: one a previous test used may have been analyzed already.
    backend = Backend("postgres", tmp_path / "unused", f"test_{uuid.uuid4().hex[:16]}")
    try:
        repository = await backend.open()
        assert isinstance(repository, PostgresRepository)
        async with repository.database.transaction() as db:
            for table in ("games", "ratings"):
                await db.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
        await fill(repository, games=300, players=20, active=3)
        query = (
            "SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() "
            "AND relname IN ('games', 'ratings') AND last_analyze IS NOT NULL ORDER BY relname"
        )
        assert await repository.database.fetch_all(query) == []

        reopened = await backend.open()
        analyzed = await reopened.database.fetch_all(query)
        assert [row[0] for row in analyzed] == ["games", "ratings"]
    finally:
        await backend.cleanup()


async def test_sqlite_statistics_never_count_a_whole_table(tmp_path: Path) -> None:
    """Every index is sampled by itself: analyzing a whole table whose indexes are all
    partial (the moves) would count every row of it, which grows with the history."""
    repository = await SqliteRepository.open(tmp_path / "t.sqlite3")
    try:
        await fill(repository, games=300, players=20, active=3, moves=5)
        await repository.optimize()
        moves = await analyzed_rows(repository, "moves")
        assert moves.get("moves_live_ply", 0) >= 1_000
        counted = await repository.database.fetch_all(
            "SELECT tbl FROM sqlite_stat1 WHERE idx IS NULL"
        )
        assert counted == []
    finally:
        await repository.close()
