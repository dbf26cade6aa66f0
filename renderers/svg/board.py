"""The parts of a board SVG every game shares: the static board of each layout, the cells."""

from __future__ import annotations

from dataclasses import dataclass, field

from renderers.base import BoardLayout, Coord
from renderers.hexagons import HexBoard
from renderers.intersections import PointGrid, star_points
from renderers.page import BOARD_TOP
from renderers.sprites import Point
from renderers.square import SquareBoard
from renderers.svg.markup import attrs, num, points, rect

LAYOUT_CLASSES: dict[type[BoardLayout], frozenset[str]] = {
    SquareBoard: frozenset({"wood", "alt", "grid", "coords"}),
    PointGrid: frozenset({"wood", "grid", "ink", "coords"}),
    HexBoard: frozenset({"wood", "alt", "mid", "cells", "rim", "ink", "coords"}),
}
"""The classes of each layout's static board (their rules go into the style sheet)."""


def layout_classes(layout: BoardLayout) -> frozenset[str]:
    """The classes the static board of `layout` uses."""
    return next(c for kind, c in LAYOUT_CLASSES.items() if isinstance(layout, kind))


@dataclass(frozen=True)
class Piece:
    """What stands on one cell."""

    colour: str
    """`white` or `black`: the `data-piece` value."""
    kind: str = "stone"
    """`stone`, or `king` (Diffusion Chess), which the screen-reader label names."""
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


class CellGrid:
    """The cells of a layout as rows (one y) and columns (the letters of their names), so
    that a cell's centre is its column's x plus its row's shift (Hexade's rows lean)."""

    def __init__(self, layout: BoardLayout, names: dict[Coord, str], scope: str) -> None:
        self.layout = layout
        self.names = names
        """The name of every cell, in the layout's order."""
        self.scope = scope
        """The class naming this board's geometry in the style sheet: the game and its size
        (`t-stones19`), so that boards of several sizes can share a page."""
        self.columns: dict[str, float] = {}
        """The x of each column in the row of the coordinates (col, 0)."""
        for (col, _), cell in names.items():
            x = layout.centre((col, 0))[0]
            assert self.columns.setdefault(self.column(cell), x) == x, cell
        # The style sheet finds a column by the start of its cells' names.
        assert all(len(column) == 1 for column in self.columns), list(self.columns)

    @staticmethod
    def column(cell: str) -> str:
        """The letters of a cell's name."""
        return cell.rstrip("0123456789")

    def rows(self) -> list[tuple[float, float, list[Coord]]]:
        """Each row as (its shift along x, its y, its cells), in the layout's order."""
        found: dict[float, tuple[float, list[Coord]]] = {}
        for coord, cell in self.names.items():
            x, y = self.layout.centre(coord)
            shift = x - self.columns[self.column(cell)]
            row = found.setdefault(y, (shift, []))
            assert abs(row[0] - shift) < 0.01, cell
            row[1].append(coord)
        return [(shift, y, coords) for y, (shift, coords) in found.items()]


def static_board(layout: BoardLayout, *, labels: bool, scope: str) -> tuple[str, str]:
    """The board itself: the wood (or cells), then its lines, star points and coordinates
    (`scope`, the board's geometry class, names the ids of repeated labels)."""
    if isinstance(layout, SquareBoard):
        wood, body = _square(layout)
    elif isinstance(layout, PointGrid):
        wood, body = _grid(layout)
    elif isinstance(layout, HexBoard):
        wood, body = _hexes(layout), ""
    else:
        raise TypeError(f"no SVG for the layout {type(layout).__name__}")
    if labels:
        texts = _mirrored(list(layout.labels()), scope)
        body += f'<g class="coords" font-size="{layout.label_size}">{texts}</g>'
    return wood, body


def _mirrored(labels: list[tuple[str, Point]], scope: str) -> str:
    """The coordinates, those printed again on the far side (the same label at the same
    offset, three or more times) drawn once and repeated with a `<use>`."""
    first: dict[str, int] = {}
    copies: dict[tuple[float, float], list[tuple[int, int]]] = {}
    for index, (label, (x, y)) in enumerate(labels):
        if label not in first:
            first[label] = index
            continue
        a, b = labels[first[label]][1]
        copies.setdefault((round(x - a, 1), round(y - b, 1)), []).append((first[label], index))
    texts = ""
    repeated: set[int] = set()
    for (dx, dy), pairs in copies.items():
        if len(pairs) < 3:
            continue
        ident = f"{scope}-labels{texts.count('<use')}"
        group = _labels([labels[a] for a, _ in pairs])
        texts += (
            f'<g id="{ident}">{group}</g><use href="#{ident}"{attrs(x=dx or None, y=dy or None)}/>'
        )
        repeated |= {i for pair in pairs for i in pair}
    return texts + _labels([found for i, found in enumerate(labels) if i not in repeated])


def _labels(labels: list[tuple[str, Point]]) -> str:
    """The coordinates in few `<text>` elements: the one-letter labels of a line (three or
    more on one y, else two or more on one x, else two on one y) as one text giving each
    letter its own position (each is centred on it), the other labels one text each."""
    single = [(label, x, y) for label, (x, y) in labels if len(label) == 1]
    texts = []
    for on_y, least in ((True, 3), (False, 2), (True, 2)):
        lines: dict[float, list[tuple[str, float, float]]] = {}
        for found in single:
            lines.setdefault(found[2] if on_y else found[1], []).append(found)
        for line in lines.values():
            if len(line) < least:
                continue
            xs = " ".join(num(x) for _, x, _ in line)
            ys = num(line[0][2]) if on_y else " ".join(num(y) for _, _, y in line)
            texts.append(f'<text x="{xs}" y="{ys}">{"".join(c for c, _, _ in line)}</text>')
            single = [found for found in single if found not in line]
    texts += (
        f"<text{attrs(x=x, y=y)}>{label}</text>"
        for label, (x, y) in labels
        if len(label) > 1 or (label, x, y) in single
    )
    return "".join(texts)


def _square(board: SquareBoard) -> tuple[str, str]:
    x0, y0 = board.origin
    side_x, side_y = board.columns * board.cell, board.rows * board.cell
    m = board.margin
    wood = rect("wood", x0 - m, y0 - m, side_x + 2 * m, side_y + 2 * m, more=' rx="12"')
    c = board.cell
    # The darker squares as a pattern of two squares in four: (col + row) % 2 == 0, rows
    # counted from the bottom, so the top left square is dark when the rows are odd.
    first = 0 if board.rows % 2 else c
    pattern_id = f"tabula-sq{board.columns}x{board.rows}-{c}"
    checker = (
        f'<defs><pattern id="{pattern_id}" patternUnits="userSpaceOnUse"'
        f"{attrs(x=x0, y=y0, width=2 * c, height=2 * c)}>"
        f'<path class="alt" d="M{first} 0h{c}v{c}h-{c}zM{c - first} {c}h{c}v{c}h-{c}z"/>'
        f'</pattern></defs><rect fill="url(#{pattern_id})"{attrs(x=x0, y=y0)}'
        f"{attrs(width=side_x, height=side_y)}/>"
    )
    lines = "".join(f"M{x0 + k * c} {y0}v{side_y}" for k in range(1, board.columns))
    lines += "".join(f"M{x0} {y0 + k * c}h{side_x}" for k in range(1, board.rows))
    return (
        wood + checker,
        f'<path class="grid" stroke-width="1" opacity=".6" d="{lines}"/>'
        + rect("grid", x0 - 1, y0 - 1, side_x + 2, side_y + 2, more=' stroke-width="2"'),
    )


def _zigzag(start: Point, step: float, count: int, length: float, *, down: bool) -> str:
    """`count` parallel lines `step` apart from the corner `start` (vertical ones if `down`)
    as one path along one line and back along the next: its steps between lines lie on
    the board's outer lines, which are drawn anyway."""
    along, across = ("v", "h") if down else ("h", "v")
    d = f"M{num(start[0])} {num(start[1])}"
    for k in range(count):
        if k:
            d += f"{across}{num(step)}"
        d += f"{along}{num(length if k % 2 == 0 else -length)}"
    return d


def _grid(board: PointGrid) -> tuple[str, str]:
    x0, y0 = board.origin
    side = (board.points - 1) * board.spacing
    m = board.margin
    s = board.spacing
    wood = rect("wood", x0 - m, y0 - m, side + 2 * m, side + 2 * m, more=' rx="12"')
    lines = _zigzag((x0, y0), s, board.points, side, down=True)
    lines += _zigzag((x0, y0), s, board.points, side, down=False)
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
        f'<pattern id="{pattern_id}" class="cells" patternUnits="userSpaceOnUse"'
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
    return points(corners) + "z"


def view_box(layout: BoardLayout) -> str:
    """The `viewBox` of a board: its block on the page (the pictures' own pixels)."""
    left, top, right, bottom = layout.block
    assert top == BOARD_TOP
    return f"{left} {top} {right - left} {bottom - top}"
