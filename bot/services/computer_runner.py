"""Running the computer player's searches off the event loop, in worker processes.

A search is pure CPU work of up to the time budget; run on the event loop it would
freeze the bot. `TurnRunner` sends each search to an executor: a process pool in the
bot (several computer games think at once, one per worker), a synchronous executor in
tests. A request carries the encoded state, so workers need nothing but the engines.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass

from bot.ai import Budget, Level, budget_for, choose_move, choose_turn
from rules import get_game

ESTIMATE_ITERATIONS = 300
"""Iterations of the quick search that judges a position (e.g. before accepting a draw)."""


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """What a worker needs to choose the computer's moves for one turn."""

    game: str
    """The game's name in the registry."""
    encoded: str
    """The state, as `encode()` wrote it."""
    level: str
    """The computer's level (`easy`, `medium`, `hard`)."""
    seconds: float
    """The `hard` level's time budget for one answer."""
    seed: int
    """Makes the search repeatable (the same request gives the same moves at a level
    limited by iterations)."""


def compute_turn(request: TurnRequest) -> list[str]:
    """The computer's moves for its whole turn, in notation (runs in a worker)."""
    state = get_game(request.game).decode(request.encoded)
    budget = budget_for(Level(request.level), request.seconds)
    return [decision.notation for decision in choose_turn(state, budget, seed=request.seed)]


def estimate(request: TurnRequest) -> float:
    """The chance the player to move wins, by a quick search (runs in a worker)."""
    state = get_game(request.game).decode(request.encoded)
    budget = Budget(iterations=ESTIMATE_ITERATIONS, seconds=min(1.0, request.seconds))
    decision = choose_move(state, budget, seed=request.seed)
    if decision.reason == "wins at once":
        return 1.0
    return 0.5 if decision.value is None else decision.value


class TurnRunner:
    """Computes the computer's turns in an executor, so that the event loop never blocks."""

    def __init__(self, executor: Executor | None = None, *, workers: int = 1) -> None:
        self._executor = executor
        self._workers = max(1, workers)
        self._owned = False

    @property
    def workers(self) -> int:
        """How many searches can run at once (for a process pool made here)."""
        return self._workers

    def _pool(self) -> Executor:
        """The executor; a process pool is started on first use, not before."""
        if self._executor is None:
            # Workers are spawned, not forked: the bot's process runs threads (the
            # database's, the event loop's helpers) that a fork would copy mid-flight.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=self._workers, mp_context=context)
            self._owned = True
        return self._executor

    async def choose(self, request: TurnRequest) -> list[str]:
        """The computer's moves for its turn."""
        return await asyncio.get_running_loop().run_in_executor(self._pool(), compute_turn, request)

    async def estimate(self, request: TurnRequest) -> float:
        """The chance the player to move wins, by a quick search."""
        return await asyncio.get_running_loop().run_in_executor(self._pool(), estimate, request)

    def close(self) -> None:
        """Stop the process pool this runner started (searches under way are dropped)."""
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            self._owned = False
