"""Boards of square cells with stones inside the cells (Groups, Diffusion Chess)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from PIL import Image, ImageDraw

from renderers import sprites
from renderers.base import BoardLayout, Coord
from renderers.canvas import Canvas, Op
from renderers.fonts import font
from renderers.page import BOARD_MAX_HEIGHT, BOARD_MAX_WIDTH, BOARD_TOP, WIDTH
from renderers.sprites import Point
from renderers.theme import Theme
from rules.squares import column_letter

LinkKey = tuple[int, int, int, str]
"""A link bar as (col, row, direction, colour): to the right (direction 0) or upward (1)."""


@dataclass(frozen=True)
class SquareBoard(BoardLayout):
    """A `columns` × `rows` board of square cells, labelled on all four sides.

    (col, row) are 0-based with row 0 at the bottom, as in `rules.squares`.
    """

    columns: int
    rows: int
    cell: int
    """The side of a cell in pixels (even, so that cell centres fall on whole pixels)."""
    margin: int
    """The wooden rim around the cells that carries the coordinates."""
    label_size: int
    """The font size of the coordinates."""
    left: int
    """The x of the board block's left edge on the page."""
    height: int
    stone_scale: float = 0.84
    """The diameter of a stone as a share of the cell."""

    @classmethod
    def fit(
        cls, columns: int, rows: int, *, max_cell: int = 88, stone_scale: float = 0.84
    ) -> SquareBoard:
        """The largest board of this shape that fits the page."""
        rough = min(BOARD_MAX_WIDTH / columns, BOARD_MAX_HEIGHT / rows)
        label_size = max(16, min(22, round(rough * 0.42)))
        margin = label_size + 14
        cell = int(
            min((BOARD_MAX_WIDTH - 2 * margin) / columns, (BOARD_MAX_HEIGHT - 2 * margin) / rows)
        )
        cell = min(max_cell, cell - cell % 2)
        width = columns * cell + 2 * margin
        return cls(
            columns,
            rows,
            cell,
            margin,
            label_size,
            (WIDTH - width) // 2,
            rows * cell + 2 * margin,
            stone_scale,
        )

    @property
    def pitch(self) -> int:
        return self.cell

    @property
    def origin(self) -> tuple[int, int]:
        """The top-left corner of the top-left cell."""
        return self.left + self.margin, BOARD_TOP + self.margin

    def _centre(self, coord: Coord) -> Point:
        col, row = coord
        x0, y0 = self.origin
        half = self.cell // 2
        return x0 + col * self.cell + half, y0 + (self.rows - 1 - row) * self.cell + half

    def box(self, coord: Coord) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of a cell, edges included."""
        x, y = self.centre(coord)
        half = self.cell // 2
        return round(x) - half, round(y) - half, round(x) + half, round(y) + half

    def coords(self) -> tuple[Coord, ...]:
        return tuple((col, row) for row in range(self.rows) for col in range(self.columns))

    @property
    def block(self) -> tuple[int, int, int, int]:
        width = self.columns * self.cell + 2 * self.margin
        return self.left, BOARD_TOP, self.left + width, BOARD_TOP + self.height

    def labels(self) -> Iterator[tuple[str, Point]]:
        x0, y0 = self.origin
        x1, y1 = x0 + self.columns * self.cell, y0 + self.rows * self.cell
        gap = self.margin / 2 + 1
        for col in range(self.columns):
            centre_x = self.centre((col, 0))[0]
            letter = column_letter(col)
            yield letter, (centre_x, y0 - gap)
            yield letter, (centre_x, y1 + gap)
        for row in range(self.rows):
            centre_y = self.centre((0, row))[1]
            number = str(row + 1)
            yield number, (x0 - gap, centre_y)
            yield number, (x1 + gap, centre_y)

    def draw_static(self, image: Image.Image, theme: Theme) -> None:
        draw = ImageDraw.Draw(image)
        x0, y0 = self.origin
        x1, y1 = x0 + self.columns * self.cell, y0 + self.rows * self.cell
        draw.rounded_rectangle(
            (x0 - self.margin, y0 - self.margin, x1 + self.margin - 1, y1 + self.margin - 1),
            radius=12,
            fill=theme.rgb("board"),
        )
        for col in range(self.columns):
            for row in range(self.rows):
                if (col + row) % 2 == 0:
                    left, top, right, bottom = self.box((col, row))
                    draw.rectangle((left, top, right - 1, bottom - 1), fill=theme.rgb("board_alt"))
        grid = theme.grid()
        for k in range(1, self.columns):
            x = x0 + k * self.cell
            draw.line((x, y0, x, y1 - 1), fill=grid)
        for k in range(1, self.rows):
            y = y0 + k * self.cell
            draw.line((x0, y, x1 - 1, y), fill=grid)
        draw.rectangle((x0 - 2, y0 - 2, x1 + 1, y1 + 1), outline=theme.rgb("line"), width=2)
        face = font(self.label_size, bold=True)
        ink = theme.rgb("line")
        for label, spot in self.labels():
            draw.text(spot, label, font=face, fill=ink, anchor="mm")

    def stone_diameter(self) -> int:
        return round(self.cell * self.stone_scale)

    def draw_links(
        self, canvas: Canvas, theme: Theme, stones: dict[Coord, str], *, width: float = 0.24
    ) -> None:
        """Draw bars between orthogonally adjacent stones of one colour, under the stones.

        `stones` maps each occupied cell to its stone colour (`black` or `white`).
        """
        links = self._links(canvas, theme, width)
        ops = canvas.ops
        neighbour = stones.get
        for (col, row), colour in stones.items():
            if neighbour((col + 1, row)) == colour:
                ops.append(links[col, row, 0, colour])
            if neighbour((col, row + 1)) == colour:
                ops.append(links[col, row, 1, colour])

    def _links(self, canvas: Canvas, theme: Theme, width: float) -> dict[LinkKey, Op]:
        """The operation of every bar `draw_links` may draw, by (col, row, direction, colour):
        the bar from (col, row) to its right (direction 0) or upper (1) neighbour."""
        key = (theme, width)
        found = self._link_tables.get(key)
        if found is None:
            scratch = Canvas(canvas.page, canvas.page_key, canvas.board_rows)
            found = {}
            for col in range(self.columns):
                for row in range(self.rows):
                    ends = ((col + 1, row), (col, row + 1))
                    for direction, (end_col, end_row) in enumerate(ends):
                        if end_col >= self.columns or end_row >= self.rows:
                            continue
                        for colour in ("black", "white"):
                            self._draw_link(
                                scratch, theme, colour, (col, row), direction=direction, width=width
                            )
                            found[col, row, direction, colour] = scratch.ops.pop()
            if len(self._link_tables) >= 8:
                self._link_tables.clear()
            self._link_tables[key] = found
        return found

    @cached_property
    def _link_tables(self) -> dict[tuple[Theme, float], dict[LinkKey, Op]]:
        return {}

    def _draw_link(
        self,
        canvas: Canvas,
        theme: Theme,
        colour: str,
        cell: Coord,
        *,
        direction: int,
        width: float,
    ) -> None:
        """The bar from `cell` to its right (`direction` 0) or upper (1) neighbour, both
        holding a stone of `colour`."""
        bar = max(4, round(self.cell * width))
        fill, edge, _ = sprites.stone_colours(theme, colour)
        if colour == "black":
            edge = theme.rgb("black_rim")
        col, row = cell
        x, y = self.centre(cell)
        nx, ny = self.centre((col + 1, row) if direction == 0 else (col, row + 1))
        box = (
            min(x, nx) - bar / 2,
            min(y, ny) - bar / 2,
            max(x, nx) + bar / 2 - 1,
            max(y, ny) + bar / 2 - 1,
        )
        canvas.rectangle(box, fill=fill, outline=edge, width=2)
