"""Stones: positional tests with exact captures, prisoners, stakes and outcomes."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import (
    DecodeError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    Outcome,
    get_game,
)
from rules.squares import format_point, parse_point
from rules.stones import (
    MAX_SIZE,
    MIN_SIZE,
    RETURN,
    STONES,
    MoveKind,
    StonesMove,
    StonesState,
    default_threshold,
    goal_text,
    lead_text,
    place,
    stake,
)


def setup(diagram: str, **kwargs: object) -> StonesState:
    """A position from a diagram drawn top row first: B, W or `.` per point."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    size = len(rows)
    black, white = [], []
    for index, cells in enumerate(rows):
        row = size - 1 - index
        for col, cell in enumerate(cells):
            if cell == "B":
                black.append(format_point(col, row))
            elif cell == "W":
                white.append(format_point(col, row))
    return STONES.position(black, white, size=size, **kwargs)  # type: ignore[arg-type]


def play_all(state: StonesState, *moves: str) -> StonesState:
    for text in moves:
        state = state.play_text(text)
    return state


def notations(state: StonesState) -> set[str]:
    return {state.format_move(move) for move in state.legal_moves()}


def at(state: StonesState, name: str) -> int | None:
    return state.stone_at(*parse_point(name, state.size, state.size))


def names(points: tuple[tuple[int, int], ...]) -> list[str]:
    return [format_point(col, row) for col, row in points]


# --- options, compensation and thresholds ---


def test_new_game_defaults_and_the_worked_compensation_check() -> None:
    """9×9 with compensation 6: White holds 6 prisoners, leads are ±6, thresholds 1 and 13."""
    state = STONES.new_game()
    assert dict(state.options) == {"size": 9, "threshold": 7, "compensation": 6}
    assert state.size == 9
    assert state.prisoners == (0, 6)
    assert (state.lead(0), state.lead(1)) == (-6, 6)
    assert (state.threshold(0), state.threshold(1)) == (1, 13)
    assert state.stakes(0) == state.stakes(1) == ()
    assert state.captured_last == state.stakes_captured_last == ()
    assert state.last_point is None
    assert len(notations(state)) == 81
    assert "return" not in notations(state)


@pytest.mark.parametrize(
    ("size", "threshold"),
    [(5, 2), (7, 4), (9, 7), (11, 10), (13, 15), (15, 19), (17, 25), (19, 31), (6, 3), (8, 6)],
)
def test_default_threshold_follows_the_size(size: int, threshold: int) -> None:
    """A missing threshold is round(7·N²/81), and the resolved value is in the options."""
    assert default_threshold(size) == threshold
    state = STONES.new_game(size=size)
    assert state.options["threshold"] == threshold
    assert state.threshold(0) == threshold - 6
    assert state.threshold(1) == threshold + 6


def test_threshold_and_compensation_can_be_overridden() -> None:
    """An explicit threshold wins over the size default; compensation 0 is the basic game."""
    state = STONES.new_game(size=19, threshold="10", compensation=0)
    assert dict(state.options) == {"size": 19, "threshold": 10, "compensation": 0}
    assert state.prisoners == (0, 0)
    assert (state.threshold(0), state.threshold(1)) == (10, 10)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"size": 4}, "size must be an integer from 5 to 19"),
        ({"size": 20}, "size must be an integer from 5 to 19"),
        ({"threshold": 0}, "threshold must be an integer from 1 to size × size \\(at most 361\\)"),
        (
            {"compensation": -1},
            "compensation must be an integer from 0 to size × size \\(at most 361\\)",
        ),
        ({"komi": 6}, "Stones has no option 'komi'"),
    ],
)
def test_bad_options_say_why(options: dict[str, object], message: str) -> None:
    """Out-of-range or unknown options are refused with a specific message."""
    with pytest.raises(InvalidOptionError, match=message):
        STONES.new_game(**options)


# --- captures and self-capture ---


def test_a_single_capture_is_not_decisive_even_with_the_lead() -> None:
    """Black takes one stone with a lead above the threshold: a prisoner, but play goes on."""
    state = setup(
        """
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        W B . . .
        """,
        prisoners=(7, 6),
    )
    after = state.play_text("a2")
    assert at(after, "a1") is None
    assert after.captured_last == ((0, 0, 1),)
    assert after.prisoners == (8, 6)
    assert after.lead(0) == 2 >= after.threshold(0)
    assert after.outcome() is None


def test_one_placement_captures_two_groups() -> None:
    """b1 takes the lone white stones on a1 and c1 at once."""
    state = setup(
        """
        . . . . .
        . . . . .
        . . . . .
        B . B . .
        W . W B .
        """,
        threshold=7,
    )
    after = state.play_text("b1")
    assert after.captured_last == ((0, 0, 1), (2, 0, 1))
    assert at(after, "a1") is None and at(after, "c1") is None and at(after, "b1") == 0
    assert after.prisoners == (2, 6)
    assert after.outcome() is None  # a lead of -4 is below Black's threshold of 1
    assert after.liberties(1, 0) == 3  # b1 now has a1, c1 and b2


def test_two_single_stones_from_two_groups_make_a_decisive_move() -> None:
    """The ≥ 2 counts every stone the placement captures, whichever groups they were in."""
    state = setup(
        """
        . . . . .
        . . . . .
        . . . . .
        B . B . .
        W . W B .
        """,
        threshold=7,
        prisoners=(5, 6),
    )
    after = state.play_text("b1")
    assert after.captured_last == ((0, 0, 1), (2, 0, 1))
    assert after.prisoners == (7, 6)
    assert after.outcome() == Outcome(
        0, "decisive capture of 2 stones while 1 ahead; Black needed to be 1 or more ahead"
    )


def test_the_mover_captures_first() -> None:
    """a1 has no liberty of its own, but it captures b1 first and so survives."""
    state = setup(
        """
        . . . . .
        . . . . .
        . . . . .
        W B . . .
        . W B . .
        """
    )
    after = state.play_text("a1")
    assert at(after, "a1") == 0
    assert at(after, "b1") is None
    assert after.captured_last == ((1, 0, 1),)
    assert after.liberties(0, 0) == 1


def test_single_stone_suicide_is_illegal() -> None:
    """A stone that would die alone without capturing repeats the position."""
    state = setup(
        """
        . . . . .
        . . . . .
        . . . . .
        W . . . .
        . W . . .
        """
    )
    assert "a1" not in notations(state)
    with pytest.raises(IllegalMoveError, match="a stone on a1 would be captured at once"):
        state.parse_move("a1")
    with pytest.raises(IllegalMoveError, match="a1"):
        state.play(place(0))


def test_multi_stone_self_capture_is_legal_and_feeds_the_opponent() -> None:
    """a3 kills Black's own three stones: they become White's prisoners, no one wins."""
    state = setup(
        """
        . . . . .
        W . . . .
        . W . . .
        B W . . .
        B W . . .
        """,
        prisoners=(0, 11),
    )
    assert "a3" in notations(state)
    after = state.play_text("a3")
    assert after.captured_last == ((0, 0, 0), (0, 1, 0), (0, 2, 0))
    assert after.stones(0) == ()
    assert after.prisoners == (0, 14)
    assert after.lead(1) == 14 >= after.threshold(1)
    assert after.outcome() is None  # a self-capture is never decisive


def test_self_capture_may_not_repeat_a_position() -> None:
    """A multi-stone self-capture that recreates an earlier position is illegal."""
    start = setup(
        """
        . . . . .
        W . . . .
        . W . . .
        . W . . .
        . W . . .
        """,
        to_move=0,
    )
    # Black builds a1-a2, then kills it on a3: the board is the start plus White's e5.
    state = play_all(start, "a1", "e5", "a2", "e4")
    assert "a3" in notations(state)  # e5 and e4 make the position new
    state = play_all(start, "a1", "return", "a2", "return")
    assert state.prisoners == (0, 4)
    assert "a3" not in notations(state)
    with pytest.raises(IllegalMoveError, match="a3 would repeat the starting position"):
        state.parse_move("a3")


# --- decisive moves ---


@pytest.mark.parametrize(
    ("prisoners", "winner"),
    [((5, 6), 0), ((4, 6), None), ((30, 6), 0)],
)
def test_worked_check_two_stone_capture(prisoners: tuple[int, int], winner: int | None) -> None:
    """9×9: Black captures a 2-stone group; it wins once its lead reaches 1."""
    state = STONES.position(["a2", "b2"], ["a1", "b1", "j9"], prisoners=prisoners)
    after = state.play_text("c1")
    assert after.prisoners == (prisoners[0] + 2, 6)
    if winner is None:
        assert after.outcome() is None
        assert after.lead(0) == 0
    else:
        lead = after.lead(0)
        assert after.outcome() == Outcome(
            0,
            (
                f"decisive capture of 2 stones while {lead_text(lead)}; "
                "Black needed to be 1 or more ahead"
            ),
        )
        assert list(after.legal_moves()) == []
        with pytest.raises(IllegalMoveError, match="the game is over"):
            after.parse_move("e5")


@pytest.mark.parametrize(("white_prisoners", "wins"), [(11, True), (10, False)])
def test_white_needs_threshold_plus_compensation(white_prisoners: int, wins: bool) -> None:
    """White's threshold on 9×9 is 13."""
    state = STONES.position(
        ["a1", "b1", "j9"], ["a2", "b2"], to_move=1, prisoners=(0, white_prisoners)
    )
    after = state.play_text("c1")
    expected = Outcome(
        1, ("decisive capture of 2 stones while 13 ahead; White needed to be 13 or more ahead")
    )
    assert after.outcome() == (expected if wins else None)


@pytest.mark.parametrize(("black_prisoners", "wins"), [(5, True), (4, False)])
def test_without_compensation_both_need_the_threshold(black_prisoners: int, wins: bool) -> None:
    """compensation=0: Black needs the plain threshold 7."""
    state = STONES.position(
        ["a2", "b2"], ["a1", "b1", "j9"], compensation=0, prisoners=(black_prisoners, 0)
    )
    after = state.play_text("c1")
    assert after.threshold(0) == 7
    assert after.is_game_over() is wins
    if wins:
        assert after.outcome() == Outcome(
            0, "decisive capture of 2 stones while 7 ahead; Black needed to be 7 or more ahead"
        )


# --- ko and superko ---

KO = {
    "black": ["b1", "c2", "a9"],
    "white": ["c1", "d2", "e1", "j9"],
}
"""A ko on the bottom edge of 9×9: Black takes c1 by playing d1; White retakes on c1."""


def test_simple_ko_cannot_be_retaken_at_once() -> None:
    """White's immediate recapture would recreate the position before Black's capture."""
    state = play_all(STONES.position(KO["black"], KO["white"]), "a8", "j8", "d1")
    assert state.captured_last == ((2, 0, 1),)
    assert "c1" not in notations(state)
    with pytest.raises(IllegalMoveError, match=r"c1 would repeat the position after move 2 \("):
        state.parse_move("c1")
    # After an exchange elsewhere the position is new and the ko may be retaken.
    state = play_all(state, "j7", "a7")
    retaken = state.play_text("c1")
    assert retaken.captured_last == ((3, 0, 0),)
    assert "d1" not in notations(retaken)


def test_superko_catches_a_six_move_triple_ko_cycle() -> None:
    """Three kos taken in turn return to the start after six moves; the sixth is illegal."""
    state = STONES.position(
        ["b1", "c2", "f1", "g2", "h1", "b9", "c8"],
        ["d2", "e1", "c1", "h2", "j1", "d8", "e9", "c9"],
    )
    seen = {state.zhash}
    for text in ["d1", "g1", "d9", "c1", "h1"]:
        state = state.play_text(text)
        assert len(state.captured_last) == 1
        assert state.zhash not in seen
        seen.add(state.zhash)
    assert "c9" not in notations(state)
    with pytest.raises(IllegalMoveError, match="c9 would repeat the starting position"):
        state.parse_move("c9")


def test_branches_from_one_state_keep_their_own_history() -> None:
    """Playing two different moves from one state gives two independent histories."""
    start = STONES.position(KO["black"], KO["white"])
    taken = start.play_text("d1")
    elsewhere = start.play_text("e5")
    assert taken.zhash in taken.history
    assert taken.zhash not in elsewhere.history
    assert elsewhere.zhash not in taken.history
    assert len(start.history) == 1
    # The first line still works after the branch, and the ko rule still holds in it.
    assert "c1" not in notations(taken)
    assert "c1" in notations(taken.play_text("e5").play_text("e6"))
    assert notations(start.play_text("d1")) == notations(taken)


# --- prisoner return ---


def test_white_may_return_a_prisoner_from_the_start() -> None:
    """A return lowers the returner's count, changes no stone and keeps the history."""
    state = STONES.new_game().play_text("e5")
    assert "return" in notations(state)
    after = state.play_text(" Return ")
    assert after.last_move == RETURN
    assert after.prisoners == (0, 5)
    assert after.lead(1) == 5
    assert after.black == state.black and after.white == state.white
    assert after.zhash == state.zhash
    assert len(after.history) == len(state.history)
    assert after.to_move == 0 and after.ply == 2
    assert after.last_point is None


@pytest.mark.parametrize(
    ("prisoners", "to_move", "message"),
    [
        ((0, 6), 0, r"you hold 0, White holds 6"),
        ((6, 6), 1, r"you hold 6, Black holds 6"),
    ],
)
def test_return_needs_strictly_more_prisoners(
    prisoners: tuple[int, int], to_move: int, message: str
) -> None:
    """Returning is refused unless the player holds more prisoners than the opponent."""
    state = STONES.position(["e5"], ["e6"], to_move=to_move, prisoners=prisoners)
    assert "return" not in notations(state)
    with pytest.raises(IllegalMoveError, match=message):
        state.parse_move("return")


def test_a_return_does_not_clear_the_history() -> None:
    """After White returns, the ko recapture still repeats the position before the return."""
    state = STONES.position(KO["black"], KO["white"], to_move=1)
    state = play_all(state, "return", "d1")
    with pytest.raises(IllegalMoveError, match="c1 would repeat the starting position"):
        state.parse_move("c1")


# --- staking ---


def test_stake_needs_a_group() -> None:
    """With no stone on the board there is nothing to stake."""
    with pytest.raises(IllegalMoveError, match="you have no group on the board to stake"):
        STONES.new_game().parse_move("stake e5")


def test_stake_needs_every_group_at_two_liberties_or_fewer() -> None:
    """One roomy group forbids staking anywhere."""
    state = STONES.position(["a1", "c3"], ["b1"], size=5)
    assert not any(text.startswith("stake") for text in notations(state))
    with pytest.raises(
        IllegalMoveError,
        match="each of your groups has at most 2 liberties, and your group at c3 has 4",
    ):
        state.parse_move("stake a2")


def test_stake_points_are_the_liberties_of_the_players_groups() -> None:
    """The legal stakes are exactly the unstaked liberties; others are refused with reasons."""
    state = STONES.position(["a1", "e5"], ["b1"], size=5)
    stakes = {text for text in notations(state) if text.startswith("stake")}
    assert stakes == {"stake a2", "stake d5", "stake e4"}
    with pytest.raises(IllegalMoveError, match="c3 is not a liberty of any of your groups"):
        state.parse_move("stake c3")
    with pytest.raises(IllegalMoveError, match="b1 is not a liberty of any of your groups"):
        state.parse_move("stake b1")
    staked = state.play_text("STAKE  A2")
    assert staked.last_move == stake(5)
    assert staked.last_point == (0, 1)
    after = staked.play_text("c3")
    assert names(after.stakes(0)) == ["a2"]
    assert {text for text in notations(after) if text.startswith("stake")} == {
        "stake d5",
        "stake e4",
    }
    with pytest.raises(IllegalMoveError, match="you already have a stake on a2"):
        after.parse_move("stake a2")


def test_a_staked_group_loses_its_stake_and_stakes_count_for_decisive() -> None:
    """Capturing a1 takes its stake too: two prisoners, enough for a decisive move."""
    state = STONES.position(["a1"], ["b1", "j9"], prisoners=(0, 11)).play_text("stake a2")
    assert state.zhash not in STONES.position(["a1"], ["b1", "j9"]).history
    after = state.play_text("a2")
    assert after.captured_last == ((0, 0, 0),)
    assert after.stakes_captured_last == ((0, 1, 0),)
    assert after.stakes(0) == ()
    assert after.prisoners == (0, 13)
    assert after.outcome() == Outcome(
        1,
        (
            "decisive capture of 1 stone and 1 stake while 13 ahead; "
            "White needed to be 13 or more ahead"
        ),
    )


def test_a_stake_follows_a_merge_and_survives_its_point_being_filled() -> None:
    """The stake on a2 joins the merged a1-c1 group, stays when White fills a2, dies with it."""
    state = STONES.position(["a1", "c1", "e5"], ["c2"], size=5, threshold=10)
    state = play_all(state, "stake a2", "d1", "b1", "a2")
    assert names(state.stakes(0)) == ["a2"]
    assert at(state, "a2") == 1
    after = play_all(state, "e4", "b2")
    assert after.captured_last == ((0, 0, 0), (1, 0, 0), (2, 0, 0))
    assert after.stakes_captured_last == ((0, 1, 0),)
    assert after.prisoners == (0, 10)
    assert after.outcome() is None


def test_a_stake_on_a_shared_liberty_goes_with_the_first_group_captured() -> None:
    """a1 touches a2 and b1: the stake there is lost with b1, not again with a2."""
    state = STONES.position(["a2", "b1", "e5"], ["b2"], size=5, threshold=10)
    state = play_all(state, "stake a1", "c1", "e4", "a1")
    assert state.captured_last == ((1, 0, 0),)
    assert state.stakes_captured_last == ((0, 0, 0),)
    assert state.prisoners == (0, 8)
    state = play_all(state, "d5", "a3")
    assert state.captured_last == ((0, 1, 0),)
    assert state.stakes_captured_last == ()
    assert state.prisoners == (0, 9)


def test_a_group_that_later_touches_the_point_does_not_own_the_stake() -> None:
    """The stake belongs to the groups it was placed for, not to newcomers at its point."""
    state = STONES.position(["a1", "e5"], ["c1"], size=5, threshold=10)
    state = play_all(state, "stake a2", "b3", "a3", "a4", "e4", "a2")
    assert state.captured_last == ((0, 2, 0),)  # a3 dies alone; a1 and its stake stay
    assert names(state.stakes(0)) == ["a2"]
    assert state.prisoners == (0, 7)


def test_self_capture_gives_the_stake_to_the_opponent() -> None:
    """Black stakes a3, then kills its own a1-a3 group there: 3 stones and the stake."""
    state = STONES.position(["a1", "a2"], ["b1", "b2", "b3", "a4"], size=5)
    state = play_all(state, "stake a3", "e5", "a3")
    assert state.lead(1) >= state.threshold(1)
    assert state.captured_last == ((0, 0, 0), (0, 1, 0), (0, 2, 0))
    assert state.stakes_captured_last == ((0, 2, 0),)
    assert state.prisoners == (0, 10)
    assert state.outcome() is None


def test_both_players_may_stake_the_same_point() -> None:
    """b4 is a liberty of Black's b5 and of White's a4-a5: one stake each may stand there.

    Black then fills b4 itself, capturing a4-a5 and White's stake; Black's own stake on b4
    stays with b5. Two stones and a stake make the capture decisive (3 behind; Black may be
    4 behind).
    """
    state = STONES.position(["b5"], ["a5", "a4"], size=5)
    state = play_all(state, "stake b4", "stake b4")
    assert names(state.stakes(0)) == names(state.stakes(1)) == ["b4"]
    state = state.play_text("a3")
    with pytest.raises(IllegalMoveError, match="you already have a stake on b4"):
        state.parse_move("stake b4")
    state = state.play_text("c5")
    assert {text for text in notations(state) if text.startswith("stake")} == {
        "stake a2",
        "stake b3",
    }
    after = state.play_text("b4")
    assert after.captured_last == ((0, 3, 1), (0, 4, 1))
    assert after.stakes_captured_last == ((1, 3, 1),)
    assert names(after.stakes(0)) == ["b4"] and after.stakes(1) == ()
    assert after.prisoners == (3, 6)
    assert after.outcome() == Outcome(
        0,
        (
            "decisive capture of 2 stones and 1 stake while 3 behind; "
            "Black needed to be at most 4 behind"
        ),
    )


def test_stakes_are_part_of_the_position() -> None:
    """After stakes on both sides the ko may be retaken; the history still forbids a repeat."""
    state = STONES.position(["b1", "c2"], ["c1", "d2", "e1"], size=5, prisoners=(10, 6))
    state = play_all(state, "d1", "stake e2", "return")
    assert names(state.stakes(1)) == ["e2"]
    retaken = state.play_text("c1")  # the stake on e2 makes the position new
    assert retaken.captured_last == ((3, 0, 0),)
    with pytest.raises(IllegalMoveError, match="d1 would repeat the position after move 2"):
        retaken.parse_move("d1")


# --- no legal move ---

EYES = ("a1", "c3", "e5", "e1")


def eyes_position(**kwargs: object) -> StonesState:
    """5×5 filled with White except four single-point eyes; White to move."""
    filled = [
        format_point(col, row)
        for col in range(5)
        for row in range(5)
        if format_point(col, row) not in EYES
    ]
    return STONES.position([], filled, size=5, to_move=1, **kwargs)  # type: ignore[arg-type]


def test_a_player_without_a_legal_move_loses() -> None:
    """Black may only commit suicide on White's eyes, cannot return and cannot stake."""
    state = eyes_position()
    assert state.outcome() is None
    after = state.play_text("e1")
    assert notations(after) == set()
    assert after.outcome() == Outcome(1, "Black has no legal move")


def test_a_return_is_a_legal_move() -> None:
    """The same position is no loss when Black holds more prisoners: it may return."""
    after = eyes_position(prisoners=(7, 6)).play_text("e1")
    assert notations(after) == {"return"}
    assert after.outcome() is None
    assert after.play_text("return").prisoners == (6, 6)


def test_a_position_without_a_legal_move_is_over_from_the_start() -> None:
    """A hand-made position whose player to move is stuck is already decided."""
    filled = [*eyes_position().stones(1), (4, 0)]
    state = STONES.position([], [format_point(*p) for p in filled], size=5)
    assert state.outcome() == Outcome(1, "Black has no legal move")
    assert list(state.legal_moves()) == []
    restored = STONES.decode(eyes_position().play_text("e1").encode())
    assert restored.outcome() == Outcome(1, "Black has no legal move")


# --- notation and move objects ---


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pass", "there is no pass in Stones"),
        ("stake", "name the liberty to stake at, like stake e5"),
        ("stake e", r"'e' is not a Stones move"),
        ("stakee5", r"'stakee5' is not a Stones move"),
        ("i5", "there is no column i"),
        ("k5", "k5 is off the board"),
        ("e10", "e10 is off the board"),
        ("return e5", r"'return e5' is not a Stones move"),
        ("e5 e6", r"'e5 e6' is not a Stones move"),
    ],
)
def test_bad_notation_says_why(text: str, message: str) -> None:
    """Text that is not Stones notation is a syntax error with a specific message."""
    with pytest.raises(InvalidMoveError, match=message):
        STONES.new_game().parse_move(text)


def test_notation_round_trips_and_ignores_case_and_spaces() -> None:
    """Moves print in lower case and parse back from any case and spacing."""
    state = STONES.position(["a1"], ["b1"], size=5, to_move=1, prisoners=(0, 6))
    assert state.parse_move("  A2 ") == place(5)
    assert state.format_move(place(5)) == "a2"
    assert state.format_move(RETURN) == "return"
    black = STONES.position(["a1"], ["b1"], size=5)
    assert black.parse_move("Stake   A2") == stake(5)
    assert black.format_move(stake(5)) == "stake a2"


def test_occupied_point_is_refused() -> None:
    """A placement on a stone names the point."""
    state = STONES.new_game().play_text("e5")
    with pytest.raises(IllegalMoveError, match="e5 is occupied"):
        state.parse_move("e5")


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (StonesMove(MoveKind.PLACE, 81), "that point is not on the board"),
        (StonesMove(MoveKind.PLACE, None), "that point is not on the board"),
        (StonesMove(MoveKind.STAKE, -1), "that point is not on the board"),
        (StonesMove(MoveKind.RETURN, 3), "a prisoner return names no point"),
    ],
)
def test_play_rejects_malformed_move_objects(move: StonesMove, message: str) -> None:
    """play() checks the move object, not only parse_move()."""
    with pytest.raises(IllegalMoveError, match=message):
        STONES.new_game().play(move)


# --- accessors, text forms, registry ---


def test_renderer_accessors() -> None:
    """Stones, prisoners, leads, thresholds, stakes and the last point are exposed."""
    state = play_all(STONES.position(["a1", "e5"], ["b1"], size=5), "stake a2", "a2")
    assert state.stone_at(1, 0) == 1 and state.stone_at(0, 0) is None
    assert names(state.stones(1)) == ["b1", "a2"]
    assert names(state.stones(0)) == ["e5"]
    assert state.last_point == (0, 1)
    assert state.prisoners == (0, 8)
    assert (state.lead(0), state.lead(1)) == (-8, 8)
    assert (state.threshold(0), state.threshold(1)) == (-4, 8)
    assert state.captured_last == ((0, 0, 0),)
    assert state.stakes_captured_last == ((0, 1, 0),)
    assert state.liberties(0, 1) == 3
    assert state.outcome() == Outcome(
        1,
        (
            "decisive capture of 1 stone and 1 stake while 8 ahead; "
            "White needed to be 8 or more ahead"
        ),
    )


def test_diagram_shows_the_board_prisoners_and_stakes() -> None:
    """The text diagram has Go labels and one line per player."""
    state = STONES.position(["a1", "e5"], ["b1"], size=5).play_text("stake a2")
    lines = state.diagram().splitlines()
    assert lines[0] == "  a b c d e"
    assert lines[1] == "5 . . . . B"
    assert lines[5] == "1 B W . . ."
    assert lines[6] == (
        "Black: 0 prisoners, 6 behind (a capture of two or more wins when at most 4 behind), "
        "stakes a2"
    )
    assert lines[7] == (
        "White: 6 prisoners, 6 ahead (a capture of two or more wins when 8 or more ahead), "
        "stakes none"
    )


def test_encode_restores_stakes_prisoners_and_history() -> None:
    """A decoded state is equal, and still forbids the ko recapture."""
    taken = STONES.position(["b1", "c2"], ["c1", "d2", "e1"], size=5).play_text("d1")
    with pytest.raises(IllegalMoveError, match="c1 would repeat the starting position"):
        STONES.decode(taken.encode()).parse_move("c1")
    state = play_all(taken, "stake e2", "a5", "return")
    restored = STONES.decode(state.encode())
    assert restored == state
    assert hash(restored) == hash(state)
    assert restored.encode() == state.encode()
    assert names(restored.stakes(1)) == ["e2"]
    assert restored.prisoners == (1, 5)
    assert restored.last_move == RETURN
    assert notations(restored) == notations(state)


def test_states_pickle() -> None:
    """A state can be pickled (e.g. sent to a worker process) and plays on identically."""
    state = play_all(STONES.position(KO["black"], KO["white"]), "d1")
    clone = pickle.loads(pickle.dumps(state))
    assert clone == state
    assert notations(clone) == notations(state)


def test_decode_refuses_garbage() -> None:
    """Anything that is not an encoded state raises DecodeError."""
    good = STONES.new_game().play_text("e5").encode()
    fields = good.split(";")
    broken = [
        "",
        "1;9",
        good.replace(";9;", ";4;", 1),
        ";".join([*fields[:6], "X" * 81, *fields[7:]]),
        ";".join([*fields[:12], "!!!"]),
        ";".join([*fields[:12], ""]),
    ]
    for text in broken:
        with pytest.raises(DecodeError):
            STONES.decode(text)


def test_registry_finds_stones() -> None:
    """Stones is registered under its name and alias."""
    assert get_game("stones") is STONES
    assert get_game("Stone") is STONES
    assert STONES.quick_moves == ("return",)


def test_leads_and_goals_in_words() -> None:
    """Who is ahead, and by how much a decisive capture needs to be, without signs."""
    assert [lead_text(n) for n in (3, 0, -6)] == ["3 ahead", "level", "6 behind"]
    assert [goal_text(n) for n in (2, 0, -4)] == [
        "2 or more ahead", "level or ahead", "at most 4 behind",
    ]  # fmt: skip


@given(
    size=st.integers(min_value=MIN_SIZE, max_value=MAX_SIZE),
    threshold=st.integers(min_value=1, max_value=MAX_SIZE * MAX_SIZE),
    compensation=st.integers(min_value=0, max_value=MAX_SIZE * MAX_SIZE),
)
def test_threshold_and_compensation_are_bounded_by_the_board(
    size: int, threshold: int, compensation: int
) -> None:
    """Options are accepted exactly when threshold and compensation are at most the
    board's number of points; a refusal names the bound."""
    options = {"size": size, "threshold": threshold, "compensation": compensation}
    area = size * size
    if threshold <= area and compensation <= area:
        assert STONES.validate_options(options) == options
    else:
        with pytest.raises(InvalidOptionError, match=f"at most {area} on a {size}×{size} board"):
            STONES.validate_options(options)


def test_the_issues_unwinnable_options_are_refused() -> None:
    """size=5 threshold=361 compensation=361 (White could never win) is refused."""
    with pytest.raises(InvalidOptionError, match="threshold must be at most 25"):
        STONES.new_game(size=5, threshold=361, compensation=361)
