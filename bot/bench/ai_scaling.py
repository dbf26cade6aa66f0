"""`tabula bench ai GAME --scaling`: how much a `hard` move's search grows with the worker
processes searching it at once (root parallelism, as the bot runs it)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from bot.bench.ai_speed import SPEED_PLIES, speed_position
from bot.services.computer.runner import TurnRequest, search_move

SEED_STEP = 7919
"""Between the workers' seeds, as the bot's runner spaces them."""


@dataclass(frozen=True, slots=True)
class ScalingFigure:
    """One move searched by `workers` processes at once."""

    workers: int
    plies: int
    visits: int
    """The root's visits added up over the workers (each an iteration)."""
    seconds: float
    """Wall time from the requests to the last report."""


def measure_scaling(
    game: str, options: dict[str, str], seconds: float, most: int
) -> list[ScalingFigure]:
    """Search each speed position with 1 to `most` workers at once, a fresh pool for each
    count (warmed up first, so that starting processes is not timed)."""
    figures = []
    for workers in range(1, most + 1):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            warm = speed_position(game, options, 2, 0)
            warm_up = TurnRequest(game, warm.encode(), "hard", 0.05, seed=0)
            list(pool.map(search_move, [warm_up] * workers))
            for index, plies in enumerate(SPEED_PLIES):
                state = speed_position(game, options, plies, index + 1)
                request = TurnRequest(game, state.encode(), "hard", seconds, seed=index + 1)
                requests = [
                    replace(request, seed=request.seed + SEED_STEP * k) for k in range(workers)
                ]
                started = time.perf_counter()
                reports = list(pool.map(search_move, requests))
                wall = time.perf_counter() - started
                visits = sum(sum(report.visits.values()) for report in reports)
                figures.append(ScalingFigure(workers, plies, visits, wall))
    return figures


def describe_scaling(game: str, figures: list[ScalingFigure]) -> str:
    """The figures in words: each worker count's rate and its ratio to one worker's."""
    rates: dict[int, float] = {}
    for workers in sorted({f.workers for f in figures}):
        mine = [f for f in figures if f.workers == workers]
        rates[workers] = sum(f.visits for f in mine) / max(sum(f.seconds for f in mine), 1e-9)
    load = os.getloadavg()[0]
    lines = [f"{game}: iterations per wall second of a hard move (load average {load:.1f})"]
    for workers, rate in rates.items():
        lines.append(f"  {workers} worker(s): {rate:.0f}/s (× {rate / max(rates[1], 1e-9):.2f})")
    lines += [
        f"    {f.workers} worker(s) after {f.plies} plies: {f.visits} iterations in "
        f"{f.seconds:.2f} s"
        for f in figures
    ]
    return "\n".join(lines)
