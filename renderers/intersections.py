"""Boards whose stones sit on the intersections of a grid (Stones, Rekushu).

(x, y) are 0-based with row 0 at the bottom, as in `rules.squares`; the tile with
lower-left intersection (x, y) is the square between (x, y) and (x + 1, y + 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Self

from PIL import Image, ImageDraw

from renderers.base import BoardLayout, Coord
from renderers.fonts import font
from renderers.page import BOARD_MAX_HEIGHT, BOARD_MAX_WIDTH, BOARD_TOP, WIDTH
from renderers.sprites import Point
from renderers.theme import Theme
from rules.squares import column_letter


def star_points(points: int) -> tuple[Coord, ...]:
    """The marked points of a Go board with `points` lines: corners, sides and centre."""
    if points < 7:
        return ((points // 2, points // 2),) if points % 2 else ()
    edge = 3 if points >= 13 else 2
    lines = [edge, points - 1 - edge]
    if points % 2 and points >= 15:
        lines.insert(1, points // 2)
    stars = [(x, y) for x in lines for y in lines]
    if points % 2 and (points // 2, points // 2) not in stars:
        stars.append((points // 2, points // 2))
    return tuple(stars)


@dataclass(frozen=True)
class PointGrid(BoardLayout):
    """A grid of `points` × `points` intersections, labelled on all four sides."""

    points: int
    spacing: int
    """The distance between neighbouring lines (even, so that points fall on whole pixels)."""
    margin: int
    """The wood between the outer lines and the board's edge, which carries the labels."""
    label_size: int
    left: int
    """The x of the board block's left edge on the page."""
    height: int
    stars: bool
    """Draw the star points of a Go board."""

    @classmethod
    def fit(cls, points: int, *, stars: bool, max_spacing: int = 84) -> Self:
        """The largest grid of `points` lines that fits the page."""
        rough = min(BOARD_MAX_WIDTH, BOARD_MAX_HEIGHT) / (points + 1)
        label_size = max(16, min(22, round(rough * 0.42)))
        # The labels stand clear of the stones on the outer lines.
        margin = round(min(rough, max_spacing) * 0.5 + label_size * 1.3 + 8)
        spacing = int(min(BOARD_MAX_WIDTH, BOARD_MAX_HEIGHT) - 2 * margin) // (points - 1)
        spacing = min(max_spacing, spacing - spacing % 2)
        side = (points - 1) * spacing + 2 * margin
        return cls(points, spacing, margin, label_size, (WIDTH - side) // 2, side, stars)

    @property
    def label_gap(self) -> float:
        """The distance from the outer lines to the centres of the labels."""
        return self.margin - self.label_size * 0.65 - 6

    @property
    def pitch(self) -> int:
        return self.spacing

    @property
    def origin(self) -> tuple[int, int]:
        """The pixel of the top-left intersection."""
        return self.left + self.margin, BOARD_TOP + self.margin

    def _centre(self, coord: Coord) -> Point:
        x, y = coord
        x0, y0 = self.origin
        return x0 + x * self.spacing, y0 + (self.points - 1 - y) * self.spacing

    def tile_box(self, coord: Coord) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of the tile with lower-left corner `coord`."""
        x, y = coord
        left, bottom = self.centre((x, y))
        right, top = self.centre((x + 1, y + 1))
        return round(left), round(top), round(right), round(bottom)

    @property
    def area(self) -> tuple[int, int, int, int]:
        """The box from the top-left to the bottom-right intersection, lines included."""
        x0, y0 = self.origin
        side = (self.points - 1) * self.spacing
        return x0 - 1, y0 - 1, x0 + side + 1, y0 + side + 1

    def coords(self) -> tuple[Coord, ...]:
        return tuple((x, y) for y in range(self.points) for x in range(self.points))

    @property
    def block(self) -> tuple[int, int, int, int]:
        return self.left, BOARD_TOP, self.left + self.height, BOARD_TOP + self.height

    def labels(self) -> Iterator[tuple[str, Point]]:
        x0, y0 = self.origin
        side = (self.points - 1) * self.spacing
        gap = self.label_gap
        for k in range(self.points):
            x = self.centre((k, 0))[0]
            letter = column_letter(k)
            yield letter, (x, y0 - gap)
            yield letter, (x, y0 + side + gap)
            y = self.centre((0, k))[1]
            yield str(k + 1), (x0 - gap, y)
            yield str(k + 1), (x0 + side + gap, y)

    def draw_static(self, image: Image.Image, theme: Theme) -> None:
        draw = ImageDraw.Draw(image)
        x0, y0 = self.origin
        side = (self.points - 1) * self.spacing
        draw.rounded_rectangle(
            (
                x0 - self.margin,
                y0 - self.margin,
                x0 + side + self.margin - 1,
                y0 + side + self.margin - 1,
            ),
            radius=12,
            fill=theme.rgb("board"),
        )
        self.draw_lines(draw, theme.rgb("line"))
        if self.stars:
            radius = max(3.0, self.spacing * 0.1)
            for point in star_points(self.points):
                x, y = self.centre(point)
                draw.ellipse(
                    (x - radius, y - radius, x + radius, y + radius), fill=theme.rgb("line")
                )
        face = font(self.label_size, bold=True)
        ink = theme.rgb("line")
        for label, spot in self.labels():
            draw.text(spot, label, font=face, fill=ink, anchor="mm")

    def draw_lines(self, draw: ImageDraw.ImageDraw, ink: tuple[int, int, int]) -> None:
        """The grid's lines, two pixels wide and centred on the intersections."""
        x0, y0 = self.origin
        side = (self.points - 1) * self.spacing
        for k in range(self.points):
            offset = k * self.spacing
            draw.rectangle((x0 + offset - 1, y0 - 1, x0 + offset, y0 + side), fill=ink)
            draw.rectangle((x0 - 1, y0 + offset - 1, x0 + side, y0 + offset), fill=ink)

    def stone_diameter(self) -> int:
        return round(self.spacing * 0.94)
