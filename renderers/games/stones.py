"""Stones: a Go board with prisoners, leads against thresholds and stakes beside liberties."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PIL import Image

from renderers import sprites
from renderers.base import BoardLayout, Coord, GameRenderer, register
from renderers.intersections import PointGrid
from renderers.page import Caption
from renderers.sprites import Point
from renderers.theme import Theme
from rules.squares import parse_point
from rules.stones import MoveKind, StonesState

COLOURS = ("black", "white")
"""Stone colour of seat 0 and seat 1."""
STAKE_CORNERS = ((-1, -1), (1, 1))
"""Where a stake moves when its point is crowded: Black's to the upper left, White's lower right."""


@lru_cache(maxsize=16)
def board_for(size: int) -> PointGrid:
    """The layout of a board with `size` lines."""
    return PointGrid.fit(size, stars=True)


def stake_centre(board: PointGrid, state: StonesState, point: Coord, seat: int) -> Point:
    """Where `seat`'s stake on `point` is drawn: on the point, or beside it when a stone or
    the other player's stake is there too."""
    x, y = board.centre(point)
    if state.stone_at(*point) is None and point not in state.stakes(1 - seat):
        return x, y
    dx, dy = STAKE_CORNERS[seat]
    offset = board.spacing * 0.32
    return x + dx * offset, y + dy * offset


def signed(value: int) -> str:
    """An integer with its sign, using a true minus: +6, −6, 0."""
    return "0" if value == 0 else f"{value:+d}".replace("-", "−")


class StonesRenderer(GameRenderer[StonesState]):
    """Draws Stones positions."""

    game_name = "stones"
    state_type = StonesState

    def layout(self, state: StonesState) -> BoardLayout:
        return board_for(state.size)

    def paint(
        self, image: Image.Image, state: StonesState, layout: BoardLayout, theme: Theme
    ) -> Caption:
        board = board_for(state.size)
        board.draw_stones(
            image,
            theme,
            ((cell, COLOURS[seat]) for seat in (0, 1) for cell in state.stones(seat)),
        )
        for col, row, seat in state.captured_last:
            board.mark_captured(image, theme, (col, row), COLOURS[seat])
        size = round(board.spacing * 0.42)
        for seat in (0, 1):
            sprite = sprites.peg(theme, COLOURS[seat], size)
            for point in state.stakes(seat):
                sprites.paste_centred(image, sprite, stake_centre(board, state, point, seat))
        cross = sprites.cross(theme.rgb("accent"), theme.rgb("line"), size, 3.5)
        for col, row, seat in state.stakes_captured_last:
            centre = stake_centre(board, state, (col, row), seat)
            sprites.paste_centred(image, sprites.peg(theme, COLOURS[seat], size, alpha=90), centre)
            sprites.paste_centred(image, cross, centre)
        self._mark_last(image, state, board, theme, size)
        return self._caption(state)

    def _mark_last(
        self, image: Image.Image, state: StonesState, board: PointGrid, theme: Theme, size: int
    ) -> None:
        move, point = state.last_move, state.last_point
        if move is None or point is None:
            return
        if move.kind is MoveKind.STAKE:
            ring = sprites.ring(theme.rgb("accent"), round(size * 1.25), 3.0)
            sprites.paste_centred(image, ring, stake_centre(board, state, point, 1 - state.to_move))
        elif state.stone_at(*point) is not None:
            board.mark_last(image, theme, point)

    def _caption(self, state: StonesState) -> Caption:
        facts = []
        for seat in (0, 1):
            items = [
                f"prisoners {state.prisoners[seat]}",
                f"lead {signed(state.lead(seat))} (needs {signed(state.threshold(seat))})",
            ]
            if state.stakes(seat):
                items.append(f"stakes {len(state.stakes(seat))}")
            facts.append(tuple(items))
        decisive = tuple(state.lead(seat) >= state.threshold(seat) for seat in (0, 1))
        note = "may return a prisoner" if state.can_return() else None
        return Caption(
            facts=(facts[0], facts[1]),
            note=note,
            details=(f"{state.size}×{state.size}",),
            highlight=(decisive[0], decisive[1]),
        )

    def parse_cell(self, state: StonesState, text: str) -> Coord:
        return parse_point(text, state.size, state.size)

    def hint_targets(self, state: StonesState, origin: Coord | None) -> Iterable[Coord]:
        if origin is not None:
            return []
        size = state.size
        return [
            (move.point % size, move.point // size)
            for move in state.legal_moves()
            if move.kind is MoveKind.PLACE and move.point is not None
        ]


RENDERER = register(StonesRenderer())
