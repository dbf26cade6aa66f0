"""Storage for correspondence play: clocks, reminders, vacations, downtime, settings."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage.repository import (
    ClockTurn,
    GameClock,
    GameStatus,
    NewGame,
    Outage,
    UserSettings,
)
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository, check_numbering, migrations

NOW = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
H = timedelta(hours=1)


async def timed_game(repo: SqlRepository, time_control: str = "1d") -> int:
    game = await repo.create_game(
        NewGame(
            game="groups",
            options={"start": "standard"},
            guild_id=1,
            channel_id=10,
            players=(100, 200),
            names=("alice", "bob"),
            created_at=NOW,
            time_control=time_control,
        )
    )
    return game.id


def turn(game_id: int, number: int, seat: int = 0, banks: bool = False) -> ClockTurn:
    return ClockTurn(game_id, number, seat, number - 1, NOW + number * H,
                     (5 * H, 6 * H) if banks else None)  # fmt: skip


def test_migration_numbering_refuses_gaps_and_duplicates() -> None:
    """1, 2, 3 passes; a gap or two files with one number stop the start-up."""
    check_numbering([1, 2, 3])
    with pytest.raises(RuntimeError, match="once each, without gaps"):
        check_numbering([1, 3])
    with pytest.raises(RuntimeError, match="once each, without gaps"):
        check_numbering([1, 2, 2])
    assert [number for number, _, _ in migrations()][-1] >= 3


async def test_existing_user_settings_get_the_new_defaults(tmp_path: Path) -> None:
    """A settings row stored before the clock migration reads back with its defaults."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        for number, _, sql in migrations():
            if "clock_turns" in sql:
                break
            db.executescript(sql)
            db.execute(f"PRAGMA user_version = {number}")
        db.execute("INSERT INTO user_settings (user_id, dm_on_turn, updated_at) VALUES (7, 1, '')")
    repo = await SqliteRepository.open(path)
    try:
        assert await repo.get_user_settings(7) == UserSettings(7, dm_on_turn=True)
    finally:
        await repo.close()


async def test_user_settings_round_trip(repo: SqlRepository) -> None:
    """Reminder times (also none), digest and its period are stored."""
    settings = UserSettings(7, True, (3 * H, 10 * timedelta(minutes=1)), True, 12 * H)
    await repo.save_user_settings(settings, NOW)
    assert await repo.get_user_settings(7) == settings
    silent = UserSettings(7, reminders=())
    await repo.save_user_settings(silent, NOW)
    assert await repo.get_user_settings(7) == silent


async def test_clock_round_trip_and_compare_and_set(repo: SqlRepository) -> None:
    """A clock is stored with its turns; a writer starting from a stale turn is refused."""
    game = await timed_game(repo)
    first = GameClock(turn(game, 1, banks=True), 0, NOW + 5 * H, NOW + 4 * H)
    assert await repo.save_clock(first, [first.current], NOW)
    assert await repo.get_clock(game) == first
    second = GameClock(turn(game, 2, seat=1, banks=True), 1, NOW + 9 * H, None)
    assert await repo.save_clock(second, [second.current], NOW)
    stale = GameClock(turn(game, 2, seat=0), 1, NOW, None)
    assert not await repo.save_clock(stale, [stale.current], NOW)  # turn 2 exists
    assert not await repo.save_clock(first, [], NOW)  # the clock is at turn 2, not 1
    assert await repo.get_clock(game) == second
    assert [t.turn for t in await repo.clock_turns(game)] == [1, 2]


async def test_schedule_updates_only_the_current_turn(repo: SqlRepository) -> None:
    """A deadline computed for an old turn is not stored over the new one."""
    game = await timed_game(repo)
    clock = GameClock(turn(game, 1), 0, NOW + 5 * H, None)
    await repo.save_clock(clock, [clock.current], NOW)
    assert not await repo.set_clock_schedule(game, 7, NOW, NOW)
    assert await repo.set_clock_schedule(game, 1, NOW + 2 * H, NOW + H)
    assert await repo.due_clocks(NOW + H) == []
    assert await repo.due_reminders(NOW + H) == [game]
    assert await repo.due_clocks(NOW + 2 * H) == [game]
    assert await repo.running_clocks() == [game]


async def test_reminders_are_claimed_once(repo: SqlRepository) -> None:
    """The second claim of a (game, turn, offset) fails; another turn or offset is new."""
    game = await timed_game(repo)
    assert await repo.claim_reminder(game, 1, H, NOW)
    assert not await repo.claim_reminder(game, 1, H, NOW)
    assert await repo.claim_reminder(game, 1, 2 * H, NOW)
    assert await repo.claim_reminder(game, 2, H, NOW)
    assert await repo.sent_reminders(game, 1) == frozenset({H, 2 * H})


async def test_clocks_to_sync(repo: SqlRepository) -> None:
    """Timed games without a clock or behind it, and ended games whose clock runs."""
    missing = await timed_game(repo)
    await timed_game(repo, "none")
    behind = await timed_game(repo)
    clock = GameClock(turn(behind, 1), 0, NOW, None)
    await repo.save_clock(clock, [clock.current], NOW)
    record = await repo.get_game(behind)
    assert record is not None
    record = await repo.update_game(record.evolve(ply=1))
    assert await repo.clocks_to_sync() == [missing, behind]
    await repo.update_game(record.evolve(ply=0, status=GameStatus.FINISHED))
    assert await repo.clocks_to_sync() == [missing, behind]
    stopped = GameClock(turn(behind, 1), 0, None, None, stopped_at=NOW)
    await repo.save_clock(stopped, [], NOW)
    assert await repo.clocks_to_sync() == [missing]


async def test_one_open_vacation_per_user(repo: SqlRepository) -> None:
    """A second open vacation is refused; closing is compare-and-set; queries by time."""
    first = await repo.start_vacation(7, NOW, NOW + 48 * H)
    assert first is not None and await repo.open_vacation(7) == first
    assert await repo.start_vacation(7, NOW, NOW + H) is None
    assert await repo.due_vacations(NOW + 48 * H) == [first]
    ended = await repo.end_vacation(first.id, NOW + 10 * H)
    assert ended is not None and ended.end == NOW + 10 * H
    assert await repo.end_vacation(first.id, NOW + 11 * H) is None
    assert await repo.open_vacation(7) is None
    assert await repo.vacations(7, NOW + 9 * H) == [ended]
    assert await repo.vacations(7, NOW + 10 * H) == []
    assert await repo.start_vacation(7, NOW + 20 * H, NOW + 30 * H) is not None


async def test_heartbeat_and_outages(repo: SqlRepository) -> None:
    """The heartbeat returns the previous beat; outages are found by their end."""
    assert await repo.beat(NOW) is None
    assert await repo.beat(NOW + H) == NOW
    outage = Outage(NOW + H, NOW + 5 * H)
    await repo.record_outage(outage)
    assert await repo.outages(NOW) == [outage]
    assert await repo.outages(NOW + 5 * H) == []


async def test_digest_candidates_and_claims(repo: SqlRepository) -> None:
    """Digest users with a waiting game are found; the claim is compare-and-set."""
    game = await timed_game(repo)  # alice (100) to move
    await repo.save_user_settings(UserSettings(100, digest=True), NOW)
    await repo.save_user_settings(UserSettings(200, digest=True), NOW)
    assert [(s.user_id, last) for s, last in await repo.digest_candidates()] == [(100, None)]
    assert await repo.claim_digest(100, None, NOW)
    assert not await repo.claim_digest(100, None, NOW)
    assert [last for _, last in await repo.digest_candidates()] == [NOW]
    record = await repo.get_game(game)
    assert record is not None
    await repo.update_game(record.evolve(to_move=1))
    assert [s.user_id for s, _ in await repo.digest_candidates()] == [200]
