"""The endings each game's rules give (`Outcome.reason` of its engine), as patterns: a
record that gives one of them as its reason must have moves that reach it."""

from __future__ import annotations

import re

from rules.diffusion import KING_CAPTURED, TURN_LIMIT
from rules.groups import MOVE_LIMIT
from rules.hexade import SURVIVED

_COLOUR = r"(?:White|Black)"
RULES_ENDINGS: dict[str, tuple[re.Pattern[str], ...]] = {
    "diffusion": (
        re.compile(re.escape(KING_CAPTURED)),
        re.compile(rf"{TURN_LIMIT} turns each, and .+"),
        re.compile(rf"{_COLOUR} has no legal move, and .+"),
    ),
    "groups": (
        re.compile("all six stones connected"),
        re.compile("the same position occurred three times"),
        re.compile(rf"no winner after {MOVE_LIMIT} moves"),
        re.compile(rf"{_COLOUR} has no legal move"),
    ),
    "hexade": (
        re.compile(re.escape(SURVIVED)),
        re.compile("the board is full"),
        re.compile(r"no winner after [0-9]+ moves"),
    ),
    "rekushu": (re.compile(rf"{_COLOUR} cannot place a stone; .+"),),
    "stones": (
        re.compile(r"decisive capture of .+"),
        re.compile(rf"{_COLOUR} has no legal move"),
    ),
}
"""Per game (registry name), the reasons with which its rules end a game."""


def by_the_rules(game: str, reason: str) -> bool:
    """Whether `reason` is how the rules of `game` end a game (not a resignation, time, an
    agreement or anything else a player or the clock decides)."""
    return any(pattern.fullmatch(reason) for pattern in RULES_ENDINGS.get(game, ()))
