"""Search budgets: how many iterations and how much wall time one search may use."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

TimeSource = Callable[[], float]
"""Seconds from an arbitrary fixed point; `time.perf_counter` unless a test injects one."""

MIN_RESERVE = 0.1
"""Fraction of a time budget always kept free, for the work after the search stops."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The limits of one search: an iteration count, a wall-time allowance, or both."""

    iterations: int | None = None
    """The most search iterations (one selection, expansion, playout and backup each)."""
    seconds: float | None = None
    """The most wall time in seconds, from the moment the player is asked for a move."""
    lookahead: int = 0
    """Plies of the exact tactical search around the tree search (0: none): a move that
    lets the opponent force a win within them is avoided, and a forced win of one's own
    within them, or two plies more, is played."""
    tactics_nodes: int = 20_000
    """The most positions the tactical search visits for one move."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs an iteration limit, a time limit or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("the iteration limit must be at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("the time limit must be positive")
        if self.lookahead < 0 or self.tactics_nodes < 1:
            raise ValueError("the lookahead must be at least 0 and the node limit at least 1")

    def with_seconds(self, seconds: float | None) -> Budget:
        """The same budget with another time limit (None removes it)."""
        return replace(self, seconds=seconds)


class Stopwatch:
    """Follows one search against its budget and says when to stop.

    A time-limited search stops early enough that one more iteration, even the slowest
    seen so far, still fits: the caller gets its answer within the budget.
    """

    def __init__(self, budget: Budget, time_source: TimeSource = time.perf_counter) -> None:
        self.budget = budget
        self._now = time_source
        self.started = time_source()
        self._last = self.started
        self.iterations = 0
        """Iterations completed so far."""
        self.slowest = 0.0
        """The longest iteration so far, in seconds."""

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return self._now() - self.started

    def tick(self) -> None:
        """Record one finished iteration."""
        now = self._now()
        self.slowest = max(self.slowest, now - self._last)
        self._last = now
        self.iterations += 1

    def exhausted(self) -> bool:
        """True when another iteration might overrun the budget."""
        budget = self.budget
        if budget.iterations is not None and self.iterations >= budget.iterations:
            return True
        if budget.seconds is None:
            return False
        reserve = max(3 * self.slowest, MIN_RESERVE * budget.seconds)
        return self.elapsed() + reserve >= budget.seconds

    def iterations_left(self) -> float:
        """A cautious estimate of the iterations the budget still allows."""
        budget = self.budget
        left = float("inf")
        if budget.iterations is not None:
            left = budget.iterations - self.iterations
        if budget.seconds is not None and self.iterations:
            elapsed = max(self.elapsed(), 1e-9)
            rate = self.iterations / elapsed
            # Twice the average rate: an estimate that errs towards searching on.
            left = min(left, 2 * rate * max(budget.seconds - elapsed, 0.0) + 1)
        return left
