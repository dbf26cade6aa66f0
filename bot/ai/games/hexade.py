"""Knowledge of Hexade: sixes, threats and captures, found with whole-board bit operations
(`hexade_bits`), and during playouts with window counts kept up to date stone by stone
(`hexade_tracker`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from bot.ai.bits import nth_bit, set_bits
from bot.ai.games.hexade_bits import (
    WEIGHTS,
    Tables,
    capture_cells,
    captured_by,
    has_six,
    tables_for,
    windows,
)
from bot.ai.games.hexade_tracker import WindowTracker
from bot.ai.policy import Move, Policy, State, logistic, outcome_value, register_policy
from rules.hexade import MOVE_LIMIT_PER_CELL, HexadeState

SCALE = 40.0
"""Window values per unit of the logistic: a difference of 40 is about a 73 % chance."""
STONE_VALUE = 6.0
"""The value of a stone more than the opponent (captures take two)."""
TIER_CHANCE = 0.9
"""The chance that a playout takes a cell of the most urgent tier not yet passed over."""


def legal_cells(tables: Tables, white: int, black: int, ply: int) -> int:
    """The cells the player to move may take."""
    legal = tables.full & ~(white | black)
    if ply == 2:
        # White's second stone: the engine knows which cells are too close.
        state = HexadeState(tables.size, white, black, 0, 2, None, 0, None)
        for q, r in state.forbidden_cells():
            legal &= ~(1 << (r * tables.stride + q))
    return legal


def tiers(tracker: WindowTracker, mover: int, legal: int) -> Iterator[int]:
    """Cell masks from the most to the least urgent, computed only as far as they are
    asked for; the first non-empty ones lead."""
    tables = tracker.tables
    own, opponent = tracker.stones[mover], tracker.stones[1 - mover]
    occupied = own | opponent
    if not occupied:
        yield legal & (1 << tables.centre)
        yield legal
        return
    if tracker.has_six(1 - mover):
        saving = _saving(tables, own, opponent, capture_cells(tables, own, opponent, legal))
        yield saving or legal
        return
    cells = tracker.packing.cells
    # The open windows by own-stone count, decoded from the count's bit planes (ones,
    # twos, fours). No window holds seven stones, so a five is ones and fours, a three
    # ones and twos.
    ones, twos, fours = tracker.planes[mover]
    other_ones, other_twos, other_fours = tracker.planes[1 - mover]
    valid = tracker.packing.valid
    mine = valid & ~(other_ones | other_twos | other_fours)
    theirs = valid & ~(ones | twos | fours)
    for anchors in (ones & fours & mine, other_ones & other_fours & theirs):
        yield cells(anchors) & legal if anchors else 0
    yield capture_cells(tables, own, opponent, legal)
    for anchors in (
        fours & ~(ones | twos) & mine,
        other_fours & ~(other_ones | other_twos) & theirs,
    ):
        yield cells(anchors) & legal if anchors else 0
    for anchors in (ones & twos & mine, other_ones & other_twos & theirs):
        yield cells(anchors) & legal if anchors else 0
    around = tracker.around & legal
    anchors = twos & ~(ones | fours) & mine
    yield cells(anchors) & around if anchors else 0
    yield around
    if not around:
        # Every cell near the stones is taken or forbidden (White's second stone
        # next to the edge, say): any legal cell will do.
        yield legal


def _saving(tables: Tables, own: int, opponent: int, captures: int) -> int:
    """The captures that leave the opponent without a six (else they win)."""
    saving = 0
    for bit in set_bits(captures):
        captured = captured_by(tables, bit, own | 1 << bit, opponent)
        if not has_six(tables, opponent & ~captured):
            saving |= 1 << bit
    return saving


def pick(tracker: WindowTracker, mover: int, legal: int, rng: random.Random) -> int:
    """A playout's cell: one of the first non-empty tier most of the time, else of the
    next; -1 when no cell is legal."""
    chance = rng.random
    # A uniform draw among a mask's cells, as rng.choice(set_bits(mask)) makes it (a
    # choice depends only on the length) without listing the cells.
    for tier in tiers(tracker, mover, legal):
        if tier and chance() < TIER_CHANCE:
            return nth_bit(tier, rng.choice(range(tier.bit_count())))
    return nth_bit(legal, rng.choice(range(legal.bit_count()))) if legal else -1


def judge(tracker: WindowTracker, to_move: int) -> float:
    """Seat 0's chance of winning, judged by open windows and stones."""
    score = tracker.value(0) - tracker.value(1)
    white, black = tracker.stones
    score += STONE_VALUE * (white.bit_count() - black.bit_count())
    # The player to move can complete an open five now.
    if to_move == 0 and tracker.exactly(0, 5):
        score += WEIGHTS[5]
    if to_move == 1 and tracker.exactly(1, 5):
        score -= WEIGHTS[5]
    return logistic(score / SCALE)


class HexadePolicy(Policy):
    """Threat-first move ordering and playouts; leaves judged by open windows."""

    playout_depth = 16
    widening = (2.0, 0.5)

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        assert isinstance(state, HexadeState)
        tables = tables_for(state.size)
        tracker = WindowTracker(tables, state.white, state.black)
        legal = legal_cells(tables, state.white, state.black, state.ply)
        ordered: list[int] = []
        seen = 0
        for tier in tiers(tracker, state.to_move, legal):
            fresh = tier & ~seen
            if fresh:
                bits = set_bits(fresh)
                rng.shuffle(bits)
                ordered.extend(bits)
                seen |= fresh
        return [tables.moves[bit] for bit in ordered]

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        assert isinstance(state, HexadeState)
        tables = tables_for(state.size)
        tracker = WindowTracker(tables, state.white, state.black)
        legal = legal_cells(tables, state.white, state.black, state.ply)
        bit = pick(tracker, state.to_move, legal, rng)
        return tables.moves[bit] if bit >= 0 else None

    def playout(self, state: State, rng: random.Random) -> float:
        # The rules' moves on bit masks, the window counts updated per stone: the same
        # moves as `playout_move()` from each position, without recounting the board.
        assert isinstance(state, HexadeState)
        outcome = state.outcome()
        if outcome is not None:
            return outcome_value(outcome)
        tables = tables_for(state.size)
        tracker = WindowTracker(tables, state.white, state.black)
        stones = tracker.stones
        mover, ply = state.to_move, state.ply
        limit = MOVE_LIMIT_PER_CELL * tables.cell_count
        for _ in range(self.playout_depth):
            if ply == 2:
                legal = legal_cells(tables, stones[0], stones[1], ply)
            else:
                legal = tables.full & ~(stones[0] | stones[1])
            bit = pick(tracker, mover, legal, rng)
            if bit < 0:
                break
            opponent = 1 - mover
            captured = captured_by(tables, bit, stones[mover] | 1 << bit, stones[opponent])
            tracker.place(mover, bit)
            if captured:
                tracker.remove(opponent, captured)
            mover, ply = opponent, ply + 1
            # The perfect-six rule, as the engine judges it: only the player to move can
            # win now, their six having survived the move just made.
            if tracker.has_six(mover):
                return 1.0 - mover
            if stones[0] | stones[1] == tables.full or ply >= limit:
                return 0.5
        return judge(tracker, mover)

    def evaluate(self, state: State) -> float:
        assert isinstance(state, HexadeState)
        tables = tables_for(state.size)
        return judge(WindowTracker(tables, state.white, state.black), state.to_move)

    def attacks(self, state: State, plies: int, rng: random.Random) -> list[Move]:
        assert isinstance(state, HexadeState)
        if plies > 3:
            return self.candidates(state, rng)
        # A move never wins at once, and a six made two plies from now is judged only
        # after the ply after that: a win within three plies is a six made now.
        tables = tables_for(state.size)
        own, opponent = (state.black, state.white) if state.to_move else (state.white, state.black)
        legal = legal_cells(tables, state.white, state.black, state.ply)
        cells = windows(tables, own, opponent).empty_cells(tables, 5, legal)
        return [tables.moves[bit] for bit in set_bits(cells)]

    def defences(self, state: State, attacker: int) -> list[Move]:
        assert isinstance(state, HexadeState)
        tables = tables_for(state.size)
        legal = legal_cells(tables, state.white, state.black, state.ply)
        if state.has_six(attacker):
            # Only a capture can break the six; every other move loses the same way.
            own, opponent = (
                (state.black, state.white) if state.to_move else (state.white, state.black)
            )
            captures = capture_cells(tables, own, opponent, legal)
            others = legal & ~captures
            cells = set_bits(captures) + set_bits(others & -others)
        else:
            # The urgent cells first: they are the likeliest refutations.
            tracker = WindowTracker(tables, state.white, state.black)
            cells = []
            seen = 0
            for tier in tiers(tracker, state.to_move, legal):
                fresh = tier & ~seen
                cells.extend(set_bits(fresh))
                seen |= fresh
            cells.extend(set_bits(legal & ~seen))
        return [tables.moves[bit] for bit in cells]

    def winning_candidates(self, state: State) -> Iterable[Move]:
        # Under the perfect-six rule a move never wins at once: only the player to move
        # can win, when a six of theirs survived the move just made.
        return ()


register_policy("hexade", HexadePolicy)
