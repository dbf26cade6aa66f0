"""Every per-player query is an index lookup: what it reads grows with the player's own
games, not with the server's history. Checked with `EXPLAIN QUERY PLAN` (SQLite) and
`EXPLAIN` (PostgreSQL) on the statements the repository really runs."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.bench.history_bench import CHANNEL, GUILD, fill
from bot.storage.records import HistoryQuery
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository
from tests.databases import Backend

ALICE = 3_000_001
BOB = 3_000_002

Call = Callable[[SqlRepository], Awaitable[Any]]


def _page(query: HistoryQuery) -> Call:
    return lambda repository: repository.finished_games(query, limit=10, offset=10)


def _count(query: HistoryQuery) -> Call:
    return lambda repository: repository.count_finished_games(query)


def per_player_calls() -> dict[str, Call]:
    """The repository's per-player (and per-server) reads, as the commands make them."""
    since = datetime(2000, 1, 1, tzinfo=UTC)
    calls: dict[str, Call] = {}
    for name, query in {
        "history": HistoryQuery(ALICE),
        "history here": HistoryQuery(ALICE, guild_id=GUILD),
        "history of a game": HistoryQuery(ALICE, guild_id=GUILD, game="hexade"),
        "history with a player": HistoryQuery(ALICE, guild_id=GUILD, with_user=BOB),
    }.items():
        calls[name] = _page(query)
        calls[f"count of {name}"] = _count(query)
    calls["games in progress"] = lambda r: r.active_games(user_id=ALICE)
    calls["games in progress here"] = lambda r: r.active_games(user_id=ALICE, location=CHANNEL)
    calls["open challenges"] = lambda r: r.open_challenges(user_id=ALICE)
    calls["open challenges here"] = lambda r: r.open_challenges(user_id=ALICE, channel_id=CHANNEL)
    calls["ratings"] = lambda r: r.ratings_of(ALICE)
    calls["rating"] = lambda r: r.get_rating(ALICE, "groups")
    calls["leaderboard"] = lambda r: r.leaderboard(GUILD, "groups", limit=10)
    calls["vacations"] = lambda r: r.vacations(ALICE, since)
    calls["vacation"] = lambda r: r.open_vacation(ALICE)
    calls["conditional moves"] = lambda r: r.conditional_trees(ALICE)
    calls["settings"] = lambda r: r.get_user_settings(ALICE)
    return calls


BAD_SQLITE = re.compile(r"^SCAN (?P<table>\w+)|USE TEMP B-TREE")


async def test_sqlite_per_player_reads_are_index_lookups(tmp_path: Path) -> None:
    """No per-player read scans a table or sorts in a temporary B-tree."""
    repository = await SqliteRepository.open(tmp_path / "plans.sqlite3")
    try:
        await fill(repository, games=3_000, players=60, active=30)
        await repository.optimize()
        tables = {
            str(row[0])
            for row in await repository.database.fetch_all(
                "SELECT name FROM sqlite_schema WHERE type = 'table'"
            )
        }
        statements: list[str] = []
        reader = repository._sqlite._reader  # the connection the reads go through
        assert reader is not None
        await reader.set_trace_callback(statements.append)
        problems = []
        for name, call in per_player_calls().items():
            statements.clear()
            await call(repository)
            reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
            assert reads, name
            for sql in reads:
                rows = await repository.database.fetch_all(f"EXPLAIN QUERY PLAN {sql}")
                details = [str(row[3]) for row in rows]
                for detail in details:
                    bad = BAD_SQLITE.search(detail)
                    if bad and (bad["table"] is None or bad["table"] in tables):
                        problems.append(f"{name}: {detail} in {sql[:120]}")
        await reader.set_trace_callback(None)  # type: ignore[arg-type]
        assert problems == []
    finally:
        await repository.close()


async def test_postgresql_per_player_reads_can_use_indexes(backend: Backend) -> None:
    """With sequential scans priced out, no per-player read still scans a table: an index
    serves each of them (PostgreSQL chooses scans of small tables by itself)."""
    if not backend.is_postgres:
        pytest.skip("PostgreSQL's plans")
    repository = await backend.open()
    await fill(repository, games=600, players=30, active=10)
    statements: list[tuple[str, tuple[Any, ...]]] = []
    database = repository.database
    original = database.fetch_all, database.fetch_one

    async def fetch_all(sql: str, params: Any = ()) -> Any:
        statements.append((sql, tuple(params)))
        return await original[0](sql, params)

    async def fetch_one(sql: str, params: Any = ()) -> Any:
        statements.append((sql, tuple(params)))
        return await original[1](sql, params)

    database.fetch_all, database.fetch_one = fetch_all, fetch_one  # type: ignore[method-assign]
    problems = []
    try:
        for name, call in per_player_calls().items():
            statements.clear()
            await call(repository)
            for sql, params in list(statements):
                async with database.transaction() as connection:
                    await connection.execute("SET LOCAL enable_seqscan = off")
                    rows = await connection.fetch_all(f"EXPLAIN {sql}", params)
                plan = "\n".join(str(row[0]) for row in rows)
                if re.search(r"Seq Scan on (games|challenges|ratings|rating_changes)", plan):
                    problems.append(f"{name}: {plan}")
    finally:
        database.fetch_all, database.fetch_one = original  # type: ignore[method-assign]
    assert problems == []
