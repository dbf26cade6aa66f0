"""Hex-hex boards of hexagonal cells (Hexade), in the axial coordinates of `rules.hexcoords`.

Rows run horizontally, row 1 at the bottom; a column climbs up and to the left, so
that cell (q, r) sits at x = q − r/2 cell widths. Row numbers stand left of each row,
column letters below the foot of each column (under the bottom edge and the lower
right edge), as on Little Golem's Havannah boards: a1 is the lower left corner.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderers.base import BoardLayout, Coord
from renderers.fonts import font
from renderers.page import BOARD_MAX_WIDTH, BOARD_TOP, WIDTH
from renderers.sprites import Point
from renderers.theme import Theme
from rules.hexcoords import COLUMN_LETTERS, board_cells, column_rows

SQRT3 = math.sqrt(3)
NEIGHBOURS = ((1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1))
"""The six axial directions."""
_SUPERSAMPLE = 4


@dataclass(frozen=True)
class HexBoard(BoardLayout):
    """A hex-hex board with `size` cells per side, pointy-topped cells `cell` pixels wide.

    Every length is a whole number of pixels (the cell's width even, the distance between
    rows rounded), so every cell centre falls on a whole pixel and all cells are drawn
    pixel for pixel alike: the board compresses far better than with fractional cells.
    The hexagons are a hair taller or flatter than regular (under one per cent).
    """

    size: int
    cell: int
    """The width of a cell across its flat sides: the distance between neighbouring centres."""
    row: int
    """The vertical distance between neighbouring rows of cells."""
    origin_x: int
    """The x of column 0's line at row 0 (the centre of a1)."""
    origin_y: int
    """The y of the centre of row 1."""
    label_size: int
    height: int

    @classmethod
    def fit(cls, size: int, *, max_cell: float = 64.0) -> HexBoard:
        """The largest board of this size that fits the page."""
        # In cell widths: row labels reach 1.5 left of the middle row's first cell, the
        # column letters of the lower right edge 0.5 right of the last cell.
        left_units = -(size - 1) / 2 - 1.5
        right_units = 1.5 * size - 0.5
        cell = int(min(max_cell, BOARD_MAX_WIDTH / (right_units - left_units))) // 2 * 2
        row = round(cell * SQRT3 / 2)
        radius = row / 1.5
        label_size = max(16, min(22, round(cell * 0.44)))
        left = (WIDTH - (right_units - left_units) * cell) / 2
        top_row_y = BOARD_TOP + math.ceil(radius) + 4
        origin_y = top_row_y + (2 * size - 2) * row
        label_y = origin_y + row
        height = math.ceil(label_y + label_size * 0.7 - BOARD_TOP)
        return cls(size, cell, row, round(left - left_units * cell), origin_y, label_size, height)

    @property
    def radius(self) -> float:
        """The distance from a cell's centre to its top and bottom corners."""
        return self.row / 1.5

    @property
    def pitch(self) -> int:
        return self.cell

    def _centre(self, coord: Coord) -> Point:
        q, r = coord
        return self.origin_x + (q - r / 2) * self.cell, self.origin_y - r * self.row

    def corners(self, coord: Coord, grow: float = 0.0) -> list[Point]:
        """The six corners of a cell, clockwise from the top (`grow` pixels further out)."""
        x, y = self.centre(coord)
        scale = 1 + grow / self.radius
        half, tall = self.cell / 2 * scale, self.radius * scale
        return [
            (x, y - tall),
            (x + half, y - tall / 2),
            (x + half, y + tall / 2),
            (x, y + tall),
            (x - half, y + tall / 2),
            (x - half, y - tall / 2),
        ]

    def edge(self, coord: Coord, direction: Coord) -> tuple[Point, Point]:
        """The two ends of the side of `coord` that faces its neighbour in `direction`."""
        top, upper_right, lower_right, bottom, lower_left, upper_left = self.corners(coord)
        sides = {
            (1, 0): (upper_right, lower_right),
            (0, 1): (upper_left, top),
            (1, 1): (top, upper_right),
            (-1, 0): (lower_left, upper_left),
            (0, -1): (lower_right, bottom),
            (-1, -1): (bottom, lower_left),
        }
        return sides[direction]

    def cells(self) -> tuple[Coord, ...]:
        """Every cell of the board."""
        return board_cells(self.size)

    def coords(self) -> tuple[Coord, ...]:
        return board_cells(self.size)

    @property
    def block(self) -> tuple[int, int, int, int]:
        xs = [x for label, (x, _) in self.labels()]
        xs += [x for coord in self.cells() for x, _ in self.corners(coord, 2.2)]
        left = math.floor(min(xs) - self.label_size)
        right = math.ceil(max(xs) + self.label_size)
        return left, BOARD_TOP, right, BOARD_TOP + self.height

    def labels(self) -> Iterator[tuple[str, Point]]:
        """Each coordinate label with the point it is centred on."""
        last = 2 * self.size - 2
        for r in range(last + 1):
            first_q = max(0, r - self.size + 1)
            yield str(r + 1), self.centre((first_q - 1, r))
        for q in range(last + 1):
            low, _ = column_rows(q, self.size)
            yield COLUMN_LETTERS[q], self.centre((q, low - 1))

    def draw_static(self, image: Image.Image, theme: Theme) -> None:
        top = BOARD_TOP
        box = (0, top, image.width, top + self.height)
        big = image.crop(box).resize(
            (image.width * _SUPERSAMPLE, self.height * _SUPERSAMPLE), Image.Resampling.NEAREST
        )
        draw = ImageDraw.Draw(big)
        shades = (
            theme.rgb("board"),
            theme.rgb("board_alt"),
            theme.board_mid(),
        )
        edge = theme.cell_edge()

        def scaled(points: Iterable[Point]) -> list[Point]:
            return [(x * _SUPERSAMPLE, (y - top) * _SUPERSAMPLE) for x, y in points]

        # Slightly larger dark hexagons under the cells give the board a dark rim.
        for coord in self.cells():
            draw.polygon(scaled(self.corners(coord, 2.2)), fill=theme.rgb("line"))
        for coord in self.cells():
            q, r = coord
            draw.polygon(
                scaled(self.corners(coord)),
                fill=shades[(q + r) % 3],
                outline=edge,
                width=round(1.3 * _SUPERSAMPLE),
            )
        middle = self.size - 1
        x, y = self.centre((middle, middle))
        dot = self.cell * 0.09 * _SUPERSAMPLE
        cx, cy = x * _SUPERSAMPLE, (y - top) * _SUPERSAMPLE
        draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=edge)
        image.paste(big.reduce(_SUPERSAMPLE), box[:2])
        text = ImageDraw.Draw(image)
        face = font(self.label_size, bold=True)
        for label, point in self.labels():
            text.text(point, label, font=face, fill=theme.rgb("muted"), anchor="mm")

    def outline(self, cells: Iterable[Coord]) -> list[list[Point]]:
        """The sides around a set of cells, as strokes (for outlining a six)."""
        inside = set(cells)
        strokes: list[list[Point]] = []
        for q, r in inside:
            for dq, dr in NEIGHBOURS:
                if (q + dq, r + dr) not in inside:
                    start, end = self.edge((q, r), (dq, dr))
                    strokes.append([start, end])
        return strokes
