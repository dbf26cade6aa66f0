"""Knowledge of Stones: capture what is in atari (the biggest first), save one's own
groups, avoid self-atari and filling one's own eyes, answer near the last placement;
judge positions by how far each side still is from its decisive lead."""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache

from bot.ai.bits import set_bits
from bot.ai.policy import Move, Policy, State, logistic, register_policy
from rules.stones import RETURN, MoveKind, StonesMove, StonesState, place

SCALE = 3.0
"""Prisoners of lead per unit of the logistic."""
ATARI_SHARE = 0.5
"""How much of an opponent group in atari counts as taken already (player to move)."""
LOCAL_RATE = 0.5
"""How often a playout's quiet move is looked for around the last placement first."""
ATTACK_RATE = 0.5
"""How often a playout puts the opponent's last stone in atari when it has two liberties."""
LOCAL_BONUS = 1.0
"""The tree's preference for quiet moves around the last placement over the others."""
RANDOM_DRAWS = 24
"""Random points of the board a playout draws, looking for a sensible empty one, before
taking any legal move."""


@cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Per point index: its orthogonal neighbours."""
    table = []
    for p in range(size * size):
        col, row = p % size, p // size
        near = [p - size] if row else []
        if col:
            near.append(p - 1)
        if col < size - 1:
            near.append(p + 1)
        if row < size - 1:
            near.append(p + size)
        table.append(tuple(near))
    return tuple(table)


@cache
def _around(size: int) -> tuple[tuple[int, ...], ...]:
    """Per point index: the up to eight points around it (diagonals included)."""
    table = []
    for p in range(size * size):
        col, row = p % size, p // size
        table.append(
            tuple(
                (row + dy) * size + col + dx
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
                if (dx or dy) and 0 <= col + dx < size and 0 <= row + dy < size
            )
        )
    return tuple(table)


def _last_placement(state: StonesState) -> int | None:
    """The point of the last move when it was a placement."""
    move = state.last_move
    if move is None or move.kind is not MoveKind.PLACE:
        return None
    return move.point


class _Board:
    """The groups around each point of one position, from the mover's side."""

    def __init__(self, state: StonesState) -> None:
        self.state = state
        self.seat = state.to_move
        self.neighbours = _neighbours(state.size)
        own, other = (state.white, state.black) if self.seat else (state.black, state.white)
        self.own, self.other = own, other
        self.empty = ((1 << (state.size * state.size)) - 1) ^ (own | other)

    def liberties_after(self, p: int) -> int:
        """The liberties the mover's group through `p` would have after placing there,
        not counting any capture the placement makes."""
        state = self.state
        bit = 1 << p
        libs = 0
        for q in self.neighbours[p]:
            if self.empty >> q & 1:
                libs |= 1 << q
            elif self.own >> q & 1:
                libs |= state.groups[state.group_of[q]].libs
        return (libs & ~bit).bit_count()

    def captures(self, p: int) -> int:
        """The opponent stones a placement on `p` would capture."""
        state = self.state
        taken = 0
        for q in self.neighbours[p]:
            if self.other >> q & 1:
                group = state.groups[state.group_of[q]]
                if group.libs == 1 << p:
                    taken |= group.stones
        return taken.bit_count()

    def is_own_eye(self, p: int) -> bool:
        """True when every neighbour of `p` is the mover's stone."""
        return all(self.own >> q & 1 for q in self.neighbours[p])

    def sensible(self, p: int) -> bool:
        """True when `p` is empty, keeps two liberties and does not fill one's own eye."""
        return bool(self.empty >> p & 1) and self.liberties_after(p) >= 2 and not self.is_own_eye(p)

    def atari_points(self, seat: int) -> dict[int, int]:
        """The last liberty of each group of `seat` in atari, with the stones at stake."""
        return self.ataris()[seat]

    def ataris(self) -> tuple[dict[int, int], dict[int, int]]:
        """`atari_points()` of seat 0 and of seat 1, from one look at the groups."""
        points: tuple[dict[int, int], dict[int, int]] = ({}, {})
        for group in self.state.groups.values():
            libs = group.libs
            if libs and not libs & (libs - 1):
                p = libs.bit_length() - 1
                mine = points[group.seat]
                mine[p] = mine.get(p, 0) + group.stones.bit_count()
        return points


def _placements(state: StonesState) -> tuple[list[int], list[StonesMove]]:
    """The legal placement points, and the other legal moves (return, stakes)."""
    points, rest = [], []
    for move in state.legal_moves():
        if move.kind is MoveKind.PLACE:
            assert move.point is not None
            points.append(move.point)
        else:
            rest.append(move)
    return points, rest


class StonesPolicy(Policy):
    """Captures, rescues and ataris first, then replies near the last placement;
    playouts that capture when they can, often atari the last stone and answer locally."""

    playout_depth = 20
    widening = (2.0, 0.5)

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        assert isinstance(state, StonesState)
        points, rest = _placements(state)
        board = _Board(state)
        rng.shuffle(points)
        rescue = board.atari_points(board.seat)
        threats = _threatened(board)
        last = _last_placement(state)
        local = set(_around(state.size)[last]) if last is not None else set()
        scored = []
        for p in points:
            taken = board.captures(p)
            liberties = board.liberties_after(p)
            score = 10.0 * taken
            if p in local:
                score += LOCAL_BONUS
            if p in rescue and liberties >= 2:
                score += 5.0 * rescue[p]
            if liberties >= 2 and p in threats:
                score += 2.0 * threats[p]
            if liberties <= 1 and not taken:
                score -= 20.0  # self-atari or self-capture
            elif board.is_own_eye(p) and not taken:
                score -= 15.0
            scored.append((score, p))
        scored.sort(key=lambda pair: -pair[0])
        ordered: list[Move] = [place(p) for score, p in scored if score > -10.0]
        ordered.extend(move for move in rest if move == RETURN)
        ordered.extend(place(p) for score, p in scored if score <= -10.0)
        ordered.extend(move for move in rest if move != RETURN)
        return ordered

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        assert isinstance(state, StonesState)
        # Points are checked one by one as they come up: listing every legal move
        # (each judged new against the game's positions) was most of a playout's time.
        board = _Board(state)
        may_place = state.may_place
        ataris = board.ataris()
        targets = [p for p in ataris[1 - board.seat] if may_place(p)]
        if targets and rng.random() < 0.9:
            return place(max(targets, key=board.captures))
        rescue = [p for p in ataris[board.seat] if board.liberties_after(p) >= 2 and may_place(p)]
        if rescue and rng.random() < 0.5:
            return place(rng.choice(rescue))
        area, random_point = state.size * state.size, rng.random
        last = _last_placement(state)
        if last is not None and board.other >> last & 1 and random_point() < ATTACK_RATE:
            # The stone just placed, left with two liberties: put it in atari.
            libs = state.groups[state.group_of[last]].libs
            if libs.bit_count() == 2:
                for p in set_bits(libs):
                    if board.liberties_after(p) >= 2 and may_place(p):
                        return place(p)
        if last is not None and random_point() < LOCAL_RATE:
            # Answer where the opponent just played (a fight is usually local).
            around = _around(state.size)[last]
            start = int(random_point() * len(around))
            for i in range(len(around)):
                p = around[(start + i) % len(around)]
                if board.sensible(p) and may_place(p):
                    return place(p)
        for _ in range(RANDOM_DRAWS):
            p = int(random_point() * area)
            if board.sensible(p) and may_place(p):
                return place(p)
        points, rest = _placements(state)
        if not points:
            return rng.choice(rest) if rest else None
        if RETURN in rest:
            return RETURN
        return place(rng.choice(points))

    def evaluate(self, state: State) -> float:
        assert isinstance(state, StonesState)
        # Each side's shortfall from its decisive lead; the player to move may take
        # what hangs in atari.
        short = [float(state.threshold(seat) - state.lead(seat)) for seat in (0, 1)]
        board = _Board(state)
        hanging = max(board.atari_points(1 - board.seat).values(), default=0)
        short[board.seat] -= ATARI_SHARE * hanging
        return logistic((short[1] - short[0]) / SCALE)

    def attacks(self, state: State, plies: int, rng: random.Random) -> list[Move]:
        assert isinstance(state, StonesState)
        # A decisive capture within a few plies is prepared by captures and ataris: the
        # quiet moves around them would only slow the exact search down.
        board = _Board(state)
        legal = set(_placements(state)[0])
        forcing = list(board.atari_points(1 - board.seat)) + list(_threatened(board))
        return [place(p) for p in dict.fromkeys(forcing) if p in legal]

    def winning_candidates(self, state: State) -> Iterable[Move]:
        assert isinstance(state, StonesState)
        # A decisive move captures: it fills the last liberty of an opponent group.
        board = _Board(state)
        legal = set(_placements(state)[0])
        return [place(p) for p in board.atari_points(1 - board.seat) if p in legal]


def _threatened(board: _Board) -> dict[int, int]:
    """Points that put an opponent group with two liberties in atari, with its size."""
    threats: dict[int, int] = {}
    for group in board.state.groups.values():
        if group.seat != board.seat and group.libs.bit_count() == 2:
            for p in set_bits(group.libs):
                threats[p] = threats.get(p, 0) + group.stones.bit_count()
    return threats


register_policy("stones", StonesPolicy)
