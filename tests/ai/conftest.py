"""Helpers for the computer player's tests: a fake time source and random positions."""

from __future__ import annotations

import random
from typing import Any

from rules import GameState, get_game
from rules.diffusion import DiffusionState

TEST_OPTIONS: dict[str, dict[str, object]] = {
    "hexade": {"size": 6},
    "rekushu": {"size": 8},
    "stones": {"size": 7},
}
"""Small boards keep the generic tests fast; games not listed use their defaults."""


class FakeTime:
    """A time source that advances by `step` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def random_move(state: GameState[Any], rng: random.Random) -> Any:
    """A random legal move; in Diffusion Chess a random stone first, then its destination
    (listing all of a position's thousands of paths each time would be slow)."""
    if isinstance(state, DiffusionState):
        stones = state.stones(state.to_move)
        rng.shuffle(stones)
        for col, row in stones:
            moves = state.moves_from(col, row)
            if moves:
                return rng.choice(moves)
    return rng.choice(list(state.legal_moves()))


def random_position(game_name: str, plies: int, seed: int) -> GameState[Any]:
    """A position after up to `plies` random moves from the start (never a finished one)."""
    rng = random.Random(seed)
    state: GameState[Any] = get_game(game_name).new_game(**TEST_OPTIONS.get(game_name, {}))
    for _ in range(plies):
        after = state.play(random_move(state, rng))
        if after.outcome() is not None:
            break
        state = after
    return state
