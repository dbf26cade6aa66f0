"""The Stones picture: Go grid and star points, captures, stakes, leads and thresholds."""

from __future__ import annotations

import itertools

from PIL import Image

from renderers import locate, render
from renderers.games.stones import StonesRenderer, board_for, tray_around, tray_slots
from renderers.intersections import star_points
from renderers.page import BOARD_TOP, WIDTH
from renderers.theme import DEFAULT_THEME as THEME
from rules.stones import STONES
from tests.renderers.helpers import after, around, count_near, distance, pixel

ROW_FIVE = ("e5", "e6", "h5", "e4", "a19", "h6", "t19", "h4")
"""On 19×19: Black's e5 and h5, each held by two White stones, liberties d5, f5, g5 and j5."""


def play(*moves: str, size: int = 9):
    """The position after `moves`."""
    return after(STONES, *moves, size=size)


def test_star_points_follow_go_custom() -> None:
    """Nine on 19×19, five on 9×9 and 13×13, the centre alone on 5×5."""
    assert len(star_points(19)) == 9 and (9, 9) in star_points(19) and (3, 15) in star_points(19)
    assert sorted(star_points(9)) == [(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]
    assert len(star_points(13)) == 5 and (3, 3) in star_points(13)
    assert star_points(5) == ((2, 2),)


def test_stones_sit_on_intersections() -> None:
    """Placed stones are drawn centred on their points, lines pass through empty ones."""
    state = play("e5", "c3")
    image = render(state)
    assert distance(pixel(image, locate(state, "e5")), THEME.rgb("black")) < 40
    assert distance(pixel(image, locate(state, "c3")), THEME.rgb("white")) < 40
    assert distance(pixel(image, locate(state, "d4")), THEME.rgb("line")) < 10
    b, c = locate(state, "b2"), locate(state, "c2")
    assert c[0] - b[0] == board_for(9).spacing


STONE = 10
"""How near a colour is to a stone's to be taken for one: closer than the page's background,
which shows around a tray only as tall as its stakes."""


def dark_runs(image: Image.Image, y: float, x0: int, x1: int) -> list[int]:
    """The x of the first pixel of each run of black-stone pixels on row `y` from x0 to x1."""
    starts, inside = [], False
    for x in range(x0, x1):
        near = distance(pixel(image, (x, y)), THEME.rgb("black")) < STONE
        if near and not inside:
            starts.append(x)
        inside = near
    return starts


def band(seat: int, y: float, size: int = 9, half: int = 4) -> tuple[int, int, int, int]:
    """The strip of `seat`'s tray from `half` pixels above `y` to `half` below."""
    left, _, right, _ = board_for(size).tray_box(seat)
    return left, round(y) - half, right, round(y) + half


def test_stakes_stand_beside_the_board_level_with_their_liberty() -> None:
    """Black's stakes on a2 and b1 are stones in the left tray on rows 2 and 1; White's
    stake on j8 is in the right tray on row 8; the trays are off the board."""
    state = play("a1", "j9", "stake a2", "stake j8", "stake b1")
    image = render(state)
    board = board_for(9)
    assert board.tray_box(0)[2] < board.left
    assert board.tray_box(1)[0] > board.left + board.height
    black, white = THEME.rgb("black"), THEME.rgb("white")
    for point in ("a2", "b1"):
        y = locate(state, point)[1]
        assert count_near(image, band(0, y), black, STONE) > 40, point
        assert count_near(image, band(1, y), black, STONE) == 0, point
    y = locate(state, "j8")[1]
    assert count_near(image, band(1, y), white, STONE) > 40
    assert count_near(image, band(0, y), white, STONE) == 0
    for empty in ("a5", "a9", "a3"):
        y = locate(state, empty)[1]
        assert count_near(image, band(0, y), black, STONE) == 0, empty
        assert count_near(image, band(1, y), white, STONE) == 0, empty
    # Each tray is only as tall as the rows of its stakes: the left one from row 2 down to
    # row 1, the right one around row 8.
    held = [slot for (_, _, seat), slot in tray_slots(board, state).items() if seat == 0]
    _, left_top, _, left_bottom = tray_around(board, 0, held)
    assert locate(state, "a3")[1] < left_top < locate(state, "a2")[1]
    assert locate(state, "b1")[1] < left_bottom < locate(state, "a1")[1] + board.spacing / 2


def test_a_liberty_keeps_only_a_small_hollow_mark() -> None:
    """The point of a stake is not covered by a diamond any more: its middle shows the grid
    lines, and a hollow mark in the owner's colours surrounds it."""
    state = play("a1", "j9", "stake a2", "stake j8")
    image = render(state)
    spacing = board_for(9).spacing
    for point, colour in (("a2", "black"), ("j8", "white")):
        centre = locate(state, point)
        inside = count_near(image, around(centre, spacing * 0.05), THEME.rgb(colour), 12)
        assert inside == 0, point
        assert distance(pixel(image, centre), THEME.rgb("line")) < 30, point
        ring = count_near(image, around(centre, spacing * 0.2), THEME.rgb(colour), 12)
        assert 15 < ring < spacing * spacing * 0.05, point


def test_the_last_stake_is_ringed_in_its_tray() -> None:
    """After `stake b1` the ring is in the left tray on row 1, not on row 2 nor on the board."""
    state = play("a1", "j9", "stake a2", "j8", "stake b1")
    image = render(state)
    board = board_for(9)
    accent = THEME.rgb("accent")
    half = board.spacing // 2
    assert count_near(image, band(0, locate(state, "b1")[1], half=half), accent) > 20
    assert count_near(image, band(0, locate(state, "a2")[1], half=half), accent) == 0
    assert count_near(image, around(locate(state, "b1"), board.spacing * 0.5), accent) == 0


def test_stakes_of_one_row_stand_side_by_side_outward() -> None:
    """Four Black stakes on row 5 of a 19×19 board: four separate stones in the left tray,
    and the first one is nearest the board."""
    state = play(
        *ROW_FIVE, "stake d5", "c12", "stake f5", "d12", "stake g5", "m12", "stake j5", size=19
    )
    image = render(state)
    board = board_for(19)
    left, _, right, _ = board.tray_box(0)
    # Just below the middle row, which crosses the light on the stones' left.
    runs = dark_runs(image, locate(state, "d5")[1] + 4, left, right)
    assert len(runs) == 4
    assert runs[-1] > right - 20


def test_tray_slots_never_overlap_and_follow_the_columns() -> None:
    """However many stakes share a row, they stay inside the tray, apart, in column order."""
    for size, seat, count in itertools.product((5, 9, 19), (0, 1), range(1, 20)):
        board = board_for(size)
        slots = board.stake_slots(seat, range(min(count, size)), 2)
        box = board.tray_box(seat)
        centres = [slots[col][0][0] for col in sorted(slots)]
        assert centres == sorted(centres)
        for (x, _), diameter in slots.values():
            assert box[0] <= x - diameter / 2 and x + diameter / 2 <= box[2] + 1
        for a, b in itertools.pairwise(sorted(slots.values())):
            assert b[0][0] - a[0][0] >= (a[1] + b[1]) / 2 + 1


def test_stones_pages_are_wider_only_by_their_trays() -> None:
    """Trays widen the page of large boards a little; the board keeps its size."""
    for size in (9, 19):
        board = board_for(size)
        image = render(play(size=size))
        assert WIDTH < image.width <= 980
        assert image.width == board.page_width
        assert (
            board.tray_box(0)[2] < board.left and board.tray_box(1)[0] > board.left + board.height
        )
        assert board.tray_box(0)[1] == BOARD_TOP
    assert render(play(size=5)).width == WIDTH


def test_captured_group_and_its_stakes_are_crossed() -> None:
    """White's b1 takes a1 and both its stakes: a cross on a1 and one in the tray on rows 1
    and 2, and no mark is left on the stakes' liberties."""
    state = play("a1", "j9", "stake a2", "j8", "stake b1", "a2", "e5", "b1")
    assert len(state.captured_last) == 1 and len(state.stakes_captured_last) == 2
    image = render(state)
    board = board_for(9)
    accent = THEME.rgb("accent")
    half = board.spacing // 2
    assert count_near(image, around(locate(state, "a1"), board.spacing * 0.35), accent) > 20
    for point in ("a2", "b1"):
        assert count_near(image, band(0, locate(state, point)[1], half=half), accent) > 10, point
    assert count_near(image, around(locate(state, "a5"), half), THEME.rgb("black"), 12) == 0


def test_leads_and_what_wins_are_in_words() -> None:
    """Each side's lead and the lead a decisive capture needs, in words, not signs."""
    state = STONES.new_game()
    facts = StonesRenderer().caption(state).facts
    assert facts == (
        ("prisoners 0", "6 behind (needs 1 or more ahead)"),
        ("prisoners 6", "6 ahead (needs 13 or more ahead)"),
    )


def test_trays_are_drawn_only_for_players_with_stakes() -> None:
    """Without stakes no grey tray stands beside the board; with Black's stakes only Black's."""
    for size in (5, 19):
        board = board_for(size)
        image = render(play("e5" if size > 5 else "c3", size=size))
        for seat in (0, 1):
            left, top, right, bottom = board.tray_box(seat)
            middle = ((left + right) / 2, (top + bottom) / 2)
            assert distance(pixel(image, middle), THEME.rgb("background")) < 4
    state = play("a1", "j9", "stake a2", "j8", size=9)
    image = render(state)
    board = board_for(9)
    row_two, row_nine = locate(state, "a2")[1], locate(state, "a9")[1]
    for seat, colour in ((0, "panel"), (1, "background")):
        left, _, right, _ = board.tray_box(seat)
        x = right - 3 if seat == 0 else left + 3  # beside the board, clear of the stake
        assert distance(pixel(image, (x, row_two)), THEME.rgb(colour)) < 4
        # no tray above the rows of the stakes
        assert distance(pixel(image, (x, row_nine)), THEME.rgb("background")) < 4


def test_stakes_are_drawn_large_enough_to_see() -> None:
    """A stake in its tray is at least half as wide as a stone of the board (a small chip
    was easy to miss), and its liberty's diamond at least a third of the spacing."""
    for size in range(5, 20):
        board = board_for(size)
        assert board.stake >= 0.45 * board.stone_diameter()
        assert board.page_width <= 980
    state = play("a1", "j9", "stake a2", size=9)
    image = render(state)
    board = board_for(9)
    seen = count_near(image, around(locate(state, "a2"), board.spacing * 0.3), THEME.rgb("black"))
    assert seen > board.spacing * 1.2
