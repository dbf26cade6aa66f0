"""`tabula bench bot` runs end to end on a tiny scale (the figures themselves are not tested)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.bench.bot_bench import bot_cpus, measure, random_moves
from rules import get_game
from tests.databases import Backend


def test_random_moves_are_legal_and_stop_before_the_end() -> None:
    """The prepared moves replay legally and never finish the game."""
    moves = random_moves("groups", 30, random.Random(2))
    state = get_game("groups").new_game()
    for seat, notation in moves:
        assert state.to_move == seat
        state = state.play_text(notation)
    assert not state.is_game_over()


async def test_a_tiny_benchmark(tmp_path: Path) -> None:
    """Three games, short phases: moves are answered and reported with their latency,
    while a player answers the computer in a game of their own."""
    report = await measure(
        games=3,
        seconds=0.6,
        rate=10.0,
        concurrency=2,
        names=["groups", "stones", "hexade"],
        plies=12,
        seed=1,
        database=tmp_path / "bench.sqlite3",
        cpus=[None],  # unpinned: a busy test machine must not starve the bot of its 3 seconds
        computer=(1, "groups", "easy"),
    )
    paced, saturated = report["phases"]
    assert paced["phase"] == "paced" and saturated["phase"] == "saturated"
    for phase in (paced, saturated):
        assert phase["moves"] > 0 and phase["errors"] == 0
        assert 0 < phase["p50_ms"] <= phase["p99_ms"] <= phase["max_ms"]
    assert report["games"] == 3
    assert report["computer_answers"] >= 1 and report["computer_errors"] == 0
    assert (report["games_checked"], report["games_disagreeing"]) == (4, 0)


async def test_a_tiny_benchmark_with_two_processes(postgres_backend: Backend) -> None:
    """Two bot processes over PostgreSQL, one shard each: the games of both servers are
    answered, and every game agrees with its moves at the end."""
    report = await measure(
        games=4,
        seconds=0.6,
        rate=10.0,
        concurrency=2,
        names=["groups", "hexade"],
        plies=12,
        seed=2,
        database=postgres_backend.location,
        cpus=[None, None],
    )
    assert (report["database"], report["processes"]) == ("postgresql", 2)
    for phase in report["phases"]:
        assert phase["moves"] > 0 and phase["errors"] == 0
    assert (report["games_checked"], report["games_disagreeing"]) == (4, 0)


def test_bot_processes_get_a_cpu_each_while_there_are_enough() -> None:
    """One process: the chosen CPU (or the first); several: one each, or none at all."""
    assert bot_cpus(1, None, {2, 3}) == [2]
    assert bot_cpus(1, 3, {2, 3}) == [3]
    assert bot_cpus(2, None, {0, 1}) == [0, 1]
    assert bot_cpus(3, None, {0, 1}) == [None, None, None]
