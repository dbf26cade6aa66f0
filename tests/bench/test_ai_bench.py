"""`tabula bench ai`: the statistics and a real (tiny) match through the command line."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.ai import Level, budget_for
from bot.ai.budget import Budget
from bot.ai.trees import TreeKeeper
from bot.bench import ai_match
from bot.bench.ai_bench import MATCHES, Match, parse_match, summarise
from bot.bench.ai_match import GameRecord, GameSpec, play_game, wilson
from bot.bench.ai_scaling import describe_scaling, measure_scaling
from bot.bench.ai_speed import SPEED_PLIES
from bot.cli import main


def test_wilson_interval_known_values() -> None:
    """20 wins in 20 games: 83.9–100 %; 7 in 10: 39.7–89.2 %; no games: 0–100 %."""
    low, high = wilson(20, 20)
    assert round(low, 3) == 0.839 and high == 1.0
    low, high = wilson(7, 10)
    assert (round(low, 3), round(high, 3)) == (0.397, 0.892)
    assert wilson(0, 0) == (0.0, 1.0)


def test_parse_match() -> None:
    """Named matches, any two players, and a clear error otherwise."""
    assert parse_match("hard-random") is MATCHES["hard-random"]
    assert parse_match("medium-easy") == Match("medium", "easy", None)
    with pytest.raises(Exception, match="two players"):
        parse_match("hard-expert")


def _record(seats: tuple[str, str], winner: int | None, seconds: list[float]) -> GameRecord:
    spec = GameSpec("groups", {}, seats, 5.0, 1)
    ai = seats.index("hard")
    return GameRecord(spec, winner, "", 10, {ai: seconds}, {ai: seconds})


def test_summary_counts_by_player_not_by_seat() -> None:
    """Wins are credited to the player whichever seat it had; times are per player."""
    records = [
        _record(("hard", "random"), 0, [1.0, 3.0]),
        _record(("random", "hard"), 1, [2.0]),
        _record(("random", "hard"), 0, [4.0]),
        _record(("hard", "random"), None, [0.5]),
    ]
    report = summarise(MATCHES["hard-random"], records)
    assert (report["wins"], report["draws"], report["losses"]) == (2, 1, 1)
    assert report["win_rate"] == 0.5 and not report["target_met"]
    assert report["seconds"]["hard"]["turn_max"] == 4.0
    assert report["seconds"]["hard"]["turns"] == 5


def test_a_game_is_played_to_its_end() -> None:
    """A worker's game ends with an outcome and records the computer's answer times."""
    record = play_game(GameSpec("groups", {}, ("easy", "random"), 5.0, 3))
    assert record.reason and record.plies > 0
    assert len(record.turn_seconds[0]) == (record.plies + 1) // 2
    assert 1 not in record.turn_seconds


def test_a_hard_seat_searches_on_from_its_kept_trees(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in the bot's workers, each `hard` seat of a match keeps its own trees and finds
    the positions reached in them; other levels keep none."""
    keepers: list[TreeKeeper] = []

    class Recording(TreeKeeper):
        def __init__(self) -> None:
            super().__init__()
            keepers.append(self)

    def by_iterations(level: Level, seconds: float) -> Budget:
        # An iteration count instead of a time allowance: the same trees on any machine.
        return dataclasses.replace(budget_for(level, seconds), iterations=1000, seconds=None)

    monkeypatch.setattr(ai_match, "TreeKeeper", Recording)
    monkeypatch.setattr(ai_match, "budget_for", by_iterations)
    record = play_game(GameSpec("hexade", {}, ("hard", "random"), 1, 2))
    assert record.reason
    assert len(keepers) == 1
    assert keepers[0].found > 0


def test_command_line_match(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula bench ai groups --games 2 --match easy-random --json` reports the match."""
    status = main(
        [
            "bench",
            "ai",
            "groups",
            "--games",
            "2",
            "--match",
            "easy-random",
            "--workers",
            "1",
            "--json",
        ]
    )
    report = json.loads(capsys.readouterr().out.strip())
    assert report["match"] == "easy-random" and report["games"] == 2
    assert report["wins"] + report["draws"] + report["losses"] == 2
    assert status == (0 if report["target_met"] else 1)


def test_scaling_searches_each_position_with_each_worker_count() -> None:
    """`--scaling` searches every speed position with 1 and 2 workers; a position the
    search plays at once (a forced win) counts no iterations, the others count each
    worker's."""
    figures = measure_scaling("groups", {}, 0.1, 2)
    assert [(f.workers, f.plies) for f in figures] == [
        (workers, plies) for workers in (1, 2) for plies in SPEED_PLIES
    ]
    searched = [f for f in figures if f.visits]
    assert searched and all(f.seconds > 0 for f in searched)
    text = describe_scaling("groups", figures)
    assert "1 worker(s):" in text and "2 worker(s):" in text
