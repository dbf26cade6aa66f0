"""The Diffusion Chess picture: stones, paths of the turn, moved stones, kings, captures."""

from __future__ import annotations

from renderers import BoardView, Hint, locate, render
from renderers.games.diffusion import BOARD
from renderers.samples import random_game
from renderers.theme import DEFAULT_THEME as THEME
from rules.diffusion import DIFFUSION, DiffusionState
from tests.renderers.helpers import (
    after,
    around,
    count_near,
    distance,
    footer_text,
    pixel,
    texts,
)

MOVES = ["k9-k10-l10", "j8-j9-j10-h10"]


def play(*moves: str):
    """The position after `moves`."""
    return after(DIFFUSION, *moves)


def test_start_diamonds_are_drawn() -> None:
    """White's diamond around k5, Black's around k15, row 10 empty."""
    state = play()
    image = render(state)
    assert distance(pixel(image, locate(state, "k5")), THEME.rgb("white")) < 60
    assert distance(pixel(image, locate(state, "g5")), THEME.rgb("white")) < 60
    assert distance(pixel(image, locate(state, "k19")), THEME.rgb("black")) < 60
    for cell in ("k10", "a1", "t19"):
        colour = pixel(image, locate(state, cell))
        assert (
            min(distance(colour, THEME.rgb("board")), distance(colour, THEME.rgb("board_alt"))) < 6
        )


def test_group_size_is_printed_on_each_stone() -> None:
    """After White's first turn, its big group's stones and its lone stones carry different
    numbers; stones of one group carry the same one."""
    state = play(*MOVES, "l8-l9-m9", "m7-m8-n8")
    assert state.to_move == 1 and state.frozen_size(10, 9) == 1
    image = render(state)
    half = BOARD.stone_diameter() * 0.3

    def text_pixels(cell: str) -> int:
        return count_near(image, around(locate(state, cell), half), THEME.rgb("white_text"), 60)

    assert text_pixels("k3") > 15
    assert text_pixels("k3") == text_pixels("j3")
    assert text_pixels("l10") > 5
    assert text_pixels("k3") != text_pixels("l10")


def test_paths_of_the_turn_and_moved_stones() -> None:
    """The last path wide in the accent, the turn's earlier ones thin in the colour of the
    triangles on the stones moved this turn, which the status line explains."""
    state = play(*MOVES)
    image = render(state)
    accent, earlier = THEME.rgb("accent"), THEME.rgb("earlier")
    step = around(locate(state, "j9"), BOARD.cell * 0.2)
    assert count_near(image, step, accent) > 10
    # k10 lies on the first move's path, between its stones: drawn thin, not in the accent.
    between = around(locate(state, "k10"), BOARD.cell * 0.12)
    assert count_near(image, between, earlier) > 5
    assert count_near(image, between, accent) == 0
    for moved in ("l10", "h10"):
        assert count_near(image, _triangle_box(state, moved), earlier) > 10
    assert count_near(image, around(locate(state, "c3"), BOARD.cell * 0.5), earlier) == 0
    assert "blue ▲ moved this turn" in footer_text(state)
    assert texts(state, part="footer")[-1].endswith(
        "turn 1 (moves 1-2 so far): k9 to l10, j8 to h10"
    )


def test_a_completed_turn_is_shown_whole() -> None:
    """After a turn, every stone it moved carries a triangle and every path is drawn, and
    the move line numbers the turn as the announcement does ("Turn 1 (moves 1-4)")."""
    state = play(*MOVES, "l8-l9-m9", "m7-m8-n8")
    assert state.to_move == 1 and not state.turn_paths
    image = render(state)
    earlier = THEME.rgb("earlier")
    for moved in ("l10", "h10", "m9"):
        assert count_near(image, _triangle_box(state, moved), earlier) > 10
    for on_a_path in ("k10", "j9", "l9"):
        assert count_near(image, around(locate(state, on_a_path), BOARD.cell * 0.12), earlier) > 5
    assert count_near(image, around(locate(state, "m8"), BOARD.cell * 0.12), THEME.rgb("accent"))
    assert "blue ▲ moved last turn" in footer_text(state)
    assert texts(state, part="footer")[-1] == (
        "Diffusion Chess  ·  turn 1 (moves 1-4): k9 to l10, j8 to h10, l8 to m9, m7 to n8"
    )
    following = state.play_text("k11-k10")
    assert texts(following, part="footer")[-1].endswith("turn 2 (move 5 so far): k11-k10")


def _triangle_box(state: DiffusionState, cell: str) -> tuple[int, int, int, int]:
    """Where the triangle of a moved stone on `cell` is drawn: at its lower right."""
    x, y = locate(state, cell)
    corner = BOARD.stone_diameter() * 0.37
    return around((x + corner, y + corner), BOARD.cell * 0.2)


def test_kings_wear_crowns() -> None:
    """The highlight colour appears over both kings and nowhere near an ordinary stone."""
    state = play()
    image = render(state)
    highlight = THEME.rgb("highlight")
    for king in ("k5", "k15"):
        assert count_near(image, around(locate(state, king), BOARD.cell * 0.6), highlight) > 15
    assert count_near(image, around(locate(state, "g5"), BOARD.cell * 0.6), highlight) == 0


def test_hint_marks_the_destinations_of_one_stone() -> None:
    """Hint("k9") dots each cell k9 can reach; no dot elsewhere."""
    state = play()
    image = render(state, BoardView(hint=Hint("k9")))
    ends = {
        state.format_move(move).split("-")[-1]
        for move in state.legal_moves()
        if state.format_move(move).startswith("k9-")
    }
    assert ends
    for name in ends:
        assert distance(pixel(image, locate(state, name)), THEME.rgb("hint")) < 30, name
    for own in ("k5", "j8", "k1"):
        assert distance(pixel(image, locate(state, own)), THEME.rgb("hint")) > 60, own


def test_a_captured_stone_is_crossed_where_it_was_swapped_to() -> None:
    """c3 takes d3: the black stone now on c3 carries the accent cross."""
    start = DIFFUSION.position(white=["c3", "c4", "a1", "a2"], black=["d3", "e3", "s19", "t19"])
    state = start.play_text("c3-d3")
    assert state.captured_last == ((3, 2, 1),)
    image = render(state)
    x, y = locate(state, "d3")
    face = (x - BOARD.stone_diameter() * 0.3, y)  # beside the number printed in the middle
    assert distance(pixel(image, face), THEME.rgb("white")) < 60
    accent = THEME.rgb("accent")
    assert count_near(image, around(locate(state, "c3"), BOARD.cell * 0.15), accent) > 10
    assert count_near(image, around(locate(state, "e3"), BOARD.cell * 0.15), accent) == 0


def test_a_capturing_step_is_drawn_over_the_stones() -> None:
    """The last step of a capture runs from one stone to the next: it is drawn over them,
    where a path under the stones could not be seen."""
    state = random_game("diffusion", seed=2, plies=1)[-1]
    assert isinstance(state, DiffusionState)
    assert state.captured_last
    start, end = state.last_path[-2:]
    (x0, y0), (x1, y1) = BOARD.centre(start), BOARD.centre(end)
    on_stone = (x0 + (x1 - x0) * 0.3, y0 + (y1 - y0) * 0.3)  # beside the cross's arms
    image = render(state)
    assert count_near(image, around(on_stone, BOARD.cell * 0.04), THEME.rgb("accent")) > 4
