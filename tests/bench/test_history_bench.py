"""`tabula bench history` at a small size: the fill stores what it says, the figures come
back for every command, start-up is measured in its own process."""

from __future__ import annotations

from pathlib import Path

from bot.bench.history_bench import GUILD, fill, finished_games, measure, run
from bot.storage.records import HistoryQuery
from bot.storage.repository import GameStatus
from bot.storage.sqlite import SqliteRepository
from tests.databases import Backend


async def test_fill_stores_the_games_ratings_and_games_in_progress(backend: Backend) -> None:
    """N finished games, a full leaderboard per game, the games in progress; measured."""
    repository = await backend.open()
    active = await fill(repository, games=120, players=12, active=4)
    assert len(await repository.game_ids()) == 124
    assert [game.status for game in await repository.active_games()] == [GameStatus.ACTIVE] * 4
    everyone = sum(
        [await repository.count_finished_games(HistoryQuery(3_000_000 + i)) for i in range(12)]
    )
    assert everyone == 2 * 120  # each game in the history of both its players
    for game in ("groups", "hexade", "stones"):
        assert len(await repository.leaderboard(GUILD, game)) == 12
    figures = await measure(repository, players=12, active=active, calls=5)
    assert set(figures) == {"/history", "/games", "/leaderboard", "/move"}
    assert figures["/move"].samples == 8  # two opening moves in each game in progress
    assert all(f.p50 <= f.p99 for f in figures.values())
    moved = await repository.get_game(active[0])
    assert moved is not None and moved.ply == 2


def test_the_games_are_finished_between_two_players() -> None:
    """Every generated game is finished, between two different players, in time order."""
    import random

    games = finished_games(50, 5, random.Random(3))
    assert all(g.status is GameStatus.FINISHED and g.players[0] != g.players[1] for g in games)
    assert [g.finished_at for g in games] == sorted(g.finished_at for g in games)  # type: ignore[type-var]


async def test_a_small_run_reports_every_figure(tmp_path: Path) -> None:
    """The whole bench on a small SQLite file: commands and a start-up in ≤ a few seconds;
    stand-in moves stored for each finished game."""
    path = tmp_path / "h.sqlite3"
    report = await run(str(path), games=60, players=6, calls=3, moves=4)
    assert report["games"] == 60 and report["database"] == "sqlite"
    assert len(report["load_before"]) == 3 and report["cores"] >= 1
    assert set(report["commands"]) == {"/history", "/games", "/leaderboard", "/move"}
    assert all(c["cpu_p50_ms"] > 0 for c in report["commands"].values())
    repository = await SqliteRepository.open(path)
    try:
        logs = [await repository.list_moves(game_id) for game_id in (1, 60)]
        assert [[move.ply for move in log] for log in logs] == [[1, 2, 3, 4]] * 2
        played = [move.notation for move in await repository.list_moves(61)]
        assert played == ["d3-e2", "e3-e1"]  # a game in progress: the moves /move made
    finally:
        await repository.close()
    assert report["startup"]["problem"] is None and report["startup"]["seconds"] > 0
    assert report["startup"]["rss_kib"] > 0
