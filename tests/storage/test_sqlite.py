"""The SQLite repository: migrations, records round-trip, the unique (game, ply) rule."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage.repository import (
    ChallengeStatus,
    DuplicateMoveError,
    GameStatus,
    GuildSettings,
    MoveRecord,
    NewChallenge,
    NewGame,
    Offer,
    Snapshot,
    UserSettings,
)
from bot.storage.sqlite import MEMORY, SqliteRepository, migrations

NOW = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)


def new_game(**changes: object) -> NewGame:
    values: dict[str, object] = {
        "game": "groups",
        "options": {"start": "standard"},
        "guild_id": 1,
        "channel_id": 10,
        "players": (100, 200),
        "names": ("alice", "bob"),
        "created_at": NOW,
    }
    values.update(changes)
    return NewGame(**values)  # type: ignore[arg-type]


def new_challenge(**changes: object) -> NewChallenge:
    values: dict[str, object] = {
        "guild_id": 1,
        "channel_id": 10,
        "challenger_id": 100,
        "challenger_name": "alice",
        "opponent_id": 200,
        "opponent_name": "bob",
        "game": "groups",
        "options": {"start": "drop"},
        "challenger_seat": None,
        "created_at": NOW,
        "expires_at": NOW + timedelta(hours=1),
    }
    values.update(changes)
    return NewChallenge(**values)  # type: ignore[arg-type]


@pytest.fixture
async def repo(tmp_path: Path):
    repository = await SqliteRepository.open(tmp_path / "db" / "tabula.sqlite3")
    yield repository
    await repository.close()


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
    for _ in range(100):  # a closed connection's thread ends just after close() returns
        if connection_threads() == before:
            break
        await asyncio.sleep(0.01)
    assert connection_threads() == before


def test_migration_files_are_numbered_without_gaps() -> None:
    """Migrations are 0001, 0002, ... and each sets up something."""
    found = migrations()
    assert [number for number, _, _ in found] == list(range(1, len(found) + 1))
    assert all("CREATE" in sql or "ALTER" in sql for _, _, sql in found)


async def test_game_round_trip_and_update(repo: SqliteRepository) -> None:
    """A created game reads back equal; updates of changeable fields are stored."""
    created = await repo.create_game(new_game(ai_levels=(None, "hard"), players=(100, None)))
    assert created.id > 0
    assert created.players == (100, None)
    assert created.ai_levels == (None, "hard")
    assert created.status is GameStatus.ACTIVE
    assert await repo.get_game(created.id) == created
    changed = created.evolve(
        thread_id=55,
        draw_offer=Offer(seat=1, ply=0, open=True),
        undo_request=Offer(seat=0, ply=0, open=False),
        status=GameStatus.FINISHED,
        winner=0,
        result_reason="bob resigned",
        finished_at=NOW,
        updated_at=NOW,
    )
    await repo.update_game(changed)
    assert await repo.get_game(created.id) == changed
    assert await repo.get_game(created.id + 100) is None


async def test_moves_are_unique_per_ply(repo: SqliteRepository) -> None:
    """A second live move at the same ply is refused and nothing of it is stored."""
    game = await repo.create_game(new_game())
    first = MoveRecord(game.id, 1, 0, 100, "d3-e2", NOW)
    await repo.record_move(first, game.evolve(ply=1, to_move=1))
    with pytest.raises(DuplicateMoveError):
        await repo.record_move(
            MoveRecord(game.id, 1, 0, 100, "c4-c3", NOW), game.evolve(ply=1, to_move=0)
        )
    assert await repo.list_moves(game.id) == [first]
    stored = await repo.get_game(game.id)
    assert stored is not None and stored.ply == 1 and stored.to_move == 1


async def test_undone_moves_stay_in_the_log_but_not_live(repo: SqliteRepository) -> None:
    """Undo marks moves undone; the same ply can then be played again."""
    game = await repo.create_game(new_game())
    moves = [MoveRecord(game.id, ply, (ply - 1) % 2, 100, f"m{ply}", NOW) for ply in (1, 2, 3)]
    for move in moves:
        await repo.record_move(move, game.evolve(ply=move.ply), Snapshot(move.ply, f"s{move.ply}"))
    await repo.undo_moves(game.evolve(ply=1), 2, NOW)
    assert await repo.list_moves(game.id) == moves[:1]
    assert await repo.get_snapshot(game.id) is None  # the snapshot at ply 3 was taken back
    again = MoveRecord(game.id, 2, 1, 200, "other", NOW)
    await repo.record_move(again, game.evolve(ply=2))
    assert await repo.list_moves(game.id, after_ply=1) == [again]


async def test_snapshot_kept_when_before_the_undo(repo: SqliteRepository) -> None:
    """A snapshot older than the first move taken back survives the undo."""
    game = await repo.create_game(new_game())
    await repo.record_move(MoveRecord(game.id, 1, 0, 1, "a", NOW), game, Snapshot(1, "s1"))
    await repo.record_move(MoveRecord(game.id, 2, 1, 2, "b", NOW), game)
    await repo.undo_moves(game.evolve(ply=1), 2, NOW)
    assert await repo.get_snapshot(game.id) == Snapshot(1, "s1")


async def test_challenge_lifecycle_queries(repo: SqliteRepository) -> None:
    """Open challenges are found by user, channel and expiry; closing is compare-and-set."""
    direct = await repo.create_challenge(new_challenge())
    public = await repo.create_challenge(
        new_challenge(opponent_id=None, opponent_name=None, expires_at=NOW + timedelta(minutes=5))
    )
    assert await repo.get_challenge(direct.id) == direct
    assert [c.id for c in await repo.open_challenges(user_id=200)] == [direct.id]
    assert [c.id for c in await repo.open_challenges(channel_id=10)] == [public.id, direct.id]
    assert [c.id for c in await repo.due_challenges(NOW + timedelta(minutes=5))] == [public.id]
    await repo.set_challenge_message(direct.id, 999)
    closed = await repo.close_challenge(direct.id, ChallengeStatus.DECLINED, NOW)
    assert closed is not None and closed.status is ChallengeStatus.DECLINED
    assert closed.message_id == 999 and closed.closed_at == NOW
    assert await repo.close_challenge(direct.id, ChallengeStatus.CANCELLED, NOW) is None


async def test_accept_challenge_creates_the_game_once(repo: SqliteRepository) -> None:
    """Accepting is atomic: the second accept gets None and creates no game."""
    challenge = await repo.create_challenge(new_challenge())
    accepted = await repo.accept_challenge(challenge.id, new_game(challenge_id=challenge.id))
    assert accepted is not None
    closed, game = accepted
    assert closed.status is ChallengeStatus.ACCEPTED and closed.game_id == game.id
    assert game.challenge_id == challenge.id
    assert await repo.accept_challenge(challenge.id, new_game()) is None
    assert len(await repo.active_games(user_id=100)) == 1


async def test_active_games_by_user_and_location(repo: SqliteRepository) -> None:
    """Games are found by player and by the thread (or channel when threadless)."""
    in_thread = await repo.create_game(new_game())
    await repo.update_game(in_thread.evolve(thread_id=77))
    in_channel = await repo.create_game(new_game(players=(300, 200), names=("carol", "bob")))
    finished = await repo.create_game(new_game())
    await repo.update_game(finished.evolve(status=GameStatus.FINISHED))
    assert [g.id for g in await repo.active_games(user_id=200)] == [in_thread.id, in_channel.id]
    assert [g.id for g in await repo.active_games(location=77)] == [in_thread.id]
    assert [g.id for g in await repo.active_games(location=10)] == [in_channel.id]
    assert [g.id for g in await repo.active_games(user_id=300, location=10)] == [in_channel.id]


async def test_guild_and_user_settings(repo: SqliteRepository) -> None:
    """Settings default when unsaved and read back as saved."""
    assert await repo.get_guild_settings(5) == GuildSettings(guild_id=5)
    saved = GuildSettings(
        guild_id=5,
        game_channels=frozenset({1, 2}),
        threads=False,
        challenge_expiry=timedelta(minutes=10),
        default_time_control="3d",
    )
    await repo.save_guild_settings(saved, NOW)
    assert await repo.get_guild_settings(5) == saved
    await repo.save_guild_settings(GuildSettings(guild_id=5, game_channels=frozenset({3})), NOW)
    assert (await repo.get_guild_settings(5)).game_channels == frozenset({3})
    assert await repo.get_user_settings(7) == UserSettings(user_id=7)
    await repo.save_user_settings(UserSettings(user_id=7, dm_on_turn=True), NOW)
    assert await repo.get_user_settings(7) == UserSettings(user_id=7, dm_on_turn=True)


async def test_in_memory_database() -> None:
    """`:memory:` works for quick tools and tests."""
    repo = await SqliteRepository.open(MEMORY)
    game = await repo.create_game(new_game())
    assert (await repo.get_game(game.id)) == game
    await repo.close()
