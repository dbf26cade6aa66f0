"""Reading lines through the rules and growing trees, without a database."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.services.correspondence.conditional_lines import (
    MAX_STEPS,
    Branch,
    ReplyConflict,
    complete_line,
    decode_tree,
    encode_tree,
    follow,
    graft,
    lines_of,
    read_line,
    replies_in,
    shown,
)
from bot.services.errors import InvalidInputError
from rules import GameState, get_game, list_games

NAMES = ("alice", "bob")


def random_turn(state: GameState[Any], rng: random.Random) -> tuple[list[str], GameState[Any]]:
    """A whole random turn: its moves in notation and the state after it."""
    mover, moves = state.to_move, []
    while state.to_move == mover and state.outcome() is None:
        move = rng.choice(list(state.legal_moves()))
        moves.append(state.format_move(move))
        state = state.play(move)
    return moves, state


@pytest.mark.parametrize("game", [game.name for game in list_games()])
@pytest.mark.parametrize("seed", range(6))
def test_any_line_of_legal_turns_reads_back_exactly(game: str, seed: int) -> None:
    """Random turns from a random position, written as players write them (turns
    separated by spaces, a turn's moves by ", "), read back step for step: moves with
    spaces (stakes, claims) stay one step."""
    rng = random.Random(seed)
    state = get_game(game).new_game()
    for _ in range(rng.randrange(2, 12)):
        _, state = random_turn(state, rng)
        if state.outcome() is not None:
            pytest.skip("the random game ended early")
    start, owner = state, 1 - state.to_move
    turns: list[list[str]] = []
    while len(turns) < 4 and state.outcome() is None:
        moves, state = random_turn(state, rng)
        turns.append(moves)
    if len(turns) % 2:
        turns.pop()
    if not turns:
        pytest.skip("the random game ended at once")
    line = read_line(start, " ".join(", ".join(t) for t in turns), owner=owner, names=NAMES)
    assert line.texts == tuple(",".join(t) for t in turns)
    assert [step.seat for step in line.steps] == [1 - owner, owner] * (len(turns) // 2)


def test_a_line_too_long_is_refused() -> None:
    """More than `MAX_STEPS` steps."""
    rng = random.Random(3)
    start = state = get_game("stones").new_game(size=19)
    turns = []
    for _ in range(MAX_STEPS + 2):
        moves, state = random_turn(state, rng)
        turns.append(",".join(moves))
    with pytest.raises(InvalidInputError, match=f"^A line has at most {MAX_STEPS} steps.$"):
        read_line(start, " ".join(turns), owner=1, names=NAMES)


def test_graft_shares_beginnings_and_refuses_a_second_reply() -> None:
    tree = graft((), ["a", "b", "c", "d"])
    tree = graft(tree, ["a", "b", "e", "f"])
    tree = graft(tree, ["g", "h"])
    assert tree == (
        Branch("a", "b", (Branch("c", "d"), Branch("e", "f"))),
        Branch("g", "h"),
    )
    assert graft(tree, ["a", "b"]) == tree
    assert lines_of(tree) == [("a", "b", "c", "d"), ("a", "b", "e", "f"), ("g", "h")]
    assert replies_in(tree) == 4
    with pytest.raises(ReplyConflict) as conflict:
        graft(tree, ["a", "b", "c", "x"])
    assert (conflict.value.expected, conflict.value.reply, conflict.value.wanted) == (
        "c",
        "d",
        "x",
    )
    assert follow(tree, "g") == Branch("g", "h") and follow(tree, "b") is None


def test_trees_round_trip_as_json() -> None:
    tree = graft(graft((), ["k9-k10,echo", "return", "c", "d"]), ["stake e5", "f"])
    assert encode_tree(tree) == '[["k9-k10,echo","return",[["c","d",[]]]],["stake e5","f",[]]]'
    assert decode_tree(encode_tree(tree)) == tree
    assert shown("k9-k10,echo") == "k9-k10, echo"


def test_a_rekushu_claim_is_one_step() -> None:
    """`c3 b3-c4` (a placement with the rectangle it claims) is one turn, not two."""
    rng = random.Random(0)
    state = get_game("rekushu").new_game(size=8)
    for _ in range(15):
        state = state.play(rng.choice(list(state.legal_moves())))
    claim = next(move for move in state.legal_notations() if " " in move)
    assert claim == "b5 b4-c5"
    reply = state.play_text(claim).legal_notations()[0]
    line = read_line(state, f"{claim} {reply}", owner=1 - state.to_move, names=NAMES)
    assert line.texts == (claim, reply)


@pytest.mark.parametrize(
    ("typed", "choices"),
    [
        ("c", ["c4", "c5", "c6"]),
        ("c5 d", ["c5 d4", "c5 d5", "c5 d6", "c5 d3"]),
        ("c5 d3 e", ["c5 d3 e3", "c5 d3 e4", "c5 d3 e5", "c5 d3 e6"]),
        ("c5 c3 ", []),
        ("c5 zz e", []),
    ],
)
def test_typing_a_line_completes_its_last_word(typed: str, choices: list[str]) -> None:
    """The words before are played through (a refused one: no choices); the last word
    is completed to the legal moves of whoever plays there."""
    state = get_game("groups").new_game(start="drop").play_text("c3")
    assert complete_line(state, typed, limit=25) == choices


def test_completing_two_word_moves_and_long_lines() -> None:
    """`stake` is completed to a stake; a choice never exceeds Discord's 100 characters."""
    state = get_game("stones").new_game(size=5).play_text("a5").play_text("a1")
    assert complete_line(state, "sta") == ["stake a4", "stake b5"]
    assert complete_line(state, "stake ") == ["stake a4", "stake b5"]
    assert complete_line(state, "stake a4 re") == ["stake a4 return"]
    assert complete_line(state, "stake a4 return ", max_length=18, limit=4) == [
        "stake a4 return c3",
        "stake a4 return b2",
        "stake a4 return b3",
        "stake a4 return b4",
    ]
    assert complete_line(state, "stake a4 return ", max_length=16) == []
