"""Refusals as players read them: whole sentences, with long input quoted shortened.

The rules engines phrase their errors as clauses ("e5 is occupied"); the services quote
what was typed, however long. Every front end shows a refusal through `refusal_text`.
"""

from __future__ import annotations

import re

from rules import GameError, IllegalMoveError, InvalidMoveError

QUOTE_LIMIT = 60
"""Quoted input longer than this is shortened (the start, then "…")."""
MESSAGE_LIMIT = 1900
"""No refusal is longer (a Discord message holds 2000 characters)."""

_QUOTED = re.compile(
    r"""(?P<q>['"])(?P<body>(?:\\.|(?!(?P=q)).){""" + str(QUOTE_LIMIT + 1) + r""",})(?P=q)"""
)
_NOTATION = re.compile(r"[a-z]{1,2}\d")
"""A message that starts with a cell or a move, like "e5 is occupied"."""


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text`, or its start and "…" when it is longer than `limit` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shorten_quotes(message: str) -> str:
    return _QUOTED.sub(lambda m: f"{m['q']}{shorten(m['body'])}{m['q']}", message)


def sentence(message: str, error: BaseException | None = None) -> str:
    """A clause made a sentence: a capital letter and a full stop. A clause that starts
    with a cell or move keeps it as written in the game's notation, after a lead-in."""
    text = message.strip()
    if not text:
        return text
    if _NOTATION.match(text):
        if isinstance(error, IllegalMoveError):
            text = f"That move is not allowed: {text}"
        elif isinstance(error, InvalidMoveError):
            text = f"That is not a move here: {text}"
        else:
            text = f"Not possible: {text}"
    elif text[0].islower():
        text = text[0].upper() + text[1:]
    if text[-1] not in ".!?…":
        text += "."
    return text


def refusal_text(error: BaseException) -> str:
    """What a player is told for a refusal: engine clauses as sentences, long quotes
    shortened, never more than `MESSAGE_LIMIT` characters."""
    message = _shorten_quotes(str(error))
    if isinstance(error, GameError):
        message = sentence(message, error)
    return shorten(message, MESSAGE_LIMIT)
