"""An exhaustive forced-win search over every legal move, independent of the computer
player's code: the tactics tests check their positions with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import GameState

State = GameState[Any]


def forced_win(
    state: State,
    seat: int,
    plies: int,
    order: Callable[[State, list[Any]], list[Any]] | None = None,
) -> bool:
    """True when `seat` wins within `plies` plies whatever the other player does.

    Every legal move is tried at every ply (`order` only changes the order of the
    winner's moves, so that a proof is found sooner).
    """
    outcome = state.outcome()
    if outcome is not None:
        return outcome.winner == seat
    if plies == 0:
        return False
    moves = list(state.legal_moves())
    if order is not None and state.to_move == seat:
        moves = order(state, moves)
    if state.to_move == seat:
        return any(forced_win(state.play(move), seat, plies - 1, order) for move in moves)
    return all(forced_win(state.play(move), seat, plies - 1, order) for move in moves)


def shortest_win(state: State, most: int, order: Callable[..., list[Any]] | None = None) -> int:
    """The fewest plies within which the player to move forces a win (0 if none ≤ most)."""
    seat = state.to_move
    for plies in range(1, most + 1):
        if forced_win(state, seat, plies, order):
            return plies
    return 0
