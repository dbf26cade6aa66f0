"""Running the computer player's searches off the event loop, in worker processes.

A search is pure CPU work of up to the time budget; run on the event loop it would
freeze the bot. `TurnRunner` sends each search to an executor: a process pool in the
bot (several computer games think at once, one per worker), a synchronous executor in
tests. A request carries the encoded state, so workers need nothing but the engines.

At the `hard` level a move is searched by every idle worker at once, each with its own
seed (root parallelism): the runner adds up their visits and plays the best move one
of them checked. Each worker keeps its latest trees (`TreeKeeper`), so when the next
request of a game reaches it, its search goes on from the subtree of the position
reached (the replies played meanwhile), not from nothing.
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TypeVar

from bot.ai import Budget, Level, budget_for, choose_move, choose_turn, policy_for
from bot.ai.player import TURN_SHARE
from bot.ai.trees import TreeKeeper
from rules import get_game

T = TypeVar("T")
ESTIMATE_ITERATIONS = 300
"""Iterations of the quick search that judges a position (e.g. before accepting a draw)."""
MIN_ESTIMATE_ITERATIONS = 100
"""Fewer iterations than this (a machine too busy to search in the time) judge nothing:
the estimate is then even, so that the computer never accepts a draw on a guess."""


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
    played: tuple[str, ...] = ()
    """Moves of this turn already chosen (`search_move`: search the move after them)."""


@dataclass(frozen=True, slots=True)
class MoveReport:
    """One worker's answer for one move of a root-parallel search."""

    notation: str
    reason: str
    visits: dict[str, int] = field(default_factory=dict)
    """Per root move searched (in notation): the worker's visits."""
    lost: frozenset[str] = frozenset()
    """Root moves the worker proved lost."""
    continues: bool = False
    """True when the same player still moves after this move (a multi-move turn)."""


TREES = TreeKeeper()
"""The latest search trees of this worker process (the `hard` level searches on)."""
DECISIVE = ("wins at once", "forced win")
"""Reasons of a move that wins by force: it is played whatever the others found."""


def search_move(request: TurnRequest) -> MoveReport:
    """Search one `hard` move after `request.played`, keeping the tree (runs in a worker).

    `request.seconds` is the time left for the whole turn; the move gets its share.
    """
    state = get_game(request.game).decode(request.encoded)
    for notation in request.played:
        state = state.play(state.parse_move(notation))
    policy = policy_for(state.game.name)
    seconds = request.seconds / max(1, policy.moves_left_in_turn(state))
    budget = budget_for(Level.HARD, seconds).with_seconds(seconds)
    decision = choose_move(state, budget, seed=request.seed, trees=TREES)
    after = state.play(decision.move)
    report = MoveReport(
        decision.notation,
        decision.reason,
        continues=after.outcome() is None and after.to_move == state.to_move,
    )
    if decision.result is not None:
        seat = state.to_move
        for stats in decision.result.moves:
            report.visits[state.format_move(stats.move)] = stats.visits
        lost = {state.format_move(s.move) for s in decision.result.moves if s.proven == 1 - seat}
        report = replace(report, lost=frozenset(lost))
    return report


def merge_reports(reports: list[MoveReport]) -> MoveReport:
    """The move of a root-parallel search: a forced win if one worker found it, else the
    move with the most visits over all workers among the moves the workers chose (each
    checked by its tactics), avoiding moves any worker proved lost."""
    for report in reports:
        if report.reason in DECISIVE:
            return report
    lost = frozenset().union(*(report.lost for report in reports))
    total: dict[str, int] = {}
    for report in reports:
        for notation, visits in report.visits.items():
            total[notation] = total.get(notation, 0) + visits
    chosen = [report for report in reports if report.notation not in lost] or reports
    return max(chosen, key=lambda report: total.get(report.notation, 0))


def compute_turn(request: TurnRequest) -> list[str]:
    """The computer's moves for its whole turn, in notation (runs in a worker)."""
    state = get_game(request.game).decode(request.encoded)
    level = Level(request.level)
    budget = budget_for(level, request.seconds)
    # Only `hard` searches on from kept trees: the other levels' iteration limits make
    # a request's answer repeatable, which an inherited tree would not be.
    trees = TREES if level is Level.HARD else None
    decisions = choose_turn(state, budget, seed=request.seed, trees=trees)
    return [decision.notation for decision in decisions]


def estimate(request: TurnRequest) -> float:
    """The chance the player to move wins, by a quick search (runs in a worker)."""
    state = get_game(request.game).decode(request.encoded)
    budget = Budget(iterations=ESTIMATE_ITERATIONS, seconds=min(1.0, request.seconds))
    decision = choose_move(state, budget, seed=request.seed)
    if decision.reason == "wins at once":
        return 1.0
    if decision.value is None or decision.iterations < MIN_ESTIMATE_ITERATIONS:
        return 0.5
    return decision.value


WORKER_NICENESS = 19
"""The workers' niceness where Linux's idle scheduling class is missing (the lowest
priority)."""


def start_worker(parent_pid: int) -> None:
    """A worker's initializer: ignore Ctrl-C, yield the CPU to the bot
    (`yield_to_the_bot`), and end with the bot (`die_with_parent`).

    A terminal's Ctrl-C interrupts every process of its group, workers included; the bot
    or the console decides when its workers stop, so a worker must not die of it (and
    print a `KeyboardInterrupt` traceback) first.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    yield_to_the_bot()
    die_with_parent(parent_pid)


def yield_to_the_bot() -> None:
    """Run this worker only when the CPU has nothing else to do (Linux's SCHED_IDLE, else
    the lowest priority): on a busy core the bot's answers to players go first, and a
    search, which is bounded by time, gets fewer iterations instead of slowing them."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(WORKER_NICENESS - os.nice(0))


PR_SET_PDEATHSIG = 1
"""Linux `prctl` option: the signal a process gets when its parent dies."""


def die_with_parent(parent_pid: int) -> None:
    """Make this worker process end when the process that started it ends (`kill -9`
    included); a worker's initializer.

    Without this a worker whose bot was killed waits for work for ever. On Linux the
    kernel sends SIGKILL at the parent's death; everywhere, a thread also waits for the
    parent to go and then ends the process.
    """
    if sys.platform.startswith("linux"):
        kill_on_parent_death()
    if os.getppid() != parent_pid:  # the parent died before we got here
        os._exit(1)
    watch_parent()


def kill_on_parent_death() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (`prctl(PR_SET_PDEATHSIG)`).

    "Parent" is the thread that started the process: the pool must be started from one
    that lives as long as the bot (the event loop's thread).
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not glibc-like: watch_parent still covers it


def watch_parent() -> None:
    """End this process once its multiprocessing parent is gone (a daemon thread)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait_then_exit() -> None:
        parent.join()  # returns when the parent's end of the sentinel pipe closes
        os._exit(1)

    threading.Thread(target=wait_then_exit, name="watch-parent", daemon=True).start()


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity, where the system tells)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class TurnRunner:
    """Computes the computer's turns in an executor, so that the event loop never blocks."""

    def __init__(self, executor: Executor | None = None, *, workers: int = 1) -> None:
        """`workers`: the process pool's size (0: one per CPU core this process may use)."""
        self._executor = executor
        self._workers = workers if workers > 0 else usable_cores()
        self._owned = False
        self._busy = 0
        """Searches sent to the executor and not answered yet."""

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
            self._executor = ProcessPoolExecutor(
                max_workers=self._workers,
                mp_context=context,
                initializer=start_worker,
                initargs=(os.getpid(),),
            )
            self._owned = True
        return self._executor

    async def choose(self, request: TurnRequest) -> list[str]:
        """The computer's moves for its turn (`hard`: searched by every idle worker)."""
        if request.level != Level.HARD.value or self._workers == 1:
            return await self._run(compute_turn, request)
        loop = asyncio.get_running_loop()
        started = loop.time()
        played: list[str] = []
        while True:
            left = max(request.seconds * TURN_SHARE - (loop.time() - started), 1e-3)
            width = max(1, self._workers - self._busy)
            move = replace(request, played=tuple(played), seconds=left)
            reports = await asyncio.gather(
                *(
                    self._run(search_move, replace(move, seed=request.seed + 7919 * k))
                    for k in range(width)
                )
            )
            best = merge_reports(list(reports))
            played.append(best.notation)
            if not best.continues:
                return played

    async def _run(self, function: Callable[[TurnRequest], T], request: TurnRequest) -> T:
        """`function(request)` in the executor, counted as busy meanwhile."""
        self._busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool(), function, request)
        finally:
            self._busy -= 1

    async def estimate(self, request: TurnRequest) -> float:
        """The chance the player to move wins, by a quick search."""
        return await self._run(estimate, request)

    def close(self) -> None:
        """Stop the process pool this runner started (searches under way are dropped)."""
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            self._owned = False
