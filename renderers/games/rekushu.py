"""Rekushu: claimed tiles filled and patterned per player, the last claim, the mirror rule."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.base import BoardLayout, Coord, GameRenderer, register
from renderers.canvas import Canvas
from renderers.intersections import PointGrid
from renderers.page import Caption
from renderers.theme import Theme
from rules.rekushu import MIRROR_WORDS, RekushuState
from rules.squares import format_point, parse_point

COLOURS = ("black", "white")
"""Stone colour of seat 0 and seat 1."""
_TEXTURE_SUPERSAMPLE = 3


@lru_cache(maxsize=8)
def board_for(size: int) -> PointGrid:
    """The layout of a board with `size` intersections per side."""
    return PointGrid.fit(size, stars=False)


@lru_cache(maxsize=8)
def tile_texture(board: PointGrid, theme: Theme, seat: int) -> Image.Image:
    """The whole playing area filled as `seat`'s tiles: Black's striped, White's dotted.

    Claimed tiles are cut out of it with a mask, so patterns run on across neighbours.
    """
    left, top, right, bottom = board.area
    scale = _TEXTURE_SUPERSAMPLE
    width, height = (right - left) * scale, (bottom - top) * scale
    fill, ink = (
        (theme.rgb("black_tile"), theme.rgb("black_tile_pattern"))
        if seat == 0
        else (theme.rgb("white_tile"), theme.rgb("white_tile_pattern"))
    )
    big = Image.new("RGB", (width, height), fill)
    draw = ImageDraw.Draw(big)
    spacing = board.spacing * scale
    if seat == 0:
        period = spacing / 4
        stripe = max(2, round(board.spacing * 0.07)) * scale
        start = -height
        while start < width:
            draw.line((start, height, start + height, 0), fill=ink, width=stripe)
            start += round(period)
    else:
        radius = max(1.5, board.spacing * 0.06) * scale
        x0, y0 = (board.origin[0] - left) * scale, (board.origin[1] - top) * scale
        for i in range(board.points - 1):
            for j in range(board.points - 1):
                for fx, fy in ((0.25, 0.25), (0.75, 0.75), (0.25, 0.75), (0.75, 0.25)):
                    cx, cy = x0 + (i + fx) * spacing, y0 + (j + fy) * spacing
                    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=ink)
    texture = big.reduce(scale)
    line = theme.rgb("black_tile_pattern") if seat == 0 else theme.rgb("line")
    shifted = ImageDraw.Draw(texture)
    ox, oy = board.origin[0] - left, board.origin[1] - top
    side = (board.points - 1) * board.spacing
    for k in range(board.points):
        offset = k * board.spacing
        shifted.rectangle((ox + offset - 1, oy - 1, ox + offset, oy + side), fill=line)
        shifted.rectangle((ox - 1, oy + offset - 1, ox + side, oy + offset), fill=line)
    return texture


def tile_rectangles(state: RekushuState, seat: int) -> list[tuple[int, int, int, int]]:
    """`seat`'s tiles as few rectangles (left, bottom, right, top, in tiles), found from the
    lowest row up: from each tile not yet covered, the larger of the widest-first and the
    tallest-first rectangle of its tiles."""
    tiles = state.size - 1
    left_over = {
        (x, y) for y in range(tiles) for x in range(tiles) if state.tile_owner(x, y) == seat
    }
    found = []
    for y in range(tiles):
        for x in range(tiles):
            if (x, y) in left_over:
                box = max(_widest(left_over, x, y), _tallest(left_over, x, y), key=_area)
                found.append(box)
                left, bottom, right, top = box
                left_over -= {
                    (i, j) for i in range(left, right + 1) for j in range(bottom, top + 1)
                }
    return found


def _widest(tiles: set[tuple[int, int]], x: int, y: int) -> tuple[int, int, int, int]:
    """The rectangle of `tiles` from (x, y): as wide as it goes, then as tall as that allows."""
    right = x
    while (right + 1, y) in tiles:
        right += 1
    top = y
    while all((i, top + 1) in tiles for i in range(x, right + 1)):
        top += 1
    return x, y, right, top


def _tallest(tiles: set[tuple[int, int]], x: int, y: int) -> tuple[int, int, int, int]:
    """The rectangle of `tiles` from (x, y): as tall as it goes, then as wide as that allows."""
    top = y
    while (x, top + 1) in tiles:
        top += 1
    right = x
    while all((right + 1, j) in tiles for j in range(y, top + 1)):
        right += 1
    return x, y, right, top


def _area(box: tuple[int, int, int, int]) -> int:
    left, bottom, right, top = box
    return (right - left + 1) * (top - bottom + 1)


class RekushuRenderer(GameRenderer[RekushuState]):
    """Draws Rekushu positions."""

    game_name = "rekushu"
    state_type = RekushuState
    area_noun = "tiles"

    def layout(self, state: RekushuState) -> BoardLayout:
        return board_for(state.size)

    def paint(
        self, canvas: Canvas, state: RekushuState, layout: BoardLayout, theme: Theme
    ) -> Caption:
        board = board_for(state.size)
        self._paint_tiles(canvas, state, board, theme)
        claimed = state.claimed_last
        if claimed is not None:
            (x0, y0), (x1, y1) = claimed
            left, bottom = board.centre((x0, y0))
            right, top = board.centre((x1, y1))
            canvas.rectangle(
                (left - 3, top - 3, right + 2, bottom + 2),
                outline=theme.rgb("accent"),
                width=max(4, round(board.spacing * 0.1)),
            )
        board.draw_stones(
            canvas,
            theme,
            ((cell, COLOURS[seat]) for seat in (0, 1) for cell in sorted(state.stones(seat))),
        )
        mover = 1 - state.to_move
        for cell in sorted(state.removed_last):
            board.mark_captured(canvas, theme, cell, COLOURS[mover])
        move = state.last_move
        if move is not None and state.stone_at(move.x, move.y) is not None:
            board.mark_last(canvas, theme, (move.x, move.y))
        forbidden = state.forbidden_mirror_cell()
        if forbidden is not None:
            board.mark_forbidden(canvas, theme, forbidden)
        return self.cached_caption(state)

    def _paint_tiles(
        self, canvas: Canvas, state: RekushuState, board: PointGrid, theme: Theme
    ) -> None:
        """Each player's tiles, one row of tiles per operation (a claim redraws few rows)."""
        tiles = state.size - 1
        for seat in (0, 1):
            if not state.tile_counts[seat]:
                continue
            for y in range(tiles):
                xs = tuple(x for x in range(tiles) if state.tile_owner(x, y) == seat)
                if xs:
                    _, top, _, bottom = board.tile_box((0, y))
                    canvas.add(top - 1, bottom + 1, _tile_row, board, theme, seat, y, xs)

    def caption(self, state: RekushuState) -> Caption:
        forbidden = state.forbidden_mirror_cell()
        counts = state.tile_counts
        facts = tuple((f"tiles {counts[seat]}",) for seat in (0, 1))
        note = None
        kind = state.last_mirror_type(state.to_move)
        if forbidden is not None and kind is not None:
            note = f"not {format_point(*forbidden)} (no {MIRROR_WORDS[kind]} mirror twice running)"
        side = state.size
        return Caption(facts=(facts[0], facts[1]), note=note, details=(f"{side}×{side}",))

    def parse_cell(self, state: RekushuState, text: str) -> Coord:
        return parse_point(text, state.size, state.size)

    def cell_name(self, state: RekushuState, coord: Coord) -> str:
        return format_point(*coord)

    def pieces(self, state: RekushuState, seat: int) -> list[str]:
        return [format_point(*cell) for cell in sorted(state.stones(seat))]

    def areas(self, state: RekushuState, seat: int) -> list[str]:
        return [
            f"{format_point(left, bottom)}-{format_point(right + 1, top + 1)}"
            for left, bottom, right, top in tile_rectangles(state, seat)
        ]

    def crossed_out(self, state: RekushuState) -> str:
        removed = sorted(state.removed_last)
        if not removed:
            return ""
        colour = state.game.colours[1 - state.to_move]
        cells = " ".join(format_point(*cell) for cell in removed)
        return f"The claim removed {colour}'s corner stones {cells} (crossed out)"

    def hint_paths(self, state: RekushuState, origin: Coord | None) -> Iterable[list[Coord]]:
        if origin is None:
            return []
        return [
            [
                (rect.left, rect.bottom),
                (rect.right, rect.bottom),
                (rect.right, rect.top),
                (rect.left, rect.top),
                (rect.left, rect.bottom),
            ]
            for rect in state.claims_after(*origin)
        ]

    def hint_targets(self, state: RekushuState, origin: Coord | None) -> Iterable[Coord]:
        if origin is None:
            return state.legal_placements()
        # For a placement on `origin`: the other corners of each rectangle it lets you claim.
        corners = []
        for rect in state.claims_after(*origin):
            for corner in rect.corners():
                if corner != origin:
                    corners.append(corner)
        return corners


def _tile_row(
    image: Image.Image, dy: int, args: tuple[PointGrid, Theme, int, int, tuple[int, ...]]
) -> None:
    """Cut a player's tiles at some columns of one tile row out of the player's texture."""
    board, theme, seat, y, xs = args
    left, area_top, right, _ = board.area
    _, top, _, bottom = board.tile_box((0, y))
    strip = (left, top - 1, right, bottom + 1)
    mask = Image.new("L", (right - left, strip[3] - strip[1]))
    draw = ImageDraw.Draw(mask)
    for x in xs:
        x0, _, x1, _ = board.tile_box((x, y))
        draw.rectangle((x0 - left - 1, 0, x1 - left, mask.height - 1), fill=255)
    texture = tile_texture(board, theme, seat)
    piece = texture.crop((0, strip[1] - area_top, right - left, strip[3] - area_top))
    image.paste(piece, (left, strip[1] - dy), mask)


RENDERER = register(RekushuRenderer())
