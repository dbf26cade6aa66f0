"""Refusals as players read them: sentences, shortened quotes, Discord's length limit."""

from __future__ import annotations

import pytest

from bot.refusals import MESSAGE_LIMIT, refusal_text, sentence, shorten
from bot.services.errors import InvalidInputError
from rules import GameError, IllegalMoveError, InvalidMoveError, InvalidOptionError, get_game


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (IllegalMoveError("e5 is occupied"), "That move is not allowed: e5 is occupied."),
        (IllegalMoveError("the game is over"), "The game is over."),
        (
            InvalidMoveError("z99 is off the board (a–s)"),
            "That is not a move here: z99 is off the board (a–s).",
        ),
        (
            InvalidOptionError("size must be one of 9, 13 (got 7)"),
            "Size must be one of 9, 13 (got 7).",
        ),
        (GameError("'x' is not a point"), "'x' is not a point."),
        (IllegalMoveError("White still has stones to drop!"), "White still has stones to drop!"),
    ],
)
def test_engine_clauses_become_sentences(error: GameError, shown: str) -> None:
    """A capital letter and a full stop; a cell that starts a clause keeps its case."""
    assert refusal_text(error) == shown


def test_service_messages_are_kept_as_they_are() -> None:
    """Services already write sentences; only long quotes are shortened."""
    assert refusal_text(InvalidInputError("It is Bob's turn, not yours.")) == (
        "It is Bob's turn, not yours."
    )
    typed = "1d" * 1000
    text = refusal_text(InvalidInputError(f"{typed!r} is not a duration."))
    assert text == f"'{typed[:59]}…' is not a duration."


def test_a_long_move_is_quoted_by_its_start() -> None:
    """What the engine quotes is cut to 60 characters; the message fits Discord."""
    typed = "d3-e2" * 500
    try:
        get_game("groups").new_game().parse_move(typed)
    except GameError as error:
        text = refusal_text(error)
    assert text.startswith(f"'{typed[:59]}…' is not a Groups move: write a step")
    assert len(text) < 200


def test_nothing_is_longer_than_a_message() -> None:
    """Even a long message without quotes is cut below Discord's 2000 characters."""
    text = refusal_text(InvalidInputError("word " * 1000))
    assert len(text) == MESSAGE_LIMIT and text.endswith("…")
    assert shorten("abc", 3) == "abc" and shorten("abcd", 3) == "ab…"
    assert sentence("") == ""
