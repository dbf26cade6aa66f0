"""Knowledge of Groups: pull the stones together, and judge positions by how scattered
each side's stones are (orthogonal groups, and distance from their middle)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bot.ai.bits import set_bits
from bot.ai.games.groups_play import has_move, judge, legal_moves, position_key, ray_table
from bot.ai.policy import Move, Policy, State, logistic, outcome_value, register_policy
from rules.groups import DROP_AREA, SIZE, STONES, GroupsMove, GroupsState, is_connected

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


_RAYS = ray_table(tuple((dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr))
"""Per cell, per direction on the board: (neighbour, cell beyond it or -1); the order
in which playouts draw directions."""


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


SCATTER_CACHE = 1 << 16
"""The most stone sets whose scatter is remembered (the memo empties when full): the
search scores the same few thousand sets of one side's stones again and again."""
_SCATTER: dict[int, float] = {}


def scatter(bits: int) -> float:
    """How far the stones in `bits` are from one group: 0 is impossible, lower is better."""
    found = _SCATTER.get(bits)
    if found is None:
        if len(_SCATTER) >= SCATTER_CACHE:
            _SCATTER.clear()
        found = _SCATTER[bits] = GROUP_WEIGHT * (group_count(bits) - 1) + spread(bits)
    return found


class GroupsPolicy(Policy):
    """Moves that gather one's stones first; playouts pull stones towards their middle."""

    playout_depth = 10
    widening = (2.0, 0.5)
    minimax_weight = 0.3

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        assert isinstance(state, GroupsState)
        if state.result is not None:
            return []
        mover = state.to_move
        own, opponent = (state.black, state.white) if mover else (state.white, state.black)
        occupied = own | opponent
        scored = []
        for origin, target in legal_moves(own, occupied):
            bits = 1 << target | (1 << origin if origin >= 0 else 0)
            after = own ^ bits
            move = GroupsMove(origin if origin >= 0 else None, target)
            if after.bit_count() == STONES and is_connected(after):
                return [move]
            if not has_move(opponent, occupied ^ bits):
                # Stuck, the opponent loses, unless a repetition or the move limit draws
                # first: the engine decides.
                outcome = state.play(move).outcome()
                if outcome is not None and outcome.winner == mover:
                    return [move]
            scored.append((scatter(after) + rng.random() * 0.5, move))
        scored.sort(key=lambda pair: pair[0])
        return [move for _, move in scored]

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        assert isinstance(state, GroupsState)
        if state.result is not None:
            return None
        move = _pick(state.white, state.black, state.to_move, rng)
        if move is None:
            return None
        origin, target = move
        return GroupsMove(origin if origin >= 0 else None, target)

    def playout(self, state: State, rng: random.Random) -> float:
        # The engine's rules on bit masks (`groups_play`): the same moves and results as
        # `playout_move()` and `play()` move by move, without a state per move.
        assert isinstance(state, GroupsState)
        if state.result is not None:
            return outcome_value(state.result)
        white, black, to_move, ply = state.white, state.black, state.to_move, state.ply
        history = list(state.history)
        for _ in range(self.playout_depth):
            move = _pick(white, black, to_move, rng)
            if move is None:
                break
            origin, target = move
            bits = 1 << target | (1 << origin if origin >= 0 else 0)
            if to_move:
                black ^= bits
            else:
                white ^= bits
            to_move, ply = 1 - to_move, ply + 1
            if white.bit_count() == STONES and black.bit_count() == STONES:
                history.append(position_key(white, black, to_move))
            reward = judge(white, black, to_move, ply, history)
            if reward is not None:
                return reward
        return _judge_scatter(white, black)

    def evaluate(self, state: State) -> float:
        assert isinstance(state, GroupsState)
        return _judge_scatter(state.white, state.black)

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


def _judge_scatter(white: int, black: int) -> float:
    """Seat 0's chance of winning, judged by how scattered each side's stones are."""
    return logistic(SCALE * (scatter(black) - scatter(white)))


_COL = tuple(cell % SIZE for cell in range(SIZE * SIZE))
_ROW = tuple(cell // SIZE for cell in range(SIZE * SIZE))


def _pick(white: int, black: int, to_move: int, rng: random.Random) -> tuple[int, int] | None:
    """A playout move (origin or -1 for a drop, target) of a game not over: usually one
    that brings a stone closer to the middle of its side's stones; None if none."""
    own = black if to_move else white
    occupied = white | black
    if own.bit_count() == STONES:
        # Draw (stone, direction) pairs instead of listing every move: most draws
        # give a legal move, and the first one good enough is played.
        greedy = rng.random() < GREEDY
        cells = set_bits(own)
        col = sum(map(_COL.__getitem__, cells)) / len(cells)
        row = sum(map(_ROW.__getitem__, cells)) / len(cells)
        choice = rng.choice
        for _ in range(GREEDY_TRIES):
            origin = choice(cells)
            near, beyond = choice(_RAYS[origin])
            if not occupied >> near & 1:
                target = near
            elif beyond >= 0 and not occupied >> beyond & 1:
                target = beyond
            else:
                continue
            if not greedy:
                return origin, target
            # _gain() inline: this loop is the playouts' hot spot.
            before = abs(_COL[origin] - col) + abs(_ROW[origin] - row)
            if before - (abs(_COL[target] - col) + abs(_ROW[target] - row)) > 0.5:
                return origin, target
    moves = legal_moves(own, occupied)
    if not moves:
        return None
    if rng.random() >= GREEDY or own.bit_count() < STONES:
        return rng.choice(moves)
    cells = set_bits(own)
    col = sum(map(_COL.__getitem__, cells)) / len(cells)
    row = sum(map(_ROW.__getitem__, cells)) / len(cells)
    closer = [move for move in moves if _gain(move[0], move[1], col, row) > 0.5]
    return rng.choice(closer or moves)


def _gain(origin: int, target: int, col: float, row: float) -> float:
    """How much closer (orthogonal distance) a step from `origin` to `target` brings its
    stone to (col, row)."""
    before = abs(_COL[origin] - col) + abs(_ROW[origin] - row)
    after = abs(_COL[target] - col) + abs(_ROW[target] - row)
    return before - after


register_policy("groups", GroupsPolicy)
