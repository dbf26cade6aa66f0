"""Rekushu: positional tests for placement, claims, the mirror rule and scoring; properties."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    DecodeError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    Outcome,
    get_game,
)
from rules.rekushu import REKUSHU, SIZES, Rectangle, RekushuMove, RekushuState
from rules.squares import format_point, parse_point


def notations(state: RekushuState) -> set[str]:
    return {state.format_move(move) for move in state.legal_moves()}


def points(*names: str, size: int = 8) -> set[tuple[int, int]]:
    return {parse_point(name, size, size) for name in names}


def small(**kwargs: Any) -> RekushuState:
    """A hand-made 8×8 position."""
    return REKUSHU.position(size=8, **kwargs)


# --- board, options, coordinates ---


def test_new_game_is_an_empty_20x20_board() -> None:
    """Black starts on an empty 20×20 board and may place on any of the 400 intersections."""
    state = REKUSHU.new_game()
    assert state.size == 20
    assert dict(state.options) == {"size": 20}
    assert state.to_move == 0
    moves = notations(state)
    assert len(moves) == 400
    assert {"a1", "u20", "h8", "j8"} <= moves
    assert not any(text.startswith("i") for text in moves)
    assert state.tile_counts == (0, 0)
    assert state.mirror_cells() == {}
    assert state.forbidden_mirror_cell() is None
    assert state.last_mirror_type(0) is None and state.last_mirror_type(1) is None
    assert state.removed_last == () and state.claimed_last is None
    assert state.outcome() is None


@pytest.mark.parametrize("size", SIZES)
def test_every_size_offers_every_intersection(size: int) -> None:
    """Each allowed size has size² intersections, all open at the start."""
    state = REKUSHU.new_game(size=size)
    assert len(list(state.legal_moves())) == size * size
    assert state.tile_owner(size - 2, size - 2) is None


@pytest.mark.parametrize("size", [6, 10, 16, 21, "twenty"])
def test_other_sizes_are_refused(size: object) -> None:
    """Only 8, 12, 14, 18 and 20 are allowed."""
    with pytest.raises(InvalidOptionError, match="size must be one of 8, 12, 14, 18, 20"):
        REKUSHU.new_game(size=size)


def test_go_coordinates_skip_i() -> None:
    """Columns run a–u on 20×20 without i; input is case-insensitive."""
    state = REKUSHU.new_game()
    assert state.parse_move(" U20 ") == RekushuMove(19, 19)
    assert state.parse_move("j1") == RekushuMove(8, 0)
    assert state.parse_move("D13") == RekushuMove(3, 12)
    with pytest.raises(InvalidMoveError, match="no column i"):
        state.parse_move("i5")
    with pytest.raises(InvalidMoveError, match="off the board"):
        state.parse_move("v1")
    with pytest.raises(InvalidMoveError, match="off the board"):
        REKUSHU.new_game(size=8).parse_move("j8")


def test_registry_and_metadata() -> None:
    """Rekushu is registered; Black moves first."""
    assert get_game("REKUSHU") is REKUSHU
    assert REKUSHU.colours == ("Black", "White")
    assert "d13 c10-f13" in REKUSHU.notation


def test_max_plies_follows_from_the_rules() -> None:
    """At most N² stones remain and each claim (≥ 1 of (N−1)² tiles) removes four."""
    assert REKUSHU.max_plies({"size": 20}) == 400 + 4 * 361
    assert REKUSHU.max_plies({"size": 8}) == 64 + 4 * 49


# --- placement ---


def test_placement_needs_an_unclaimed_tile_next_to_it() -> None:
    """With tiles a1–b2 claimed, only a1, a2, b1 and b2 lose every unclaimed neighbour."""
    state = small(white_tiles=["a1-c3"])
    everything = {(x, y) for x in range(8) for y in range(8)}
    assert set(state.legal_placements()) == everything - points("a1", "a2", "b1", "b2")
    for name in ["a1", "a2", "b2"]:
        with pytest.raises(IllegalMoveError, match=f"every tile around {name} is already claimed"):
            state.parse_move(name)
    assert state.parse_move("c2") == RekushuMove(2, 1)  # c1 and c2 are unclaimed
    assert state.parse_move("c3") == RekushuMove(2, 2)  # one unclaimed tile is enough


def test_placement_on_a_stone_is_refused() -> None:
    """Occupied intersections, of either colour, are refused."""
    state = small(black=["d4"], white=["e5"])
    for name in ["d4", "e5"]:
        with pytest.raises(IllegalMoveError, match=f"{name} is occupied"):
            state.parse_move(name)
    assert len(notations(state)) == 62


# --- claims ---


def test_a_claim_removes_the_corners_and_colours_the_tiles() -> None:
    """f6 completes c3-f6: the four stones go, the 3×3 tiles inside become Black's."""
    state = small(black=["c3", "f3", "c6", "a8"], white=["h1"])
    after = state.play_text("f6 c3-f6")
    assert after.stones(0) == [(0, 7)]
    assert after.stones(1) == [(7, 0)]
    assert after.tile_counts == (9, 0)
    owned = {(x, y) for x in range(8) for y in range(8) if after.tile_owner(x, y) == 0}
    assert owned == {(x, y) for x in range(2, 5) for y in range(2, 5)}
    assert after.removed_last == ((2, 2), (5, 2), (2, 5), (5, 5))
    assert after.claimed_last == ((2, 2), (5, 5))
    assert after.to_move == 1
    nothing_claimed = state.play_text("f6")
    assert nothing_claimed.removed_last == () and nothing_claimed.claimed_last is None
    assert nothing_claimed.stone_at(5, 5) == 0


def test_a_claim_need_not_use_the_placed_stone() -> None:
    """A complete rectangle can be claimed after a placement anywhere outside it."""
    state = small(black=["b2", "d2", "b4", "d4"])
    after = state.play_text("g7 b2-d4")
    assert after.tile_counts == (4, 0)
    assert after.stones(0) == [(6, 6)]
    with pytest.raises(IllegalMoveError, match="a stone inside it at c3"):
        state.parse_move("c3 b2-d4")
    with pytest.raises(IllegalMoveError, match="a stone on its edge at b3"):
        state.parse_move("b3 b2-d4")


def test_any_two_opposite_corners_name_the_same_claim() -> None:
    """c3-f6, f6-c3, c6-f3 and f3-c6 parse to one move, printed lower-left first."""
    state = small(black=["c3", "f3", "c6"])
    expected = RekushuMove(5, 5, Rectangle(2, 2, 5, 5))
    for text in ["f6 c3-f6", "f6 f6-c3", "f6 c6-f3", "f6 f3-c6", "  F6  C3 - F6 ", "f6c3-f6"]:
        assert state.parse_move(text) == expected
    assert state.format_move(expected) == "f6 c3-f6"


def test_a_rectangle_may_border_claimed_tiles() -> None:
    """Only tiles inside count: a rectangle sharing an edge with a claimed one is fine."""
    state = small(black=["c1", "e1", "c3"], white_tiles=["a1-c3"])
    assert state.play_text("e3 c1-e3").tile_counts == (4, 4)


@pytest.mark.parametrize(
    ("black", "white", "tiles", "text", "message"),
    [
        (["c3", "f3"], [], [], "f6 c3-f6", "corners .* must be your stones, but c6 is empty"),
        (["c3"], [], [], "f6 c3-f6", "but f3 is empty and c6 is empty"),
        (["c3", "f3"], ["c6"], [], "f6 c3-f6", "but c6 holds a White stone"),
        (["c3", "f3", "c6"], [], [], "f5 c3-f6", "but f6 is empty"),
        (["c3", "f3", "c6", "d3"], [], [], "f6 c3-f6", "a stone on its edge at d3"),
        (["c3", "f3", "c6"], ["f4"], [], "f6 c3-f6", "a stone on its edge at f4"),
        (["c3", "f3", "c6"], ["d3", "e3"], [], "f6 c3-f6", "stones on its edges at d3 and e3"),
        (["c3", "f3", "c6", "f6"], [], [], "d6 c3-f6", "a stone on its edge at d6"),
        (["c3", "f3", "c6"], ["d4"], [], "f6 c3-f6", "a stone inside it at d4"),
        (["c3", "f3", "c6"], ["d4", "e4", "d5", "e5"], [], "f6 c3-f6", "e4, d5 and 1 more"),
        (["c3", "f3", "c6"], [], ["d4"], "f6 c3-f6", "the tile d4–e5 .* claimed by White$"),
        (["c3", "f3", "c6"], [], ["c3-f6"], "f6 c3-f6", "c3–d4 .* by White \\(and 8 more\\)"),
        (["c3", "c6"], [], [], "f6 c3-c6", "at least one tile wide and one tile high"),
        (["c3", "f3"], [], [], "f6 c3-f3", "at least one tile wide and one tile high"),
    ],
)
def test_illegal_claims_say_why(
    black: list[str], white: list[str], tiles: list[str], text: str, message: str
) -> None:
    """Each claim condition is checked, and the refusal names the corner, stone or tile."""
    state = small(black=black, white=white, white_tiles=tiles)
    with pytest.raises(IllegalMoveError, match=message):
        state.parse_move(text)
    assert state.parse_move(text.split(maxsplit=1)[0]).claim is None


def test_claims_by_black_tiles_name_the_owner() -> None:
    """A tile Black claimed earlier blocks Black's own rectangle as well."""
    state = small(black=["c3", "f3", "c6"], black_tiles=["e5"])
    with pytest.raises(IllegalMoveError, match=r"the tile e5–f6 .* already claimed by Black"):
        state.parse_move("f6 c3-f6")


def test_exact_legal_moves_with_claims() -> None:
    """Every placement, every placement outside e6-g8 with that claim, and d4 with b2-d4."""
    state = small(black=["b2", "d2", "b4", "e6", "g6", "e8", "g8"])
    empty = [format_point(x, y) for x in range(8) for y in range(8) if state.stone_at(x, y) is None]
    inside_e6_g8 = {"f6", "e7", "f7", "g7", "f8"}
    expected = set(empty) | {"d4 b2-d4"} | {f"{p} e6-g8" for p in empty if p not in inside_e6_g8}
    assert len(expected) == 57 + 1 + 52
    assert notations(state) == expected
    assert set(state.claims_after(3, 3)) == {Rectangle(1, 1, 3, 3), Rectangle(4, 5, 6, 7)}
    assert state.claims_after(5, 6) == []
    assert state.claims_after(1, 1) == []  # b2 is occupied: no placement, no claims
    assert state.claim_options() == ((Rectangle(4, 5, 6, 7),), {(3, 3): (Rectangle(1, 1, 3, 3),)})


def test_only_the_movers_stones_make_claims() -> None:
    """White's complete rectangle offers Black nothing."""
    state = small(white=["b2", "d2", "b4", "d4"])
    assert all(move.claim is None for move in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="b2 holds a White stone"):
        state.parse_move("g7 b2-d4")


# --- the mirror rule ---


def test_mirror_cells_reflect_the_opponents_last_placement() -> None:
    """After b3 on 8×8 the mirrors are g3 (h), b6 (v) and g6 (r)."""
    state = REKUSHU.new_game(size=8).play_text("b3")
    assert state.mirror_cells() == {"h": (6, 2), "v": (1, 5), "r": (6, 5)}


@pytest.mark.parametrize(("reply", "kind"), [("g3", "h"), ("b6", "v"), ("g6", "r"), ("c3", None)])
def test_each_mirror_type_is_recorded(reply: str, kind: str | None) -> None:
    """Placing on a mirror of the opponent's last placement records that type."""
    state = REKUSHU.new_game(size=8).play_text("b3").play_text(reply)
    assert state.last_mirror_type(1) == kind
    assert state.last_mirror_type(0) is None


@pytest.mark.parametrize(
    ("kind", "first", "forbidden", "message"),
    [
        ("h", "g3", "h8", "h8 mirrors Black's last placement \\(a8\\) left–right, .*\\(h\\)"),
        ("v", "b6", "a1", "a1 mirrors Black's last placement \\(a8\\) top–bottom, .*\\(v\\)"),
        ("r", "g6", "h1", "h1 mirrors Black's last placement \\(a8\\) by a half turn"),
    ],
)
def test_the_same_mirror_type_twice_in_a_row_is_forbidden(
    kind: str, first: str, forbidden: str, message: str
) -> None:
    """White mirrors b3 with type X; after Black's a8, the X mirror of a8 is forbidden."""
    state = REKUSHU.new_game(size=8).play_text("b3").play_text(first).play_text("a8")
    assert state.last_mirror_type(1) == kind
    assert state.forbidden_mirror_cell() == parse_point(forbidden, 8, 8)
    with pytest.raises(IllegalMoveError, match=message):
        state.parse_move(forbidden)
    assert forbidden not in notations(state)
    assert len(notations(state)) == 64 - 3 - 1


def test_a_different_mirror_type_is_allowed() -> None:
    """h then v: consecutive mirror moves of different types are fine."""
    state = REKUSHU.new_game(size=8).play_text("b3").play_text("g3").play_text("a8")
    after = state.play_text("a1")
    assert after.last_mirror_type(1) == "v"
    assert after.play_text("c2").play_text("f2").last_mirror_type(1) == "h"


def test_the_ban_lasts_one_turn() -> None:
    """h, then a non-mirror move, then h again is allowed."""
    state = REKUSHU.new_game(size=8).play_text("b3").play_text("g3").play_text("a8")
    state = state.play_text("d4").play_text("c2")
    assert state.last_mirror_type(1) is None
    assert state.forbidden_mirror_cell() is None
    assert state.play_text("f2").last_mirror_type(1) == "h"


def test_each_player_has_their_own_mirror_type() -> None:
    """Black's h mirror move restricts Black's next move, not White's."""
    state = REKUSHU.new_game(size=8).play_text("b3").play_text("a2").play_text("h2")
    assert (state.last_mirror_type(0), state.last_mirror_type(1)) == ("h", None)
    assert state.forbidden_mirror_cell() is None
    state = state.play_text("c5")
    assert state.forbidden_mirror_cell() == (5, 4)  # f5, the h mirror of c5


def test_the_mirror_of_a_stone_removed_by_a_claim_still_counts() -> None:
    """Black places f6 and claims c3-f6; the stone is gone, yet its mirrors still apply."""
    state = small(black=["c3", "f3", "c6"], mirror_types=(None, "h"), last_placement="a5")
    after = state.play_text("f6 c3-f6")
    assert after.stone_at(5, 5) is None
    assert after.mirror_cells() == {"h": (2, 5), "v": (5, 2), "r": (2, 2)}
    assert after.forbidden_mirror_cell() == (2, 5)
    with pytest.raises(IllegalMoveError, match="c6 mirrors Black's last placement \\(f6\\)"):
        after.parse_move("c6")
    assert after.play_text("f3").last_mirror_type(1) == "v"
    assert after.play_text("c3").last_mirror_type(1) == "r"


def test_a_forbidden_cell_cannot_complete_a_rectangle() -> None:
    """g6 would complete c3-g6, but it is Black's forbidden h mirror of White's b6."""
    state = small(black=["c3", "g3", "c6"], last_placement="b6", mirror_types=("h", None))
    assert state.forbidden_mirror_cell() == (6, 5)
    assert not {"g6", "g6 c3-g6"} & notations(state)
    assert all(move.claim is None for move in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="g6 mirrors White's last placement \\(b6\\)"):
        state.parse_move("g6 c3-g6")
    assert state.claims_after(6, 5) == []
    assert small(black=["c3", "g3", "c6"]).claims_after(6, 5) == [Rectangle(2, 2, 6, 5)]


def test_an_occupied_forbidden_cell_is_not_reported() -> None:
    """forbidden_mirror_cell() names only an empty intersection."""
    state = small(black=["h8"], last_placement="a8", mirror_types=("h", None))
    assert state.forbidden_mirror_cell() is None
    assert "h8" not in notations(state)


# --- end of the game ---

DRAWN_TILES = {
    "black_tiles": ["a1-h4", "a4-d5"],
    "white_tiles": ["d4-h5", "a5-h7", "a7-g8"],
}
"""24 tiles each on 8×8; only tile g7 (g7, h7, g8, h8) is unclaimed."""


def test_equal_tiles_when_nobody_can_place_is_a_draw() -> None:
    """White fills the last intersection next to g7 without claiming: 24 each, a draw."""
    state = small(black=["g7", "g8"], white=["h7"], to_move=1, **DRAWN_TILES)
    assert state.tile_counts == (24, 24)
    assert notations(state) == {"h8"}
    over = state.play_text("h8")
    assert over.outcome() == Outcome(None, "Black cannot place a stone; 24 tiles each")
    assert list(over.legal_moves()) == []
    assert over.legal_placements() == []
    assert over.placement_bits() == 0
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.parse_move("a1")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.play(RekushuMove(0, 0))


def test_more_tiles_wins() -> None:
    """White claims the last tile and wins 25 to 24."""
    state = small(black=[], white=["g7", "g8", "h7"], to_move=1, **DRAWN_TILES)
    assert notations(state) == {"h8", "h8 g7-h8"}
    over = state.play_text("h8 g7-h8")
    assert over.tile_counts == (24, 25)
    assert over.outcome() == Outcome(
        1, "Black cannot place a stone; White has more tiles, 25 to 24"
    )


def test_the_mirror_rule_can_end_the_game() -> None:
    """Black's only open intersection is the forbidden r-mirror of White's a1: Black is stuck."""
    state = small(
        black=["g7", "b1"],
        white=["h7", "g8", "a2", "b2"],
        black_tiles=["a2-h7"],
        white_tiles=["b1-h2", "a7-g8"],
        to_move=1,
        mirror_types=("r", None),
    )
    assert notations(state) == {"a1", "h8"}
    over = state.play_text("a1")
    assert over.forbidden_mirror_cell() is None  # the game is over
    assert over.outcome() == Outcome(
        0, "Black cannot place a stone; Black has more tiles, 35 to 12"
    )
    unrestricted = REKUSHU.decode(state.encode().replace(";r-", ";h-"))
    assert unrestricted.last_mirror_type(0) == "h"
    assert unrestricted.play_text("a1").legal_placements() == [(7, 7)]


def test_a_position_without_placements_is_already_over() -> None:
    """position() decides the outcome when the player to move cannot place."""
    state = small(black_tiles=["a1-h8"])
    assert state.outcome() == Outcome(
        0, "Black cannot place a stone; Black has more tiles, 49 to 0"
    )


# --- notation and errors ---


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("c3-f6", "a move starts with the point you place on: .* like d13 c3-f6"),
        ("f6 c3", "is not a Rekushu move"),
        ("f6 c3-", "is not a Rekushu move"),
        ("f6 c3-f6-g7", "is not a Rekushu move"),
        ("f6, c3-f6", "is not a Rekushu move"),
        ("f6 c3-j6", "off the board"),
        ("f6 i3-f6", "no column i"),
        ("f0", "off the board"),
    ],
)
def test_bad_notation_is_invalid(text: str, message: str) -> None:
    """Text outside the notation is a syntax error with a hint."""
    with pytest.raises(InvalidMoveError, match=message):
        REKUSHU.new_game(size=8).parse_move(text)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (RekushuMove(8, 0), "not on the board"),
        (RekushuMove(-1, 0), "not on the board"),
        (RekushuMove(0, 0, Rectangle(0, 0, 8, 3)), "rectangle is not on the board"),
        (RekushuMove(0, 0, Rectangle(3, 3, 0, 0)), "lower-left and upper-right"),
        (RekushuMove(0, 0, Rectangle(0, 0, 0, 3)), "at least one tile wide"),
    ],
)
def test_play_rejects_illegal_move_objects(move: RekushuMove, message: str) -> None:
    """play() checks what it is given, not only parse_move()."""
    with pytest.raises(IllegalMoveError, match=message):
        REKUSHU.new_game(size=8).play(move)


def test_encode_round_trips_claims_and_mirror_types() -> None:
    """decode(encode()) restores tiles, stones, the last claim and both mirror types."""
    state = small(black=["c3", "f3", "c6"], white=["a1"], mirror_types=("v", None))
    state = state.play_text("f6 c3-f6").play_text("c6")
    restored = REKUSHU.decode(state.encode())
    assert restored == state and hash(restored) == hash(state)
    assert restored.last_mirror_type(1) == "h"
    assert restored.occupied_columns == state.occupied_columns
    claimed = small(black=["c3", "f3", "c6"]).play_text("f6 c3-f6")
    assert REKUSHU.decode(claimed.encode()).claimed_last == ((2, 2), (5, 5))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1;20;0;0;0;0;0;0;-",
        "2;8;0;0;0;0;0;0;-;--",
        "1;10;0;0;0;0;0;0;-;--",
        "1;8;0;2;0;0;0;0;-;--",
        "1;8;0;0;1;1;0;0;-;--",
        "1;8;0;0;0;0;80;0;-;--",
        "1;8;0;0;0;0;0;0;z9;--",
        "1;8;0;0;0;0;0;0;-;x-",
        "1;8;0;0;xyz;0;0;0;-;--",
    ],
)
def test_decode_rejects_garbage(text: str) -> None:
    """Anything but an encoded state raises DecodeError."""
    with pytest.raises(DecodeError):
        REKUSHU.decode(text)


def test_diagram_shows_stones_and_tiles() -> None:
    """Stones B/W on intersections, claimed tiles b/w between them."""
    state = small(black=["a8", "c3"], white=["h1"], black_tiles=["b2-d4"], white_tiles=["g7"])
    assert state.diagram().splitlines() == [
        "  a b c d e f g h",
        "8 B . . . . . . .",
        "               w",
        "7 . . . . . . . .",
        "",
        "6 . . . . . . . .",
        "",
        "5 . . . . . . . .",
        "",
        "4 . . . . . . . .",
        "     b b",
        "3 . . B . . . . .",
        "     b b",
        "2 . . . . . . . .",
        "",
        "1 . . . . . . . W",
    ]


# --- properties ---


def oracle_moves(state: RekushuState) -> set[str]:
    """Every legal move by brute force: each placement against every rectangle on the board."""
    n, mover = state.size, state.to_move
    stones = {
        (x, y): seat
        for x in range(n)
        for y in range(n)
        if (seat := state.stone_at(x, y)) is not None
    }
    claimed = {
        (x, y) for x in range(n - 1) for y in range(n - 1) if state.tile_owner(x, y) is not None
    }
    forbidden = None
    kind = state.last_mirror_type(mover)
    if state.last_move is not None and kind is not None:
        lx, ly = state.last_move.x, state.last_move.y
        forbidden = {"h": (n - 1 - lx, ly), "v": (lx, n - 1 - ly), "r": (n - 1 - lx, n - 1 - ly)}[
            kind
        ]
    placements = [
        (x, y)
        for x in range(n)
        for y in range(n)
        if (x, y) not in stones
        and (x, y) != forbidden
        and any(
            0 <= tx < n - 1 and 0 <= ty < n - 1 and (tx, ty) not in claimed
            for tx in (x - 1, x)
            for ty in (y - 1, y)
        )
    ]
    rectangles = []
    for left, right in combinations(range(n), 2):
        for bottom, top in combinations(range(n), 2):
            corners = [(left, bottom), (right, bottom), (left, top), (right, top)]
            owners = [stones.get(c) for c in corners]
            if owners.count(mover) < 3 or 1 - mover in owners:
                continue
            if any((tx, ty) in claimed for tx in range(left, right) for ty in range(bottom, top)):
                continue
            if any(
                (x, y) in stones and (x, y) not in corners
                for x in range(left, right + 1)
                for y in range(bottom, top + 1)
            ):
                continue  # a placement only adds stones, so this rectangle stays blocked
            rectangles.append((left, bottom, right, top, corners))
    moves = set()
    for p in placements:
        after = {**stones, p: mover}
        moves.add(format_point(*p))
        for left, bottom, right, top, corners in rectangles:
            if not all(after.get(c) == mover for c in corners):
                continue
            if any(
                left <= x <= right and bottom <= y <= top and (x, y) not in corners
                for x, y in after
            ):
                continue
            claim = f"{format_point(left, bottom)}-{format_point(right, top)}"
            moves.add(f"{format_point(*p)} {claim}")
    return moves


@st.composite
def positions(draw: st.DrawFn) -> RekushuState:
    """Random hand-made positions: stones, claimed tiles, last placement and mirror types."""
    size = draw(st.sampled_from(SIZES))
    rng = random.Random(draw(st.integers(0, 2**32)))
    stone_density = draw(st.sampled_from([0.05, 0.2, 0.5, 0.8]))
    tile_density = draw(st.sampled_from([0.0, 0.1, 0.4, 0.9]))
    black: list[str] = []
    white: list[str] = []
    black_tiles: list[str] = []
    white_tiles: list[str] = []
    for x in range(size):
        for y in range(size):
            if rng.random() < stone_density:
                (black if rng.random() < 0.6 else white).append(format_point(x, y))
            if x < size - 1 and y < size - 1 and rng.random() < tile_density:
                (black_tiles if rng.random() < 0.5 else white_tiles).append(format_point(x, y))
    last = format_point(rng.randrange(size), rng.randrange(size))
    kinds = (
        draw(st.sampled_from([None, "h", "v", "r"])),
        draw(st.sampled_from([None, "h", "v", "r"])),
    )
    return REKUSHU.position(
        size=size,
        black=black,
        white=white,
        black_tiles=black_tiles,
        white_tiles=white_tiles,
        to_move=draw(st.integers(0, 1)),
        last_placement=last,
        mirror_types=kinds,
    )


@settings(max_examples=40, deadline=None)
@given(positions())
def test_legal_moves_match_a_brute_force_oracle(state: RekushuState) -> None:
    """In random positions of every size, legal_moves() is exactly the brute-force set."""
    moves = list(state.legal_moves())
    assert len(set(moves)) == len(moves)
    texts = {state.format_move(move) for move in moves}
    expected = oracle_moves(state) if state.outcome() is None else set()
    assert texts == expected
    by_placement: dict[tuple[int, int], set[Rectangle]] = {}
    for move in moves:
        claims = by_placement.setdefault((move.x, move.y), set())
        if move.claim is not None:
            claims.add(move.claim)
    for x, y in sorted(by_placement)[:: max(1, len(by_placement) // 12)]:
        assert set(state.claims_after(x, y)) == by_placement[x, y]
    existing, completions = state.claim_options()
    for (x, y), claims in by_placement.items():
        outside = {rect for rect in existing if not rect.contains(x, y)}
        assert outside | set(completions.get((x, y), ())) == claims
    assert set(completions) <= set(by_placement)


@settings(max_examples=40, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_play_accepts_exactly_the_legal_moves(state: RekushuState, seed: int) -> None:
    """Random placements and rectangles, corners in any order, are accepted exactly when legal."""
    legal = notations(state)
    rng = random.Random(seed)
    n = state.size
    for _ in range(150):
        point = format_point(rng.randrange(n), rng.randrange(n))
        text = canonical = point
        if rng.random() < 0.7:
            (x1, x2), (y1, y2) = rng.sample(range(n), 2), rng.sample(range(n), 2)
            text = f"{point} {format_point(x1, y1)}-{format_point(x2, y2)}"
            low, high = (
                format_point(min(x1, x2), min(y1, y2)),
                format_point(max(x1, x2), max(y1, y2)),
            )
            canonical = f"{point} {low}-{high}"
        try:
            move = state.parse_move(text)
        except IllegalMoveError:
            assert canonical not in legal
        else:
            assert state.format_move(move) == canonical
            assert canonical in legal


@settings(max_examples=30, deadline=None)
@given(
    size=st.sampled_from([8, 12]),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
)
def test_random_games_keep_the_invariants(size: int, choices: list[int]) -> None:
    """Random games: no overlaps, tiles equal the claimed areas, mirrors and legality exact."""
    state = REKUSHU.new_game(size=size)
    areas = [0, 0]
    for choice in choices:
        moves = list(state.legal_moves())
        if not moves:
            break
        move = moves[choice % len(moves)]
        mover = state.to_move
        mirrors = state.mirror_cells()
        after = state.play(move)
        if move.claim is not None:
            areas[mover] += move.claim.area
            assert all(after.stone_at(*c) is None for c in move.claim.corners())
        else:
            assert after.stone_at(move.x, move.y) == mover
        kind = next((k for k, cell in mirrors.items() if cell == (move.x, move.y)), None)
        assert after.last_mirror_type(mover) == kind
        assert after.last_mirror_type(1 - mover) == state.last_mirror_type(1 - mover)
        state = after
    assert not state.black & state.white
    assert not state.black_tiles & state.white_tiles
    assert state.tile_counts == (areas[0], areas[1])
    assert notations(state) == (oracle_moves(state) if state.outcome() is None else set())
    assert REKUSHU.decode(state.encode()) == state
