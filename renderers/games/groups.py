"""Groups: an 8×8 board, orthogonal links showing each group, the last step or jump."""

from __future__ import annotations

from collections.abc import Iterable

from renderers.base import BoardLayout, Coord, GameRenderer, register
from renderers.canvas import Canvas
from renderers.page import Caption
from renderers.sprites import Point
from renderers.square import SquareBoard
from renderers.theme import Theme
from rules.groups import DROP_AREA, SIZE, STONES, GroupsState
from rules.squares import format_point, parse_point

BOARD = SquareBoard.fit(SIZE, SIZE)
COLOURS = ("white", "black")
"""Stone colour of seat 0 and seat 1."""


def _coord(square: int) -> Coord:
    return square % SIZE, square // SIZE


def largest_group(cells: list[Coord]) -> int:
    """The size of the largest orthogonally connected group among `cells`."""
    remaining = set(cells)
    best = 0
    while remaining:
        stack = [remaining.pop()]
        size = 0
        while stack:
            col, row = stack.pop()
            size += 1
            for near in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
                if near in remaining:
                    remaining.remove(near)
                    stack.append(near)
        best = max(best, size)
    return best


class GroupsRenderer(GameRenderer[GroupsState]):
    """Draws Groups positions."""

    game_name = "groups"
    state_type = GroupsState

    def layout(self, state: GroupsState) -> BoardLayout:
        return BOARD

    def paint(
        self, canvas: Canvas, state: GroupsState, layout: BoardLayout, theme: Theme
    ) -> Caption:
        board = BOARD
        stones = {cell: COLOURS[seat] for seat in (0, 1) for cell in state.stones(seat)}
        if state.in_drop_phase and state.outcome() is None:
            self._outline_drop_area(canvas, theme)
        move = state.last_move
        if move is not None and move.origin is not None:
            board_path = [board.centre(_coord(move.origin)), board.centre(_coord(move.target))]
            _draw_step(canvas, theme, board, board_path)
        board.draw_links(canvas, theme, stones)
        board.draw_stones(canvas, theme, sorted(stones.items()))
        if move is not None:
            board.mark_last(canvas, theme, _coord(move.target))
        return self.cached_caption(state)

    def caption(self, state: GroupsState) -> Caption:
        facts = tuple(self._facts(state, seat) for seat in (0, 1))
        return Caption(facts=(facts[0], facts[1]))

    def _facts(self, state: GroupsState, seat: int) -> tuple[str, ...]:
        cells = state.stones(seat)
        if len(cells) < STONES:
            return (f"placed {len(cells)} of {STONES}",)
        return (f"largest group {largest_group(cells)} of {STONES}",)

    def _outline_drop_area(self, canvas: Canvas, theme: Theme) -> None:
        corners = [BOARD.box(_coord(square)) for square in DROP_AREA]
        left = min(box[0] for box in corners)
        top = min(box[1] for box in corners)
        right = max(box[2] for box in corners)
        bottom = max(box[3] for box in corners)
        canvas.rectangle((left - 1, top - 1, right, bottom), outline=theme.rgb("line"), width=4)

    def parse_cell(self, state: GroupsState, text: str) -> Coord:
        return parse_point(text, SIZE, SIZE)

    def cell_name(self, state: GroupsState, coord: Coord) -> str:
        return format_point(*coord)

    def pieces(self, state: GroupsState, seat: int) -> list[str]:
        return [format_point(*cell) for cell in sorted(state.stones(seat))]

    def hint_targets(self, state: GroupsState, origin: Coord | None) -> Iterable[Coord]:
        for move in state.legal_moves():
            if origin is None or (move.origin is not None and _coord(move.origin) == origin):
                yield _coord(move.target)


def _draw_step(canvas: Canvas, theme: Theme, board: SquareBoard, path: list[Point]) -> None:
    """The line from where the last stone stood to where it went, under the stones."""
    width = max(4.0, board.cell * 0.09)
    canvas.strokes(
        [path],
        theme.rgb("accent"),
        width,
        edge=theme.rgb("line"),
        dots=[(path[0], width * 1.4)],
    )


RENDERER = register(GroupsRenderer())
