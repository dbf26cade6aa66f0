"""Replaying records through the engines: the first bad move is named by ply and reason."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.records.replay import replay
from bot.records.transcript import RecordError, Transcript, Turn, turns_of
from bot.storage.repository import GameStatus
from tests.records.games import random_transcript

DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]


def groups_drop(moves: list[str], **changes: Any) -> Transcript:
    """A Groups (start=drop) transcript with these moves, alternating from White."""
    base = random_transcript("groups", {"start": "drop"}, 1, "resigned")
    turns = turns_of([(i % 2, move) for i, move in enumerate(moves)])
    return replace(base, turns=turns, **changes)


def test_a_legal_record_replays_with_the_engines_notation() -> None:
    """Moves typed in capitals come back in the engine's own form."""
    transcript = groups_drop([m.upper() for m in DROP_WIN], winner=0, reason=None)
    replayed = replay(transcript)
    assert replayed.moves[0] == (0, "c3") and len(replayed.moves) == 11
    outcome = replayed.state.outcome()
    assert outcome is not None and outcome.reason == "all six stones connected"


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        (["c3", "c3"], "ply 2 (Black, 'c3'): c3 is occupied"),
        (["c3", "a1"], "ply 2 (Black, 'a1'): stones are dropped on the central square c3–f6"),
        (["c3", "zz"], "ply 2 (Black, 'zz'): 'zz' is not a Groups move"),
        ([*DROP_WIN, "c7"], "ply 12 (Black, 'c7'): the game was already over"),
    ],
)
def test_the_first_illegal_move_is_named_with_its_ply_and_the_reason(
    moves: list[str], message: str
) -> None:
    """The engine's own message, prefixed by the ply (1 = first move) and the player."""
    with pytest.raises(RecordError) as caught:
        replay(groups_drop(moves))
    assert str(caught.value).startswith(message)


def test_a_move_by_the_wrong_player_is_refused() -> None:
    """Two turns in a row by White."""
    transcript = groups_drop(["c3"])
    transcript = replace(transcript, turns=(Turn(0, ("c3",)), Turn(0, ("d3",))))
    with pytest.raises(RecordError, match=r"^ply 2 \(White, 'd3'\): it is Black's turn$"):
        replay(transcript)


def test_a_diffusion_turn_cut_short_is_refused() -> None:
    """A turn must have as many moves as the rules give it (unless the game ended)."""
    transcript = random_transcript("diffusion", {}, 2, "resigned")
    first, second, *rest = transcript.turns
    short = replace(first, moves=first.moves[:2])
    with pytest.raises(RecordError, match=r"^ply 2: White's turn ends there, but the rules"):
        replay(replace(transcript, turns=(short, second, *rest)))
    with pytest.raises(RecordError, match=r"^ply 5 \(White, .*\): it is Black's turn$"):
        replay(replace(transcript, turns=(replace(first, moves=(*first.moves, "echo")), second)))


def test_a_result_the_moves_contradict_is_refused() -> None:
    """The moves end the game: the record must agree on the winner and have a result."""
    with pytest.raises(RecordError, match="says a win for Black, but the moves end in a win"):
        replay(groups_drop(DROP_WIN, winner=1))
    with pytest.raises(RecordError, match="says a draw"):
        replay(groups_drop(DROP_WIN, winner=None))
    with pytest.raises(RecordError, match="but the record gives no result"):
        replay(groups_drop(DROP_WIN, status=GameStatus.ACTIVE))


def test_bad_options_are_refused() -> None:
    """Options the game does not allow."""
    with pytest.raises(RecordError, match="the options are not valid: size must be"):
        replay(replace(random_transcript("hexade", {}, 1), options={"size": 99}))
