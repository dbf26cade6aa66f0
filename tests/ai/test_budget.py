"""Budgets, levels and the stopwatch that keeps a search within its budget."""

from __future__ import annotations

import pytest

from bot.ai import Budget, Level, Stopwatch, budget_for, parse_level
from bot.ai.levels import HARD_LOOKAHEAD
from tests.ai.conftest import FakeTime


def test_a_budget_needs_a_limit() -> None:
    """A budget without any limit, or with a non-positive one, is refused."""
    with pytest.raises(ValueError, match="needs an iteration limit"):
        Budget()
    with pytest.raises(ValueError, match="at least 1"):
        Budget(iterations=0)
    with pytest.raises(ValueError, match="positive"):
        Budget(seconds=0)


def test_iteration_limit_stops_exactly() -> None:
    """A search with 5 iterations is exhausted after the fifth tick, not before."""
    watch = Stopwatch(Budget(iterations=5), FakeTime(1.0))
    for _ in range(5):
        assert not watch.exhausted()
        watch.tick()
    assert watch.exhausted()


def test_time_limit_keeps_a_reserve_for_the_slowest_iteration() -> None:
    """With iterations of 0.1 s and a 1 s budget, the search stops while one more fits."""
    clock = FakeTime(0.05)  # two reads per iteration: tick() and exhausted()
    watch = Stopwatch(Budget(seconds=1.0), clock)
    while not watch.exhausted():
        watch.tick()
    assert watch.elapsed() + watch.slowest <= 1.0
    assert 5 <= watch.iterations <= 8


def test_levels_budgets() -> None:
    """easy and medium have iteration limits and a share of the time; hard all the time,
    and the tactical lookahead."""
    assert budget_for(Level.EASY, 5.0) == Budget(iterations=60, seconds=0.5)
    assert budget_for(Level.MEDIUM, 5.0) == Budget(iterations=600, seconds=2.5)
    assert budget_for(Level.HARD, 5.0) == Budget(
        iterations=None, seconds=5.0, lookahead=HARD_LOOKAHEAD
    )
    assert budget_for(Level.HARD, 2.0).seconds == 2.0


def test_parse_level() -> None:
    """Levels are read case-insensitively; an unknown one names the choices."""
    assert parse_level(" Hard ") is Level.HARD
    with pytest.raises(ValueError, match="easy, medium, hard"):
        parse_level("expert")
