"""Diffusion Chess: positional tests for every rule and message, plus property tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import pairwise, product

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from rules import DecodeError, IllegalMoveError, InvalidMoveError, Outcome, get_game
from rules.diffusion import (
    CELLS,
    DIFFUSION,
    ECHO,
    SIZE,
    DiffusionMove,
    DiffusionState,
    group_sizes,
)
from rules.squares import format_point, parse_point

DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""N, E, S, W as (dcol, drow): the canonical tie-break order."""


def notations(state: DiffusionState) -> set[str]:
    return {state.format_move(move) for move in state.legal_moves()}


def play_all(state: DiffusionState, *moves: str) -> DiffusionState:
    for text in moves:
        state = state.play_text(text)
    return state


def point(name: str) -> tuple[int, int]:
    return parse_point(name, SIZE, SIZE)


def names(cells: Iterable[tuple[int, int]]) -> list[str]:
    return sorted(format_point(col, row) for col, row in cells)


def cell_index(name: str) -> int:
    col, row = point(name)
    return row * SIZE + col


def path_of(*cells: str) -> DiffusionMove:
    return DiffusionMove(tuple(cell_index(name) for name in cells))


def trace(*cells: str) -> tuple[tuple[int, int], ...]:
    return tuple(point(name) for name in cells)


def refused(state: DiffusionState, text: str) -> str:
    """The message `text` is refused with (the move must be refused)."""
    with pytest.raises(IllegalMoveError) as info:
        state.parse_move(text)
    return str(info.value)


# --- setup and move generation ---


def test_opening_position() -> None:
    """41 stones each in a diamond around k5 and k15, kings in the centres, row 10 empty."""
    state = DIFFUSION.new_game()
    white, black = state.stones(0), state.stones(1)
    assert len(white) == len(black) == 41
    assert all(abs(col - 9) + abs(row - 4) <= 4 for col, row in white)
    assert all(abs(col - 9) + abs(row - 14) <= 4 for col, row in black)
    assert state.king(0) == point("k5") and state.king(1) == point("k15")
    assert all(state.stone_at(col, 9) is None for col in range(SIZE))
    assert state.frozen_size(*point("k9")) == 41 and state.frozen_size(*point("k19")) == 41
    assert state.frozen_size(*point("k10")) is None
    assert (state.group_count(0), state.group_count(1)) == (1, 1)
    assert (state.to_move, state.turn_number, state.moves_left) == (0, 1, 4)
    assert not state.echo_available
    assert state.moved_this_turn == frozenset()
    assert state.diagram().splitlines()[11] == " 9 . . . . . . . . . w . . . . . . . . ."
    assert state.diagram().splitlines()[15] == " 5 . . . . . w w w w W w w w w . . . . ."


def test_opening_moves_reach_every_empty_cell_and_every_black_edge_stone() -> None:
    """Each of White's 16 edge stones can reach all 279 empty cells and capture Black's 16.

    Group size 41 allows 40 steps, enough to go round either diamond; interior stones are
    walled in by their own stones.
    """
    state = DIFFUSION.new_game()
    moves = list(state.legal_moves())
    assert len(moves) == 16 * (279 + 16)
    starts = Counter(state.format_move(move).split("-")[0] for move in moves)
    assert len(starts) == 16 and set(starts.values()) == {295}
    texts = notations(state)
    assert "k9-k10" in texts
    assert "k9-k10-k11" in texts  # a capture of Black's front stone, sizes 41 and 41
    assert "k9-k10-l10-l11" in texts  # N, E, N beats E, N, N
    assert "k9-l9-l10-l11" not in texts
    assert "k5-k6" not in texts  # the king is walled in


def test_canonical_paths_in_an_open_position() -> None:
    """One shortest path per destination, N before E before S before W on ties."""
    state = DIFFUSION.position(["j10", "j9", "j8"], ["t19", "s19"])
    assert notations(state) == {
        "j10-j11",
        "j10-k10",
        "j10-h10",
        "j10-j11-j12",
        "j10-j11-k11",  # N, E rather than E, N
        "j10-j11-h11",  # N, W rather than W, N
        "j10-k10-l10",
        "j10-k10-k9",
        "j10-h10-h9",
        "j10-h10-g10",
        "j9-k9",
        "j9-h9",
        "j9-k9-k10",
        "j9-k9-l9",
        "j9-k9-k8",
        "j9-h9-h10",
        "j9-h9-h8",
        "j9-h9-g9",
        "j8-k8",
        "j8-j7",
        "j8-h8",
        "j8-k8-k9",
        "j8-k8-l8",
        "j8-k8-k7",  # E, S rather than S, E
        "j8-j7-j6",
        "j8-j7-h7",  # S, W rather than W, S
        "j8-h8-h9",
        "j8-h8-g8",
    }


def test_moves_from_one_stone() -> None:
    """moves_from() gives one stone's share of legal_moves(), and nothing for others."""
    state = DIFFUSION.position(["j10", "j9", "j8"], ["t19", "s19"])
    from_j9 = {state.format_move(move) for move in state.moves_from(*point("j9"))}
    assert from_j9 == {t for t in notations(state) if t.startswith("j9-")}
    assert len(from_j9) == 8
    assert state.moves_from(*point("t19")) == []
    assert state.moves_from(*point("a1")) == []
    assert state.play_text("j9-k9").moves_from(*point("k9")) == []


# --- the seed's example, reconstructed ---


SEED_WHITE = ["d4", "e4"]
"""A White group of two below and beside the Black stones."""
SEED_BLACK = ["c5", "d5", "d3", "f4"]
"""Black: a pair c5-d5 (d5 is the top centre stone), a lone d3, a lone f4 on the right."""


def test_seed_example_capture_keeps_the_opponent_group_count() -> None:
    """White captures d5; the swapped stone joins d3, so Black still has three groups.

    Then e4, now alone but recorded as a group of 2, cannot capture the lone f4 (recorded
    size 1), though it may capture the swapped stone on d4 (recorded size 2).
    """
    state = DIFFUSION.position(SEED_WHITE, SEED_BLACK)
    assert notations(state) == {"d4-d5", "d4-c4", "e4-e5", "e4-e3"}
    assert state.group_count(1) == 3
    after = state.play_text("d4-d5")
    assert names(after.stones(0)) == ["d5", "e4"]
    assert names(after.stones(1)) == ["c5", "d3", "d4", "f4"]
    assert after.group_count(1) == 3
    assert after.captured_last == ((*point("d5"), 1),)
    assert after.frozen_size(*point("d4")) == 2  # the captured stone keeps its size
    assert after.frozen_size(*point("d5")) == 2
    assert refused(after, "e4-f4") == "cannot capture f4: its group (1) is smaller than yours (2)"
    assert refused(after, "echo") == "no echo: the last move captured"
    assert refused(after, "d5-d6") == "d5 already moved this turn"
    assert notations(after) == {"e4-e5", "e4-e3", "e4-d4"}
    assert after.moved_this_turn == frozenset({point("d5")})


def test_seed_example_black_captures_and_reconsolidates() -> None:
    """From the same position Black captures d4, then brings c5 back: three groups to two."""
    state = DIFFUSION.position(SEED_WHITE, SEED_BLACK, to_move=1)
    assert notations(state) == {"c5-c6", "c5-c4", "c5-b5", "d5-d6", "d5-e5", "d5-d4"}
    captured = state.play_text("d5-d4")
    assert names(captured.stones(1)) == ["c5", "d3", "d4", "f4"]
    assert names(captured.stones(0)) == ["d5", "e4"]
    assert captured.group_count(1) == 3
    consolidated = captured.play_text("c5-c4")
    assert consolidated.group_count(1) == 2
    assert consolidated.to_move == 1 and consolidated.moves_left == 3


# --- normal moves: paths, step limits, captures ---


BASE_WHITE = ["e2", "e3", "e4", "e5", "e6"]
"""A White column of five: each stone may take up to four steps."""
BASE_BLACK = ["e7", "f7", "c4", "c5", "c3", "c2", "c1", "b1"]
"""Black: a pair on e7-f7, a group of six on the c file and b1."""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e7-e8", "e7 belongs to your opponent"),
        ("a1-a2", "there is no stone on a1"),
        ("e6-e7", "cannot capture e7: its group (2) is smaller than yours (5)"),
        ("e6-e8", "e6 and e8 are not orthogonally adjacent"),
        ("e6-f5", "e6 and f5 are not orthogonally adjacent"),
        ("e6-d6-c6-b6-a6-a7", "that path is too long: your stone at e6 has group size 5"),
        ("e2-d2-d1-e1-e2", "the path visits e2 twice"),
        ("e2-f2-f3-f2", "the path visits f2 twice"),
        ("e2-e3-e4", "the path runs into your own stone at e3"),
        ("e2-e3", "e3 holds your own stone"),
        ("e4-d4-c4-b4", "the path passes through the opponent stone at c4"),
    ],
)
def test_illegal_paths_say_why(text: str, message: str) -> None:
    """Each way a path can be illegal has its own message."""
    state = DIFFUSION.position(BASE_WHITE, BASE_BLACK)
    assert refused(state, text).startswith(message)


def test_too_long_message_in_full() -> None:
    """The step limit names the recorded group size and both step counts."""
    state = DIFFUSION.position(BASE_WHITE, BASE_BLACK)
    assert refused(state, "e6-d6-c6-b6-a6-a7") == (
        "that path is too long: your stone at e6 has group size 5, so it may take at most "
        "4 steps (this path takes 5)"
    )


def test_the_refusals_word_for_word() -> None:
    """The refusals players read, word for word."""
    state = DIFFUSION.position(["c3", "k1", "l1"], ["k9", "k8"])
    assert refused(state, "k9-k10") == "k9 belongs to your opponent"
    assert refused(state, "c3-c4") == "your stone at c3 has group size 1 and is stranded"
    moved = DIFFUSION.position(["b3", "b4", "b5"], ["t19"]).play_text("b3-c3")
    assert refused(moved, "c3-c4") == "c3 already moved this turn"


def test_step_limits_follow_the_recorded_size() -> None:
    """A stone of a group of s moves 1 to s−1 steps; exactly s−1 is allowed."""
    state = DIFFUSION.position(BASE_WHITE, BASE_BLACK)
    assert state.play_text("e6-d6-d7-d8-d9").frozen_size(*point("d9")) == 5
    lone_pair = DIFFUSION.position(["p10", "p11"], ["a19"])
    assert notations(lone_pair) == {
        "p10-q10",
        "p10-p9",
        "p10-o10",
        "p11-p12",
        "p11-q11",
        "p11-o11",
    }


def test_recorded_sizes_hold_all_turn() -> None:
    """A group broken up mid-turn still moves by its turn-start size, and a stone whose
    group grows mid-turn gains nothing."""
    state = DIFFUSION.position(["g7", "g8", "g9"], ["a19"]).play_text("g9-h9-h10")
    assert state.frozen_size(*point("g8")) == 3  # g7-g8 are a pair now
    assert state.play_text("g8-f8-f9").stone_at(*point("f9")) == 0
    joined = DIFFUSION.position(["g7", "g8", "j8"], ["a19"]).play_text("g8-h8")
    assert joined.frozen_size(*point("j8")) == 1  # now in a pair with h8
    assert refused(joined, "j8-j9") == "your stone at j8 has group size 1 and is stranded"


def test_capture_swaps_the_two_stones() -> None:
    """The captured stone lands where the capturer stepped from on its last step."""
    state = DIFFUSION.position(["k5", "k6", "k7"], ["l8", "m8", "n8"]).play_text("k7-k8-l8")
    assert state.stone_at(*point("l8")) == 0
    assert state.stone_at(*point("k8")) == 1
    assert state.stone_at(*point("k7")) is None
    assert state.frozen_size(*point("l8")) == 3 and state.frozen_size(*point("k8")) == 3
    assert state.captured_last == ((*point("l8"), 1),)
    assert state.last_path == trace("k7", "k8", "l8")
    assert state.moved_this_turn == frozenset({point("l8")})
    assert state.group_count(1) == 2


def test_one_step_capture_swaps_with_the_start() -> None:
    """A capture in one step simply exchanges the two stones."""
    state = DIFFUSION.position(["k5", "k6"], ["k7", "k8"]).play_text("k6-k7")
    assert state.stone_at(*point("k6")) == 1
    assert state.stone_at(*point("k7")) == 0


def test_the_previous_turn_keeps_its_paths_and_captures() -> None:
    """After the turn passes, the opponent can still see every move, path and capture."""
    state = DIFFUSION.position(["k5", "k6"], ["k7", "k8"])
    state = play_all(state, "k6-k7", "k5-j5", "echo")
    assert state.to_move == 1  # nothing left to move: the turn ended after three moves
    assert [state.format_move(m) for m in state.previous_turn_moves] == ["k6-k7", "k5-j5", "echo"]
    assert state.previous_turn_paths == (trace("k6", "k7"), trace("k5", "j5"), trace("j5", "h5"))
    assert state.previous_turn_captures == (((*point("k7"), 1),), (), ())
    assert state.captured_last == ()
    assert state.last_path == trace("j5", "h5")


def test_capture_needs_a_group_at_least_as_large() -> None:
    """Equal recorded sizes may capture; a smaller target may not; a larger one may."""
    equal = DIFFUSION.position(["k5", "k6"], ["k7", "k8"])
    assert "k6-k7" in notations(equal)
    smaller = DIFFUSION.position(["k4", "k5", "k6"], ["k7", "k8"])
    assert refused(smaller, "k6-k7") == "cannot capture k7: its group (2) is smaller than yours (3)"
    assert not any(text.split("-")[-1] == "k7" for text in notations(smaller))
    larger = DIFFUSION.position(["k5", "k6", "k7"], ["k8", "k9", "k10", "k11"])
    assert "k7-k8" in notations(larger)
    reverse = DIFFUSION.position(["k5", "k6"], ["k7", "k8", "k9"], to_move=1)
    assert refused(reverse, "k7-k6") == "cannot capture k6: its group (2) is smaller than yours (3)"


def test_a_capture_ends_the_path() -> None:
    """A stone cannot pass through an opponent stone, and cannot enter its own."""
    state = DIFFUSION.position(["k5", "k6", "k7", "k4"], ["k8", "k9", "k10", "k11"])
    assert "k7-k8" in notations(state)
    assert refused(state, "k7-k8-l8").startswith(
        "the path passes through the opponent stone at k8: a capture can only be the last step"
    )


def test_paths_may_use_cells_freed_this_turn() -> None:
    """A stone that moved away leaves its cell free for later paths of the turn."""
    state = DIFFUSION.position(["k5", "k6", "k7", "k8"], ["a19"])
    assert refused(state, "k7-k8-k9") == "the path runs into your own stone at k8"
    state = state.play_text("k8-l8")
    assert state.play_text("k7-k8-k9-k10").stone_at(*point("k10")) == 0


# --- echo moves ---


ECHO_WHITE = ["k5", "k6", "k7", "k8"]
"""A White column of four: up to three steps."""


def test_echo_repeats_the_step_directions() -> None:
    """After k8-l8-l9-m9 (E, N, E) the echo goes m9-n9-n10-o10."""
    state = DIFFUSION.position(ECHO_WHITE, ["a19"]).play_text("k8-l8-l9-m9")
    assert state.echo_available
    assert "echo" in notations(state)
    assert state.echo_preview == trace("m9", "n9", "n10", "o10")
    echoed = state.play(ECHO)
    assert echoed.stone_at(*point("o10")) == 0 and echoed.stone_at(*point("m9")) is None
    assert echoed.last_path == trace("m9", "n9", "n10", "o10")
    assert echoed.moved_this_turn == frozenset({point("o10")})
    assert echoed.moves_left == 3
    assert echoed.frozen_size(*point("o10")) == 4
    assert not echoed.echo_available
    assert refused(echoed, "echo") == "no echo: the last move was an echo"
    assert refused(echoed, "o10-o11") == "o10 already moved this turn"


def test_echo_stops_at_the_edge() -> None:
    """The echo makes the steps it can and stops where the next would leave the board."""
    state = DIFFUSION.position(["q5", "q6", "q7", "q8"], ["a19"]).play_text("q8-r8-r9-s9")
    assert state.echo_preview == trace("s9", "t9", "t10")
    assert state.play(ECHO).stone_at(*point("t10")) == 0


def test_echo_stops_before_its_own_stone() -> None:
    """An own stone in the way ends the echo just before it."""
    state = DIFFUSION.position([*ECHO_WHITE, "n10"], ["a19"]).play_text("k8-l8-l9-m9")
    assert state.echo_preview == trace("m9", "n9")


def test_echo_stops_before_a_stone_it_cannot_capture() -> None:
    """An opponent stone in a smaller recorded group blocks the echo."""
    state = DIFFUSION.position(ECHO_WHITE, ["n10", "a19"]).play_text("k8-l8-l9-m9")
    assert state.frozen_size(*point("n10")) == 1
    assert state.echo_preview == trace("m9", "n9")


def test_echo_captures_on_any_step_and_stops() -> None:
    """A capturable stone on the way is captured, swapped back, and the echo ends."""
    state = DIFFUSION.position(ECHO_WHITE, ["n10", "n11", "n12", "n13"]).play_text("k8-l8-l9-m9")
    echoed = state.play(ECHO)
    assert echoed.stone_at(*point("n10")) == 0
    assert echoed.stone_at(*point("n9")) == 1
    assert echoed.captured_last == ((*point("n10"), 1),)
    assert echoed.last_path == trace("m9", "n9", "n10")


def test_echo_that_cannot_step_is_illegal() -> None:
    """An echo blocked on its first step is not a legal move, and says why."""
    own = DIFFUSION.position([*ECHO_WHITE, "n9"], ["a19"]).play_text("k8-l8-l9-m9")
    assert not own.echo_available and "echo" not in notations(own)
    assert refused(own, "echo") == "no echo: the stone at m9 is blocked by your own stone at n9"
    edge = DIFFUSION.position(["s5", "s6", "s7"], ["a19"]).play_text("s7-t7")
    assert refused(edge, "echo") == "no echo: the stone at t7 would leave the board"
    small = DIFFUSION.position(ECHO_WHITE, ["n9", "a19"]).play_text("k8-l8-l9-m9")
    assert refused(small, "echo") == (
        "no echo: cannot capture n9: its group (1) is smaller than yours (4)"
    )


def test_echo_is_refused_after_a_capture_a_king_move_or_at_the_turn_start() -> None:
    """Echo needs a previous normal move this turn, without capture, not by the king."""
    state = DIFFUSION.position(ECHO_WHITE, ["a19"])
    assert refused(state, "echo").startswith("no echo: an echo repeats the previous move")
    king = DIFFUSION.position(["k5", "k6", "k7"], ["a19"], white_king="k8").play_text("k8-l8")
    assert refused(king, "echo") == "no echo: the last move was made by your king"
    captured = DIFFUSION.position(["k5", "k6"], ["k7", "k8"]).play_text("k6-k7")
    assert refused(captured, "echo") == "no echo: the last move captured"


def test_echo_may_pass_through_cells_freed_this_turn() -> None:
    """The echo walks the current board: a cell vacated earlier in the turn is open."""
    white = ["k5", "k6", "k7", "l7", "m7"]
    blocked = DIFFUSION.position(white, ["a19"]).play_text("m7-m6-l6")
    assert blocked.echo_preview == trace("l6", "l5")  # k5 is still occupied
    freed = DIFFUSION.position(white, ["a19"]).play_text("k5-j5").play_text("m7-m6-l6")
    assert freed.echo_preview == trace("l6", "l5", "k5")
    assert freed.play(ECHO).stone_at(*point("k5")) == 0


def test_echo_can_capture_the_king() -> None:
    """An echo that captures the opponent's king wins."""
    black = ["n11", "n12", "n13"]
    state = DIFFUSION.position(ECHO_WHITE, black, black_king="n10").play_text("k8-l8-l9-m9")
    won = state.play(ECHO)
    assert won.outcome() == Outcome(0, "king captured")
    assert won.king(1) == point("n9")


# --- kings and the end of the game ---


def test_capturing_the_king_wins_at_once() -> None:
    """The swap still happens; the game is over and accepts no more moves."""
    state = DIFFUSION.position(["e5", "e6"], ["e8"], black_king="e7")
    won = state.play_text("e6-e7")
    assert won.outcome() == Outcome(0, "king captured")
    assert won.king(1) == point("e6")
    assert won.captured_last == ((*point("e7"), 1),)
    assert list(won.legal_moves()) == []
    assert won.to_move == 0
    with pytest.raises(IllegalMoveError, match="the game is over"):
        won.parse_move("e5-f5")
    restored = DIFFUSION.decode(won.encode())
    assert restored == won and restored.outcome() == won.outcome()


def test_a_lone_king_cannot_be_captured_by_a_larger_group() -> None:
    """The king follows the size rule like any stone."""
    state = DIFFUSION.position(["e5", "e6"], ["a19"], black_king="e7")
    assert refused(state, "e6-e7") == "cannot capture e7: its group (1) is smaller than yours (2)"


def first_normal_move(state: DiffusionState) -> DiffusionMove:
    return next(move for move in state.legal_moves() if not move.is_echo)


def test_turn_lengths() -> None:
    """White's first turn is four moves, every later turn five; to_move holds meanwhile."""
    state = DIFFUSION.new_game()
    for expected_left in (4, 3, 2, 1):
        assert state.to_move == 0 and state.moves_left == expected_left
        state = state.play(first_normal_move(state))
    assert (state.to_move, state.turn_number, state.moves_left) == (1, 2, 5)
    assert len(state.previous_turn_moves) == 4 and state.turn_moves == ()
    assert state.turns_completed(0) == 1 and state.turns_completed(1) == 0
    for _ in range(5):
        assert state.to_move == 1
        state = state.play(first_normal_move(state))
    assert (state.to_move, state.turn_number, state.moves_left, state.ply) == (0, 3, 5, 9)
    assert len(state.previous_turn_moves) == 5
    assert state.turns_completed(0) == state.turns_completed(1) == 1


def test_group_sizes_are_frozen_again_for_the_next_turn() -> None:
    """Sizes are recorded when the turn passes: stones split off during it are now alone."""
    state = DIFFUSION.position(["k5", "k6", "k7"], ["a19", "a18"], turn_number=1)
    state = play_all(state, "k7-l7-l8", "k6-j6-j7", "k5-k4-k3")
    assert state.frozen_size(*point("k3")) == 3
    assert (state.to_move, state.moves_left) == (0, 1)
    state = state.play(ECHO)  # k3-k2-k1, the fourth and last move of White's first turn
    assert (state.to_move, state.turn_number) == (1, 2)
    assert state.frozen_size(*point("k1")) == 1
    assert state.frozen_size(*point("l8")) == 1
    assert state.frozen_size(*point("a19")) == 2
    assert state.previous_turn_paths[-1] == trace("k3", "k2", "k1")


def test_turn_ends_early_without_a_legal_move_and_the_game_ends_on_group_count() -> None:
    """White runs out of moves after four; Black has none at all: fewer groups wins."""
    state = DIFFUSION.position(["a1", "a2"], ["t19", "r19"])
    state = play_all(state, "a1-b1", "echo", "a2-b2", "echo")
    assert names(state.stones(0)) == ["c1", "c2"]
    assert [state.format_move(m) for m in state.previous_turn_moves] == [
        "a1-b1",
        "echo",
        "a2-b2",
        "echo",
    ]
    assert state.to_move == 1 and state.turn_number == 4
    assert state.outcome() == Outcome(
        0, "Black has no legal move, and White has fewer groups, 1 to 2"
    )
    assert list(state.legal_moves()) == []
    assert state.last_path == (point("b2"), point("c2"))


def test_equal_group_counts_draw() -> None:
    """When the game ends without a king capture on equal counts, it is a draw."""
    state = DIFFUSION.position(["a1", "a2"], ["t19", "r19"])
    state = play_all(state, "a1-b1", "echo", "a2-a3", "echo")
    assert names(state.stones(0)) == ["a4", "c1"]
    assert state.outcome() == Outcome(None, "Black has no legal move, and both have 2 groups")


def test_game_ends_after_32_turns_each() -> None:
    """Black's 32nd turn ends the game; Black has fewer groups."""
    state = DIFFUSION.position(["a1", "a2", "c1", "c2"], ["j10", "k10"], to_move=1, turn_number=64)
    assert state.turns_completed(0) == 32 and state.turns_completed(1) == 31
    state = play_all(state, "j10-j11", "echo", "k10-k11", "echo")
    assert state.turns_completed(1) == 32
    assert state.outcome() == Outcome(1, "32 turns each, and Black has fewer groups, 1 to 2")
    assert DIFFUSION.decode(state.encode()) == state


def test_max_plies_bounds_the_game() -> None:
    """Four moves in the first turn and five in each of the other 63."""
    assert DIFFUSION.max_plies({}) == 4 + 5 * 63


def test_position_without_moves_is_already_over() -> None:
    """A hand-made position where the mover is stranded is finished."""
    state = DIFFUSION.position(["a1"], ["t19", "r19"])
    assert state.outcome() == Outcome(
        0, "White has no legal move, and White has fewer groups, 1 to 2"
    )


# --- notation ---


@pytest.mark.parametrize(
    "text", ["k9", "k9-", "-k9", "k9--k10", "k9k10", "echoo", "k9-i10", "k9-k10 k11"]
)
def test_bad_notation_is_invalid(text: str) -> None:
    """Malformed paths are syntax errors."""
    with pytest.raises(InvalidMoveError):
        DIFFUSION.new_game().parse_move(text)


def test_path_leaving_the_board_says_so() -> None:
    """A path that steps off the board names the cell."""
    state = DIFFUSION.position(["t5", "t6"], ["a19"])
    with pytest.raises(InvalidMoveError, match="the path leaves the board at u5"):
        state.parse_move("t5-u5")
    with pytest.raises(IllegalMoveError, match="the path leaves the board"):
        state.play(DiffusionMove((cell_index("t5"), CELLS)))


def test_notation_is_case_and_space_tolerant() -> None:
    """Upper case and spaces around cells and dashes are accepted; output is lower case."""
    state = DIFFUSION.new_game()
    move = state.parse_move("  K9 - K10 -L10 ")
    assert state.format_move(move) == "k9-k10-l10"
    echo_state = DIFFUSION.position(ECHO_WHITE, ["a19"]).play_text("k8-l8")
    assert echo_state.parse_move(" ECHO ") == ECHO


def test_play_accepts_any_legal_path_and_checks_move_objects() -> None:
    """A non-canonical path is legal and decides the echo; bad objects are refused."""
    state = DIFFUSION.position(ECHO_WHITE, ["a19"])
    assert "k8-l8-l9" not in notations(state)  # canonical is k8-k9-l9
    longer = state.play(path_of("k8", "l8", "l9"))
    assert longer.echo_preview == trace("l9", "m9", "m10")
    with pytest.raises(IllegalMoveError, match="at least one step"):
        state.play(path_of("k8"))


def test_encode_restores_mid_turn_state() -> None:
    """Moved stones, recorded sizes, echo and turn history survive encode/decode."""
    state = DIFFUSION.position(SEED_WHITE, SEED_BLACK).play_text("d4-c4")
    restored = DIFFUSION.decode(state.encode())
    assert restored == state
    assert restored.echo_preview == state.echo_preview
    assert refused(restored, "c4-c3") == "c4 already moved this turn"


@pytest.mark.parametrize(
    "mangle",
    [
        lambda f: ["2", *f[1:]],
        lambda f: f[:5],
        lambda f: [*f[:5], f[5].replace(".", "x", 1), *f[6:]],
        lambda f: [*f[:6], "1", *f[7:]],
        lambda f: [*f[:7], "a1,k15", *f[8:]],
        lambda f: [*f[:9], "a1-a3", *f[10:]],
        lambda f: [*f[:17], "won"],
        lambda f: [*f[:15], "-", "-", f[17]],
        lambda f: [*f[:15], "a1:2", *f[16:]],
    ],
)
def test_decode_rejects_damaged_text(mangle: Callable[[list[str]], list[str]]) -> None:
    """Damaged encodings raise DecodeError, never another exception."""
    fields = DIFFUSION.position(ECHO_WHITE, ["a19"]).play_text("k8-l8").encode().split(";")
    with pytest.raises(DecodeError):
        DIFFUSION.decode(";".join(mangle(fields)))


def test_registry_finds_diffusion() -> None:
    """The game is registered under its name and aliases."""
    assert get_game("diffusion") is DIFFUSION
    assert get_game("Diffusion Chess") is DIFFUSION


# --- property tests ---


def flood_groups(state: DiffusionState) -> list[tuple[int, set[tuple[int, int]]]]:
    """(seat, cells) of every group, by a plain flood fill: an oracle for the union-find."""
    groups = []
    for seat in (0, 1):
        remaining = set(state.stones(seat))
        while remaining:
            group = {remaining.pop()}
            todo = list(group)
            while todo:
                col, row = todo.pop()
                for dc, dr in DIRECTIONS:
                    near = (col + dc, row + dr)
                    if near in remaining:
                        remaining.remove(near)
                        group.add(near)
                        todo.append(near)
            groups.append((seat, group))
    return groups


def flood_sizes(state: DiffusionState) -> dict[tuple[int, int], int]:
    return {cell: len(group) for _, group in flood_groups(state) for cell in group}


Path = tuple[tuple[int, int], ...]


def oracle_paths(state: DiffusionState) -> set[Path]:
    """Every legal path by exhaustive depth-first search over the public accessors."""
    seat = state.to_move
    found: set[Path] = set()

    def walk(path: Path, size: int) -> None:
        if len(path) == size:  # size − 1 steps taken
            return
        col, row = path[-1]
        for dc, dr in DIRECTIONS:
            near = (col + dc, row + dr)
            if not (0 <= near[0] < SIZE and 0 <= near[1] < SIZE) or near in path:
                continue
            owner = state.stone_at(*near)
            if owner is None:
                found.add((*path, near))
                walk((*path, near), size)
            elif owner != seat and (state.frozen_size(*near) or 0) >= size:
                found.add((*path, near))

    for start in state.stones(seat):
        size = state.frozen_size(*start) or 0
        if size >= 2 and start not in state.moved_this_turn:
            walk((start,), size)
    return found


def direction_key(path: Path) -> tuple[int, ...]:
    return tuple(DIRECTIONS.index((b[0] - a[0], b[1] - a[1])) for a, b in pairwise(path))


def canonical(paths: set[Path]) -> set[Path]:
    """The shortest path per (start, destination), ties broken by N, E, S, W."""
    best: dict[tuple[tuple[int, int], tuple[int, int]], Path] = {}
    for path in paths:
        key = (path[0], path[-1])
        if key not in best or (len(path), direction_key(path)) < (
            len(best[key]),
            direction_key(best[key]),
        ):
            best[key] = path
    return set(best.values())


def oracle_echo(state: DiffusionState) -> Path:
    """The echo's cells by the rule text, from the public accessors; () when illegal."""
    if not state.turn_moves or state.turn_moves[-1].is_echo or state.captured_last:
        return ()
    cells = state.turn_moves[-1].cells
    here = cells[-1]
    if state.king(state.to_move) == here:
        return ()
    size = state.frozen_size(*here) or 0
    steps = [here]
    for a, b in pairwise(cells):
        near = (here[0] + b[0] - a[0], here[1] + b[1] - a[1])
        if not (0 <= near[0] < SIZE and 0 <= near[1] < SIZE):
            break
        owner = state.stone_at(*near)
        if owner is None:
            steps.append(near)
            here = near
            continue
        if owner != state.to_move and (state.frozen_size(*near) or 0) >= size:
            steps.append(near)
        break
    return tuple(steps) if len(steps) > 1 else ()


def accepts(state: DiffusionState, move: DiffusionMove) -> bool:
    try:
        state.play(move)
    except IllegalMoveError:
        return False
    return True


@st.composite
def small_positions(draw: st.DrawFn) -> dict[tuple[int, int], int]:
    """A few short chains of stones of either colour in an 8×8 area: (col, row) → seat."""
    stones: dict[tuple[int, int], int] = {}
    for _ in range(draw(st.integers(2, 8))):
        seat = draw(st.sampled_from([0, 1]))
        col, row = draw(st.integers(0, 7)), draw(st.integers(0, 7))
        stones.setdefault((col, row), seat)
        for dc, dr in draw(st.lists(st.sampled_from(DIRECTIONS), max_size=3)):
            col, row = min(max(col + dc, 0), 7), min(max(row + dr, 0), 7)
            stones.setdefault((col, row), seat)
    return stones


@settings(max_examples=120, deadline=None)
@given(
    stones=small_positions(),
    offset=st.sampled_from([0, 5, 11]),
    to_move=st.sampled_from([0, 1]),
    king=st.booleans(),
    choices=st.lists(st.integers(0, 10_000), max_size=4),
)
def test_legal_moves_match_a_brute_force_oracle(
    stones: dict[tuple[int, int], int], offset: int, to_move: int, king: bool, choices: list[int]
) -> None:
    """Destinations, canonical paths and the echo agree with exhaustive path search, and
    play() accepts exactly the paths the search finds (all paths of up to 3 steps tried)."""
    white = [format_point(c + offset, r + offset) for (c, r), seat in stones.items() if seat == 0]
    black = [format_point(c + offset, r + offset) for (c, r), seat in stones.items() if seat == 1]
    white_king = white[0] if king and white else None
    state = DIFFUSION.position(white, black, white_king=white_king, to_move=to_move)
    assume(max(flood_sizes(state).values()) <= 7)
    for choice in choices:
        moves = list(state.legal_moves())
        if not moves:
            break
        state = state.play(moves[choice % len(moves)])
    if state.outcome() is not None:
        assert list(state.legal_moves()) == []
        return
    found = oracle_paths(state)
    moves = list(state.legal_moves())
    assert {move.cells for move in moves if not move.is_echo} == canonical(found)
    event("echo legal" if ECHO in moves else "no echo")
    event("captures" if any(state.stone_at(*p[-1]) is not None for p in found) else "no capture")
    assert state.echo_preview == oracle_echo(state)
    assert (ECHO in moves) == bool(oracle_echo(state))
    for start in state.stones(state.to_move):
        for length in (1, 2, 3):
            for dirs in product(DIRECTIONS, repeat=length):
                cells = [start]
                for dc, dr in dirs:
                    cells.append((cells[-1][0] + dc, cells[-1][1] + dr))
                if not all(0 <= c < SIZE and 0 <= r < SIZE for c, r in cells):
                    continue
                move = DiffusionMove(tuple(r * SIZE + c for c, r in cells))
                assert accepts(state, move) == (tuple(cells) in found), cells


@settings(max_examples=10, deadline=None)
@given(choices=st.lists(st.integers(0, 100_000), min_size=1, max_size=40))
def test_random_games_keep_the_invariants(choices: list[int]) -> None:
    """Stones are never lost, recorded sizes travel with stones, turns count correctly."""
    state = DIFFUSION.new_game()

    def recorded(state: DiffusionState) -> Counter[tuple[int, int | None]]:
        return Counter(
            (seat, state.frozen_size(*cell)) for seat in (0, 1) for cell in state.stones(seat)
        )

    turn_start_sizes = recorded(state)
    for choice in choices:
        moves = list(state.legal_moves())
        if not moves:
            break
        turn = state.turn_number
        state = state.play(moves[choice % len(moves)])
        assert len(state.stones(0)) == len(state.stones(1)) == 41
        if state.turn_number == turn:
            assert recorded(state) == turn_start_sizes
            normal = [move for move in state.turn_moves if not move.is_echo]
            assert len(state.moved_this_turn) == len(normal)
            assert state.moves_left + len(state.turn_moves) == (4 if turn == 1 else 5)
        else:
            assert {cell: state.frozen_size(*cell) for cell in flood_sizes(state)} == (
                flood_sizes(state)
            )
            assert state.turn_moves == () and state.moved_this_turn == frozenset()
            turn_start_sizes = recorded(state)
        assert state.turns_completed(0) + state.turns_completed(1) == state.turn_number - 1
        assert DIFFUSION.decode(state.encode()) == state


@settings(max_examples=60, deadline=None)
@given(
    cells=st.lists(
        st.tuples(st.integers(0, CELLS - 1), st.sampled_from([1, 2])),
        min_size=1,
        max_size=150,
        unique_by=lambda t: t[0],
    )
)
def test_union_find_matches_flood_fill(cells: list[tuple[int, int]]) -> None:
    """group_sizes() agrees with a flood fill on random boards, and counts the groups."""
    board = bytearray(CELLS)
    for cell, value in cells:
        board[cell] = value
    sizes, counts = group_sizes(bytes(board))
    white = [format_point(c % SIZE, c // SIZE) for c, v in cells if v == 1]
    black = [format_point(c % SIZE, c // SIZE) for c, v in cells if v == 2]
    state = DIFFUSION.position(white, black)
    assert {(c % SIZE, c // SIZE): sizes[c] for c, _ in cells} == flood_sizes(state)
    groups = flood_groups(state)
    assert counts == tuple(sum(1 for seat, _ in groups if seat == s) for s in (0, 1))
    assert (state.group_count(0), state.group_count(1)) == counts
