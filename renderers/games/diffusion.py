"""Diffusion Chess: frozen group sizes on the stones, kings, this turn's paths, group counts."""

from __future__ import annotations

from collections.abc import Iterable

from renderers import sprites
from renderers.base import BoardLayout, Coord, GameRenderer, StateMemo, register
from renderers.canvas import Canvas
from renderers.page import Caption
from renderers.sprites import Sprite
from renderers.square import SquareBoard
from renderers.theme import Theme
from rules.diffusion import SIZE, TURN_LIMIT, DiffusionMove, DiffusionState, group_sizes
from rules.squares import format_point, parse_point

BOARD = SquareBoard.fit(SIZE, SIZE, stone_scale=0.9)
COLOURS = ("white", "black")
"""Stone colour of seat 0 and seat 1."""
PATH_WIDTH = 0.16
"""The width of the last move's path, in cells."""
EARLIER_WIDTH = 0.08
"""The width of the paths of the turn's earlier moves, in cells."""
MOVED_MARK = "\N{BLACK UP-POINTING TRIANGLE}"
"""How the status line names the triangles on the stones moved in the turn shown."""


def shown_turn(
    state: DiffusionState,
) -> tuple[
    tuple[tuple[Coord, ...], ...], tuple[tuple[tuple[int, int, int], ...], ...], tuple[str, ...]
]:
    """The turn the picture shows: the one under way, or at a turn's start the one just
    completed; its moves' paths, captures and notations (all empty before any move)."""
    if state.turn_paths:
        paths, moves, captures = state.turn_paths, state.turn_moves, state.turn_captures
    elif state.last_move is not None:
        paths, moves = state.previous_turn_paths, state.previous_turn_moves
        captures = state.previous_turn_captures
    else:
        return (), (), ()
    return paths, captures, tuple(_short(state, m, p) for m, p in zip(moves, paths, strict=True))


def _short(state: DiffusionState, move: DiffusionMove, path: tuple[Coord, ...]) -> str:
    """A move as the move line says it: a step or an echo in notation, a longer path by
    its ends ("k11 to a12"), so that a turn of long slides fits the line."""
    if move.is_echo or len(path) <= 2:
        return state.format_move(move)
    return f"{format_point(*path[0])} to {format_point(*path[-1])}"


def moved_in_turn(state: DiffusionState) -> frozenset[Coord]:
    """Where the stones moved in the turn shown stand now (a captured stone, swapped
    back along its capturer's path, is not one of them)."""
    if state.turn_paths:
        return state.moved_this_turn
    moved: set[Coord] = set()
    for path in shown_turn(state)[0]:
        if len(path) >= 2:
            moved.discard(path[0])
            moved.add(path[-1])
    return frozenset(moved)


def turn_played(state: DiffusionState) -> str | None:
    """The move line's words for the turn shown, numbered as the announcements number it:
    "turn 1 (moves 1-4): k9-k10, l10-l11, m4-m5, echo"; None before any move."""
    notations = shown_turn(state)[2]
    if not notations:
        return None
    if state.turn_paths:
        turn = state.turn_number
        so_far = " so far" if state.result is None else ""
    else:
        turn, so_far = state.turn_number - 1, ""
    first, last = state.ply - len(notations) + 1, state.ply
    moves = f"move {last}" if first == last else f"moves {first}-{last}"
    return f"turn {turn} ({moves}{so_far}): {', '.join(notations)}"


class DiffusionRenderer(GameRenderer[DiffusionState]):
    """Draws Diffusion Chess positions."""

    game_name = "diffusion"
    state_type = DiffusionState

    def __init__(self) -> None:
        super().__init__()
        self._stones_of: StateMemo[tuple[tuple[Coord, ...], tuple[Coord, ...]]] = StateMemo()

    def _stones(self, state: DiffusionState) -> tuple[tuple[Coord, ...], tuple[Coord, ...]]:
        """Each seat's stones in cell order (the picture and the description both ask)."""
        return self._stones_of.get(state, lambda: (tuple(state.stones(0)), tuple(state.stones(1))))

    def layout(self, state: DiffusionState) -> BoardLayout:
        return BOARD

    def paint(
        self, canvas: Canvas, state: DiffusionState, layout: BoardLayout, theme: Theme
    ) -> Caption:
        board = BOARD
        stones = {cell: COLOURS[seat] for seat in (0, 1) for cell in self._stones(state)[seat]}
        self._paint_paths(canvas, state, theme)
        board.draw_links(canvas, theme, stones, width=0.2)
        diameter = board.stone_diameter()
        chosen: dict[tuple[str, int | None], Sprite] = {}
        for cell, colour in sorted(stones.items()):
            size = state.frozen_size(*cell)
            sprite = chosen.get((colour, size))
            if sprite is None:
                label = str(size) if size else ""
                sprite = sprites.labelled_stone(theme, colour, diameter, label)
                chosen[colour, size] = sprite
            board.paste_on(canvas, sprite, cell)
        self._paint_marks(canvas, state, theme)
        return self.cached_caption(state)

    def _paint_paths(self, canvas: Canvas, state: DiffusionState, theme: Theme) -> None:
        """The paths of the turn shown, under the stones: the earlier moves' thin, in the
        colour of the moved stones' triangles, and the last move's wide, in the accent."""
        paths = shown_turn(state)[0]
        earlier = [[BOARD.centre(p) for p in path] for path in paths[:-1] if len(path) >= 2]
        if earlier:
            width = BOARD.cell * EARLIER_WIDTH
            starts = [(points[0], width * 1.6) for points in earlier]
            canvas.strokes(earlier, theme.rgb("earlier"), width, dots=starts)
        path = state.last_path
        if len(path) < 2:
            return
        points = [BOARD.centre(point) for point in path]
        width = BOARD.cell * PATH_WIDTH
        canvas.strokes(
            [points],
            theme.rgb("accent"),
            width,
            edge=theme.rgb("line"),
            dots=[(points[0], width * 1.3)],
        )

    def _paint_marks(self, canvas: Canvas, state: DiffusionState, theme: Theme) -> None:
        cell = BOARD.cell
        diameter = BOARD.stone_diameter()
        for seat in (0, 1):
            king = state.king(seat)
            if king is not None:
                x, y = BOARD.centre(king)
                mark = sprites.crown(theme.rgb("highlight"), theme.rgb("line"), round(cell * 0.6))
                canvas.paste(mark, (x, y - diameter * 0.5))
        moved_cells = moved_in_turn(state)
        if moved_cells:
            moved = sprites.triangle(theme.rgb("earlier"), theme.rgb("white"), round(cell * 0.5))
            for point in sorted(moved_cells):
                x, y = BOARD.centre(point)
                canvas.paste(moved, (x + diameter * 0.38, y + diameter * 0.36))
        path = state.last_path
        if path:
            if state.captured_last and len(path) >= 2:
                # The capturing step runs between two stones: drawn over them, or unseen.
                (x0, y0), (x1, y1) = BOARD.centre(path[-2]), BOARD.centre(path[-1])
                short = 1 - diameter / 2 / cell  # to the edge of the capturer's stone
                step = [(x0, y0), (x0 + (x1 - x0) * short, y0 + (y1 - y0) * short)]
                width = cell * PATH_WIDTH * 0.75
                canvas.strokes([step], theme.rgb("accent"), width, edge=theme.rgb("line"))
            ring = sprites.ring(theme.rgb("accent"), diameter + 2, max(3.0, cell * 0.09))
            canvas.paste(ring, BOARD.centre(path[-1]))
        self._mark_captures(canvas, state, theme)

    def _mark_captures(self, canvas: Canvas, state: DiffusionState, theme: Theme) -> None:
        """Cross each stone captured in the turn shown.

        A captured stone is swapped into the cell its capturer stepped from, so it is
        marked there, where it still stands.
        """
        size = round(BOARD.stone_diameter() * 0.42)
        mark = sprites.cross(theme.rgb("accent"), theme.rgb("line"), size, BOARD.cell * 0.08)
        for cell in self._crossed(state):
            canvas.paste(mark, BOARD.centre(cell))

    @staticmethod
    def _crossed(state: DiffusionState) -> list[Coord]:
        """Where the stones captured in the turn shown stand now."""
        paths, captures, _ = shown_turn(state)
        cells = []
        for path, taken in zip(paths, captures, strict=False):
            if not taken or len(path) < 2:
                continue
            seat = taken[0][2]
            if state.stone_at(*path[-2]) != seat:
                continue  # captured again later in the turn and moved on
            cells.append(path[-2])
        return cells

    def caption(self, state: DiffusionState) -> Caption:
        counts = group_sizes(state.board)[1]  # both seats' at once (`group_count` is one)
        facts = tuple(
            (
                f"groups {counts[seat]}",
                f"turns {state.turns_completed(seat)}/{TURN_LIMIT}",
            )
            for seat in (0, 1)
        )
        length = state.moves_left + len(state.turn_moves)
        note = f"{state.moves_left} of {length} moves left"
        if state.echo_available:
            note += ", echo possible"
        legend = None
        if moved_in_turn(state):
            legend = f"blue {MOVED_MARK} moved {'this' if state.turn_paths else 'last'} turn"
        return Caption(
            facts=(facts[0], facts[1]),
            note=note,
            played=turn_played(state),
            legend=legend,
        )

    def parse_cell(self, state: DiffusionState, text: str) -> Coord:
        return parse_point(text, SIZE, SIZE)

    def cell_name(self, state: DiffusionState, coord: Coord) -> str:
        return format_point(*coord)

    def pieces(self, state: DiffusionState, seat: int) -> list[str]:
        king = state.king(seat)
        return [
            f"{format_point(*cell)} king" if cell == king else format_point(*cell)
            for cell in sorted(self._stones(state)[seat])
        ]

    def crossed_out(self, state: DiffusionState) -> str:
        cells = sorted(self._crossed(state))
        if not cells:
            return ""
        turn = "this turn" if state.turn_paths else "last turn"
        by_seat = [
            [format_point(*c) for c in cells if state.stone_at(*c) == seat] for seat in (0, 1)
        ]
        taken = " and ".join(
            f"{state.game.colours[seat]}'s {' '.join(names)}"
            for seat, names in enumerate(by_seat)
            if names
        )
        return f"Captured {turn}, crossed out where they stand now: {taken}"

    def hint_paths(self, state: DiffusionState, origin: Coord | None) -> Iterable[list[Coord]]:
        echo = state.echo_preview
        if echo and (origin is None or echo[0] == origin):
            return [list(echo)]
        return []

    def hint_targets(self, state: DiffusionState, origin: Coord | None) -> Iterable[Coord]:
        for move in state.legal_moves():
            cells = move.cells if not move.is_echo else state.echo_preview
            if cells and (origin is None or cells[0] == origin):
                yield cells[-1]


RENDERER = register(DiffusionRenderer())
