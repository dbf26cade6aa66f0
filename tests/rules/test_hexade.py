"""Hexade: coordinates, captures, sixes, the perfect-six rule, draws and properties."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

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
from rules.hexade import HEXADE, HexadeMove, HexadeState, format_cell, parse_cell
from rules.hexcoords import board_cells, cell_count, distance, on_board

SURVIVED = "a six survived the opponent's reply"
FAR_BLACK = ("a10", "b10", "c10")
"""Black stones out of the way, so that positions look like real games."""
FAR_WHITE = ("s19", "r19", "q19")


def cell(name: str) -> tuple[int, int]:
    """(q, r) of a cell on the default board."""
    return parse_cell(name, 10)


def names(cells: Iterable[tuple[int, ...]]) -> set[str]:
    """The names of (q, r) or (q, r, seat) tuples."""
    return {format_cell(item[0], item[1]) for item in cells}


def pos(
    white: list[str] | tuple[str, ...],
    black: list[str] | tuple[str, ...],
    to_move: int = 0,
    size: int = 10,
) -> HexadeState:
    """A mid-game position (ply 20, so White's second-stone rule is long past)."""
    return HEXADE.position(white, black, to_move=to_move, ply=20, size=size)


def play_all(state: HexadeState, *moves: str) -> HexadeState:
    """Play the moves in notation, in order."""
    for text in moves:
        state = state.play_text(text)
    return state


# --- coordinates ---


@pytest.mark.parametrize("size", range(5, 13))
def test_board_has_the_hex_hex_cell_count(size: int) -> None:
    """A board with n cells a side has 3n(n−1)+1 cells, all with |q − r| ≤ n − 1."""
    state = HEXADE.new_game(size=size)
    cells = state.cells()
    assert len(cells) == len(set(cells)) == 3 * size * (size - 1) + 1 == cell_count(size)
    span = range(2 * size - 1)
    assert set(cells) == {(q, r) for q in span for r in span if abs(q - r) <= size - 1}


def test_default_board_corners_and_centre() -> None:
    """On the default board a1 and s19 are opposite corners and j10 is the centre."""
    assert len(HEXADE.new_game().cells()) == 271
    corners = ["a1", "j1", "s10", "s19", "j19", "a10"]
    for name in corners:
        q, r = cell(name)
        neighbours = [(q + dq, r + dr) for dq, dr in itertools.product((-1, 0, 1), repeat=2)]
        on = [n for n in neighbours if n != (q, r) and distance((q, r), n) == 1]
        assert sum(on_board(*n, 10) for n in on) == 3, name
    assert distance(cell("a1"), cell("s19")) == 18
    assert cell("a1") == (0, 0) and cell("s19") == (18, 18)
    assert all(distance(cell("j10"), cell(name)) == 9 for name in corners)
    assert cell("j10") == (9, 9)


def test_cell_names_follow_the_spec() -> None:
    """f7 is column 5, row 6; column i exists; input is case- and space-insensitive."""
    assert cell("f7") == (5, 6)
    assert cell("i5") == (8, 4)
    assert cell(" F7 ") == (5, 6)
    assert cell("I5") == (8, 4)
    assert format_cell(5, 6) == "f7"
    assert HEXADE.new_game().format_cell(8, 4) == "i5"


@pytest.mark.parametrize("size", range(5, 13))
def test_every_cell_name_round_trips(size: int) -> None:
    """format_cell and parse_cell are inverse on every cell of every size."""
    for q, r in board_cells(size):
        assert parse_cell(format_cell(q, r).upper(), size) == (q, r)


def test_distance_one_is_the_six_neighbours() -> None:
    """The cells at distance 1 are (q±1, r), (q, r±1), (q+1, r+1) and (q−1, r−1)."""
    around = {(q, r) for q in range(-2, 3) for r in range(-2, 3) if distance((0, 0), (q, r)) == 1}
    assert around == {(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)}
    assert distance((0, 0), (1, -1)) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("t1", "t1 is off the board: the columns run from a to s"),
        ("a11", "a11 is off the board: column a runs from a1 to a10"),
        ("K1", "k1 is off the board: column k runs from k2 to k19"),
        ("a0", "a0 is off the board: column a runs from a1 to a10"),
        ("f", "'f' is not a cell"),
        ("7f", "'7f' is not a cell"),
        ("f7f", "'f7f' is not a cell"),
        ("f-7", "'f-7' is not a cell"),
        ("f100", "'f100' is not a cell"),
    ],
)
def test_bad_cell_names_say_why(text: str, message: str) -> None:
    """Text that is not a cell of the board is a notation error with a reason."""
    with pytest.raises(InvalidMoveError, match=message):
        HEXADE.new_game().parse_move(text)


def test_small_board_limits_its_columns() -> None:
    """On a size-5 board the columns run a–i and rows 1–9."""
    assert parse_cell("i9", 5) == (8, 8)
    with pytest.raises(InvalidMoveError, match="the columns run from a to i"):
        parse_cell("j5", 5)
    with pytest.raises(InvalidMoveError, match="column a runs from a1 to a5"):
        parse_cell("a6", 5)


# --- moves and errors ---


def test_new_game_offers_every_cell_to_white() -> None:
    """White starts on an empty board and may play anywhere."""
    state = HEXADE.new_game()
    assert state.to_move == 0 and state.ply == 0 and state.outcome() is None
    assert [(m.q, m.r) for m in state.legal_moves()] == list(state.cells())
    assert state.forbidden_cells() == frozenset()


def test_occupied_cell_is_refused() -> None:
    """A stone cannot go on an occupied cell."""
    state = play_all(HEXADE.new_game(), "j10")
    with pytest.raises(IllegalMoveError, match=r"^j10 is occupied$"):
        state.parse_move("J10")


def test_play_rejects_illegal_move_objects() -> None:
    """play() checks legality too: off-board cells and occupied cells."""
    state = play_all(HEXADE.new_game(size=5), "e5")
    for move in (HexadeMove(9, 0), HexadeMove(0, 5), HexadeMove(-1, 0)):
        with pytest.raises(IllegalMoveError, match="not on the board"):
            state.play(move)
    with pytest.raises(IllegalMoveError, match="e5 is occupied"):
        state.play(HexadeMove(4, 4))


def test_stones_alternate_and_record_the_last_move() -> None:
    """Each move places one stone of the mover's colour."""
    state = play_all(HEXADE.new_game(), "j10", "k10")
    assert state.stone_at(*cell("j10")) == 0
    assert state.stone_at(*cell("k10")) == 1
    assert state.stone_at(*cell("a1")) is None
    assert state.stone_at(30, 30) is None
    assert state.last_move == HexadeMove(10, 9)
    assert state.stones(0) == (cell("j10"),)
    assert state.to_move == 0 and state.ply == 2


# --- White's second stone ---


def test_whites_second_stone_keeps_its_distance() -> None:
    """The 18 cells at distance 1 and 2 from White's first stone are forbidden."""
    state = play_all(HEXADE.new_game(), "j10", "k10")
    expected = {c for c in state.cells() if 1 <= distance(c, cell("j10")) <= 2}
    assert len(expected) == 18
    assert state.forbidden_cells() == frozenset(expected)
    legal = {(m.q, m.r) for m in state.legal_moves()}
    assert legal == set(state.cells()) - expected - {cell("j10"), cell("k10")}
    with pytest.raises(
        IllegalMoveError,
        match="White's second stone must be at least 3 cells away from White's first stone "
        "on j10; l10 is only 2 away",
    ):
        state.parse_move("l10")
    with pytest.raises(IllegalMoveError, match="i9 is only 1 away"):
        state.play(HexadeMove(*cell("i9")))
    after = state.play_text("m10")
    assert after.forbidden_cells() == frozenset()


def test_black_and_whites_later_stones_are_unrestricted() -> None:
    """Black may play next to White's first stone; White may later too."""
    state = play_all(HEXADE.new_game(), "j10")
    assert state.forbidden_cells() == frozenset()
    state = play_all(state, "k10", "m10", "a1")
    assert state.ply == 4
    assert state.forbidden_cells() == frozenset()
    assert state.play_text("i9").stone_at(*cell("i9")) == 0
    hand_made = HEXADE.position(["j10"], ["a1", "a2"], to_move=1, ply=2)
    assert hand_made.forbidden_cells() == frozenset()
    assert hand_made.play_text("i9").stone_at(*cell("i9")) == 1


def test_second_stone_near_a_corner() -> None:
    """Next to the edge only the on-board cells within distance 2 are forbidden."""
    state = play_all(HEXADE.new_game(), "a1", "j10")
    assert names(state.forbidden_cells()) == {"b1", "a2", "b2", "c1", "c2", "c3", "b3", "a3"}
    assert state.play_text("d1").stone_at(*cell("d1")) == 0


# --- captures ---

DIRECTION_CASES = [
    ("k10", "l10", "m10"),
    ("i10", "h10", "g10"),
    ("j11", "j12", "j13"),
    ("j9", "j8", "j7"),
    ("k11", "l12", "m13"),
    ("i9", "h8", "g7"),
]
"""(near, far, closer) from j10 in each of the six directions."""


@pytest.mark.parametrize(("near", "far", "closer"), DIRECTION_CASES)
def test_placed_stone_captures_a_pair_in_each_direction(near: str, far: str, closer: str) -> None:
    """A stone that encloses exactly two enemy stones against its own removes them."""
    state = pos([closer, *FAR_WHITE], [near, far, *FAR_BLACK])
    after = state.play_text("j10")
    assert names(after.captured_last) == {near, far}
    assert {seat for _, _, seat in after.captured_last} == {1}
    assert after.stone_at(*cell(near)) is None and after.stone_at(*cell(far)) is None
    assert after.stone_at(*cell(closer)) == 0
    assert {near, far} <= set(after.legal_notations())


def test_two_pairs_in_different_directions_go_at_once() -> None:
    """Every direction is checked: one stone can capture several pairs."""
    state = pos(["m10", "j13", "g7", *FAR_WHITE], ["k10", "l10", "j11", "j12", "i10", *FAR_BLACK])
    after = state.play_text("j10")
    assert names(after.captured_last) == {"k10", "l10", "j11", "j12"}
    assert after.stone_at(*cell("i10")) == 1
    assert len(after.stones(1)) == 4


def test_captures_in_all_six_directions_at_once() -> None:
    """Twelve stones can go in one move."""
    white = [closer for _, _, closer in DIRECTION_CASES]
    black = [stone for near, far, _ in DIRECTION_CASES for stone in (near, far)]
    after = pos(white, black).play_text("j10")
    assert names(after.captured_last) == set(black)
    assert after.stones(1) == ()


def test_a_run_of_three_is_not_captured() -> None:
    """X O O O X captures nothing."""
    state = pos(["n10", *FAR_WHITE], ["k10", "l10", "m10", *FAR_BLACK])
    after = state.play_text("j10")
    assert after.captured_last == ()
    assert len(after.stones(1)) == 6


def test_a_single_stone_or_an_open_pair_is_not_captured() -> None:
    """Only a pair closed by the mover's stone goes."""
    state = pos(["l10", *FAR_WHITE], ["k10", "j11", "j12", *FAR_BLACK])
    after = state.play_text("j10")
    assert after.captured_last == ()
    assert after.stone_at(*cell("k10")) == 1


def test_pair_formed_inside_an_enclosure_is_safe() -> None:
    """Placing into X O _ X to make X O O X is safe, then and later."""
    state = pos(["e5", "h5", *FAR_WHITE], ["f5", *FAR_BLACK], to_move=1)
    state = state.play_text("g5")
    assert state.captured_last == ()
    assert state.stone_at(*cell("f5")) == state.stone_at(*cell("g5")) == 1
    state = state.play_text("a5")
    assert state.captured_last == ()
    assert state.stone_at(*cell("f5")) == state.stone_at(*cell("g5")) == 1


def test_only_the_placed_stone_captures() -> None:
    """An enclosure completed by someone else's move, or away from the new stone, is inert."""
    # The black pair f5-g5 sits between white e5 and h5; a white stone elsewhere takes nothing.
    state = pos(["e5", "h5", *FAR_WHITE], ["f5", "g5", *FAR_BLACK])
    after = state.play_text("e6")
    assert after.captured_last == ()
    assert after.stone_at(*cell("f5")) == 1


def test_capturing_an_enclosing_stone_reopens_the_pair() -> None:
    """White's pair inside a black enclosure is safe until an enclosing stone is removed."""
    state = pos(["f5", "g5", "h7", *FAR_WHITE], ["e5", "h5", "h6", *FAR_BLACK])
    state = state.play_text("h4")
    assert names(state.captured_last) == {"h5", "h6"}
    state = state.play_text("h5")
    assert names(state.captured_last) == {"f5", "g5"}
    assert {seat for _, _, seat in state.captured_last} == {0}
    assert state.stone_at(*cell("f5")) is None


def test_a_pair_against_the_edge_cannot_be_captured() -> None:
    """With no cell beyond the pair there is nothing to close it."""
    state = pos(list(FAR_WHITE), ["i1", "j1", *FAR_BLACK])
    assert state.play_text("h1").captured_last == ()


def test_captured_last_only_describes_the_last_move() -> None:
    """The next move without a capture clears captured_last."""
    state = pos(["m10", *FAR_WHITE], ["k10", "l10", *FAR_BLACK]).play_text("j10")
    assert state.captured_last
    assert state.play_text("a5").captured_last == ()


# --- sixes ---

SIXES = {
    "row (1,0)": ["d10", "e10", "f10", "g10", "h10", "i10"],
    "row (1,0) on the bottom edge": ["a1", "b1", "c1", "d1", "e1", "f1"],
    "row (1,0) on the top edge": ["n19", "o19", "p19", "q19", "r19", "s19"],
    "row (0,1)": ["j5", "j6", "j7", "j8", "j9", "j10"],
    "row (0,1) on the left edge": ["a5", "a6", "a7", "a8", "a9", "a10"],
    "row (1,1)": ["e5", "f6", "g7", "h8", "i9", "j10"],
    "row (1,1) on the lower-right edge": ["j1", "k2", "l3", "m4", "n5", "o6"],
    "triangle with a level base": ["h8", "i8", "j8", "i9", "j9", "j10"],
    "triangle with a level base in the corner a1": ["a1", "b1", "c1", "b2", "c2", "c3"],
    "triangle with a level base in the corner s19": ["q17", "r17", "s17", "r18", "s18", "s19"],
    "triangle with a level top": ["h8", "h9", "h10", "i9", "i10", "j10"],
    "triangle with a level top in the corner a1": ["a1", "a2", "a3", "b2", "b3", "c3"],
    "triangle with a level top on the top edge": ["j17", "j18", "j19", "k18", "k19", "l19"],
    "ring around j10": ["k10", "i10", "j11", "j9", "k11", "i9"],
    "ring around b2, in the corner": ["a1", "b1", "a2", "c2", "b3", "c3"],
    "ring around r18, in the corner": ["q17", "r17", "q18", "s18", "r19", "s19"],
}


@pytest.mark.parametrize("shape", SIXES)
def test_each_six_shape_wins_once_it_has_survived(shape: str) -> None:
    """Every shape, orientation and edge case is a six; it has won when its owner moves."""
    six = SIXES[shape]
    black = ["f15", "g15", "h15"]
    survived = pos(six, black, to_move=0)
    assert survived.sixes() == ((0, survived.sixes()[0][1]),)
    assert names(survived.sixes()[0][1]) == set(six)
    assert survived.outcome() == Outcome(0, SURVIVED)
    assert list(survived.legal_moves()) == []
    fresh = pos(six, black, to_move=1)
    assert fresh.outcome() is None
    assert names(fresh.sixes()[0][1]) == set(six)


@pytest.mark.parametrize("shape", ["row (0,1)", "triangle with a level top", "ring around j10"])
def test_black_sixes_count_the_same(shape: str) -> None:
    """Black's sixes are found like White's."""
    state = pos(["f15", "g15", "h15"], SIXES[shape], to_move=1)
    assert state.outcome() == Outcome(1, SURVIVED)
    assert [seat for seat, _ in state.sixes()] == [1]


def test_ring_centre_may_hold_anything() -> None:
    """A ring is a six whoever occupies its centre."""
    ring = SIXES["ring around j10"]
    assert pos(ring, ["j10"], to_move=0).outcome() == Outcome(0, SURVIVED)
    assert pos([*ring, "j10"], [], to_move=0).outcome() == Outcome(0, SURVIVED)


def test_row_cells_come_in_line_order_and_a_seven_holds_two_sixes() -> None:
    """A row's six is reported along the line; a row of seven yields both of its sixes."""
    seven = ["d10", "e10", "f10", "g10", "h10", "i10", "j10"]
    state = pos(seven, [], to_move=1)
    rows = [cells for _, cells in state.sixes()]
    assert [[format_cell(*c) for c in cells] for cells in rows] == [seven[:6], seven[1:]]


@pytest.mark.parametrize(
    "stones",
    [
        ["d10", "e10", "f10", "g10", "h10"],
        ["d10", "e10", "f10", "g10", "h10", "j10"],
        ["d10", "e10", "f10", "g10", "h10", "i11"],
        ["e5", "f5", "g5", "e6", "f6", "g6"],
        ["h8", "i8", "j8", "h9", "i9", "h10"],
        ["k10", "i10", "j11", "j9", "k11", "j10"],
        ["h8", "i8", "j8", "i9", "j9", "k10"],
    ],
    ids=["five", "gap", "bent row", "parallelogram", "square-grid triangle", "ring gap", "sprawl"],
)
def test_shapes_that_are_not_sixes(stones: list[str]) -> None:
    """Near misses are not sixes."""
    state = pos(stones, [], to_move=0)
    assert state.sixes() == ()
    assert not state.has_six(0)
    assert state.outcome() is None


def test_a_new_six_does_not_win_until_it_survives() -> None:
    """The six wins after the opponent's reply fails to break it."""
    state = pos(["d10", "e10", "f10", "g10", "h10", *FAR_WHITE], ["a5", "b5", "c5", "d5", "e5"])
    state = state.play_text("i10")
    assert state.outcome() is None
    assert state.has_six(0)
    assert state.to_move == 1
    state = state.play_text("f5")
    assert state.outcome() == Outcome(0, SURVIVED)
    assert list(state.legal_moves()) == []
    with pytest.raises(IllegalMoveError, match=r"^the game is over$"):
        state.parse_move("a1")
    with pytest.raises(IllegalMoveError, match=r"^the game is over$"):
        state.play(HexadeMove(0, 0))


def test_a_six_broken_by_capture_does_not_win() -> None:
    """Black's reply captures a pair out of White's new six: play goes on."""
    row = ["d10", "e10", "f10", "g10", "h10"]
    state = pos([*row, "g11", *FAR_WHITE], ["g12", *FAR_BLACK])
    state = state.play_text("i10")
    assert state.has_six(0)
    state = state.play_text("g9")
    assert names(state.captured_last) == {"g10", "g11"}
    assert state.sixes() == ()
    assert state.outcome() is None
    state = state.play_text("g10")
    assert state.outcome() is None
    assert state.play_text("a1").outcome() == Outcome(0, SURVIVED)


def test_when_both_hold_sixes_the_survivor_wins() -> None:
    """Black answers White's six with a six of its own: White's six has survived."""
    state = pos(["d10", "e10", "f10", "g10", "h10", *FAR_WHITE], ["a5", "b5", "c5", "d5", "e5"])
    state = play_all(state, "i10", "f5")
    assert {seat for seat, _ in state.sixes()} == {0, 1}
    assert state.outcome() == Outcome(0, SURVIVED)


def test_breaking_a_six_while_making_one_passes_the_burden() -> None:
    """Black captures out of White's six and makes its own: White must now break it."""
    row = ["d10", "e10", "f10", "g10", "h10"]
    black = ["g12", "b9", "c9", "d9", "e9", "f9"]
    state = pos([*row, "g11", *FAR_WHITE], black).play_text("i10")
    state = state.play_text("g9")
    assert names(state.captured_last) == {"g10", "g11"}
    assert [seat for seat, _ in state.sixes()] == [1]
    assert state.outcome() is None
    assert state.play_text("a1").outcome() == Outcome(1, SURVIVED)


def test_the_reply_can_break_a_six_by_capturing_from_it() -> None:
    """Black's new six loses a pair to White's reply: play goes on; left alone, it wins."""
    black = ["d9", "e9", "f9", "g9", "h9", "i9", "e8"]
    state = pos(["e7", "a1", "a2"], black, to_move=0)
    assert state.has_six(1) and state.outcome() is None
    broken = state.play_text("e10")
    assert names(broken.captured_last) == {"e9", "e8"}
    assert not broken.has_six(1)
    assert broken.outcome() is None
    assert state.play_text("s19").outcome() == Outcome(1, SURVIVED)


# --- draws ---


def test_a_full_board_is_a_draw() -> None:
    """Filling the last cell without a six or a capture draws."""
    cells = board_cells(5)
    white = [format_cell(*c) for c in cells if (c[0] + c[1]) % 6 < 3 and c != (0, 0)]
    black = [format_cell(*c) for c in cells if (c[0] + c[1]) % 6 >= 3]
    state = HEXADE.position(white, black, to_move=0, ply=60, size=5)
    assert state.outcome() is None
    assert state.legal_notations() == ["a1"]
    full = state.play_text("a1")
    assert full.captured_last == ()
    assert full.outcome() == Outcome(None, "the board is full")
    assert list(full.legal_moves()) == []


def test_the_move_cap_draws() -> None:
    """After 4 × cells moves without a winner the game is drawn."""
    assert HEXADE.max_plies(HEXADE.validate_options({})) == 1084
    assert HEXADE.max_plies(HEXADE.validate_options({"size": 5})) == 244
    state = HEXADE.position(["a1"], ["s19"], ply=1083, to_move=1)
    assert state.outcome() is None
    assert state.play_text("j10").outcome() == Outcome(None, "no winner after 1084 moves")


# --- options, encoding, registry ---


def test_size_option_is_validated() -> None:
    """Sizes 5–12 are allowed, as integers or digit strings."""
    assert HEXADE.new_game(size="7").size == 7
    assert dict(HEXADE.new_game().options) == {"size": 10}
    for bad in (4, 13, "big", True):
        with pytest.raises(InvalidOptionError, match="size must be an integer from 5 to 12"):
            HEXADE.new_game(size=bad)


def test_encode_restores_everything() -> None:
    """decode(encode()) keeps stones, turn, ply, last move, captures and outcome."""
    state = pos(["m10", *FAR_WHITE], ["k10", "l10", *FAR_BLACK]).play_text("j10")
    restored = HEXADE.decode(state.encode())
    assert restored == state and hash(restored) == hash(state)
    assert restored.captured_last == state.captured_last
    assert restored.last_move == HexadeMove(9, 9)
    second = play_all(HEXADE.new_game(size=6), "f6", "a1")
    assert HEXADE.decode(second.encode()).forbidden_cells() == second.forbidden_cells() != set()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1;10;0;0",
        "2;10;0;0;" + "." * 271 + ";-;-",
        "1;4;0;0;" + "." * 37 + ";-;-",
        "1;10;0;2;" + "." * 271 + ";-;-",
        "1;10;-1;0;" + "." * 271 + ";-;-",
        "1;10;0;0;" + "." * 270 + ";-;-",
        "1;10;0;0;" + "x" * 271 + ";-;-",
        "1;10;0;0;" + "." * 271 + ";z9;-",
        "1;10;0;0;w" + "." * 270 + ";-;a1",
    ],
)
def test_decode_rejects_garbage(text: str) -> None:
    """Anything but an encoded state raises DecodeError."""
    with pytest.raises(DecodeError):
        HEXADE.decode(text)


def test_registry_finds_hexade() -> None:
    """Hexade is registered under its name and alias."""
    assert get_game("Hexade") is HEXADE
    assert get_game("perfect six") is HEXADE


def test_diagram_draws_the_labels_where_they_belong() -> None:
    """Rows lie level, numbered at the left; column letters sit below each column."""
    state = HEXADE.position(["a1", "e9"], ["c3", "i5"], size=5, ply=10, to_move=0)
    assert state.diagram() == "\n".join(
        [
            "    9 W . . . .",
            "   8 . . . . . .",
            "  7 . . . . . . .",
            " 6 . . . . . . . .",
            "5 . . . . . . . . B",
            " 4 . . . . . . . . i",
            "  3 . . B . . . . h",
            "   2 . . . . . . g",
            "    1 W . . . . f",
            "       a b c d e",
        ]
    )


# --- properties, against independent oracles ---


ORACLE_DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))
"""The six neighbour steps in turning order: consecutive ones are 60° apart."""


def oracle_sixes(stones: set[tuple[int, int]], size: int) -> set[frozenset[tuple[int, int]]]:
    """Every six among `stones` (cells of a `size` board), found geometrically cell by cell."""
    found: set[frozenset[tuple[int, int]]] = set()
    for q, r in board_cells(size):
        candidates = [[(q + dq, r + dr) for dq, dr in ORACLE_DIRECTIONS]]
        if (q, r) in stones:
            candidates += [
                [(q + k * dq, r + k * dr) for k in range(6)] for dq, dr in ORACLE_DIRECTIONS
            ]
            # A compact triangle with a corner at (q, r): the cells i·d1 + j·d2 (i + j ≤ 2)
            # for two neighbour steps d1, d2 that are 60° apart.
            turns = itertools.pairwise((*ORACLE_DIRECTIONS, ORACLE_DIRECTIONS[0]))
            candidates += [
                [(q + i * aq + j * bq, r + i * ar + j * br) for i in range(3) for j in range(3 - i)]
                for (aq, ar), (bq, br) in turns
            ]
        found.update(frozenset(cand) for cand in candidates if stones.issuperset(cand))
    return found


def six_sets(state: HexadeState, seat: int) -> set[frozenset[tuple[int, int]]]:
    """The sixes of `seat` that the state reports, as cell sets."""
    return {frozenset(cells) for s, cells in state.sixes() if s == seat}


@pytest.mark.parametrize("size", range(5, 13))
def test_sixes_on_a_full_board_match_the_oracle(size: int) -> None:
    """With every cell White's, the bit search finds exactly the geometric sixes (no wrap)."""
    every = [format_cell(*c) for c in board_cells(size)]
    state = HEXADE.position(every, [], to_move=1, size=size)
    found = six_sets(state, 0)
    assert len(found) == len(state.sixes())
    assert found == oracle_sixes(set(board_cells(size)), size)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(5, 8), seed=st.integers(0, 2**32), density=st.floats(0.3, 0.9))
def test_sixes_match_the_oracle_on_random_boards(size: int, seed: int, density: float) -> None:
    """On random boards sixes() finds exactly the oracle's sixes for both colours."""
    rng = random.Random(seed)
    white: list[str] = []
    black: list[str] = []
    for c in board_cells(size):
        if rng.random() < density:
            (white if rng.random() < 0.5 else black).append(format_cell(*c))
    state = HEXADE.position(white, black, to_move=1, ply=20, size=size)
    for seat, stones in ((0, white), (1, black)):
        expected = oracle_sixes({parse_cell(n, size) for n in stones}, size)
        assert six_sets(state, seat) == expected
        assert state.has_six(seat) == bool(expected)


def oracle_captures(state: HexadeState, q: int, r: int) -> set[tuple[int, int]]:
    """The stones a stone of the player to move on (q, r) captures, walked cell by cell."""
    me, them = state.to_move, 1 - state.to_move
    taken = set()
    for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
        line = [(q + k * dq, r + k * dr) for k in (1, 2, 3)]
        owners = [state.stone_at(*c) if on_board(*c, state.size) else None for c in line]
        if owners == [them, them, me]:
            taken.update(line[:2])
    return taken


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from([5, 6, 7, 10]), seed=st.integers(0, 2**32), plies=st.integers(0, 160))
def test_random_games_against_the_oracles(size: int, seed: int, plies: int) -> None:
    """Legal moves, captures and the outcome agree with direct computations every move."""
    rng = random.Random(seed)
    state = HEXADE.new_game(size=size)
    for _ in range(plies):
        if state.outcome() is not None:
            assert list(state.legal_moves()) == []
            break
        empty = {c for c in state.cells() if state.stone_at(*c) is None}
        forbidden = set()
        if state.ply == 2:
            forbidden = {c for c in empty if distance(c, state.stones(0)[0]) <= 2}
        legal = {(m.q, m.r) for m in state.legal_moves()}
        assert legal == empty - forbidden
        q, r = rng.choice(sorted(legal))
        expected = oracle_captures(state, q, r)
        mover = state.to_move
        after = state.play(HexadeMove(q, r))
        assert {(cq, cr) for cq, cr, _ in after.captured_last} == expected
        assert all(seat == 1 - mover for _, _, seat in after.captured_last)
        assert len(after.stones(mover)) == len(state.stones(mover)) + 1
        assert len(after.stones(1 - mover)) == len(state.stones(1 - mover)) - len(expected)
        survivor = oracle_sixes(set(after.stones(after.to_move)), size)
        if survivor:
            assert after.outcome() == Outcome(after.to_move, SURVIVED)
        else:
            outcome = after.outcome()
            assert outcome is None or outcome.winner is None
        assert HEXADE.decode(after.encode()) == after
        state = after
