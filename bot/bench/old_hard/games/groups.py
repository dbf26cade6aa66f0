"""Knowledge of Groups: pull the stones together, and judge positions by how scattered
each side's stones are (orthogonal groups, and distance from their middle)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bot.bench.old_hard.bits import set_bits
from bot.bench.old_hard.policy import Move, Policy, State, logistic, register_policy
from rules.groups import SIZE, GroupsMove, GroupsState

_NOT_COL_A = sum(1 << (r * SIZE) for r in range(SIZE)) ^ ((1 << SIZE * SIZE) - 1)
_NOT_COL_H = sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE)) ^ ((1 << SIZE * SIZE) - 1)
GROUP_WEIGHT = 3.0
"""How many units of spread one extra orthogonal group is worth."""
SCALE = 0.35
"""Converts a difference in scatter into a winning chance."""
GREEDY = 0.8
"""The share of playout moves that bring a stone closer to its side's middle."""


def _grow(bits: int) -> int:
    """`bits` with every orthogonal neighbour added."""
    return (
        bits
        | (bits << SIZE)
        | (bits >> SIZE)
        | ((bits & _NOT_COL_H) << 1)
        | ((bits & _NOT_COL_A) >> 1)
    )


def group_count(bits: int) -> int:
    """The number of orthogonally connected groups among the stones in `bits`."""
    count = 0
    while bits:
        reach = bits & -bits
        while True:
            grown = _grow(reach) & bits
            if grown == reach:
                break
            reach = grown
        bits ^= reach
        count += 1
    return count


def spread(bits: int) -> int:
    """The sum of the stones' orthogonal distances from their median cell."""
    cells = set_bits(bits)
    if not cells:
        return 0
    cols = sorted(cell % SIZE for cell in cells)
    rows = sorted(cell // SIZE for cell in cells)
    mid = (len(cells) - 1) // 2
    col, row = cols[mid], rows[mid]
    return sum(abs(c - col) for c in cols) + sum(abs(r - row) for r in rows)


def scatter(bits: int) -> float:
    """How far the stones in `bits` are from one group: 0 is impossible, lower is better."""
    return GROUP_WEIGHT * (group_count(bits) - 1) + spread(bits)


class GroupsPolicy(Policy):
    """Moves that gather one's stones first; playouts pull stones towards their middle."""

    playout_depth = 10
    widening = (2.0, 0.5)

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        assert isinstance(state, GroupsState)
        mover = state.to_move
        scored = []
        for move in state.legal_moves():
            after = state.play(move)
            outcome = after.outcome()
            if outcome is not None and outcome.winner == mover:
                return [move]
            own = after.black if mover else after.white
            scored.append((scatter(own) + rng.random() * 0.5, move))
        scored.sort(key=lambda pair: pair[0])
        return [move for _, move in scored]

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        assert isinstance(state, GroupsState)
        moves = list(state.legal_moves())
        if not moves:
            return None
        if rng.random() >= GREEDY:
            return rng.choice(moves)
        own = state.black if state.to_move else state.white
        cells = set_bits(own)
        col = sum(cell % SIZE for cell in cells) / len(cells)
        row = sum(cell // SIZE for cell in cells) / len(cells)
        closer = [move for move in moves if _gain(move, col, row) > 0.5]
        return rng.choice(closer or moves)

    def evaluate(self, state: State) -> float:
        assert isinstance(state, GroupsState)
        return logistic(SCALE * (scatter(state.black) - scatter(state.white)))

    def winning_candidates(self, state: State) -> Iterable[Move]:
        return state.legal_moves()


def _gain(move: GroupsMove, col: float, row: float) -> float:
    """How much closer (orthogonal distance) the move brings its stone to (col, row)."""
    if move.origin is None:
        return 1.0
    before = abs(move.origin % SIZE - col) + abs(move.origin // SIZE - row)
    after = abs(move.target % SIZE - col) + abs(move.target // SIZE - row)
    return before - after


register_policy("groups", GroupsPolicy)
