"""Hexade: a hex-hex board, every six outlined, White's forbidden area for its second stone."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from renderers import sprites
from renderers.base import BoardLayout, Coord, GameRenderer, register
from renderers.canvas import Canvas
from renderers.hexagons import HexBoard
from renderers.page import Caption
from renderers.theme import Theme
from rules.hexade import HexadeState
from rules.hexcoords import format_cell, parse_cell

COLOURS = ("white", "black")
"""Stone colour of seat 0 and seat 1."""


@lru_cache(maxsize=16)
def board_for(size: int) -> HexBoard:
    """The layout of a board with `size` cells per side."""
    return HexBoard.fit(size)


class HexadeRenderer(GameRenderer[HexadeState]):
    """Draws Hexade positions."""

    game_name = "hexade"
    state_type = HexadeState

    def layout(self, state: HexadeState) -> BoardLayout:
        return board_for(state.size)

    def paint(
        self, canvas: Canvas, state: HexadeState, layout: BoardLayout, theme: Theme
    ) -> Caption:
        board = board_for(state.size)
        self._paint_forbidden(canvas, state, board, theme)
        diameter = board.stone_diameter()
        for seat in (0, 1):
            sprite = sprites.stone(theme, COLOURS[seat], diameter)
            for cell in sorted(state.stones(seat)):
                canvas.paste(sprite, board.centre(cell))
        for q, r, seat in state.captured_last:
            board.mark_captured(canvas, theme, (q, r), COLOURS[seat])
        sixes = state.sixes()
        strokes = [stroke for _, cells in sixes for stroke in board.outline(cells)]
        canvas.strokes(
            strokes,
            theme.rgb("highlight"),
            max(3.0, board.cell * 0.1),
            edge=theme.rgb("line"),
        )
        move = state.last_move
        if move is not None:
            board.mark_last(canvas, theme, (move.q, move.r))
        return self.cached_caption(state)

    def _paint_forbidden(
        self, canvas: Canvas, state: HexadeState, board: HexBoard, theme: Theme
    ) -> None:
        cells = state.forbidden_cells()
        if not cells:
            return
        canvas.strokes(
            board.outline(cells),
            theme.rgb("forbidden"),
            max(2.5, board.cell * 0.07),
            edge=theme.rgb("white"),
        )
        for q, r in sorted(cells):
            if state.stone_at(q, r) is None:
                board.mark_forbidden(canvas, theme, (q, r))

    def caption(self, state: HexadeState) -> Caption:
        with_six = {seat for seat, _ in state.sixes()}
        colours = state.game.colours
        facts = tuple(
            (f"stones {len(state.stones(seat))}", *(("a six!",) if seat in with_six else ()))
            for seat in (0, 1)
        )
        note = None
        other = 1 - state.to_move
        if other in with_six:
            note = f"break {colours[other]}'s six or lose"
        elif state.forbidden_cells():
            note = "at least 3 cells away from the first stone"
        return Caption(
            facts=(facts[0], facts[1]),
            note=note,
            details=(f"size {state.size}",),
            highlight=(0 in with_six, 1 in with_six),
        )

    def parse_cell(self, state: HexadeState, text: str) -> Coord:
        return parse_cell(text, state.size)

    def cell_name(self, state: HexadeState, coord: Coord) -> str:
        return format_cell(*coord)

    def pieces(self, state: HexadeState, seat: int) -> list[str]:
        return [format_cell(*cell) for cell in sorted(state.stones(seat))]

    def hint_targets(self, state: HexadeState, origin: Coord | None) -> Iterable[Coord]:
        if origin is not None:
            return []
        return [(move.q, move.r) for move in state.legal_moves()]


RENDERER = register(HexadeRenderer())
