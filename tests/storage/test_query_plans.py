"""Every per-player query is an index lookup: what it reads grows with the player's own
games, not with the server's history. Checked with `EXPLAIN QUERY PLAN` (SQLite) and
`EXPLAIN` (PostgreSQL) on the statements the repository really runs (reads, `WITH`
queries, and the updates and deletes of the same calls)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.bench.history_bench import CHANNEL, GUILD, fill
from bot.storage.records import HistoryQuery
from bot.storage.repository import UserSettings
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository
from tests.databases import Backend

ALICE = 3_000_001
BOB = 3_000_002
NOW = datetime(2030, 1, 1, tzinfo=UTC)

Call = Callable[[SqlRepository], Awaitable[Any]]


def _page(query: HistoryQuery) -> Call:
    return lambda repository: repository.finished_games(query, limit=10, offset=10)


def _page_and_count(query: HistoryQuery) -> Call:
    return lambda repository: repository.history_page(query, limit=10, offset=10)


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
        calls[f"page and count of {name}"] = _page_and_count(query)
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
    calls["conditional notes"] = lambda r: r.take_conditional_notes(ALICE, NOW)
    calls["digest candidates"] = lambda r: r.digest_candidates()
    return calls


WHOLE_TABLES = {"digest candidates": {"user_settings"}}
"""The tables a call reads whole by nature: the digest job visits the settings of every
user (a row per user, never per game); the games of each are index lookups."""


async def filled(repository: SqlRepository, games: int) -> None:
    """A history, games in progress, users with the digest on, and notes for Alice to
    take (so that every statement of every call runs)."""
    active = await fill(repository, games=games, players=60, active=30)
    for user in range(3_000_000, 3_000_060, 3):
        await repository.save_user_settings(UserSettings(user, digest=True), NOW)
    for game_id in active[:3]:
        await repository.add_conditional_note(ALICE, game_id, {"kind": "test"}, NOW)


EXAMINED = ("SELECT", "WITH", "UPDATE", "DELETE")
"""The statements whose plans are examined (inserts read nothing)."""


def examined(sql: str) -> bool:
    """True for a statement whose plan could scan a table."""
    return sql.lstrip().upper().startswith(EXAMINED)


def names_of_tables(sql: str, tables: set[str]) -> dict[str, str]:
    """Each name a SQLite plan may call a table of `sql` by (the table's own, or its
    alias) with the table it stands for."""
    names = {table: table for table in tables}
    for table, alias in re.findall(
        r"\b(?:FROM|JOIN|UPDATE)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?", sql, re.IGNORECASE
    ):
        if table in tables and alias:
            names.setdefault(alias, table)
    return names


BAD_SQLITE = re.compile(r"^SCAN (?P<name>\w+)|USE TEMP B-TREE")


def sqlite_problems(name: str, sql: str, details: list[str], tables: set[str]) -> list[str]:
    """The steps of a SQLite plan that scan a table (other than those the call reads
    whole) or sort in a temporary B-tree."""
    names = names_of_tables(sql, tables)
    problems = []
    for detail in details:
        bad = BAD_SQLITE.search(detail)
        if bad is None:
            continue
        table = names.get(bad["name"]) if bad["name"] else None
        if bad["name"] and (table is None or table in WHOLE_TABLES.get(name, set())):
            continue  # a subquery's or a WITH table's rows, or a table read whole
        problems.append(f"{name}: {detail} in {sql[:160]}")
    return problems


def test_the_check_sees_scans_through_aliases_and_with_queries() -> None:
    """A scan is caught whatever the table is called in the plan; WITH queries are
    examined; a WITH table's own rows are not a table scan."""
    tables = {"games", "user_settings"}
    sql = "WITH mine AS (SELECT id FROM games g WHERE g.status = 'x') SELECT * FROM mine"
    assert examined(sql) and examined(" update games SET x = 1") and not examined("INSERT")
    assert sqlite_problems("q", sql, ["SCAN g", "SCAN mine"], tables) == [f"q: SCAN g in {sql}"]
    assert sqlite_problems("q", sql, ["SEARCH g USING INDEX x (id=?)"], tables) == []
    assert sqlite_problems("q", sql, ["USE TEMP B-TREE FOR ORDER BY"], tables) != []
    digest = "SELECT * FROM user_settings u WHERE u.digest"
    assert sqlite_problems("digest candidates", digest, ["SCAN u"], tables) == []
    assert sqlite_problems("history", digest, ["SCAN u"], tables) != []


async def test_sqlite_per_player_reads_are_index_lookups(tmp_path: Path) -> None:
    """No per-player statement scans a table or sorts in a temporary B-tree."""
    repository = await SqliteRepository.open(tmp_path / "plans.sqlite3")
    try:
        await filled(repository, games=3_000)
        await repository.optimize()
        tables = {
            str(row[0])
            for row in await repository.database.fetch_all(
                "SELECT name FROM sqlite_schema WHERE type = 'table'"
            )
        }
        statements: list[str] = []
        reader = repository._sqlite._reader  # the connection the reads go through
        writer = repository._sqlite.connection  # and the one the writes go through
        assert reader is not None
        for connection in (reader, writer):
            await connection.set_trace_callback(statements.append)
        problems = []
        for name, call in per_player_calls().items():
            statements.clear()
            await call(repository)
            run = [sql for sql in statements if examined(sql)]
            assert run, name
            for sql in run:
                rows = await repository.database.fetch_all(f"EXPLAIN QUERY PLAN {sql}")
                problems += sqlite_problems(name, sql, [str(row[3]) for row in rows], tables)
        for connection in (reader, writer):
            await connection.set_trace_callback(None)  # type: ignore[arg-type]
        assert problems == []
    finally:
        await repository.close()


async def test_postgresql_per_player_reads_can_use_indexes(backend: Backend) -> None:
    """With sequential scans priced out, no per-player read still scans a table: an index
    serves each of them (PostgreSQL chooses scans of small tables by itself)."""
    if not backend.is_postgres:
        pytest.skip("PostgreSQL's plans")
    repository = await backend.open()
    await filled(repository, games=600)
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
                for table in re.findall(r"Seq Scan on (\w+)", plan):
                    if table not in WHOLE_TABLES.get(name, set()):
                        problems.append(f"{name}: {plan}")
    finally:
        database.fetch_all, database.fetch_one = original  # type: ignore[method-assign]
    assert problems == []
