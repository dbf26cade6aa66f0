"""Knowledge of Stones: capture what is in atari (the biggest first), save one's own
groups, avoid self-atari and filling one's own eyes, answer near the last placement;
judge positions by how far each side still is from its decisive lead."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bot.ai.bits import set_bits
from bot.ai.games.stones_board import (
    PlayoutBoard,
    StonesBoard,
    around_of,
    last_placement,
)
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
        board = StonesBoard(state)
        rng.shuffle(points)
        rescue = board.atari_points(board.seat)
        threats = board.threatened()
        last = last_placement(state)
        local = set(around_of(state.size)[last]) if last is not None else set()
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
        return _playout_move(PlayoutBoard(state), rng)

    def playout(self, state: State, rng: random.Random) -> float:
        assert isinstance(state, StonesState)
        # One board changed in place: building and checking a state per move was most
        # of a playout's time.
        board = PlayoutBoard(state)
        for _ in range(self.playout_depth or 0):
            if board.over:
                break
            move = _playout_move(board, rng)
            if move is None:
                break
            board.play(move)
        if board.over:
            return 0.5 if board.winner is None else 1.0 - board.winner
        return _value(board)

    def evaluate(self, state: State) -> float:
        assert isinstance(state, StonesState)
        return _value(StonesBoard(state))

    def attacks(self, state: State, plies: int, rng: random.Random) -> list[Move]:
        assert isinstance(state, StonesState)
        # A decisive capture within a few plies is prepared by captures and ataris: the
        # quiet moves around them would only slow the exact search down.
        board = StonesBoard(state)
        legal = set(_placements(state)[0])
        forcing = list(board.atari_points(1 - board.seat)) + list(board.threatened())
        return [place(p) for p in dict.fromkeys(forcing) if p in legal]

    def winning_candidates(self, state: State) -> Iterable[Move]:
        assert isinstance(state, StonesState)
        # A decisive move captures: it fills the last liberty of an opponent group.
        board = StonesBoard(state)
        legal = set(_placements(state)[0])
        return [place(p) for p in board.atari_points(1 - board.seat) if p in legal]


def _value(board: StonesBoard) -> float:
    """Seat 0's chance from each side's shortfall from its decisive lead; the player to
    move may take the largest opponent group in atari."""
    short = [float(board.shortfall(0)), float(board.shortfall(1))]
    hanging = max(board.atari_points(1 - board.seat).values(), default=0)
    short[board.seat] -= ATARI_SHARE * hanging
    return logistic((short[1] - short[0]) / SCALE)


def _playout_move(board: PlayoutBoard, rng: random.Random) -> StonesMove | None:
    """A quick move: capture what hangs, often rescue, put the last stone in atari or
    answer around it, else a sensible point at random."""
    may_place = board.may_place
    ataris = board.ataris()
    targets = [p for p in ataris[1 - board.seat] if may_place(p)]
    if targets and rng.random() < 0.9:
        return place(max(targets, key=board.captures))
    rescue = [p for p in ataris[board.seat] if board.liberties_after(p) >= 2 and may_place(p)]
    if rescue and rng.random() < 0.5:
        return place(rng.choice(rescue))
    size = board.state.size
    area, random_point = size * size, rng.random
    last = board.last
    if last is not None and board.other >> last & 1 and random_point() < ATTACK_RATE:
        # The stone just placed, left with two liberties: put it in atari.
        libs = board.libs_of(last)
        if libs.bit_count() == 2:
            for p in set_bits(libs):
                if board.liberties_after(p) >= 2 and may_place(p):
                    return place(p)
    if last is not None and random_point() < LOCAL_RATE:
        # Answer where the opponent just played (a fight is usually local).
        around = around_of(size)[last]
        start = int(random_point() * len(around))
        for i in range(len(around)):
            p = around[(start + i) % len(around)]
            if board.sensible(p) and may_place(p):
                return place(p)
    for _ in range(RANDOM_DRAWS):
        p = int(random_point() * area)
        if board.sensible(p) and may_place(p):
            return place(p)
    points, rest = board.legal_moves()
    if not points:
        return rng.choice(rest) if rest else None
    if RETURN in rest:
        return RETURN
    return place(rng.choice(points))


register_policy("stones", StonesPolicy)
