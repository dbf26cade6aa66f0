"""Groups: positional tests with exact legal-move sets, endings and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalMoveError, InvalidMoveError, Outcome, get_game
from rules.groups import CELLS, GROUPS, GroupsMove, GroupsState


def notations(state: GroupsState) -> set[str]:
    return {state.format_move(move) for move in state.legal_moves()}


def play_all(state: GroupsState, *moves: str) -> GroupsState:
    for text in moves:
        state = state.play_text(text)
    return state


def test_standard_setup() -> None:
    """The twelve stones stand on the checkerboard of c3–f6 without its corners."""
    state = GROUPS.new_game()
    assert sorted(state.stones(0)) == sorted([(3, 2), (2, 3), (4, 3), (3, 4), (5, 4), (4, 5)])
    assert state.stone_at(4, 2) == 1  # e3
    assert state.stone_at(0, 0) is None
    assert state.to_move == 0
    assert state.diagram().splitlines()[3] == "6 . . . B W . . ."


def test_exact_legal_moves_in_a_hand_made_position() -> None:
    """Steps, jumps over either colour, blocked landings and the board edge."""
    state = GROUPS.position(
        white=["a1", "a2", "b1", "h8", "d5", "f3"],
        black=["b2", "c3", "d4", "e5", "g7", "c1"],
    )
    assert notations(state) == {
        "a1-a3",
        "a2-a3",
        "a2-b3",
        "a2-c2",
        "b1-b3",
        "b1-c2",
        "b1-d1",
        "h8-g8",
        "h8-f6",
        "h8-h7",
        "d5-d6",
        "d5-e6",
        "d5-e4",
        "d5-c4",
        "d5-c5",
        "d5-c6",
        "d5-f5",
        "d5-d3",
        "f3-f4",
        "f3-g4",
        "f3-g3",
        "f3-g2",
        "f3-f2",
        "f3-e2",
        "f3-e3",
        "f3-e4",
    }


def test_drop_phase_offers_the_empty_central_cells() -> None:
    """With start=drop, stones go on the empty cells of c3–f6 until each side has six."""
    state = GROUPS.new_game(start="drop")
    central = {f"{c}{r}" for c in "cdef" for r in "3456"}
    assert notations(state) == central
    state = state.play_text("d4")
    assert state.to_move == 1
    assert notations(state) == central - {"d4"}
    for text in ["e4", "c3", "f6", "d5", "e5", "c6", "f3", "c4", "f5", "e3"]:
        state = state.play_text(text)
    assert state.ply == 11
    state = state.play_text("d6")
    assert not state.in_drop_phase
    assert all("-" in text for text in notations(state))


@pytest.mark.parametrize(
    ("moves", "text", "message"),
    [
        ((), "e3-e2", "the stone on e3 is not yours"),
        ((), "a1-a2", "there is no stone on a1"),
        ((), "d3-e4", "e4 is occupied"),
        ((), "d3-d1", "a jump must pass over a stone, and d2 is empty"),
        ((), "d3-g6", "neither a step"),
        ((), "d3-f2", "neither a step"),
        ((), "d4", "the drop phase is over"),
    ],
)
def test_illegal_moves_say_why(moves: tuple[str, ...], text: str, message: str) -> None:
    """Each illegal move names its reason."""
    state = play_all(GROUPS.new_game(), *moves)
    with pytest.raises(IllegalMoveError, match=message):
        state.parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [("a2", "central square"), ("d4-d5", "still has stones to drop")],
)
def test_illegal_drops_say_why(text: str, message: str) -> None:
    """Drops outside the centre, and moves during the drop phase, are refused."""
    with pytest.raises(IllegalMoveError, match=message):
        GROUPS.new_game(start="drop").parse_move(text)


def test_occupied_drop_is_refused() -> None:
    """A drop on an occupied cell is refused."""
    with pytest.raises(IllegalMoveError, match="d4 is occupied"):
        GROUPS.new_game(start="drop").play_text("d4").parse_move("d4")


@pytest.mark.parametrize("text", ["d3e2", "d3--e2", "d3-e2-f2", "i3-e2", "d9-e2", "-d3"])
def test_bad_notation_is_invalid(text: str) -> None:
    """Malformed notation is a syntax error, not an illegal move."""
    with pytest.raises(InvalidMoveError):
        GROUPS.new_game().parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d3e2", "'d3e2' is not a Groups move: write a step or jump like d3-e2, or a drop like d4"),
        ("pass", "'pass' is not a Groups move: write a step or jump like d3-e2"),
        ("d3-x", "'d3-x' is not a Groups move"),
        ("i3-e2", "there is no column i: columns skip i, as on a Go board"),
        ("D3-E9", "e9 is off the board (columns a–h, rows 1–8)"),
    ],
)
def test_bad_notation_says_why(text: str, message: str) -> None:
    """A syntax error shows the Groups notation, or names the bad column or row."""
    with pytest.raises(InvalidMoveError) as info:
        GROUPS.new_game().parse_move(text)
    assert str(info.value).startswith(message)


def test_a_move_to_its_own_cell_is_refused() -> None:
    """d3-d3 is not a move, and the message says so rather than "d3 is occupied"."""
    with pytest.raises(IllegalMoveError, match=r"^d3-d3 does not move the stone"):
        GROUPS.new_game().parse_move("d3-d3")


def test_connecting_all_six_wins_for_the_mover() -> None:
    """A step that joins all six stones orthogonally wins at once."""
    state = GROUPS.position(
        white=["a1", "a2", "a3", "a4", "a5", "c5"],
        black=["h1", "h2", "h3", "h4", "h5", "g8"],
    )
    assert state.outcome() is None
    won = state.play_text("c5-b5")
    assert won.outcome() == Outcome(0, "all six stones connected")
    assert list(won.legal_moves()) == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        won.parse_move("h1-g1")


def test_a_jump_can_win() -> None:
    """A jump that completes the connection wins as well."""
    state = GROUPS.position(
        white=["b1", "b2", "b3", "b4", "b5", "d6"],
        black=["c6", "h2", "h3", "h4", "h5", "g8"],
    )
    assert state.play_text("d6-b6").outcome() == Outcome(0, "all six stones connected")


def test_diagonal_contact_does_not_connect() -> None:
    """Only orthogonal contact counts: a diagonal link is not a connection."""
    state = GROUPS.position(
        white=["a1", "a2", "a3", "a4", "c6", "h8"],
        black=["h1", "h2", "h3", "h4", "h5", "g8"],
    )
    assert state.play_text("c6-b5").outcome() is None


def test_win_in_the_drop_phase() -> None:
    """With start=drop the win is checked after every drop."""
    state = play_all(
        GROUPS.new_game(start="drop"),
        "c3",
        "c5",
        "d3",
        "d5",
        "e3",
        "e5",
        "f3",
        "f5",
        "c4",
        "c6",
    )
    assert state.outcome() is None
    assert state.play_text("d4").outcome() == Outcome(0, "all six stones connected")


def test_third_repetition_is_a_draw() -> None:
    """The same position with the same player to move a third time draws."""
    shuffle = ("d3-d2", "e3-e2", "d2-d3", "e2-e3")
    state = play_all(GROUPS.new_game(), *shuffle, *shuffle[:3])
    assert state.outcome() is None
    state = state.play_text(shuffle[3])
    assert state.ply == 8
    assert state.outcome() == Outcome(None, "the same position occurred three times")


def test_repetition_counts_only_positions_with_the_same_player_to_move() -> None:
    """The start position recurs with Black to move in between: that one does not count."""
    white_triangle = ("d3-d2", "e3-e2", "d2-c2", "e2-e3", "c2-d3")
    black_triangle = ("e3-e2", "d3-d2", "e2-f2", "d2-d3", "f2-e3")
    state = play_all(GROUPS.new_game(), *white_triangle)
    assert (state.ply, state.to_move) == (5, 1)
    assert (state.white, state.black) == (GROUPS.new_game().white, GROUPS.new_game().black)
    state = play_all(state, *black_triangle)
    assert (state.ply, state.to_move) == (10, 0)
    assert (state.white, state.black) == (GROUPS.new_game().white, GROUPS.new_game().black)
    assert state.outcome() is None  # the third time on the board, the second with White to move
    shuffle = ("d3-d2", "e3-e2", "d2-d3", "e2-e3")
    state = play_all(state, *shuffle[:3])
    assert state.outcome() is None
    state = state.play_text(shuffle[3])
    assert state.ply == 14
    assert state.outcome() == Outcome(None, "the same position occurred three times")


def test_a_connection_on_the_400th_move_wins() -> None:
    """The move limit draws only a game the last move left undecided."""
    position = GROUPS.position(
        white=["a1", "a2", "a3", "a4", "a5", "c5"],
        black=["h1", "h2", "h3", "h4", "h5", "g8"],
    )
    fields = position.encode().split(";")
    fields[2] = "399"
    state = GROUPS.decode(";".join(fields))
    assert state.outcome() is None
    assert state.play_text("c5-b5").outcome() == Outcome(0, "all six stones connected")
    assert state.play_text("c5-c6").outcome() == Outcome(None, "no winner after 400 moves")


def test_move_limit_draws() -> None:
    """A game still undecided after 400 moves is drawn."""
    fields = GROUPS.new_game().encode().split(";")
    fields[2] = "399"
    state = GROUPS.decode(";".join(fields))
    assert state.outcome() is None
    assert state.play_text("d3-d2").outcome() == Outcome(None, "no winner after 400 moves")


def test_player_without_a_legal_move_loses() -> None:
    """Blocking the opponent's last move wins (a hand-made position with extra stones)."""
    corner = ["a3", "b2", "b3", "c1", "c2", "a4", "c4", "d3", "c3"]
    mirrored = ["h6", "g7", "g6", "f8", "f7", "h5", "f5", "e8", "e6", "f6"]
    white = [*corner, *mirrored, "e2"]
    black = ["a1", "b1", "a2", "h8", "g8", "h7"]
    state = GROUPS.position(white=white, black=black)
    assert state.outcome() is None
    assert notations(GROUPS.position(white=white, black=black, to_move=1)) == {"b1-d1"}
    blocked = state.play_text("e2-d1")
    assert blocked.outcome() == Outcome(0, "Black has no legal move")
    assert list(blocked.legal_moves()) == []


def test_decode_keeps_the_result_of_a_hand_made_position() -> None:
    """A position decided from the start (ply 0) is still decided once decoded."""
    corner = ["a3", "b2", "b3", "c1", "c2", "a4", "c4", "d3", "c3"]
    mirrored = ["h6", "g7", "g6", "f8", "f7", "h5", "f5", "e8", "e6", "f6"]
    stuck = GROUPS.position(
        white=[*corner, *mirrored, "d1"], black=["a1", "b1", "a2", "h8", "g8", "h7"], to_move=1
    )
    assert stuck.outcome() == Outcome(0, "Black has no legal move")
    assert GROUPS.decode(stuck.encode()) == stuck
    connected = GROUPS.position(
        white=["a1", "a2", "a3", "a4", "a5", "a6"],
        black=["h1", "h2", "h3", "h4", "h5", "g8"],
        to_move=1,
    )
    assert GROUPS.decode(connected.encode()).outcome() == Outcome(0, "all six stones connected")


def test_encode_keeps_the_repetition_history() -> None:
    """A decoded state still knows earlier positions for the repetition rule."""
    shuffle = ("d3-d2", "e3-e2", "d2-d3", "e2-e3")
    state = play_all(GROUPS.new_game(), *shuffle, *shuffle[:3])
    restored = GROUPS.decode(state.encode())
    assert restored.play_text(shuffle[3]).outcome() == Outcome(
        None, "the same position occurred three times"
    )


def test_play_rejects_an_illegal_move_object() -> None:
    """play() checks legality too, not only parse_move()."""
    with pytest.raises(IllegalMoveError):
        GROUPS.new_game().play(GroupsMove(0, 1))


def test_registry_finds_groups() -> None:
    """Groups is registered under its name."""
    assert get_game("groups") is GROUPS


def all_candidate_moves(state: GroupsState) -> list[GroupsMove]:
    """Every drop and every (own stone, any cell) pair: a superset of the legal moves."""
    candidates = [GroupsMove(None, target) for target in range(CELLS)]
    own = state.stones(state.to_move)
    for col, row in own:
        candidates += [GroupsMove(row * 8 + col, target) for target in range(CELLS)]
    return candidates


def is_accepted(state: GroupsState, move: GroupsMove) -> bool:
    try:
        state.play(move)
    except IllegalMoveError:
        return False
    return True


@settings(max_examples=60, deadline=None)
@given(
    start=st.sampled_from(["standard", "drop"]),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40),
)
def test_legal_moves_match_what_play_accepts(start: str, choices: list[int]) -> None:
    """In random positions, legal_moves() is exactly the set of moves play() accepts."""
    state = GROUPS.new_game(start=start)
    for choice in choices:
        moves = list(state.legal_moves())
        if not moves:
            break
        state = state.play(moves[choice % len(moves)])
    legal = set(state.legal_moves())
    accepted = {move for move in all_candidate_moves(state) if is_accepted(state, move)}
    assert legal == accepted
    assert not state.white & state.black
    if state.ply >= 12 or start == "standard":
        assert state.white.bit_count() == state.black.bit_count() == 6
