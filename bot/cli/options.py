"""Shared command-line handling of game options (`--option KEY=VALUE`)."""

from __future__ import annotations

import argparse
from typing import Any

from rules import AnyGame, GameState, InvalidOptionError

MOVES_EPILOG = (
    "After GAME, every word that is not one of the options above is a MOVE, so a move may "
    "start with '-' (after the first move, even -h is a move). Every word after -- is a "
    "move: tabula replay groups -- d3-e2 -a1."
)
"""The `--help` note of commands that take moves."""


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable `--option KEY=VALUE` argument."""
    parser.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. --option size=13 (repeatable; see `tabula games`)",
    )


def parse_options(pairs: list[str]) -> dict[str, str]:
    """Turn `KEY=VALUE` strings into a dict; raise `InvalidOptionError` on bad syntax."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError(f"options are written KEY=VALUE, like size=13 (got {pair!r})")
        options[key.strip().lower()] = value.strip()
    return options


def new_game_from_args(game: AnyGame, pairs: list[str]) -> GameState[Any]:
    """Start `game` with the options given on the command line."""
    return game.new_game(**parse_options(pairs))
