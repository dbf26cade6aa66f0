"""`tabula bench ai GAME --speed`: search iterations per second from fixed positions.

The positions come from seeded random play (a stone at a time in Diffusion Chess), so
the same command searches the same positions on every run and every branch.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from bot import ai
from bot.ai import mcts
from bot.bench import old_hard
from bot.bench.old_hard import mcts as old_mcts
from rules import GameState, get_game
from rules.diffusion import DiffusionState

SPEED_PLIES = (6, 16, 30)
"""Random plies from the start to each measured position (opening, early, middle)."""


@dataclass(frozen=True, slots=True)
class SpeedFigure:
    """One timed search."""

    player: str
    """`hard` (the live search) or `old` (the frozen one)."""
    plies: int
    iterations: int
    seconds: float

    @property
    def rate(self) -> float:
        """Iterations per second."""
        return self.iterations / self.seconds if self.seconds else 0.0


def random_move(state: GameState[Any], rng: random.Random) -> Any:
    """A random legal move (Diffusion Chess: a random movable stone, then a path of it)."""
    if isinstance(state, DiffusionState):
        stones = state.stones(state.to_move)
        rng.shuffle(stones)
        for col, row in stones:
            moves = state.moves_from(col, row)
            if moves:
                return rng.choice(moves)
    return rng.choice(list(state.legal_moves()))


def speed_position(game: str, options: dict[str, str], plies: int, seed: int) -> GameState[Any]:
    """The position after up to `plies` seeded random moves (never a finished one)."""
    rng = random.Random(seed)
    state: GameState[Any] = get_game(game).new_game(**options)
    for _ in range(plies):
        after = state.play(random_move(state, rng))
        if after.outcome() is not None:
            break
        state = after
    return state


def measure_speed(game: str, options: dict[str, str], seconds: float) -> list[SpeedFigure]:
    """Search each speed position for `seconds` of this process's CPU time with the live
    search and with the old one, in turn (so that both see the same load)."""
    figures = []
    for index, plies in enumerate(SPEED_PLIES):
        state = speed_position(game, options, plies, index + 1)
        # CPU time, not wall time: the rate stays comparable on a busy, shared machine.
        started = time.process_time()
        watch = ai.Stopwatch(ai.Budget(seconds=seconds), time.process_time)
        result = mcts.search(state, ai.policy_for(game), watch, random.Random(index))
        figures.append(SpeedFigure("hard", plies, result.iterations, time.process_time() - started))
        started = time.process_time()
        old_watch = old_hard.Stopwatch(old_hard.Budget(seconds=seconds), time.process_time)
        old_policy = old_hard.policy_for(game)
        old = old_mcts.search(state, old_policy, old_watch, random.Random(index))
        figures.append(SpeedFigure("old", plies, old.iterations, time.process_time() - started))
    return figures


def describe_speed(game: str, figures: list[SpeedFigure]) -> str:
    """The figures in words: each player's overall rate, then each search."""
    lines = []
    rates = {}
    for player in ("hard", "old"):
        mine = [f for f in figures if f.player == player]
        rates[player] = sum(f.iterations for f in mine) / max(sum(f.seconds for f in mine), 1e-9)
    lines.append(
        f"{game}: hard {rates['hard']:.0f}, old {rates['old']:.0f} iterations per CPU second "
        f"(× {rates['hard'] / max(rates['old'], 1e-9):.2f})"
    )
    lines += [
        f"  {f.player} after {f.plies} plies: {f.iterations} iterations in {f.seconds:.2f} s "
        f"({f.rate:.0f}/s)"
        for f in figures
    ]
    return "\n".join(lines)
