"""The runner's root parallelism: merging workers' reports, and a hard turn through it."""

from __future__ import annotations

import os
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

from bot.services.computer.runner import (
    MoveReport,
    TurnRequest,
    TurnRunner,
    merge_reports,
    start_worker,
    usable_cores,
)
from rules import get_game


class InlineExecutor(Executor):
    """Runs each call at once in the caller's thread."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_a_forced_win_beats_any_number_of_visits() -> None:
    """A worker that found a forced win decides, whatever the others' visits say."""
    reports = [
        MoveReport("a1", "search", {"a1": 900, "b2": 10}),
        MoveReport("b2", "forced win"),
    ]
    assert merge_reports(reports).notation == "b2"


def test_visits_are_added_up_and_proven_losses_avoided() -> None:
    """The workers' choices are ranked by their summed visits; one proven lost is out."""
    reports = [
        MoveReport("a1", "search", {"a1": 500, "b2": 400}),
        MoveReport("b2", "search", {"a1": 100, "b2": 300}),
    ]
    assert merge_reports(reports).notation == "b2"
    lost = [
        MoveReport("a1", "search", {"a1": 900}),
        MoveReport("c3", "avoids a loss", {"a1": 900, "c3": 5}, frozenset({"a1"})),
    ]
    assert merge_reports(lost).notation == "c3"


async def test_a_hard_diffusion_turn_is_searched_move_by_move() -> None:
    """Root parallelism over two (inline) workers still plays a whole, legal turn."""
    state = get_game("diffusion").new_game()
    runner = TurnRunner(InlineExecutor(), workers=2)
    request = TurnRequest("diffusion", state.encode(), "hard", 0.5, 3)
    moves = await runner.choose(request)
    seat = state.to_move
    for notation in moves:
        assert state.to_move == seat
        state = state.play(state.parse_move(notation))
    assert state.to_move != seat or state.outcome() is not None


def test_usable_cores() -> None:
    """At least one core is usable."""
    assert usable_cores() >= 1


def test_workers_yield_the_cpu_to_the_bot() -> None:
    """A worker runs only when the CPU is otherwise idle (Linux's idle class), so the
    bot's answers to players go first on a busy core."""
    with ProcessPoolExecutor(
        max_workers=1, initializer=start_worker, initargs=(os.getpid(),)
    ) as workers:
        policy = workers.submit(os.sched_getscheduler, 0).result(timeout=60)
    assert os.sched_getscheduler(0) != os.SCHED_IDLE
    assert policy == os.SCHED_IDLE
