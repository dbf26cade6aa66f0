"""Hexade's board as bit masks: the tables of one board size, open windows counted with
whole-board bit operations, captures and neighbourhoods.

A *window* is one placement of a six's shape on the board (a row, a triangle or a
ring). A window holding none of the opponent's stones is open; its number of own
stones says how close it is to a six. Cells are bits r·(2·size−1) + q, the layout the
engine documents for its bitboards.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.hexade import SHAPES, HexadeMove
from rules.hexcoords import DIRECTIONS, board_cells, span

WEIGHTS = (0.0, 0.0, 1.0, 4.0, 16.0, 64.0, 0.0)
"""The value of an open window by its number of own stones (a full one is a six)."""
NEAR = 2
"""Moves further than this from every stone are not considered (except the first)."""


class Tables:
    """Bit masks and offsets of one board size."""

    def __init__(self, size: int) -> None:
        self.size = size
        stride = span(size)
        cells = board_cells(size)
        self.full = sum(1 << (r * stride + q) for q, r in cells)
        self.directions = tuple(dq + dr * stride for dq, dr in DIRECTIONS)
        self.axes = tuple((d, 2 * d, 3 * d) for d in self.directions if d > 0)
        """Per axis (a direction and its opposite, both among `directions`): the offsets
        of one, two and three steps along it."""
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
        self.bits = tuple(r * stride + q for q, r in cells)
        self.stride = stride
        self.cell_count = len(cells)
        on_board = set(cells)
        captures: list[tuple[tuple[int, int], ...]] = [() for _ in range(stride * stride)]
        for q, r in cells:
            rays = []
            for dq, dr in DIRECTIONS:
                if (q + 3 * dq, r + 3 * dr) in on_board:
                    near_, far, closer = ((r + k * dr) * stride + q + k * dq for k in (1, 2, 3))
                    rays.append(((1 << near_) | (1 << far), 1 << closer))
            captures[r * stride + q] = tuple(rays)
        self.captures = tuple(captures)
        """Per cell bit: (the pair a stone there captures, the cell that must be own) for
        every direction with three cells on the board."""


_TABLES: dict[int, Tables] = {}


def tables_for(size: int) -> Tables:
    """The tables of board `size`, built on first use."""
    tables = _TABLES.get(size)
    if tables is None:
        tables = _TABLES[size] = Tables(size)
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

    def empty_cells(self, tables: Tables, stones: int, empty: int) -> int:
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


def windows(tables: Tables, own: int, opponent: int) -> Windows:
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


def capture_cells(tables: Tables, own: int, opponent: int, empty: int) -> int:
    """The empty cells where a stone of `own`'s player would capture a pair."""
    cells = 0
    for one, two, three in tables.axes:
        cells |= opponent >> one & opponent >> two & own >> three
        cells |= opponent << one & opponent << two & own << three
    return cells & empty


def has_six(tables: Tables, stones: int) -> bool:
    """True when `stones` include a six of any shape."""
    for offsets in tables.shapes:
        anchors = stones
        for offset in offsets[1:]:
            anchors &= stones >> offset
        if anchors:
            return True
    return False


def captured_by(tables: Tables, bit: int, own: int, opponent: int) -> int:
    """The opponent stones a stone of `own`'s player placed on `bit` captures (`own` holds
    the new stone)."""
    captured = 0
    for pair, closer in tables.captures[bit]:
        if opponent & pair == pair and own & closer:
            captured |= pair
    return captured


def near(tables: Tables, stones: int, steps: int = NEAR) -> int:
    """The cells within `steps` of the given stones."""
    reach = stones
    for _ in range(steps):
        grown = reach
        for d in tables.directions:
            grown |= _shift(reach, d)
        reach = grown & tables.full
    return reach
