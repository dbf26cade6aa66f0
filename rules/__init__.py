"""Pure rules engines for the games Tabula hosts: no I/O, no Discord, no images."""

from __future__ import annotations

from rules.base import (
    DecodeError,
    Game,
    GameError,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    Option,
    OptionValue,
    Outcome,
    UnknownGameError,
)
from rules.registry import AnyGame, get_game, list_games, register

# Importing a game module registers it.
from rules import diffusion, groups, hexade, rekushu, stones  # isort: skip

__all__ = [
    "AnyGame",
    "DecodeError",
    "Game",
    "GameError",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "Option",
    "OptionValue",
    "Outcome",
    "UnknownGameError",
    "diffusion",
    "get_game",
    "groups",
    "hexade",
    "list_games",
    "register",
    "rekushu",
    "stones",
]
