"""Knowledge of Groups: pull the stones together, and judge positions by how scattered
each side's stones are (orthogonal groups, and distance from their middle)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bot.ai.bits import set_bits
from bot.ai.policy import Move, Policy, State, logistic, register_policy
from rules.groups import DROP_AREA, SIZE, STONES, GroupsMove, GroupsState

_NOT_COL_A = sum(1 << (r * SIZE) for r in range(SIZE)) ^ ((1 << SIZE * SIZE) - 1)
_NOT_COL_H = sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE)) ^ ((1 << SIZE * SIZE) - 1)
GROUP_WEIGHT = 3.0
"""How many units of spread one extra orthogonal group is worth."""
SCALE = 0.35
"""Converts a difference in scatter into a winning chance."""
GREEDY = 0.8
"""The share of playout moves that bring a stone closer to its side's middle."""
GREEDY_TRIES = 24
"""Random (stone, direction) draws a playout tries for a move closer to the middle."""
_DROP_MASK = sum(1 << cell for cell in DROP_AREA)


def _ray_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, per direction on the board: (neighbour, cell beyond it or -1)."""
    table = []
    for cell in range(SIZE * SIZE):
        col, row = cell % SIZE, cell // SIZE
        rays = []
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (dc or dr) and 0 <= col + dc < SIZE and 0 <= row + dr < SIZE:
                    c2, r2 = col + 2 * dc, row + 2 * dr
                    beyond = r2 * SIZE + c2 if 0 <= c2 < SIZE and 0 <= r2 < SIZE else -1
                    rays.append(((row + dr) * SIZE + col + dc, beyond))
        table.append(tuple(rays))
    return tuple(table)


_RAYS = _ray_table()


def _grow(bits: int) -> int:
    """`bits` with every orthogonal neighbour added."""
    return (
        bits
        | (bits << SIZE)
        | (bits >> SIZE)
        | ((bits & _NOT_COL_H) << 1)
        | ((bits & _NOT_COL_A) >> 1)
    )


def components(bits: int) -> list[int]:
    """The orthogonally connected groups among the stones in `bits`, as bit masks."""
    found = []
    while bits:
        reach = bits & -bits
        while True:
            grown = _grow(reach) & bits
            if grown == reach:
                break
            reach = grown
        bits ^= reach
        found.append(reach)
    return found


def joining_cells(bits: int) -> int:
    """The cells orthogonally next to every group among `bits` (a stone there joins all)."""
    cells = -1
    for group in components(bits):
        cells &= _grow(group) & ~group
    return cells


def reach(cell: int, occupied: int) -> int:
    """The cells a stone on `cell` can step or jump to."""
    targets = 0
    for near, beyond in _RAYS[cell]:
        if not occupied >> near & 1:
            targets |= 1 << near
        elif beyond >= 0 and not occupied >> beyond & 1:
            targets |= 1 << beyond
    return targets


def connecting_move(state: GroupsState) -> GroupsMove | None:
    """A move that connects all six stones of the player to move, if there is one."""
    own = state.black if state.to_move else state.white
    occupied = state.white | state.black
    if own.bit_count() < STONES:
        if own.bit_count() != STONES - 1:
            return None
        cells = joining_cells(own) & _DROP_MASK & ~occupied
        return GroupsMove(None, (cells & -cells).bit_length() - 1) if cells else None
    for cell in set_bits(own):
        targets = joining_cells(own ^ (1 << cell)) & reach(cell, occupied)
        if targets:
            return GroupsMove(cell, (targets & -targets).bit_length() - 1)
    return None


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
        own = state.black if state.to_move else state.white
        if own.bit_count() == STONES and state.result is None:
            # Draw (stone, direction) pairs instead of listing every move: most draws
            # give a legal move, and the first one good enough is played.
            greedy = rng.random() < GREEDY
            occupied = state.white | state.black
            cells = set_bits(own)
            col = sum(cell % SIZE for cell in cells) / len(cells)
            row = sum(cell // SIZE for cell in cells) / len(cells)
            for _ in range(GREEDY_TRIES):
                origin = rng.choice(cells)
                near, beyond = rng.choice(_RAYS[origin])
                if not occupied >> near & 1:
                    target = near
                elif beyond >= 0 and not occupied >> beyond & 1:
                    target = beyond
                else:
                    continue
                move = GroupsMove(origin, target)
                if not greedy or _gain(move, col, row) > 0.5:
                    return move
        moves = list(state.legal_moves())
        if not moves:
            return None
        if rng.random() >= GREEDY or own.bit_count() < STONES:
            return rng.choice(moves)
        cells = set_bits(own)
        col = sum(cell % SIZE for cell in cells) / len(cells)
        row = sum(cell // SIZE for cell in cells) / len(cells)
        closer = [move for move in moves if _gain(move, col, row) > 0.5]
        return rng.choice(closer or moves)

    def evaluate(self, state: State) -> float:
        assert isinstance(state, GroupsState)
        return logistic(SCALE * (scatter(state.black) - scatter(state.white)))

    def attacks(self, state: State, plies: int, rng: random.Random) -> list[Move]:
        # Every legal move, unscored: the tactical search visits many positions, and
        # scoring each move (as `candidates` does) would cost a play per move.
        return list(state.legal_moves())

    def winning_move(self, state: State) -> Move | None:
        # Connection wins, found with bit masks. (A move that leaves the opponent no
        # legal move also wins; the search meets those few as finished games.)
        assert isinstance(state, GroupsState)
        if state.result is not None:
            return None
        return connecting_move(state)

    def winning_candidates(self, state: State) -> Iterable[Move]:
        assert isinstance(state, GroupsState)
        move = connecting_move(state) if state.result is None else None
        return [move] if move is not None else []


def _gain(move: GroupsMove, col: float, row: float) -> float:
    """How much closer (orthogonal distance) the move brings its stone to (col, row)."""
    if move.origin is None:
        return 1.0
    before = abs(move.origin % SIZE - col) + abs(move.origin // SIZE - row)
    after = abs(move.target % SIZE - col) + abs(move.target // SIZE - row)
    return before - after


register_policy("groups", GroupsPolicy)
