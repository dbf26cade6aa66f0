"""The SQLite repository's ratings and tournaments: round trips, guards and queries."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.competition.glicko2 import Rating
from bot.competition.records import Pairing, Result
from bot.competition.tournament import Format
from bot.storage.competition import (
    EntrantRecord,
    NewTournament,
    PlayerRating,
    RatingChange,
    TournamentStatus,
)
from bot.storage.repository import GameStatus, GuildSettings, NewGame
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository

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
        "rated": True,
    }
    values.update(changes)
    return NewGame(**values)  # type: ignore[arg-type]


def new_tournament(**changes: object) -> NewTournament:
    values: dict[str, object] = {
        "guild_id": 1,
        "channel_id": 10,
        "name": "Spring Swiss",
        "organiser_id": 300,
        "organiser_name": "carol",
        "game": "hexade",
        "options": {"size": 6},
        "format": Format.SWISS,
        "swiss_rounds": 4,
        "time_control": "3d",
        "rated": True,
        "max_players": 16,
        "entry_closes_at": NOW + timedelta(days=1),
        "created_at": NOW,
    }
    values.update(changes)
    return NewTournament(**values)  # type: ignore[arg-type]


def change(game_id: int, user_id: int, seat: int, guild_id: int = 1) -> RatingChange:
    return RatingChange(
        game_id=game_id,
        user_id=user_id,
        seat=seat,
        name=f"user{user_id}",
        game="groups",
        guild_id=guild_id,
        score=1.0 - seat,
        before=Rating(),
        after=Rating(1600.0 - 200 * seat, 290.0, 0.059),
        rated_at=NOW,
    )


async def test_the_migration_adds_the_tables_and_the_organiser_role(tmp_path: Path) -> None:
    """A fresh database has the rating and tournament tables; settings keep the role."""
    repo = await SqliteRepository.open(tmp_path / "t.sqlite3")
    await repo.save_guild_settings(GuildSettings(guild_id=5, organiser_role=42), NOW)
    assert (await repo.get_guild_settings(5)).organiser_role == 42
    await repo.close()
    with sqlite3.connect(tmp_path / "t.sqlite3") as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {
        "ratings", "rating_changes", "tournaments", "tournament_entrants", "tournament_pairings"
    } <= tables  # fmt: skip


async def test_ratings_are_recorded_once_per_game(repo: SqlRepository) -> None:
    """Changes and ratings are stored together; a second recording is refused whole."""
    game = await repo.create_game(new_game())
    changes = [change(game.id, 100, 0), change(game.id, 200, 1)]
    ratings = [
        PlayerRating(100, "groups", "alice", changes[0].after, 1, 1, 0, 0, NOW),
        PlayerRating(200, "groups", "bob", changes[1].after, 1, 0, 0, 1, NOW),
    ]
    assert await repo.record_ratings(changes, ratings)
    assert await repo.rating_changes(game.id) == changes
    assert await repo.get_rating(100, "groups") == ratings[0]
    assert await repo.ratings_of(200) == [ratings[1]]
    later = [PlayerRating(100, "groups", "alice", Rating(1), 9, 9, 0, 0, NOW)]
    assert not await repo.record_ratings(changes, later)
    assert await repo.get_rating(100, "groups") == ratings[0]
    assert await repo.get_rating(100, "hexade") is None


async def test_unrated_games_are_the_finished_rated_games_between_people(
    repo: SqlRepository,
) -> None:
    """Casual, computer, active, old and already rated games are not listed."""
    finished = {"status": GameStatus.FINISHED, "winner": 0, "finished_at": NOW}
    wanted = await repo.create_game(new_game())
    casual = await repo.create_game(new_game(rated=False))
    computer = await repo.create_game(new_game(players=(100, None), ai_levels=(None, "easy")))
    active = await repo.create_game(new_game())
    old = await repo.create_game(new_game())
    rated = await repo.create_game(new_game())
    for game in (wanted, casual, computer, rated):
        await repo.update_game(game.evolve(**finished))
    await repo.update_game(old.evolve(**{**finished, "finished_at": NOW - timedelta(days=9)}))
    await repo.record_ratings([change(rated.id, 100, 0), change(rated.id, 200, 1)], [])
    found = await repo.unrated_games(NOW - timedelta(days=7))
    assert [g.id for g in found] == [wanted.id]
    assert active.status is GameStatus.ACTIVE


async def test_leaderboards_count_the_server_a_game_was_played_in(
    repo: SqlRepository,
) -> None:
    """A rating shows on a server's board once its player played rated there."""
    here = await repo.create_game(new_game())
    there = await repo.create_game(new_game(players=(300, 200), guild_id=2))
    await repo.record_ratings(
        [change(here.id, 100, 0), change(here.id, 200, 1)],
        [
            PlayerRating(100, "groups", "alice", Rating(1600), 1, 1, 0, 0, NOW),
            PlayerRating(200, "groups", "bob", Rating(1400), 2, 1, 0, 1, NOW),
        ],
    )
    await repo.record_ratings(
        [change(there.id, 300, 0, guild_id=2), change(there.id, 200, 1, guild_id=2)],
        [PlayerRating(300, "groups", "carol", Rating(1700), 1, 1, 0, 0, NOW)],
    )
    assert [r.name for r in await repo.leaderboard(1, "groups")] == ["alice", "bob"]
    assert [r.name for r in await repo.leaderboard(2, "groups")] == ["carol", "bob"]
    assert [r.name for r in await repo.leaderboard(2, "groups", limit=1)] == ["carol"]
    assert await repo.leaderboard(1, "hexade") == []


async def test_tournament_round_trip_entrants_and_seeds(repo: SqlRepository) -> None:
    """A tournament and its announcement, its entrants in join order, then by seed after
    the start (which keeps the announcement)."""
    created = await repo.create_tournament(new_tournament())
    assert created.id > 0 and created.status is TournamentStatus.OPEN
    assert created.format is Format.SWISS and created.options == {"size": 6}
    assert await repo.get_tournament(created.id) == created
    await repo.set_tournament_message(created.id, 777)
    created = created.evolve(message_id=777)
    assert await repo.get_tournament(created.id) == created
    for user, minutes in ((100, 0), (200, 1), (300, 2)):
        await repo.add_entrant(
            EntrantRecord(created.id, user, f"u{user}", NOW + timedelta(minutes=minutes))
        )
    await repo.remove_entrant(created.id, 300)
    assert [e.user_id for e in await repo.list_entrants(created.id)] == [100, 200]
    running = created.evolve(status=TournamentStatus.RUNNING, rounds=4, started_at=NOW)
    seeds = [
        EntrantRecord(created.id, 200, "u200", NOW, seed=1, rating=1700.0),
        EntrantRecord(created.id, 100, "u100", NOW, seed=2, rating=1500.0),
    ]
    await repo.start_tournament(running, seeds)
    assert await repo.get_tournament(created.id) == running
    assert [(e.user_id, e.seed, e.rating) for e in await repo.list_entrants(created.id)] == [
        (200, 1, 1700.0),
        (100, 2, 1500.0),
    ]
    assert [t.id for t in await repo.list_tournaments(1, [TournamentStatus.RUNNING])] == [
        created.id
    ]
    assert await repo.list_tournaments(1, [TournamentStatus.OPEN]) == []


async def test_pairings_games_results_and_the_work_query(repo: SqlRepository) -> None:
    """Pairings store forfeits, get one game each, take one result; work is found."""
    record = await repo.create_tournament(new_tournament())
    await repo.update_tournament(record.evolve(status=TournamentStatus.RUNNING, rounds=4))
    assert await repo.tournaments_needing_work() == [record.id]  # nothing paired yet
    made = await repo.add_pairings(
        record.id,
        [Pairing(1, 100, 200), Pairing(1, 300, None), Pairing(1, 400, 500, Result.DOUBLE_FORFEIT)],
    )
    assert [p.pairing for p in await repo.list_pairings(record.id)] == [p.pairing for p in made]
    game = await repo.create_pairing_game(made[0].id, new_game(tournament_id=record.id))
    assert game is not None and game.tournament_id == record.id
    assert await repo.create_pairing_game(made[0].id, new_game()) is None
    assert await repo.pairing_for_game(game.id) == (await repo.list_pairings(record.id))[0]
    assert await repo.tournaments_needing_work() == [record.id]  # not announced yet
    await repo.mark_pairing_announced(made[0].id)
    await repo.update_tournament(record.evolve(status=TournamentStatus.RUNNING, rounds=4,
                                               announced_round=1))  # fmt: skip
    assert await repo.tournaments_needing_work() == []  # a game is being played
    await repo.update_game(game.evolve(status=GameStatus.FINISHED, winner=1))
    assert await repo.tournaments_needing_work() == [record.id]  # its result is due
    assert await repo.set_pairing_result(made[0].id, Result.SECOND_WINS)
    assert not await repo.set_pairing_result(made[0].id, Result.FIRST_WINS)
    stored = await repo.list_pairings(record.id)
    assert stored[0].result is Result.SECOND_WINS and stored[0].announced
    assert stored[2].result is Result.DOUBLE_FORFEIT and stored[2].game_id is None
    assert await repo.tournaments_needing_work() == [record.id]  # the round is complete


async def test_withdrawal_stores_forfeits_and_due_tournaments(repo: SqlRepository) -> None:
    """Withdrawing marks the entrant and stores forfeits; due ones are found by time."""
    record = await repo.create_tournament(new_tournament())
    later = await repo.create_tournament(new_tournament(entry_closes_at=NOW + timedelta(days=3)))
    await repo.create_tournament(new_tournament(entry_closes_at=None))
    assert [t.id for t in await repo.due_tournaments(NOW + timedelta(days=1))] == [record.id]
    assert [t.id for t in await repo.due_tournaments(NOW + timedelta(days=5))] == [
        record.id,
        later.id,
    ]
    await repo.add_entrant(EntrantRecord(record.id, 100, "u100", NOW))
    [pairing] = await repo.add_pairings(record.id, [Pairing(2, 100, 200)])
    forfeit = replace(pairing, result=Result.SECOND_WINS_BY_FORFEIT)
    await repo.withdraw_entrant(record.id, 100, NOW, [forfeit])
    [entrant] = await repo.list_entrants(record.id)
    assert entrant.withdrawn and entrant.withdrawn_at == NOW
    assert (await repo.list_pairings(record.id))[0].result is Result.SECOND_WINS_BY_FORFEIT
