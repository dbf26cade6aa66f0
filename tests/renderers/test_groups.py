"""The Groups picture: stones where the coordinates say, last move, links, hints, labels."""

from __future__ import annotations

import pytest

from renderers import BoardView, Hint, locate, render
from renderers.games.groups import BOARD, largest_group
from renderers.theme import DEFAULT_THEME as THEME
from rules import GameError
from rules.groups import BLACK_START, GROUPS, WHITE_START
from rules.squares import column_letter
from tests.renderers.helpers import around, count_near, distance, pixel


def test_stones_are_drawn_where_their_cells_are() -> None:
    """Every start stone sits at its cell's pixel in its colour; empty cells show the board."""
    state = GROUPS.new_game()
    image = render(state)
    for cell in WHITE_START:
        assert distance(pixel(image, locate(state, cell)), THEME.rgb("white")) < 40, cell
    for cell in BLACK_START:
        assert distance(pixel(image, locate(state, cell)), THEME.rgb("black")) < 40, cell
    for cell in ("a1", "h8", "b7", "g2"):
        colour = pixel(image, locate(state, cell))
        assert (
            min(distance(colour, THEME.rgb("board")), distance(colour, THEME.rgb("board_alt"))) < 6
        )


def test_cells_map_to_the_grid() -> None:
    """Columns run left to right and rows bottom to top, one cell apart."""
    state = GROUPS.new_game()
    a1, b1, a2 = locate(state, "a1"), locate(state, "b1"), locate(state, "a2")
    assert b1[0] - a1[0] == BOARD.cell and b1[1] == a1[1]
    assert a1[1] - a2[1] == BOARD.cell and a2[0] == a1[0]


def test_last_move_is_ringed_and_its_path_drawn() -> None:
    """After d3-e2 the stone on e2 carries the accent ring and d3 the path's start dot."""
    state = GROUPS.new_game().play_text("d3-e2")
    image = render(state)
    accent = THEME.rgb("accent")
    radius = BOARD.cell * 0.45
    assert count_near(image, around(locate(state, "e2"), radius), accent) > 30
    assert count_near(image, around(locate(state, "d3"), BOARD.cell * 0.15), accent) > 10
    for cell in ("a8", "h1", "e4", "c5"):
        assert count_near(image, around(locate(state, cell), radius), accent) == 0, cell


def test_no_marks_before_the_first_move() -> None:
    """The start position shows no last-move mark."""
    state = GROUPS.new_game()
    image = render(state)
    assert count_near(image, (0, 0, *image.size), THEME.rgb("accent"), tolerance=10) == 0


def test_orthogonal_neighbours_are_linked() -> None:
    """A bar joins two orthogonally adjacent stones of one colour, not diagonal ones."""
    state = GROUPS.position(white=["c3", "d3", "e4"], black=["a8", "b8", "h1"])
    image = render(state)
    between = _midpoint(locate(state, "c3"), locate(state, "d3"))
    assert distance(pixel(image, between), THEME.rgb("white")) < 30
    diagonal = _midpoint(locate(state, "d3"), locate(state, "e4"))
    assert distance(pixel(image, diagonal), THEME.rgb("white")) > 60
    black_bar = _midpoint(locate(state, "a8"), locate(state, "b8"))
    assert distance(pixel(image, black_bar), THEME.rgb("black")) < 30


def test_hint_marks_every_destination_of_one_stone() -> None:
    """Hint("d3") puts a dot on each legal destination of d3 and on no other cell."""
    state = GROUPS.new_game()
    image = render(state, BoardView(hint=Hint("d3")))
    targets = {text.split("-")[1] for text in state.legal_notations() if text.startswith("d3-")}
    assert targets
    hint = THEME.rgb("hint")
    for col in range(8):
        for row in range(8):
            cell = f"{column_letter(col)}{row + 1}"
            dotted = distance(pixel(image, locate(state, cell)), hint) < 30
            assert dotted == (cell in targets), cell
    assert count_near(image, around(locate(state, "d3"), BOARD.cell * 0.5), hint) > 40


def test_hint_without_origin_marks_every_legal_cell() -> None:
    """Hint() in the drop phase dots every empty cell of the central square."""
    state = GROUPS.new_game(start="drop").play_text("d4")
    image = render(state, BoardView(hint=Hint()))
    hint = THEME.rgb("hint")
    dotted = {
        f"{column_letter(col)}{row + 1}"
        for col in range(8)
        for row in range(8)
        if distance(pixel(image, locate(state, f"{column_letter(col)}{row + 1}")), hint) < 30
    }
    expected = {f"{c}{r}" for c in "cdef" for r in (3, 4, 5, 6)} - {"d4"}
    assert dotted == expected


def test_a_bad_hint_cell_is_a_game_error() -> None:
    """A hint origin off the board raises the rules' own error."""
    with pytest.raises(GameError, match="off the board"):
        render(GROUPS.new_game(), BoardView(hint=Hint("z9")))


def test_coordinates_are_printed_on_all_four_sides() -> None:
    """Each column letter sits above and below its column, each row number beside its row."""
    state = GROUPS.new_game()
    image = render(state)
    ink = THEME.rgb("line")
    gap = BOARD.margin / 2 + 1
    half = BOARD.label_size * 0.6
    for col in range(8):
        x, _ = BOARD.centre((col, 0))
        top = BOARD.centre((col, 7))[1] - BOARD.cell / 2 - gap
        bottom = BOARD.centre((col, 0))[1] + BOARD.cell / 2 + gap
        for y in (top, bottom):
            assert count_near(image, around((x, y), half), ink, 40) > 10, column_letter(col)
        between = (x + BOARD.cell / 2, top)
        assert count_near(image, around(between, half / 2), ink, 40) == 0
    for row in range(8):
        _, y = BOARD.centre((0, row))
        left = BOARD.centre((0, row))[0] - BOARD.cell / 2 - gap
        right = BOARD.centre((7, row))[0] + BOARD.cell / 2 + gap
        for x in (left, right):
            assert count_near(image, around((x, y), half), ink, 40) > 10, row + 1


def test_largest_group_counts_orthogonal_links_only() -> None:
    """Diagonal neighbours are separate groups."""
    assert largest_group([(0, 0), (1, 0), (1, 1), (3, 3)]) == 3
    assert largest_group([(0, 0), (1, 1), (2, 2)]) == 1
    assert largest_group([]) == 0


def _midpoint(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
