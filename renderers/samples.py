"""Seeded random games: positions for the gallery, the benchmark and the tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from rules import GameState, get_game

LIVELY: dict[str, Callable[[Any], bool]] = {
    "rekushu": lambda move: getattr(move, "claim", None) is not None,
}
"""Per game, the moves random play favours so that sample positions show what matters
(Rekushu: claims; purely random players almost never claim)."""
LIVELY_CHANCE = 0.7


def random_game(
    game_name: str, options: Mapping[str, object] | None = None, *, seed: int = 1, plies: int = 200
) -> list[GameState[Any]]:
    """Every position of a game of random legal moves, from the start, at most `plies` moves long.

    The same seed always gives the same game. Moves in `LIVELY` are favoured.
    """
    rng = random.Random(seed)
    game = get_game(game_name)
    state = game.new_game(**dict(options or {}))
    lively = LIVELY.get(game.name)
    states = [state]
    for _ in range(plies):
        moves = list(state.legal_moves())
        if not moves:
            break
        favoured = [move for move in moves if lively(move)] if lively else []
        if favoured and rng.random() < LIVELY_CHANCE:
            moves = favoured
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
