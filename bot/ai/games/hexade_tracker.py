"""Both players' window counts in Hexade, kept up to date stone by stone instead of
recounted for every playout move.

The windows of all six shapes lie side by side in one integer: shape s's anchors at
bits s·W + a, W the width of one board's bits. Per player three such integers are the
bit planes (ones, twos, fours) of the number of the player's stones in each window,
whether the window is open or not. Placing or removing a stone is then a bit-sliced
increment or decrement of the windows holding its cell: a few operations on one
integer, where a recount shifts the whole board 36 times per player.
"""

from __future__ import annotations

from bot.ai.bits import set_bits
from bot.ai.games.hexade_bits import WEIGHTS, Tables, near


class Packing:
    """The packed layout of one board size's windows."""

    def __init__(self, tables: Tables) -> None:
        width = self.width = tables.full.bit_length()
        self.plane = (1 << width) - 1
        """The bits of one shape's anchors."""
        self.valid = sum(anchors << index * width for index, anchors in enumerate(tables.anchors))
        """The anchors of every window lying wholly on the board."""
        self.shapes = tuple((index * width, offsets) for index, offsets in enumerate(tables.shapes))
        """Per shape: where its anchors start, and its cells' offsets from an anchor."""
        holding = [0] * width
        near_of = [0] * width
        for bit in tables.bits:
            packed = 0
            for (start, offsets), anchors in zip(self.shapes, tables.anchors, strict=True):
                shape = 0
                for offset in offsets:
                    if bit >= offset:
                        shape |= 1 << (bit - offset)
                packed |= (shape & anchors) << start
            holding[bit] = packed
            near_of[bit] = near(tables, 1 << bit)
        self.holding = tuple(holding)
        """Per cell bit: the packed anchors of the windows holding the cell."""
        self.near_of = tuple(near_of)
        """Per cell bit: `near()` of a stone there (the union over stones is `near()`)."""

    def cells(self, packed: int) -> int:
        """Every cell of the windows whose packed anchors are given."""
        plane = self.plane
        cells = 0
        for start, offsets in self.shapes:
            anchors = packed >> start & plane
            if anchors:
                for offset in offsets:
                    cells |= anchors << offset
        return cells


_PACKINGS: dict[int, Packing] = {}


def packing_for(tables: Tables) -> Packing:
    """The packed layout of the board of `tables`, built on first use."""
    key = tables.full
    packing = _PACKINGS.get(key)
    if packing is None:
        packing = _PACKINGS[key] = Packing(tables)
    return packing


class WindowTracker:
    """Both players' stones, window counts and neighbourhood, updated move by move."""

    __slots__ = ("around", "packing", "planes", "stones", "tables")

    def __init__(self, tables: Tables, white: int, black: int) -> None:
        self.tables = tables
        self.packing = packing_for(tables)
        self.stones = [0, 0]
        """Per seat: its stones."""
        self.planes = [[0, 0, 0], [0, 0, 0]]
        """Per seat: the ones, twos and fours of its stones' count in every window."""
        self.around = 0
        """The cells within `NEAR` of any stone (`near()` of all stones)."""
        for seat, stones in ((0, white), (1, black)):
            for bit in set_bits(stones):
                self.place(seat, bit)

    def place(self, seat: int, bit: int) -> None:
        """Put a stone of `seat` on the empty cell `bit`."""
        holding = self.packing.holding[bit]
        planes = self.planes[seat]
        ones, twos, fours = planes
        carry = ones & holding
        ones ^= holding
        # No window holds more than six stones: the fours never carry.
        fours |= twos & carry
        twos ^= carry
        planes[0], planes[1], planes[2] = ones, twos, fours
        self.stones[seat] |= 1 << bit
        self.around |= self.packing.near_of[bit]

    def remove(self, seat: int, stones: int) -> None:
        """Take the given stones of `seat` off the board (a capture)."""
        planes = self.planes[seat]
        ones, twos, fours = planes
        holding_of = self.packing.holding
        for bit in set_bits(stones):
            holding = holding_of[bit]
            borrow = holding & ~ones
            ones ^= holding
            borrow2 = borrow & ~twos
            twos ^= borrow
            fours ^= borrow2
        planes[0], planes[1], planes[2] = ones, twos, fours
        self.stones[seat] &= ~stones
        self.around = near(self.tables, self.stones[0] | self.stones[1])

    def open_windows(self, seat: int) -> int:
        """The packed anchors of `seat`'s open windows (no stone of the other seat)."""
        ones, twos, fours = self.planes[1 - seat]
        return self.packing.valid & ~(ones | twos | fours)

    def exactly(self, seat: int, count: int) -> int:
        """The packed anchors of `seat`'s open windows holding exactly `count` own stones."""
        ones, twos, fours = self.planes[seat]
        found = self.open_windows(seat)
        found &= ones if count & 1 else ~ones
        found &= twos if count & 2 else ~twos
        found &= fours if count & 4 else ~fours
        return found

    def has_six(self, seat: int) -> bool:
        """True when `seat` has a six on the board."""
        _, twos, fours = self.planes[seat]
        return bool(twos & fours)

    def value(self, seat: int) -> float:
        """The sum of the weights of `seat`'s open windows (`Windows.value()`)."""
        return sum(WEIGHTS[count] * self.exactly(seat, count).bit_count() for count in range(2, 6))

    def by_count(self, seat: int) -> tuple[tuple[int, ...], ...]:
        """Per shape, per own-stone count 0–6: the anchors of `seat`'s open windows, as
        `Windows.by_count` (for tests)."""
        packing = self.packing
        counts = [self.exactly(seat, count) for count in range(7)]
        return tuple(
            tuple(packed >> start & packing.plane for packed in counts)
            for start, _ in packing.shapes
        )
