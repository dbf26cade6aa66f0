"""Stones and marks drawn once, anti-aliased, and cached: each frame only pastes them.

Every sprite is an RGBA image of even size whose centre is the point it marks, so
`paste_centred` puts it exactly on a grid point. Marks differ in shape, not only in
colour: the last move is a ring, a captured stone a cross, a hint a dot, a hinted
stone a square, a stone that already moved a triangle, a king a crown, a forbidden
cell a struck-through circle and the liberty a stake is attached to a hollow diamond.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from typing import Any, ParamSpec

from PIL import Image, ImageDraw

from renderers.fonts import font
from renderers.theme import RGB, Theme, blend

SUPERSAMPLE = 4
"""Sprites are drawn this many times larger and reduced, which smooths their edges."""

Point = tuple[float, float]
P = ParamSpec("P")


class Sprite:
    """A cached RGBA picture whose centre is the point it marks, compared by its `key`.

    The key (the drawing function and its arguments) determines every pixel, so two
    pictures pasting equal sprites at the same place are equal there (`renderers.canvas`).
    """

    __slots__ = ("_hash", "image", "key")

    def __init__(self, key: tuple[Any, ...], image: Image.Image) -> None:
        self.key = key
        self.image = image
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sprite) and (self is other or self.key == other.key)

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels."""
        return self.image.size


def sprite(maxsize: int) -> Callable[[Callable[P, Image.Image]], Callable[P, Sprite]]:
    """Cache a function that draws an image as one returning `Sprite`s keyed by its arguments."""

    def decorate(draw: Callable[P, Image.Image]) -> Callable[P, Sprite]:
        @lru_cache(maxsize=maxsize)
        def cached(*args: Any, **kwargs: Any) -> Sprite:
            key = (draw.__name__, args, tuple(sorted(kwargs.items())))
            return Sprite(key, draw(*args, **kwargs))

        @wraps(draw)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> Sprite:
            return cached(*args, **kwargs)  # type: ignore[arg-type]

        return wrapper

    return decorate


def _even(value: float) -> int:
    return max(2, math.ceil(value / 2) * 2)


def _alpha(colour: RGB, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*colour, alpha)


class _Pen:
    """Draws on a supersampled transparent canvas in sprite coordinates (centre = 0, 0)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.image = Image.new("RGBA", (size * SUPERSAMPLE, size * SUPERSAMPLE), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def _xy(self, x: float, y: float) -> Point:
        half = self.size / 2
        return (x + half) * SUPERSAMPLE, (y + half) * SUPERSAMPLE

    def circle(
        self,
        radius: float,
        fill: tuple[int, int, int, int] | None = None,
        outline: tuple[int, int, int, int] | None = None,
        width: float = 0,
        centre: Point = (0, 0),
    ) -> None:
        x0, y0 = self._xy(centre[0] - radius, centre[1] - radius)
        x1, y1 = self._xy(centre[0] + radius, centre[1] + radius)
        # Pillow fills the box's last row and column too: one less keeps a circle round
        # the sprite's centre, so that its lower half mirrors its upper half exactly.
        self.draw.ellipse(
            (round(x0), round(y0), round(x1) - 1, round(y1) - 1),
            fill=fill,
            outline=outline,
            width=round(width * SUPERSAMPLE),
        )

    def polygon(
        self,
        points: Sequence[Point],
        fill: tuple[int, int, int, int] | None = None,
        outline: tuple[int, int, int, int] | None = None,
        width: float = 0,
    ) -> None:
        self.draw.polygon(
            [self._xy(x, y) for x, y in points],
            fill=fill,
            outline=outline,
            width=round(width * SUPERSAMPLE),
        )

    def line(self, points: Sequence[Point], fill: tuple[int, int, int, int], width: float) -> None:
        self.draw.line(
            [self._xy(x, y) for x, y in points],
            fill=fill,
            width=round(width * SUPERSAMPLE),
            joint="curve",
        )

    def finish(self) -> Image.Image:
        return self.image.resize((self.size, self.size), Image.Resampling.BOX)


def paste_centred(image: Image.Image, sprite: Sprite, centre: Point) -> None:
    """Paste `sprite` on `image` with its centre on the point `centre`."""
    width, height = sprite.size
    left, top = round(centre[0] - width / 2), round(centre[1] - height / 2)
    image.paste(sprite.image, (left, top), sprite.image)


def stone_colours(theme: Theme, colour: str) -> tuple[RGB, RGB, RGB]:
    """Fill, outline and text colour of a `black` or `white` stone."""
    if colour == "black":
        return theme.rgb("black"), theme.rgb("black_edge"), theme.rgb("black_text")
    return theme.rgb("white"), theme.rgb("white_edge"), theme.rgb("white_text")


@sprite(maxsize=256)
def stone(theme: Theme, colour: str, diameter: int, *, alpha: int = 255) -> Image.Image:
    """A `black` or `white` stone with a clear outline (and a light rim around black ones).

    A soft light from the left makes stones look round rather than flat. The light comes
    level, so that the lower half of a stone mirrors its upper half row for row, which the
    PNG encoder finds within its window: a board full of stones compresses to half.
    """
    radius = diameter / 2
    pen = _Pen(_even(diameter + 4))
    _, edge, _ = stone_colours(theme, colour)
    edge_width = max(1.4, diameter * 0.055)
    if colour == "black":
        pen.circle(radius + 1.2, fill=_alpha(theme.rgb("black_rim"), 170 * alpha // 255))
    shade, lit = theme.stone_light(colour)
    pen.circle(radius, fill=_alpha(edge, alpha))
    inner = radius - edge_width
    steps = max(8, round(inner))
    for step in range(steps):
        # Concentric discs shrinking towards the light: a cheap radial gradient.
        t = step / steps
        pen.circle(
            inner * (1 - t * 0.8),
            fill=_alpha(blend(shade, lit, t**1.5), alpha),
            centre=(-inner * 0.4 * t, 0.0),
        )
    return pen.finish()


def number_size(diameter: int, text: str) -> int:
    """The font size of `text` printed on a stone of `diameter` pixels."""
    return round(diameter * (0.5 if len(text) < 2 else 0.44))


@sprite(maxsize=1024)
def labelled_stone(
    theme: Theme, colour: str, diameter: int, text: str, *, alpha: int = 255
) -> Image.Image:
    """A stone with `text` (a group size) printed in its middle."""
    image = stone(theme, colour, diameter, alpha=alpha).image.copy()
    _, _, ink = stone_colours(theme, colour)
    face = font(number_size(diameter, text), bold=True)
    half = image.width / 2
    ImageDraw.Draw(image).text(
        (half, half + diameter * 0.03), text, font=face, fill=_alpha(ink, alpha), anchor="mm"
    )
    return image


@sprite(maxsize=256)
def ring(colour: RGB, diameter: int, width: float) -> Image.Image:
    """A ring: the mark of the last move."""
    pen = _Pen(_even(diameter + 2))
    pen.circle(diameter / 2, outline=_alpha(colour), width=width)
    return pen.finish()


@sprite(maxsize=256)
def dot(colour: RGB, edge: RGB, diameter: int) -> Image.Image:
    """A filled dot with a thin contrasting edge: a legal destination."""
    pen = _Pen(_even(diameter + 2))
    pen.circle(diameter / 2, fill=_alpha(edge))
    pen.circle(diameter / 2 - max(1.2, diameter * 0.12), fill=_alpha(colour))
    return pen.finish()


@sprite(maxsize=256)
def cross(colour: RGB, edge: RGB, size: int, width: float) -> Image.Image:
    """A diagonal cross with a contrasting edge: a stone captured by the last move."""
    pen = _Pen(_even(size + width + 4))
    arm = size / 2
    for sign in (1, -1):
        points = [(-arm, -arm * sign), (arm, arm * sign)]
        pen.line(points, _alpha(edge), width + 2.4)
    for sign in (1, -1):
        pen.line([(-arm, -arm * sign), (arm, arm * sign)], _alpha(colour), width)
    return pen.finish()


@sprite(maxsize=256)
def square(colour: RGB, size: int, width: float) -> Image.Image:
    """A square outline: the stone a hint is about."""
    pen = _Pen(_even(size + width + 2))
    half = size / 2 - width / 2
    corners = [(-half, -half), (half, -half), (half, half), (-half, half), (-half, -half)]
    pen.line(corners, _alpha(colour), width)
    return pen.finish()


@sprite(maxsize=256)
def triangle(colour: RGB, edge: RGB, size: int) -> Image.Image:
    """A small filled triangle pointing up, as the legend's ▲: a stone moved this turn."""
    pen = _Pen(_even(size + 4))
    half = size / 2
    points = [(-half, half * 0.8), (half, half * 0.8), (0, -half * 0.95)]
    pen.polygon(points, fill=_alpha(colour), outline=_alpha(edge), width=max(1.0, size * 0.1))
    return pen.finish()


@sprite(maxsize=256)
def crown(colour: RGB, edge: RGB, width: int) -> Image.Image:
    """A three-pointed crown: a king."""
    pen = _Pen(_even(width + 4))
    w, h = width / 2, width * 0.36
    points = [
        (-w, h),
        (-w, -h),
        (-w * 0.5, 0.0),
        (0.0, -h * 1.25),
        (w * 0.5, 0.0),
        (w, -h),
        (w, h),
    ]
    pen.polygon(points, fill=_alpha(colour), outline=_alpha(edge), width=max(1.0, width * 0.08))
    return pen.finish()


@sprite(maxsize=256)
def no_entry(colour: RGB, edge: RGB, diameter: int) -> Image.Image:
    """A struck-through circle: a cell the player to move may not use."""
    pen = _Pen(_even(diameter + 6))
    radius = diameter / 2
    width = max(2.0, diameter * 0.13)
    pen.circle(radius + 1.2, outline=_alpha(edge), width=width + 2.4)
    pen.circle(radius, outline=_alpha(colour), width=width)
    slant = radius * 0.68
    pen.line([(-slant, slant), (slant, -slant)], _alpha(edge), width + 2.4)
    pen.line([(-slant, slant), (slant, -slant)], _alpha(colour), width)
    return pen.finish()


@sprite(maxsize=64)
def star(colour: RGB, edge: RGB, diameter: int) -> Image.Image:
    """A five-pointed star: the winner."""
    pen = _Pen(_even(diameter + 4))
    outer, inner = diameter / 2, diameter * 0.2
    points = [
        (
            (outer if k % 2 == 0 else inner) * math.sin(k * math.pi / 5),
            -(outer if k % 2 == 0 else inner) * math.cos(k * math.pi / 5),
        )
        for k in range(10)
    ]
    pen.polygon(points, fill=_alpha(colour), outline=_alpha(edge), width=1.2)
    return pen.finish()


@sprite(maxsize=64)
def arrow(colour: RGB, size: int) -> Image.Image:
    """A right-pointing triangle: the player to move."""
    pen = _Pen(_even(size + 2))
    half = size / 2
    pen.polygon([(-half * 0.6, -half), (half * 0.9, 0.0), (-half * 0.6, half)], fill=_alpha(colour))
    return pen.finish()


def stroke_box(
    strokes: Sequence[Sequence[Point]],
    width: float,
    dots: Sequence[tuple[Point, float]],
    size: tuple[int, int],
) -> tuple[int, int, int, int] | None:
    """The pixel box (left, top, right, bottom) that strokes and dots cover on an image of
    `size`, or None when they cover nothing."""
    spots = [point for stroke in strokes for point in stroke]
    spots += [centre for centre, _ in dots]
    if not spots:
        return None
    reach = width / 2 + 3 + max((radius for _, radius in dots), default=0.0)
    left = max(0, math.floor(min(x for x, _ in spots) - reach))
    top = max(0, math.floor(min(y for _, y in spots) - reach))
    right = min(size[0], math.ceil(max(x for x, _ in spots) + reach))
    bottom = min(size[1], math.ceil(max(y for _, y in spots) + reach))
    if right <= left or bottom <= top:
        return None
    return left, top, right, bottom


def strokes_on(
    image: Image.Image,
    strokes: Sequence[Sequence[Point]],
    colour: RGB,
    width: float,
    *,
    edge: RGB | None = None,
    dots: Sequence[tuple[Point, float]] = (),
    box: tuple[int, int, int, int] | None = None,
    dy: int = 0,
) -> None:
    """Draw smooth polylines with round ends (and an optional darker edge) and round dots.

    Drawing a band of a picture, give the picture's `box` (`stroke_box`) and the band's
    top `dy`: the band then gets exactly the pixels of the whole picture.
    """
    if box is None:
        box = stroke_box(strokes, width, dots, image.size)
        if box is None:
            return
    first, last = max(box[1], dy), min(box[3], dy + image.height)
    if last <= first:
        return
    lines = tuple(tuple(stroke) for stroke in strokes)
    masks = stroke_masks(lines, width, edge is not None, tuple(dots), box).masks(
        first, last, (dy, image.height)
    )
    inks = (edge, colour) if edge is not None else (colour,)
    for ink, (mask, x, y) in zip(inks, masks, strict=True):
        if mask is not None:
            # Pillow's core paste, as `Image.paste` calls it: the ink through the grey mask.
            columns, rows = mask.size  # not `width`: that is the strokes' width
            image.im.paste(ink, (x, y - dy, x + columns, y - dy + rows), mask)


_SCALE = 3
"""Strokes are drawn this many times larger and reduced."""
_BUCKET = 32 * _SCALE
"""Supersampled rows per bucket of the index of shapes by row."""
_KEPT_ROWS = 64
"""Masks of at most this many rows (bands) are kept for the next picture."""
_LINE, _DISC, _PIE = 0, 1, 2

Shape = tuple[int, int, int, int, int, int, int, int, int, float, float]
"""(top, bottom, left, right, kind, x0, y0, x1, y1, a, b): one call of Pillow's drawing core on
the supersampled mask (a line `a` wide, a disc or a pie slice from angle `a` to `b`), its
corners or ends already truncated to whole pixels as Pillow would, after the rows and columns
it may touch (inclusive)."""
BandMask = tuple[Any, int, int]
"""A layer's mask (Pillow's core image "L", None when it has no ink there) and the picture's
pixel of its corner."""


class StrokeMasks:
    """The shapes of strokes over a box, drawn for the bands of a picture.

    The shapes are the calls `ImageDraw.line(..., joint="curve")` and `ImageDraw.ellipse`
    make for the whole box's supersampled mask (the edge layer, then the stroke). The first
    band asked for draws them all once and reduces, for every band of the same height
    (`grid`), only the columns its shapes may reach there: the bands of a picture then
    only paste. Rows not on that grid draw only the shapes that reach them, on a mask that
    starts at their first row: Pillow truncates every coordinate to whole pixels and then
    rasterises with integer (and, within a row, float but translation invariant)
    arithmetic, so shifting the truncated coordinates up by whole pixels changes no pixel.
    Columns keep the box's origin: a polygon's edges are filled with float arithmetic on
    absolute columns.
    """

    __slots__ = ("bands", "box", "layers", "shapes")

    def __init__(self, box: tuple[int, int, int, int], layers: list[list[Shape]]) -> None:
        self.box = box
        self.shapes = layers
        self.layers = [_index(shapes) for shapes in layers]
        self.bands: dict[tuple[int, int], tuple[BandMask, ...]] = {}

    def masks(self, first: int, last: int, grid: tuple[int, int]) -> tuple[BandMask, ...]:
        """The mask of each layer for rows `first` to `last` of the picture (only the columns
        its shapes may reach there), one of the bands of `grid` rows (the top of one, their
        height) of the box."""
        found = self.bands.get((first, last))
        if found is not None:
            return found
        start, rows = grid
        if rows <= _KEPT_ROWS and not self.bands:
            start += (self.box[1] - start) // rows * rows
            strips = [
                (max(self.box[1], top), min(self.box[3], top + rows))
                for top in range(start, self.box[3], rows)
            ]
            layers = [self._draw_all(index, strips) for index in range(len(self.layers))]
            self.bands.update(zip(strips, zip(*layers, strict=True), strict=True))
            found = self.bands.get((first, last))
            if found is not None:
                return found
        found = tuple(self._draw(buckets, first, last) for buckets in self.layers)
        if last - first <= _KEPT_ROWS:
            self.bands[first, last] = found
        return found

    def _near(self, buckets: list[list[Shape]], low: int, high: int) -> list[Shape]:
        """The shapes that may touch supersampled rows `low` to `high`."""
        near: list[Shape] = []
        above = low // _BUCKET
        for index in range(above, min(len(buckets), (high - 1) // _BUCKET + 1)):
            start = index * _BUCKET
            # A shape that starts above this bucket is in the one above too.
            near += [
                s
                for s in buckets[index]
                if s[0] < high and s[1] >= low and (s[0] >= start or index == above)
            ]
        return near

    def _columns(self, near: list[Shape]) -> tuple[int, int]:
        """The picture's columns (from the box's left) that `near` shapes may reach."""
        left, _, right, _ = self.box
        begin = max(0, min([shape[2] for shape in near])) // _SCALE
        end = -(-min((right - left) * _SCALE, max([shape[3] for shape in near]) + 1) // _SCALE)
        return begin, end

    def _draw_all(self, layer: int, strips: list[tuple[int, int]]) -> list[BandMask]:
        """Layer `layer` drawn whole, reduced strip by strip."""
        left, top, right, bottom = self.box
        shapes, buckets = self.shapes[layer], self.layers[layer]
        found: list[BandMask] = [(None, 0, 0)] * len(strips)
        if not shapes:
            return found
        mask = Image.core.fill("L", ((right - left) * _SCALE, (bottom - top) * _SCALE), 0)
        _draw_shapes(mask, shapes, 0)
        for index, (first, last) in enumerate(strips):
            low, high = (first - top) * _SCALE, (last - top) * _SCALE
            near = self._near(buckets, low, high)
            if near:
                begin, end = self._columns(near)
                if end > begin:
                    area = (begin * _SCALE, low, end * _SCALE, high)
                    found[index] = (mask.reduce((_SCALE, _SCALE), area), left + begin, first)
        return found

    def _draw(self, buckets: list[list[Shape]], first: int, last: int) -> BandMask:
        left, top, _, _ = self.box
        low, high = (first - top) * _SCALE, (last - top) * _SCALE
        near = self._near(buckets, low, high)
        if not near:
            return None, 0, 0
        begin, end = self._columns(near)
        if end <= begin:
            return None, 0, 0
        mask = Image.core.fill("L", (end * _SCALE, high - low), 0)
        _draw_shapes(mask, near, low)
        small = mask.reduce((_SCALE, _SCALE), (begin * _SCALE, 0, end * _SCALE, high - low))
        return small, left + begin, first


def _draw_shapes(mask: Any, shapes: list[Shape], low: int) -> None:
    """Draw `shapes` moved up by `low` rows on Pillow's core image `mask` with Pillow's
    drawing core, as ImageDraw's methods call it after checking their arguments (their
    wrappers, and those of `Image`, cost more than drawing a small shape)."""
    core = Image.core.draw(mask, 0)
    for _, _, _, _, kind, x0, y0, x1, y1, a, b in shapes:
        if kind == _LINE:
            core.draw_lines((x0, y0 - low, x1, y1 - low), 255, int(a))
        elif kind == _DISC:
            core.draw_ellipse((x0, y0 - low, x1, y1 - low), 255, 1)
        else:
            core.draw_pieslice((x0, y0 - low, x1, y1 - low), a, b, 255, 1)


def _index(shapes: list[Shape]) -> list[list[Shape]]:
    """Shapes by the buckets of rows they may touch (a shape is in each of its buckets)."""
    buckets: list[list[Shape]] = []
    for shape in shapes:
        last = shape[1] // _BUCKET
        if last >= len(buckets):
            buckets += [[] for _ in range(last + 1 - len(buckets))]
        for index in range(max(0, shape[0] // _BUCKET), last + 1):
            buckets[index].append(shape)
    return buckets


@lru_cache(maxsize=32)  # each keeps its bands' masks: a whole-board path's are about a MB
def stroke_masks(
    lines: tuple[tuple[Point, ...], ...],
    width: float,
    edged: bool,
    dots: tuple[tuple[Point, float], ...],
    box: tuple[int, int, int, int],
) -> StrokeMasks:
    """The masks of strokes (with an edge layer if `edged`) and dots over `box`."""
    left, top = box[0], box[1]
    strokes = [[((x - left) * _SCALE, (y - top) * _SCALE) for x, y in line] for line in lines]
    spots = [((x - left) * _SCALE, (y - top) * _SCALE) for (x, y), _ in dots]
    bends = [_bends(points) for points in strokes]
    layers: list[list[Shape]] = []
    for extra in (3.0, 0.0) if edged else (0.0,):
        shapes: list[Shape] = []
        thickness = (width + extra) * _SCALE
        pen = round(thickness)
        for points, turns in zip(strokes, bends, strict=True):
            if len(points) > 1 and pen != 0:
                ends = [(int(x), int(y)) for x, y in points]
                shapes += [_segment(*start, *end, pen) for start, end in itertools.pairwise(ends)]
                if pen > 4:
                    shapes += _joints(turns, pen)
            shapes += [_disc(x, y, thickness / 2) for x, y in points]
        shapes += [
            _disc(x, y, (radius + extra / 2) * _SCALE)
            for (x, y), (_, radius) in zip(spots, dots, strict=True)
        ]
        layers.append(shapes)
    return StrokeMasks(box, layers)


def _segment(x0: int, y0: int, x1: int, y1: int, width: int) -> Shape:
    reach = width // 2 + 2
    if y0 > y1:
        top, bottom = y1 - reach, y0 + reach
    else:
        top, bottom = y0 - reach, y1 + reach
    if x0 > x1:
        left, right = x1 - reach, x0 + reach
    else:
        left, right = x0 - reach, x1 + reach
    return (top, bottom, left, right, _LINE, x0, y0, x1, y1, width, 0.0)


def _disc(x: float, y: float, r: float) -> Shape:
    x0, y0, x1, y1 = int(x - r), int(y - r), int(x + r), int(y + r)
    return (y0, y1, x0, x1, _DISC, x0, y0, x1, y1, 0.0, 0.0)


Bend = tuple[Point, float, float, bool]
"""A point where a polyline turns, the angles of its two segments and Pillow's `flipped`."""


def _bends(points: Sequence[Point]) -> list[Bend]:
    """Where `ImageDraw.line(points, joint="curve")` rounds a joint (Pillow's construction)."""
    bends: list[Bend] = []
    for before, point, after in zip(points, points[1:], points[2:], strict=False):
        first, second = (
            math.degrees(math.atan2(end[0] - start[0], start[1] - end[1])) % 360
            for start, end in ((before, point), (point, after))
        )
        if first != second:
            flipped = (second > first and second - 180 > first) or (
                second < first and second + 180 > first
            )
            bends.append((point, first, second, flipped))
    return bends


def _joints(bends: list[Bend], width: int) -> list[Shape]:
    """The pie slices (and short lines) with which `ImageDraw.line(..., width=width,
    joint="curve")` rounds its `bends`, repeated here so that each can be drawn alone."""
    shapes: list[Shape] = []
    half = width / 2
    distance = half - 1
    for point, first, second, flipped in bends:
        x, y = point
        x0, y0, x1, y1 = int(x - half + 1), int(y - half + 1), int(x + half - 1), int(y + half - 1)
        start, end = (second + 90, first + 90) if flipped else (first - 90, second - 90)
        shapes.append((y0, y1, x0, x1, _PIE, x0, y0, x1, y1, start - 90, end - 90))
        if width > 8:
            turn = 90 if flipped else -90
            ax, ay = _at_angle(point, first + turn, distance)
            bx, by = _at_angle(point, second + turn, distance)
            shapes.append(_segment(int(ax), int(ay), int(x), int(y), 3))
            shapes.append(_segment(int(x), int(y), int(bx), int(by), 3))
    return shapes


def _at_angle(point: Point, angle: float, distance: float) -> Point:
    """Pillow's point at `distance` from `point` towards `angle` (whole pixels of offset)."""
    x, y = point
    angle -= 90
    dx, dy = distance * math.cos(math.radians(angle)), distance * math.sin(math.radians(angle))
    return (
        x + (math.floor(dx) if dx > 0 else math.ceil(dx)),
        y + (math.floor(dy) if dy > 0 else math.ceil(dy)),
    )


@sprite(maxsize=64)
def hollow_diamond(theme: Theme, colour: str, size: int, *, alpha: int = 255) -> Image.Image:
    """A diamond outline in a stone's colours with a contrasting edge: the liberty a stake is
    attached to (Stones)."""
    pen = _Pen(_even(size + 6))
    fill, edge, _ = stone_colours(theme, colour)
    if colour == "black":
        edge = theme.rgb("black_rim")
    half = size / 2
    diamond = [(0.0, -half), (half, 0.0), (0.0, half), (-half, 0.0), (0.0, -half)]
    width = max(2.0, size * 0.16)
    pen.line(diamond, _alpha(edge, alpha), width + 2.4)
    pen.line(diamond, _alpha(fill, alpha), width)
    return pen.finish()
