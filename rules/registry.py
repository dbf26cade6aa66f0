"""The registry of games, looked up by name or alias."""

from __future__ import annotations

import re
from typing import Any

from rules.base import Game, GameState, UnknownGameError

AnyGame = Game[GameState[Any]]

_GAMES: dict[str, AnyGame] = {}
_LOOKUP: dict[str, AnyGame] = {}


def _key(name: str) -> str:
    """Normalise a name so that case, spaces, hyphens and underscores do not matter."""
    return re.sub(r"[\s_\-]+", "", name.strip().lower())


def register(game: AnyGame) -> AnyGame:
    """Add `game` to the registry under its name and aliases; return it."""
    keys = {_key(game.name), _key(game.title), *(_key(alias) for alias in game.aliases)}
    for key in keys:
        other = _LOOKUP.get(key)
        if other is not None and other is not game:
            raise ValueError(f"{game.name}: the name {key!r} is already used by {other.name}")
    _GAMES[game.name] = game
    for key in keys:
        _LOOKUP[key] = game
    return game


def get_game(name: str) -> AnyGame:
    """Return the game called `name` (case-insensitive, aliases allowed)."""
    game = _LOOKUP.get(_key(name))
    if game is None:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGameError(f"unknown game {name!r}; the games are: {known}")
    return game


def list_games() -> list[AnyGame]:
    """Every registered game, sorted by name."""
    return [_GAMES[name] for name in sorted(_GAMES)]
