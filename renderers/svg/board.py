"""The parts of a board SVG every game shares: the static board of each layout, the cells."""

from __future__ import annotations

from dataclasses import dataclass, field

from renderers.base import BoardLayout, Coord
from renderers.hexagons import HexBoard
from renderers.intersections import PointGrid, star_points
from renderers.page import BOARD_TOP
from renderers.square import SquareBoard
from renderers.svg.markup import attrs, num, rect


@dataclass(frozen=True)
class Piece:
    """What stands on one cell."""

    colour: str
    """`white` or `black`: the `data-piece` value."""
    kind: str = "stone"
    """What the screen-reader label calls it: `stone`, or `king` (Diffusion Chess)."""
    size: int | None = None
    """A number printed on it (Diffusion Chess's frozen group size), `data-size`."""


@dataclass
class Drawing:
    """A position as SVG parts: the pieces per cell and the marks under and over them."""

    pieces: dict[Coord, Piece] = field(default_factory=dict)
    under: list[str] = field(default_factory=list)
    """Markup drawn under the cells (tiles, paths, links)."""
    over: list[str] = field(default_factory=list)
    """Markup drawn over the cells, never taking a click (rings, crosses, numbers)."""
    data: dict[Coord, dict[str, str]] = field(default_factory=dict)
    """More `data-*` attributes per cell (a Stones stake: `data-stake`)."""
    words: dict[Coord, list[str]] = field(default_factory=dict)
    """More words of a cell's screen-reader label ("black stake")."""
    floor: list[str] = field(default_factory=list)
    """Markup drawn on the wood under the board's lines (Rekushu's tiles)."""
    defs: list[str] = field(default_factory=list)
    """Markup for `<defs>` (patterns)."""

    def say(self, coord: Coord, words: str) -> None:
        """Add `words` to the screen-reader label of `coord`."""
        self.words.setdefault(coord, []).append(words)


def static_board(layout: BoardLayout, *, labels: bool) -> tuple[str, str]:
    """The board itself: the wood (or cells), then its lines, star points and coordinates."""
    if isinstance(layout, SquareBoard):
        wood, body = _square(layout)
    elif isinstance(layout, PointGrid):
        wood, body = _grid(layout)
    elif isinstance(layout, HexBoard):
        wood, body = _hexes(layout), ""
    else:
        raise TypeError(f"no SVG for the layout {type(layout).__name__}")
    if labels:
        size = layout.label_size
        texts = "".join(
            f"<text{attrs(x=x, y=y)}>{label}</text>" for label, (x, y) in layout.labels()
        )
        body += f'<g class="coords" font-size="{size}">{texts}</g>'
    return wood, body


def _square(board: SquareBoard) -> tuple[str, str]:
    x0, y0 = board.origin
    side_x, side_y = board.columns * board.cell, board.rows * board.cell
    m = board.margin
    wood = rect("wood", x0 - m, y0 - m, side_x + 2 * m, side_y + 2 * m, more=' rx="12"')
    c = board.cell
    checker = "".join(
        f"M{x0 + col * c} {y0 + (board.rows - 1 - row) * c}h{c}v{c}h-{c}z"
        for row in range(board.rows)
        for col in range(board.columns)
        if (col + row) % 2 == 0
    )
    lines = "".join(f"M{x0 + k * c} {y0}v{side_y}" for k in range(1, board.columns))
    lines += "".join(f"M{x0} {y0 + k * c}h{side_x}" for k in range(1, board.rows))
    return (
        wood + f'<path class="alt" d="{checker}"/>',
        f'<path class="grid" stroke-width="1" opacity=".6" d="{lines}"/>'
        + rect("grid", x0 - 1, y0 - 1, side_x + 2, side_y + 2, more=' stroke-width="2"'),
    )


def _grid(board: PointGrid) -> tuple[str, str]:
    x0, y0 = board.origin
    side = (board.points - 1) * board.spacing
    m = board.margin
    s = board.spacing
    wood = rect("wood", x0 - m, y0 - m, side + 2 * m, side + 2 * m, more=' rx="12"')
    lines = "".join(
        f"M{x0 + k * s} {y0}v{side}M{x0} {y0 + k * s}h{side}" for k in range(board.points)
    )
    stars = ""
    if board.stars:
        radius = max(3.0, s * 0.1)
        stars = "".join(
            f"<circle{attrs(cx=x, cy=y, r=radius)}/>"
            for x, y in (board.centre(p) for p in star_points(board.points))
        )
        stars = f'<g class="ink">{stars}</g>'
    return wood, f'<path class="grid" stroke-width="2" d="{lines}"/>' + stars


def _hexes(board: HexBoard) -> str:
    """The cells as a repeating pattern of three shades inside the board's outline: the
    tiling repeats every 3 cells across and 2 rows down (the shade of (q, r) is (q + r) % 3)."""
    ox, oy = board.centre((0, 0))
    width, height = 3 * board.cell, 2 * board.row
    shades = ("wood", "alt", "mid")
    tiles: dict[str, list[str]] = {name: [] for name in shades}
    for q in range(-2, 5):
        for r in range(-3, 2):
            x, y = board.centre((q, r))
            if (
                -board.cell <= x - ox <= width + board.cell
                and -board.row <= y - oy <= height + board.row
            ):
                corners = [(cx - ox, cy - oy) for cx, cy in board.corners((q, r))]
                tiles[shades[(q + r) % 3]].append(_polygon(corners))
    pattern_id = f"tabula-hex{board.size}"
    pattern = (
        f'<pattern id="{pattern_id}" patternUnits="userSpaceOnUse"'
        f"{attrs(x=ox, y=oy, width=width, height=height)}>"
        + "".join(
            f'<path class="{name}" stroke-width="1.3" d="{"".join(cells)}"/>'
            for name, cells in tiles.items()
        )
        + "</pattern>"
    )
    middle = board.size - 1
    x, y = board.centre((middle, middle))
    return (
        f"<defs>{pattern}</defs>"
        f'<path class="rim" fill="url(#{pattern_id})" stroke-width="4.4" d="{_outline(board)}"/>'
        + f'<circle class="ink"{attrs(cx=x, cy=y, r=board.cell * 0.09)}/>'
    )


def _outline(board: HexBoard) -> str:
    """The board's edge as one closed path (the sides of the cells that have no neighbour)."""
    following: dict[tuple[float, float], tuple[float, float]] = {}
    for start, end in board.outline(board.cells()):
        following[_key(start)] = end
    first = next(iter(following))
    corners = [first]
    point = _key(following[first])
    while point != first:
        corners.append(point)
        point = _key(following[point])
    return _polygon(corners)


def _key(point: tuple[float, float]) -> tuple[float, float]:
    return round(point[0], 1), round(point[1], 1)


def _polygon(corners: list[tuple[float, float]]) -> str:
    first, *rest = corners
    return (
        f"M{num(first[0])} {num(first[1])}" + "".join(f"L{num(x)} {num(y)}" for x, y in rest) + "z"
    )


def view_box(layout: BoardLayout) -> str:
    """The `viewBox` of a board: its block on the page (the pictures' own pixels)."""
    left, top, right, bottom = layout.block
    assert top == BOARD_TOP
    return f"{left} {top} {right - left} {bottom - top}"
