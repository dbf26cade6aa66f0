"""Knowledge of Hexade: sixes, threats and captures, found with whole-board bit operations.

A *window* is one placement of a six's shape on the board (a row, a triangle or a
ring). A window holding none of the opponent's stones is open; its number of own
stones says how close it is to a six. Cells are bits r·(2·size−1) + q, the layout the
engine documents for its bitboards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from bot.bench.old_hard.bits import set_bits
from bot.bench.old_hard.policy import Move, Policy, State, logistic, register_policy
from rules.hexade import SHAPES, HexadeMove, HexadeState
from rules.hexcoords import DIRECTIONS, board_cells, span

WEIGHTS = (0.0, 0.0, 1.0, 4.0, 16.0, 64.0, 0.0)
"""The value of an open window by its number of own stones (a full one is a six)."""
SCALE = 40.0
"""Window values per unit of the logistic: a difference of 40 is about a 73 % chance."""
STONE_VALUE = 6.0
"""The value of a stone more than the opponent (captures take two)."""
NEAR = 2
"""Moves further than this from every stone are not considered (except the first)."""


class _Tables:
    """Bit masks and offsets of one board size."""

    def __init__(self, size: int) -> None:
        stride = span(size)
        cells = board_cells(size)
        self.full = sum(1 << (r * stride + q) for q, r in cells)
        self.directions = tuple(dq + dr * stride for dq, dr in DIRECTIONS)
        self.shapes = tuple(tuple(dq + dr * stride for dq, dr in offsets) for _, offsets in SHAPES)
        anchors = []
        for offsets in self.shapes:
            valid = self.full
            for offset in offsets:
                valid &= self.full >> offset
            anchors.append(valid)
        self.anchors = tuple(anchors)
        """Per shape: the anchors of the windows lying wholly on the board."""
        self.moves: dict[int, HexadeMove] = {r * stride + q: HexadeMove(q, r) for q, r in cells}
        self.centre = (size - 1) * stride + (size - 1)


_TABLES: dict[int, _Tables] = {}


def _tables(size: int) -> _Tables:
    tables = _TABLES.get(size)
    if tables is None:
        tables = _TABLES[size] = _Tables(size)
    return tables


def _shift(bits: int, offset: int) -> int:
    """Bit p of the result is bit p + offset of `bits`."""
    return bits >> offset if offset >= 0 else bits << -offset


@dataclass(frozen=True, slots=True)
class Windows:
    """One player's open windows, by how many own stones they hold."""

    by_count: tuple[tuple[int, ...], ...]
    """Per shape, per number of own stones (0–6): the anchors of those open windows."""

    def count(self, stones: int) -> int:
        """How many open windows hold exactly `stones` own stones."""
        return sum(masks[stones].bit_count() for masks in self.by_count)

    def empty_cells(self, tables: _Tables, stones: int, empty: int) -> int:
        """The empty cells of the open windows that hold exactly `stones` own stones."""
        cells = 0
        for offsets, masks in zip(tables.shapes, self.by_count, strict=True):
            anchors = masks[stones]
            if anchors:
                for offset in offsets:
                    cells |= anchors << offset
        return cells & empty

    def value(self) -> float:
        """The sum of the open windows' weights."""
        return sum(
            WEIGHTS[k] * masks[k].bit_count() for masks in self.by_count for k in range(2, 6)
        )


def windows(tables: _Tables, own: int, opponent: int) -> Windows:
    """Count own stones in every open window with a bit-sliced adder (three bit planes)."""
    by_count = []
    for offsets, valid in zip(tables.shapes, tables.anchors, strict=True):
        open_ = valid
        ones = twos = fours = 0
        for offset in offsets:
            open_ &= ~(opponent >> offset)
            stones = own >> offset
            carry = ones & stones
            ones ^= stones
            carry2 = twos & carry
            twos ^= carry
            fours |= carry2
        ones &= open_
        twos &= open_
        fours &= open_
        no_ones, no_twos, no_fours = open_ & ~ones, open_ & ~twos, open_ & ~fours
        by_count.append(
            (
                no_ones & no_twos & no_fours,
                ones & no_twos & no_fours,
                no_ones & twos & no_fours,
                ones & twos & no_fours,
                no_ones & no_twos & fours,
                ones & no_twos & fours,
                no_ones & twos & fours,
            )
        )
    return Windows(tuple(by_count))


def capture_cells(tables: _Tables, own: int, opponent: int, empty: int) -> int:
    """The empty cells where a stone of `own`'s player would capture a pair."""
    cells = 0
    for d in tables.directions:
        cells |= _shift(opponent, d) & _shift(opponent, 2 * d) & _shift(own, 3 * d)
    return cells & empty


def near(tables: _Tables, stones: int, steps: int = NEAR) -> int:
    """The cells within `steps` of the given stones."""
    reach = stones
    for _ in range(steps):
        grown = reach
        for d in tables.directions:
            grown |= _shift(reach, d)
        reach = grown & tables.full
    return reach


class HexadePolicy(Policy):
    """Threat-first move ordering and playouts; leaves judged by open windows."""

    playout_depth = 16
    widening = (2.0, 0.5)

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        assert isinstance(state, HexadeState)
        tables = _tables(state.size)
        tiers = self._tiers(state, tables)
        ordered: list[int] = []
        seen = 0
        for tier in tiers:
            fresh = tier & ~seen
            if fresh:
                bits = set_bits(fresh)
                rng.shuffle(bits)
                ordered.extend(bits)
                seen |= fresh
        return [tables.moves[bit] for bit in ordered]

    def _tiers(self, state: HexadeState, tables: _Tables) -> list[int]:
        """Cell masks from the most to the least urgent; the first non-empty ones lead."""
        mover = state.to_move
        own, opponent = (state.black, state.white) if mover else (state.white, state.black)
        legal = self._legal(state, tables)
        occupied = own | opponent
        if not occupied:
            return [legal & (1 << tables.centre), legal]
        opponent_six = state.has_six(1 - mover)
        captures = capture_cells(tables, own, opponent, legal)
        if opponent_six:
            saving = self._saving(state, tables, captures)
            return [saving] if saving else [legal]
        mine = windows(tables, own, opponent)
        theirs = windows(tables, opponent, own)
        around = near(tables, occupied) & legal
        tiers = [
            mine.empty_cells(tables, 5, legal),
            theirs.empty_cells(tables, 5, legal),
            captures,
            mine.empty_cells(tables, 4, legal),
            theirs.empty_cells(tables, 4, legal),
            mine.empty_cells(tables, 3, legal),
            theirs.empty_cells(tables, 3, legal),
            mine.empty_cells(tables, 2, legal) & around,
            around,
        ]
        if not around:
            # Every cell near the stones is taken or forbidden (White's second stone
            # next to the edge, say): any legal cell will do.
            tiers.append(legal)
        return tiers

    @staticmethod
    def _legal(state: HexadeState, tables: _Tables) -> int:
        """The cells the player to move may take."""
        legal = tables.full & ~(state.white | state.black)
        if state.ply == 2:
            for q, r in state.forbidden_cells():
                legal &= ~(1 << (r * span(state.size) + q))
        return legal

    @staticmethod
    def _saving(state: HexadeState, tables: _Tables, captures: int) -> int:
        """The captures that leave the opponent without a six (else they win)."""
        opponent = 1 - state.to_move
        saving = 0
        for bit in set_bits(captures):
            outcome = state.play(tables.moves[bit]).outcome()
            if outcome is None or outcome.winner != opponent:
                saving |= 1 << bit
        return saving

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        assert isinstance(state, HexadeState)
        tables = _tables(state.size)
        for tier in self._tiers(state, tables):
            if tier and rng.random() < 0.9:
                return tables.moves[rng.choice(set_bits(tier))]
        legal = self._legal(state, tables)
        return tables.moves[rng.choice(set_bits(legal))] if legal else None

    def evaluate(self, state: State) -> float:
        assert isinstance(state, HexadeState)
        tables = _tables(state.size)
        white = windows(tables, state.white, state.black)
        black = windows(tables, state.black, state.white)
        score = white.value() - black.value()
        score += STONE_VALUE * (state.white.bit_count() - state.black.bit_count())
        # The player to move can complete an open five now.
        if state.to_move == 0 and white.count(5):
            score += WEIGHTS[5]
        if state.to_move == 1 and black.count(5):
            score -= WEIGHTS[5]
        return logistic(score / SCALE)

    def winning_candidates(self, state: State) -> Iterable[Move]:
        # Under the perfect-six rule a move never wins at once: only the player to move
        # can win, when a six of theirs survived the move just made.
        return ()


register_policy("hexade", HexadePolicy)
