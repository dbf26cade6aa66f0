"""The Hexade picture: a true hex-hex board, labels, sixes, captures, the forbidden area."""

from __future__ import annotations

import math

from renderers import BoardView, Hint, locate, render
from renderers.games.hexade import board_for
from renderers.theme import DEFAULT_THEME as THEME
from rules.hexade import HEXADE
from rules.hexcoords import board_cells, format_cell
from tests.renderers.helpers import after, around, count_near, distance, pixel


def play(*moves: str, size: int = 10):
    """The position after `moves`."""
    return after(HEXADE, *moves, size=size)


def test_corners_and_centre_sit_where_the_notation_says() -> None:
    """a1 is the lower left corner, s19 the opposite one, j10 the centre; rows are horizontal."""
    state = play()
    a1, s19, j10 = locate(state, "a1"), locate(state, "s19"), locate(state, "j10")
    assert math.isclose((a1[0] + s19[0]) / 2, j10[0], abs_tol=1)
    assert math.isclose((a1[1] + s19[1]) / 2, j10[1], abs_tol=1)
    points = [locate(state, format_cell(q, r)) for q, r in board_cells(10)]
    assert a1[1] == max(y for _, y in points) and a1[0] == min(x for x, y in points if y == a1[1])
    assert s19[1] == min(y for _, y in points) and s19[0] == max(
        x for x, y in points if y == s19[1]
    )
    assert locate(state, "b1")[1] == a1[1] and locate(state, "a2")[1] < a1[1]


def test_neighbours_are_one_cell_width_apart() -> None:
    """All six neighbours of the centre lie at the same distance: a true hex grid."""
    state = play()
    cx, cy = locate(state, "j10")
    cell = board_for(10).cell
    for name in ("k10", "i10", "j11", "j9", "k11", "i9"):
        x, y = locate(state, name)
        assert math.isclose(math.hypot(x - cx, y - cy), cell, rel_tol=0.01), name


def test_stones_captures_and_last_move() -> None:
    """j13 captures the pair j11–j12: both marked with a cross, j13 ringed."""
    state = play("j10", "a1", "e5", "j11", "k5", "j12", "j13")
    image = render(state)
    for cell in ("j10", "j13", "e5", "k5"):
        assert distance(pixel(image, locate(state, cell)), THEME.rgb("white")) < 40, cell
    assert distance(pixel(image, locate(state, "a1")), THEME.rgb("black")) < 40
    radius = board_for(10).cell * 0.4
    for cell in ("j11", "j12"):
        assert count_near(image, around(locate(state, cell), radius), THEME.rgb("accent")) > 20
    assert count_near(image, around(locate(state, "j13"), radius), THEME.rgb("accent")) > 20
    assert count_near(image, around(locate(state, "j10"), radius), THEME.rgb("accent")) == 0


def test_forbidden_area_is_marked_for_whites_second_stone() -> None:
    """While White places its second stone, each empty forbidden cell carries the mark."""
    state = play("j10", "a1")
    image = render(state)
    forbidden = state.forbidden_cells()
    assert len(forbidden) == 18
    radius = board_for(10).cell * 0.3
    for q, r in forbidden:
        assert (
            count_near(
                image, around(locate(state, format_cell(q, r)), radius), THEME.rgb("forbidden")
            )
            > 10
        )
    later = render(play("j10", "a1", "a5"))
    assert count_near(later, (0, 0, *later.size), THEME.rgb("forbidden"), 12) == 0


def test_a_six_is_outlined() -> None:
    """Six White stones in a row get a highlight outline; a cell off the six does not."""
    white = ["c3", "d4", "e5", "f6", "g7", "h8"]
    state = HEXADE.position(white=white, black=["a1", "j10", "s19", "p15", "r15"], to_move=1)
    image = render(state)
    highlight = THEME.rgb("highlight")
    cell = board_for(10).cell
    for name in white:
        x, y = locate(state, name)
        assert count_near(image, around((x, y), cell * 0.6), highlight) > 15, name
    assert count_near(image, around(locate(state, "m5"), cell * 0.6), highlight) == 0


def test_hint_dots_every_empty_cell() -> None:
    """Hint() marks exactly the legal cells (all empty cells outside the forbidden area)."""
    state = play("e5", "a1", size=5)
    image = render(state, BoardView(hint=Hint()))
    legal = {state.format_move(move) for move in state.legal_moves()}
    for q, r in board_cells(5):
        name = format_cell(q, r)
        dotted = distance(pixel(image, locate(state, name)), THEME.rgb("hint")) < 30
        assert dotted == (name in legal), name
