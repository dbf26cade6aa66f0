"""`tabula bench bot` runs end to end on a tiny scale (the figures themselves are not tested)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.bench.bot_bench import measure, random_moves
from rules import get_game


def test_random_moves_are_legal_and_stop_before_the_end() -> None:
    """The prepared moves replay legally and never finish the game."""
    moves = random_moves("groups", 30, random.Random(2))
    state = get_game("groups").new_game()
    for seat, notation in moves:
        assert state.to_move == seat
        state = state.play_text(notation)
    assert not state.is_game_over()


async def test_a_tiny_benchmark(tmp_path: Path) -> None:
    """Three games, short phases: moves are answered and reported with their latency."""
    report = await measure(
        games=3,
        seconds=0.6,
        rate=10.0,
        concurrency=2,
        names=["groups", "stones", "hexade"],
        plies=12,
        seed=1,
        database=tmp_path / "bench.sqlite3",
        cpu=None,  # unpinned: a busy test machine must not starve the bot of its 3 seconds
    )
    paced, saturated = report["phases"]
    assert paced["phase"] == "paced" and saturated["phase"] == "saturated"
    for phase in (paced, saturated):
        assert phase["moves"] > 0 and phase["errors"] == 0
        assert 0 < phase["p50_ms"] <= phase["p99_ms"] <= phase["max_ms"]
    assert report["games"] == 3
