"""Seeded random games: positions for the gallery, the benchmark and the tests."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import GameState, get_game


def random_game(
    game_name: str, options: Mapping[str, object] | None = None, *, seed: int = 1, plies: int = 200
) -> list[GameState[Any]]:
    """Every position of a game of random legal moves, from the start, at most `plies` moves long.

    The same seed always gives the same game.
    """
    rng = random.Random(seed)
    state = get_game(game_name).new_game(**dict(options or {}))
    states = [state]
    for _ in range(plies):
        moves = list(state.legal_moves())
        if not moves:
            break
        state = state.play(rng.choice(moves))
        states.append(state)
    return states


def finished_game(
    game_name: str, options: Mapping[str, object] | None = None, *, seed: int = 1, plies: int = 2000
) -> list[GameState[Any]]:
    """A random game played to its end (or `plies` moves); tries further seeds for a finish."""
    states = random_game(game_name, options, seed=seed, plies=plies)
    for extra in range(1, 10):
        if states[-1].is_game_over():
            break
        states = random_game(game_name, options, seed=seed + 1000 * extra, plies=plies)
    return states
