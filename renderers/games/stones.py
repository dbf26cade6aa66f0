"""Stones: a Go board with prisoners, leads against thresholds and stakes beside liberties.

A stake is a stone put beside the board (rules, "Staking"), so it is drawn in a tray
beside the board, level with the row of its liberty: Black's in a tray on the left,
White's on the right, each just outside the row numbers, printed with its liberty's
name (`e5`). A tray is only as tall as the rows of its stakes. The liberty itself keeps
a small hollow diamond in the owner's colours.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from renderers import sprites
from renderers.base import BoardLayout, Coord, GameRenderer, register
from renderers.canvas import Canvas
from renderers.intersections import PointGrid
from renderers.page import BOARD_TOP, PAD, WIDTH, Caption
from renderers.sprites import Point
from renderers.theme import Theme
from rules.squares import format_point, parse_point
from rules.stones import MoveKind, StonesState, goal_text, lead_text

COLOURS = ("black", "white")
"""Stone colour of seat 0 and seat 1."""
MARK_CORNERS = ((-1, -1), (1, 1))
"""Where a liberty's hollow diamond moves when its point is crowded: Black's to the upper left,
White's to the lower right."""
TRAY_GAP = 6
"""The space between the board and each stake tray."""
SLOT_GAP = 5
"""The space between neighbouring stakes in a tray, and between them and the tray's sides."""
LARGEST_STAKE = 40
"""The diameter of a stake on small boards; on large boards stakes are smaller."""
MAX_PAGE_WIDTH = 980
"""The widest a Stones page grows for its trays."""
SLOTS = 2
"""Each tray holds two stakes of one row at full size; more are drawn smaller and closer,
never overlapping."""
CROWDED_GAP = 3
"""The space between stakes in a crowded row."""
LETTERED = 16
"""The smallest stake (in pixels) that still carries its liberty's name."""

StakeKey = tuple[int, int, int]
"""A stake as (col, row, seat) of its liberty and owner."""
Slot = tuple[Point, int]
"""Where a stake is drawn in its tray: its centre and diameter."""


@dataclass(frozen=True)
class StakeBoard(PointGrid):
    """A Go board with a stake tray on either side: Black's on the left, White's on the right."""

    stake: int = 0
    """The diameter of a stake at full size."""
    tray: int = 0
    """The width of each tray."""

    @classmethod
    def for_size(cls, points: int) -> StakeBoard:
        """The board of `points` lines, as large as on other games' pages, with its trays."""
        grid = cls.fit(points, stars=True)
        room = (MAX_PAGE_WIDTH - grid.height) // 2 - TRAY_GAP - PAD  # for each tray
        widest = (room - SLOT_GAP) // SLOTS - SLOT_GAP
        stake = min(LARGEST_STAKE, widest, max(28, round(grid.spacing * 0.75)))
        tray = SLOTS * (stake + SLOT_GAP) + SLOT_GAP
        width = max(WIDTH, grid.height + 2 * (TRAY_GAP + tray + PAD))
        return replace(grid, stake=stake, tray=tray, left=(width - grid.height) // 2)

    @property
    def page_width(self) -> int:
        return 2 * self.left + self.height

    def tray_box(self, seat: int) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of `seat`'s tray."""
        right_of_board = self.left + self.height + TRAY_GAP
        x = self.left - TRAY_GAP - self.tray if seat == 0 else right_of_board
        return x, BOARD_TOP, x + self.tray - 1, BOARD_TOP + self.height - 1

    def stake_slots(self, seat: int, cols: Iterable[int], row: int) -> dict[int, Slot]:
        """Where `seat`'s stakes at the columns `cols` of `row` sit in the tray: per column,
        the centre and the diameter.

        The first sits next to the board and the others outward, in the order of their
        columns from left to right. Too many for the tray are made smaller, never overlapped.
        """
        ordered = sorted(cols, reverse=seat == 0)
        if len(ordered) * (self.stake + SLOT_GAP) + SLOT_GAP <= self.tray:
            gap: float = SLOT_GAP
            step: float = self.stake + gap
        else:
            step = (self.tray - CROWDED_GAP) / len(ordered)
            gap = min(CROWDED_GAP, step / 3)
        diameter = min(self.stake, max(1, int(step - gap)))
        left, _, right, _ = self.tray_box(seat)
        inner, outward = (right + 1, -1) if seat == 0 else (left, 1)
        y = self.centre((0, row))[1]
        return {
            col: ((inner + outward * (gap / 2 + step * (k + 0.5)), y), diameter)
            for k, col in enumerate(ordered)
        }


def tray_slots(board: StakeBoard, state: StonesState) -> dict[StakeKey, Slot]:
    """Where every stake of `state`, and every stake its last move took, sits in its tray."""
    stakes = {(col, row, seat) for seat in (0, 1) for col, row in state.stakes(seat)}
    rows: dict[tuple[int, int], list[int]] = {}
    for col, row, seat in stakes | set(state.stakes_captured_last):
        rows.setdefault((seat, row), []).append(col)
    return {
        (col, row, seat): slot
        for (seat, row), cols in rows.items()
        for col, slot in board.stake_slots(seat, cols, row).items()
    }


def tray_around(board: StakeBoard, seat: int, held: Iterable[Slot]) -> tuple[int, int, int, int]:
    """The box of `seat`'s tray around the stakes it holds, within its full box: from the
    board's side out to the farthest stake, and as tall as the rows of those stakes."""
    left, top, right, bottom = board.tray_box(seat)
    held = list(held)
    upper = round(min(y - diameter / 2 for (_, y), diameter in held)) - SLOT_GAP
    lower = round(max(y + diameter / 2 for (_, y), diameter in held)) + SLOT_GAP
    if seat == 0:  # the left tray grows leftward from the board
        left = max(left, round(min(x - diameter / 2 for (x, _), diameter in held)) - SLOT_GAP)
    else:
        right = min(right, round(max(x + diameter / 2 for (x, _), diameter in held)) + SLOT_GAP)
    return left, max(top, upper), right, min(bottom, lower)


@lru_cache(maxsize=16)
def board_for(size: int) -> StakeBoard:
    """The layout of a board with `size` lines."""
    return StakeBoard.for_size(size)


def mark_centre(board: PointGrid, state: StonesState, point: Coord, seat: int) -> Point:
    """Where the diamond of `seat`'s stake on `point` is drawn: on the point, or beside it
    (just clear of a stone) when a stone or the other player's stake is there too."""
    x, y = board.centre(point)
    if state.stone_at(*point) is None and point not in state.stakes(1 - seat):
        return x, y
    dx, dy = MARK_CORNERS[seat]
    offset = board.spacing * 0.42
    return x + dx * offset, y + dy * offset


class StonesRenderer(GameRenderer[StonesState]):
    """Draws Stones positions."""

    game_name = "stones"
    state_type = StonesState

    def layout(self, state: StonesState) -> BoardLayout:
        return board_for(state.size)

    def paint(
        self, canvas: Canvas, state: StonesState, layout: BoardLayout, theme: Theme
    ) -> Caption:
        board = board_for(state.size)
        board.draw_stones(
            canvas,
            theme,
            ((cell, COLOURS[seat]) for seat in (0, 1) for cell in sorted(state.stones(seat))),
        )
        for col, row, seat in state.captured_last:
            board.mark_captured(canvas, theme, (col, row), COLOURS[seat])
        slots = self._stakes(canvas, state, board, theme)
        self._mark_last(canvas, state, board, theme, slots)
        return self.cached_caption(state)

    def _stakes(
        self, canvas: Canvas, state: StonesState, board: StakeBoard, theme: Theme
    ) -> dict[StakeKey, Slot]:
        """Draw each stake in its tray with a hollow diamond on its liberty, and the stakes the
        last move took faint and crossed in the tray; return where each one was drawn."""
        captured = set(state.stakes_captured_last)
        slots = tray_slots(board, state)
        for seat in sorted({seat for _, _, seat in slots}):  # a tray only when it holds stakes
            held = [slot for (_, _, owner), slot in slots.items() if owner == seat]
            canvas.rounded_rectangle(
                tray_around(board, seat, held), radius=12, fill=theme.rgb("panel")
            )
        marker = max(20, round(board.spacing * 0.36))
        for (col, row, seat), (centre, diameter) in sorted(slots.items()):
            colour = COLOURS[seat]
            taken = (col, row, seat) in captured
            alpha = 90 if taken else 255
            if diameter >= LETTERED:
                label = format_point(col, row)
                stake = sprites.labelled_stone(theme, colour, diameter, label, alpha=alpha)
            else:
                stake = sprites.stone(theme, colour, diameter, alpha=alpha)
            canvas.paste(stake, centre)
            if taken:
                accent, edge = theme.rgb("accent"), theme.rgb("line")
                width = max(2.5, diameter * 0.1)
                cross = sprites.cross(accent, edge, round(diameter * 0.6), width)
                canvas.paste(cross, centre)
            else:
                diamond = sprites.hollow_diamond(theme, colour, marker)
                canvas.paste(diamond, mark_centre(board, state, (col, row), seat))
        return slots

    def _mark_last(
        self,
        canvas: Canvas,
        state: StonesState,
        board: PointGrid,
        theme: Theme,
        slots: dict[StakeKey, Slot],
    ) -> None:
        move, point = state.last_move, state.last_point
        if move is None or point is None:
            return
        if move.kind is MoveKind.STAKE:
            centre, diameter = slots[(*point, 1 - state.to_move)]
            ring = sprites.ring(theme.rgb("accent"), diameter + 4, 2.0)
            canvas.paste(ring, centre)
        elif state.stone_at(*point) is not None:
            board.mark_last(canvas, theme, point)

    def caption(self, state: StonesState) -> Caption:
        facts = []
        for seat in (0, 1):
            items = [f"prisoners {state.prisoners[seat]}"]
            if state.stakes(seat):  # the short facts together: two lines split narrowest
                items.append(f"stakes {len(state.stakes(seat))}")
            items.append(
                f"{lead_text(state.lead(seat))} (needs {goal_text(state.threshold(seat))})"
            )
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

    def cell_name(self, state: StonesState, coord: Coord) -> str:
        return format_point(*coord)

    def pieces(self, state: StonesState, seat: int) -> list[str]:
        stones = [format_point(*cell) for cell in sorted(state.stones(seat))]
        stakes = [f"stake {format_point(*cell)}" for cell in sorted(state.stakes(seat))]
        return stones + stakes

    def crossed_out(self, state: StonesState) -> str:
        taken = []
        for seat in (0, 1):
            stones = [format_point(c, r) for c, r, s in sorted(state.captured_last) if s == seat]
            stakes = [
                f"stake {format_point(c, r)}"
                for c, r, s in sorted(state.stakes_captured_last)
                if s == seat
            ]
            if stones or stakes:
                taken.append(f"{state.game.colours[seat]}'s {' '.join(stones + stakes)}")
        if not taken:
            return ""
        return f"The last move took {' and '.join(taken)} (crossed out)"

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
