"""The Rekushu picture: stones on intersections, patterned tiles, last claim, mirror rule."""

from __future__ import annotations

from renderers import BoardView, Hint, locate, render
from renderers.games.rekushu import board_for
from renderers.theme import DEFAULT_THEME as THEME
from rules.rekushu import REKUSHU
from rules.squares import format_point
from tests.renderers.helpers import after, around, count_near, distance, pixel

CLAIM = ["a1", "h8", "a3", "h7", "c1", "h6", "c3", "f3", "a5 a1-c3"]
"""Black claims a1–c3 (four tiles); White mirrored c3 with f3, so h5 is now barred."""


def play(*moves: str, size: int = 8):
    """The position after `moves`."""
    return after(REKUSHU, *moves, size=size)


def tile_centre(state, x: int, y: int) -> tuple[float, float]:
    """The pixel centre of tile (x, y)."""
    left, top, right, bottom = board_for(state.size).tile_box((x, y))
    return (left + right) / 2, (top + bottom) / 2


def test_claimed_tiles_are_filled_and_others_are_not() -> None:
    """Black's four tiles show Black's tile colours; an unclaimed tile shows the board."""
    state = play(*CLAIM)
    image = render(state)
    tile_colours = (THEME.rgb("black_tile"), THEME.rgb("black_tile_pattern"))
    spacing = board_for(8).spacing
    for x in (0, 1):
        for y in (0, 1):
            box = around(tile_centre(state, x, y), spacing * 0.3)
            inked = sum(count_near(image, box, colour, 16) for colour in tile_colours)
            assert inked > 0.9 * (box[2] - box[0]) * (box[3] - box[1]), (x, y)
    assert distance(pixel(image, tile_centre(state, 4, 4)), THEME.rgb("board")) < 6


def test_white_tiles_differ_from_black_tiles_without_colour() -> None:
    """Black's tiles are dark and striped, White's light and dotted: they differ in lightness."""

    def lightness(rgb: tuple[int, int, int]) -> float:
        return 0.3 * rgb[0] + 0.59 * rgb[1] + 0.11 * rgb[2]

    assert lightness(THEME.rgb("white_tile")) - lightness(THEME.rgb("black_tile")) > 120


def test_last_claim_outlined_and_its_corners_crossed() -> None:
    """The claimed rectangle is outlined in the accent colour, its removed corners crossed."""
    state = play(*CLAIM)
    image = render(state)
    spacing = board_for(8).spacing
    accent = THEME.rgb("accent")
    for corner in ("a1", "c1", "a3", "c3"):
        assert count_near(image, around(locate(state, corner), spacing * 0.3), accent) > 20
    middle_of_edge = locate(state, "b1")
    assert count_near(image, around(middle_of_edge, 4), accent) > 5
    assert count_near(image, around(locate(state, "e6"), spacing * 0.4), accent) == 0


def test_forbidden_mirror_cell_is_marked() -> None:
    """h5, the left–right mirror White may not repeat, carries the struck circle."""
    state = play(*CLAIM)
    assert state.forbidden_mirror_cell() == (7, 4)
    image = render(state)
    spacing = board_for(8).spacing
    forbidden = THEME.rgb("forbidden")
    assert count_near(image, around(locate(state, "h5"), spacing * 0.3), forbidden) > 20
    assert count_near(image, (0, 0, *image.size), forbidden, 12) < 4 * spacing * spacing


def test_hint_marks_every_legal_placement() -> None:
    """Hint() dots exactly the legal placements; the barred mirror cell gets none."""
    state = play(*CLAIM)
    image = render(state, BoardView(hint=Hint()))
    legal = {format_point(x, y) for x, y in state.legal_placements()}
    assert "h5" not in legal
    for x in range(8):
        for y in range(8):
            name = format_point(x, y)
            dotted = distance(pixel(image, locate(state, name)), THEME.rgb("hint")) < 30
            assert dotted == (name in legal), name


def test_hint_on_a_point_marks_the_claims_it_allows() -> None:
    """Hint("c3") for Black, who holds a1, c1 and a3, outlines a1–c3 and dots its corners."""
    state = play("a1", "h8", "a3", "h7", "c1", "h6")
    image = render(state, BoardView(hint=Hint("c3")))
    hint = THEME.rgb("hint")
    for corner in ("a1", "c1", "a3"):
        assert distance(pixel(image, locate(state, corner)), hint) < 30, corner
    for edge in ("b1", "a2"):
        assert distance(pixel(image, locate(state, edge)), hint) < 30, edge
    assert distance(pixel(image, locate(state, "e2")), hint) > 60
