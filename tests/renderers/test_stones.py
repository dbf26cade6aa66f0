"""The Stones picture: Go grid and star points, captures, stakes, leads and thresholds."""

from __future__ import annotations

from renderers import locate, render
from renderers.games.stones import board_for, signed
from renderers.intersections import star_points
from renderers.theme import DEFAULT_THEME as THEME
from rules.stones import STONES
from tests.renderers.helpers import after, around, count_near, distance, pixel


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


def test_stakes_are_drawn_on_their_liberties_and_ringed_when_last() -> None:
    """A stake is a diamond on its point; the last one is ringed."""
    state = play("a1", "j9", "stake a2", "j8", "stake b1")
    assert set(state.stakes(0)) == {(0, 1), (1, 0)}
    image = render(state)
    spacing = board_for(9).spacing
    for point in ("a2", "b1"):
        assert distance(pixel(image, locate(state, point)), THEME.rgb("black")) < 40, point
    accent = THEME.rgb("accent")
    assert count_near(image, around(locate(state, "b1"), spacing * 0.4), accent) > 10
    assert count_near(image, around(locate(state, "a2"), spacing * 0.4), accent) == 0


def test_captured_group_and_its_stakes_are_crossed() -> None:
    """White's b1 takes a1 and both its stakes: three crosses, the a1 point now empty."""
    state = play("a1", "j9", "stake a2", "j8", "stake b1", "a2", "e5", "b1")
    assert len(state.captured_last) == 1 and len(state.stakes_captured_last) == 2
    image = render(state)
    spacing = board_for(9).spacing
    accent = THEME.rgb("accent")
    assert count_near(image, around(locate(state, "a1"), spacing * 0.35), accent) > 20
    for point in ("a2", "b1"):
        assert count_near(image, around(locate(state, point), spacing * 0.5), accent) > 10


def test_leads_are_signed_with_a_true_minus() -> None:
    """Leads and thresholds read +6, −6 and 0."""
    assert [signed(6), signed(-6), signed(0)] == ["+6", "−6", "0"]
