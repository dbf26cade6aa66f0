"""What each game draws on its board besides the cells: pieces, tiles, paths and marks.

Every function takes the state, its layout (the same object the PNG picture uses) and
whether to mark the last move, and returns a `Drawing`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from renderers.base import BoardLayout, Coord
from renderers.games import diffusion, groups, stones
from renderers.hexagons import HexBoard
from renderers.intersections import PointGrid
from renderers.square import SquareBoard
from renderers.svg.board import Drawing, Piece
from renderers.svg.markup import attrs, num, points, rect, signed
from rules import GameState
from rules.diffusion import DiffusionState
from rules.groups import DROP_AREA, GroupsState
from rules.groups import SIZE as GROUPS_SIZE
from rules.hexade import HexadeState
from rules.rekushu import RekushuState
from rules.stones import MoveKind, StonesState

Painter = Callable[[Any, Any, bool], Drawing]


def ring(layout: BoardLayout, coord: Coord, radius: float, width: float) -> str:
    """A ring in the accent colour: the last move."""
    x, y = layout.centre(coord)
    return f'<circle class="last"{attrs(cx=x, cy=y, r=radius, stroke_width=width)}/>'


def cross(layout: BoardLayout, coord: Coord, size: float, width: float, kind: str = "taken") -> str:
    """A diagonal cross centred on a cell: a stone captured there."""
    return f'<path class="{kind}"{attrs(stroke_width=width)} d="{_cross(layout, coord, size)}"/>'


def _cross(layout: BoardLayout, coord: Coord, size: float) -> str:
    x, y = layout.centre(coord)
    h = size / 2
    return points([(x - h, y - h), (x + h, y + h)]) + points([(x - h, y + h), (x + h, y - h)])


def captured(layout: BoardLayout, stones: list[tuple[Coord, str]], width: float) -> str:
    """Where the stones (cell, colour) taken by the last move stood: a faint stone of its
    colour struck by a cross, the stones of a colour in one group, the crosses one path."""
    if not stones:
        return ""
    radius = layout.stone_diameter() / 2
    faint = "".join(
        f'<g class="{colour}" opacity=".35">'
        + "".join(
            f"<circle{attrs(cx=x, cy=y, r=radius)}/>"
            for x, y in (layout.centre(cell) for cell, which in stones if which == colour)
        )
        + "</g>"
        for colour in sorted({colour for _, colour in stones})
    )
    size = layout.stone_diameter() * 0.5
    crosses = "".join(_cross(layout, cell, size) for cell, _ in stones)
    return faint + f'<path class="taken"{attrs(stroke_width=width)} d="{crosses}"/>'


def forbidden(layout: BoardLayout, coord: Coord) -> str:
    """A struck-through circle on a cell the player to move may not use."""
    x, y = layout.centre(coord)
    radius = layout.pitch * 0.22
    h = radius * 0.7
    width = max(2.5, layout.pitch * 0.07)
    return (
        f'<circle class="forbid"{attrs(cx=x, cy=y, r=radius, stroke_width=width)}/>'
        f'<path class="forbid"{attrs(stroke_width=width)}'
        f' d="{points([(x - h, y + h), (x + h, y - h)])}"/>'
    )


def path_line(layout: BoardLayout, cells: list[Coord], kind: str, width: float) -> str:
    """A move's course from cell to cell, with a dot where it started."""
    centres = [layout.centre(c) for c in cells]
    x, y = centres[0]
    return (
        f'<path class="path {kind}"{attrs(stroke_width=width)} d="{points(centres)}"/>'
        f'<circle class="dot {kind}"{attrs(cx=x, cy=y, r=width * 0.9)}/>'
    )


def paint_groups(state: GroupsState, board: SquareBoard, last_move: bool) -> Drawing:
    """Groups: stones, links, the drop area while stones are dropped, the last step."""
    drawing = Drawing()
    colours = groups.COLOURS
    for seat in (0, 1):
        for cell in state.stones(seat):
            drawing.pieces[cell] = Piece(colours[seat])
    if state.in_drop_phase and state.outcome() is None:
        boxes = [board.box((square % GROUPS_SIZE, square // GROUPS_SIZE)) for square in DROP_AREA]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        drawing.under.append(
            rect("grid", left, top, right - left, bottom - top, more=' stroke-width="4"')
        )
    move = state.last_move
    if last_move and move is not None:
        target = (move.target % GROUPS_SIZE, move.target // GROUPS_SIZE)
        if move.origin is not None:
            origin = (move.origin % GROUPS_SIZE, move.origin // GROUPS_SIZE)
            drawing.under.append(
                path_line(board, [origin, target], "last", max(4.0, board.cell * 0.09))
            )
        drawing.over.append(
            ring(board, target, board.stone_diameter() * 0.25, max(3.0, board.cell * 0.08))
        )
    drawing.under.append(_links_markup(board, drawing.pieces, 0.24))
    return drawing


def _links_markup(board: SquareBoard, pieces: dict[Coord, Piece], width: float) -> str:
    bars: dict[str, list[str]] = {"white": [], "black": []}
    for (col, row), piece in pieces.items():
        for end in ((col + 1, row), (col, row + 1)):
            other = pieces.get(end)
            if other is not None and other.colour == piece.colour:
                a, b = board.centre((col, row)), board.centre(end)
                bars[piece.colour].append(f"M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}")
    bar = max(4, round(board.cell * width))
    return "".join(
        f'<path class="link {colour}" stroke-width="{bar}" d="{"".join(d)}"/>'
        for colour, d in bars.items()
        if d
    )


def paint_diffusion(state: DiffusionState, board: SquareBoard, last_move: bool) -> Drawing:
    """Diffusion Chess: stones with their frozen group sizes, kings, the turn's paths."""
    drawing = Drawing()
    kings = {state.king(0), state.king(1)}
    for seat in (0, 1):
        for cell in state.stones(seat):
            kind = "king" if cell in kings else "stone"
            drawing.pieces[cell] = Piece(diffusion.COLOURS[seat], kind, state.frozen_size(*cell))
    diameter = board.stone_diameter()
    moved = diffusion.moved_in_turn(state) if state.turn_paths or last_move else frozenset()
    when = "moved this turn" if state.turn_paths else "moved last turn"
    for cell in sorted(moved):
        x, y = board.centre(cell)
        x, y = x + diameter * 0.38, y + diameter * 0.36
        h = board.cell * 0.25
        triangle = points([(x, y - h), (x + h, y + h * 0.8), (x - h, y + h * 0.8)])
        drawing.over.append(f'<path class="moved" d="{triangle}z"/>')
        drawing.say(cell, when)
    path = state.last_path
    if last_move:  # the turn's earlier moves, thin, under the last
        for earlier in diffusion.shown_turn(state)[0][:-1]:
            if len(earlier) >= 2:
                width = board.cell * diffusion.EARLIER_WIDTH
                drawing.under.append(path_line(board, list(earlier), "earlier", width))
    if last_move and len(path) >= 2:
        width = board.cell * diffusion.PATH_WIDTH
        drawing.under.append(path_line(board, list(path), "last", width))
        if state.captured_last:
            (x0, y0), (x1, y1) = board.centre(path[-2]), board.centre(path[-1])
            short = 1 - diameter / 2 / board.cell
            step = [(x0, y0), (x0 + (x1 - x0) * short, y0 + (y1 - y0) * short)]
            drawing.over.append(
                f'<path class="path last"{attrs(stroke_width=width * 0.75)} d="{points(step)}"/>'
            )
        drawing.over.append(ring(board, path[-1], diameter / 2 + 1, max(3.0, board.cell * 0.09)))
    if last_move:
        paths = state.turn_paths or state.previous_turn_paths
        captures = state.turn_captures if state.turn_paths else state.previous_turn_captures
        for done, taken in zip(paths, captures, strict=False):
            if taken and len(done) >= 2 and state.stone_at(*done[-2]) == taken[0][2]:
                drawing.over.append(cross(board, done[-2], diameter * 0.42, board.cell * 0.08))
                drawing.say(done[-2], "captured")
    drawing.under.append(_links_markup(board, drawing.pieces, 0.2))
    return drawing


def paint_stones(state: StonesState, board: PointGrid, last_move: bool) -> Drawing:
    """Stones: stones, stakes as diamonds on their liberties, the last move's captures."""
    drawing = Drawing()
    for seat in (0, 1):
        for cell in state.stones(seat):
            drawing.pieces[cell] = Piece(stones.COLOURS[seat])
    size = max(16, round(board.spacing * 0.28))
    for seat in (0, 1):
        colour = stones.COLOURS[seat]
        diamonds = ""
        for cell in state.stakes(seat):
            owners = drawing.data.setdefault(cell, {}).get("stake")
            drawing.data[cell]["stake"] = f"{owners} {colour}" if owners else colour
            drawing.say(cell, f"{colour} stake")
            x, y = stones.mark_centre(board, state, cell, seat)
            h = size / 2
            diamonds += points([(x, y - h), (x + h, y), (x, y + h), (x - h, y)]) + "z"
        if diamonds:
            drawing.over.append(
                f'<path class="stake {colour}" fill-opacity=".6" stroke-width="3" d="{diamonds}"/>'
            )
    if last_move:
        width = max(3.0, board.spacing * 0.08)
        taken = [((col, row), stones.COLOURS[seat]) for col, row, seat in state.captured_last]
        drawing.over.append(captured(board, taken, width))
        move, point = state.last_move, state.last_point
        if (
            move is not None
            and point is not None
            and (move.kind is MoveKind.STAKE or state.stone_at(*point) is not None)
        ):
            drawing.over.append(ring(board, point, board.stone_diameter() * 0.25, width))
    return drawing


def paint_rekushu(state: RekushuState, board: PointGrid, last_move: bool) -> Drawing:
    """Rekushu: claimed tiles striped (Black) or dotted (White), stones, the last claim."""
    drawing = Drawing()
    colours = ("black", "white")
    for seat in (0, 1):
        for cell in state.stones(seat):
            drawing.pieces[cell] = Piece(colours[seat])
    s = board.spacing
    fill = '<rect class="{}" width="100%" height="100%"/>'
    user = ' patternUnits="userSpaceOnUse"'
    drawing.defs.append(
        f'<pattern id="tabula-tb{state.size}"{attrs(width=s / 4, height=s / 4)}{user}'
        f' patternTransform="rotate(45)">{fill.format("tb")}'
        f'<rect class="tbp"{attrs(width=max(2, round(s * 0.07)))} height="100%"/></pattern>'
        f'<pattern id="tabula-tw{state.size}"{attrs(width=s / 2, height=s / 2)}{user}'
        f"{attrs(x=board.origin[0] + s / 4, y=board.origin[1] + s / 4)}>{fill.format('tw')}"
        f'<circle class="twp"{attrs(r=max(1.5, s * 0.06))}/></pattern>'
    )
    tiles = state.size - 1
    for seat in (0, 1):
        if not state.tile_counts[seat]:
            continue
        # Each run of tiles in a row is one line as wide as a tile, painted with the pattern.
        runs = ""
        here: tuple[float, float] | None = None
        for y in range(tiles):
            x = 0
            while x < tiles:
                if state.tile_owner(x, y) != seat:
                    x += 1
                    continue
                start = x
                while x < tiles and state.tile_owner(x, y) == seat:
                    x += 1
                left, top, _, bottom = board.tile_box((start, y))
                middle = (top + bottom) / 2
                if here is None:
                    runs += f"M{left} {num(middle)}"
                else:
                    runs += f"m{num(left - here[0])}{signed(middle - here[1])}"
                runs += f"h{(x - start) * s}"
                here = (left + (x - start) * s, middle)
        pattern = "tb" if seat == 0 else "tw"
        drawing.floor.append(
            f'<path stroke="url(#tabula-{pattern}{state.size})" stroke-width="{s}" d="{runs}"/>'
        )
    width = max(3.0, s * 0.08)
    if last_move:
        claimed = state.claimed_last
        if claimed is not None:
            low, high = claimed
            (x0, y0), (x1, y1) = board.centre(low), board.centre(high)
            stroke = attrs(stroke_width=max(4, round(s * 0.1)))
            drawing.under.append(
                rect("last", x0 - 2, y1 - 2, x1 - x0 + 4, y0 - y1 + 4, more=stroke)
            )
        mover = 1 - state.to_move
        taken = [(cell, colours[mover]) for cell in state.removed_last]
        drawing.over.append(captured(board, taken, width))
        move = state.last_move
        if move is not None and state.stone_at(move.x, move.y) is not None:
            drawing.over.append(ring(board, (move.x, move.y), board.stone_diameter() * 0.25, width))
    mirror = state.forbidden_mirror_cell()
    if mirror is not None:
        drawing.over.append(forbidden(board, mirror))
        drawing.say(mirror, "forbidden")
    return drawing


def paint_hexade(state: HexadeState, board: HexBoard, last_move: bool) -> Drawing:
    """Hexade: stones, every six outlined, White's forbidden area for its second stone."""
    drawing = Drawing()
    colours = ("white", "black")
    for seat in (0, 1):
        for cell in state.stones(seat):
            drawing.pieces[cell] = Piece(colours[seat])
    cells = state.forbidden_cells()
    if cells:
        edges = "".join(points([a, b]) for a, b in board.outline(cells))
        drawing.under.append(
            f'<path class="forbid"{attrs(stroke_width=max(2.5, board.cell * 0.07))} d="{edges}"/>'
        )
        for cell in cells:
            if state.stone_at(*cell) is None:
                drawing.over.append(forbidden(board, cell))
                drawing.say(cell, "forbidden")
    sixes = state.sixes()
    if sixes:
        edges = "".join(points(stroke) for _, six in sixes for stroke in board.outline(six))
        drawing.over.append(
            f'<path class="six"{attrs(stroke_width=max(3.0, board.cell * 0.1))} d="{edges}"/>'
        )
        for _, six in sixes:
            for cell in six:
                drawing.say(cell, "in a six")
    if last_move:
        width = max(3.0, board.cell * 0.08)
        taken = [((q, r), colours[seat]) for q, r, seat in state.captured_last]
        drawing.over.append(captured(board, taken, width))
        move = state.last_move
        if move is not None:
            drawing.over.append(ring(board, (move.q, move.r), board.stone_diameter() * 0.25, width))
    return drawing


_MARKS = frozenset({"mark", "hl", "black", "white"})
CLASSES: dict[str, frozenset[str]] = {
    "diffusion": _MARKS
    | {"n", "b", "w", "crown", "moved", "path", "last", "earlier", "dot", "taken", "link"},
    "groups": _MARKS | {"grid", "path", "last", "dot", "link"},
    "hexade": _MARKS | {"forbid", "six", "taken", "last"},
    "rekushu": _MARKS | {"tb", "tbp", "tw", "twp", "last", "taken", "forbid"},
    "stones": _MARKS | {"taken", "last"},
}
"""The classes each game's drawing may use (their rules go into the style sheet)."""

PAINTERS: dict[str, Painter] = {
    "diffusion": paint_diffusion,
    "groups": paint_groups,
    "hexade": paint_hexade,
    "rekushu": paint_rekushu,
    "stones": paint_stones,
}
"""Each game's painter, by the `rules` name of the game."""


def painter_for(state: GameState[Any]) -> Painter:
    """The painter of `state`'s game."""
    return PAINTERS[state.game.name]
