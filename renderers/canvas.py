"""A picture as drawing operations over a cached page, drawn whole or band by band.

Renderers do not draw on an image: they add operations to a `Canvas` (paste a sprite,
write a text, fill a rectangle, draw strokes). `Canvas.image()` draws them all on a copy
of the static page. The PNG encoder (`renderers.png`) asks for one horizontal band at a
time and only for the bands it has not compressed before: a band is determined by the
page and the operations that touch it, in order, so a band with the same page and the
same operations is the same pixels (between two moves most bands are).

An operation is `(top, bottom, draw, args)`: the rows it may touch (`top` included,
`bottom` excluded), a module-level function `draw(image, dy, args)` that draws it on
`image` moved up by `dy` rows, and a hashable tuple `args` that determines every pixel
it draws.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from renderers.fonts import Font
from renderers.sprites import Point, Sprite, stroke_box, strokes_on
from renderers.text import text_extent, text_image
from renderers.theme import RGB

DrawFn = Callable[[Image.Image, int, Any], None]
Op = tuple[int, int, DrawFn, tuple[Any, ...]]
Box = tuple[float, float, float, float]
IntBox = tuple[int, int, int, int]


op_identity = operator.itemgetter(slice(2, 4))
"""An operation's drawing function and arguments: what its pixels depend on."""


class Canvas:
    """The operations of one picture over its static page."""

    __slots__ = ("board_rows", "height", "ops", "page", "page_key", "width")

    def __init__(
        self, page: Image.Image, page_key: Hashable, board_rows: tuple[int, int] | None = None
    ) -> None:
        self.page = page
        """The static page (never drawn on: bands are drawn on copies)."""
        self.page_key = page_key
        """What determines the page's pixels (its layout and theme)."""
        self.width, self.height = page.size
        self.board_rows = board_rows or (0, self.height)
        """The rows of the board block; the others (header, footer) change at every move."""
        self.ops: list[Op] = []

    def add(self, top: float, bottom: float, draw: DrawFn, *args: Hashable) -> None:
        """Record an operation touching rows `top` to `bottom`."""
        low, high = max(0, math.floor(top)), min(self.height, math.ceil(bottom))
        if high > low:
            self.ops.append((low, high, draw, args))

    def paste(self, sprite: Sprite, centre: Point) -> None:
        """Paste `sprite` with its centre on `centre`."""
        width, height = sprite.image.size
        left, top = round(centre[0] - width / 2), round(centre[1] - height / 2)
        if top + height > 0 and top < self.height:
            self.ops.append(
                (max(0, top), min(self.height, top + height), _paste, (sprite, left, top))
            )

    def text(self, xy: Point, text: str, face: Font, fill: RGB, anchor: str = "la") -> None:
        """Write `text` at `xy` (Pillow's anchors), rounded to a whole pixel."""
        if not text:
            return
        x, y = math.floor(xy[0] + 0.5), math.floor(xy[1] + 0.5)
        _, top, _, bottom = text_extent(face, text, anchor)
        self.add(y + top - 1, y + bottom + 1, _text, x, y, text, face, fill, anchor)

    def rectangle(
        self, box: Box, *, fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        """A rectangle, edges included (as `ImageDraw.rectangle`), corners rounded to pixels."""
        whole = _pixels(box)
        self.add(whole[1] - 1, whole[3] + 2, _rectangle, whole, fill, outline, width)

    def rounded_rectangle(self, box: Box, *, radius: float, fill: RGB) -> None:
        """A filled rectangle with rounded corners, its box rounded to pixels."""
        whole = _pixels(box)
        self.add(whole[1] - 1, whole[3] + 2, _rounded, whole, radius, fill)

    def strokes(
        self,
        strokes: Sequence[Sequence[Point]],
        colour: RGB,
        width: float,
        *,
        edge: RGB | None = None,
        dots: Sequence[tuple[Point, float]] = (),
    ) -> None:
        """Smooth polylines with round ends (an optional darker edge) and round dots."""
        lines = tuple(tuple(stroke) for stroke in strokes)
        spots = tuple(dots)
        box = stroke_box(lines, width, spots, (self.width, self.height))
        if box is not None:
            self.add(box[1], box[3], _strokes, box, lines, colour, width, edge, spots)

    def image(self) -> Image.Image:
        """The whole picture as an RGB image."""
        image = self.page.copy()
        for _, _, draw, args in self.ops:
            draw(image, 0, args)
        return image

    def band(self, top: int, bottom: int, ops: Sequence[Op]) -> Image.Image:
        """Rows `top` to `bottom` of the picture, drawing only `ops` (those that touch them)."""
        image = self.page.crop((0, top, self.width, bottom))
        for _, _, draw, args in ops:
            draw(image, top, args)
        return image


def _pixels(box: Box) -> IntBox:
    """`box` on whole pixels, so that a band drawn alone rounds it as the whole picture does."""
    left, top, right, bottom = box
    return (
        math.floor(left + 0.5),
        math.floor(top + 0.5),
        math.floor(right + 0.5),
        math.floor(bottom + 0.5),
    )


def _paste(image: Image.Image, dy: int, args: tuple[Sprite, int, int]) -> None:
    sprite, left, top = args
    _paste_rgba(image, sprite.image, left, top - dy)


def _text(image: Image.Image, dy: int, args: tuple[int, int, str, Font, RGB, str]) -> None:
    x, y, text, face, fill, anchor = args
    drawn = text_image(face, text, anchor)
    left, top = x + drawn.left, y + drawn.top - dy
    width, height = drawn.mask.size
    # Pillow's core paste, as `Image.paste` calls it: the colour through the grey mask.
    image.im.paste(fill, (left, top, left + width, top + height), drawn.mask.im)
    if drawn.colour is not None:
        _paste_rgba(image, drawn.colour, left, top)


def _paste_rgba(image: Image.Image, picture: Image.Image, left: int, top: int) -> None:
    """Paste an RGBA `picture` through its own alpha with its corner on (`left`, `top`).

    Pillow's core paste, as `Image.paste` calls it, without that wrapper's checks (a few µs,
    some 60 times a picture)."""
    width, height = picture.size
    core = picture.im
    image.im.paste(core, (left, top, left + width, top + height), core)


def _rectangle(
    image: Image.Image, dy: int, args: tuple[IntBox, RGB | None, RGB | None, int]
) -> None:
    # What `ImageDraw.Draw(image).rectangle` does, on Pillow's core drawing object directly:
    # building an `ImageDraw.Draw` costs more than filling a small rectangle.
    (left, top, right, bottom), fill, outline, width = args
    draw = Image.core.draw(image.im, 0)
    box = (left, top - dy, right, bottom - dy)
    fill_ink = None if fill is None else draw.draw_ink(fill)
    ink = None if outline is None else draw.draw_ink(outline)
    if fill_ink is None and ink is None:
        ink = draw.draw_ink(-1)  # ImageDraw's default: a white outline
    if fill_ink is not None:
        draw.draw_rectangle(box, fill_ink, 1)
    if ink is not None and ink != fill_ink and width != 0:
        draw.draw_rectangle(box, ink, 0, width)


def _rounded(image: Image.Image, dy: int, args: tuple[IntBox, float, RGB]) -> None:
    (left, top, right, bottom), radius, fill = args
    ImageDraw.Draw(image).rounded_rectangle(
        (left, top - dy, right, bottom - dy), radius=radius, fill=fill
    )


def _strokes(image: Image.Image, dy: int, args: tuple[Any, ...]) -> None:
    box, lines, colour, width, edge, dots = args
    strokes_on(image, lines, colour, width, edge=edge, dots=dots, box=box, dy=dy)
