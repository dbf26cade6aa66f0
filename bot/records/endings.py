"""The reasons a finished game's record may give, and only these: how the rules of its
game end a game (`Outcome.reason` of its engine), which the moves must reach, and how
players end one (a resignation, time, a withdrawal, an agreed draw), which stand as the
record states them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rules.diffusion import KING_CAPTURED, TURN_LIMIT
from rules.groups import MOVE_LIMIT
from rules.hexade import SURVIVED

COLOUR, NUMBER, ANY = "{colour}", "{number}", "{any}"
"""What stands, in an ending below, for White or Black, a number, and any text."""
RULES_ENDINGS: dict[str, tuple[str, ...]] = {
    "diffusion": (
        KING_CAPTURED,
        f"{TURN_LIMIT} turns each, and {ANY}",
        f"{COLOUR} has no legal move, and {ANY}",
    ),
    "groups": (
        "all six stones connected",
        "the same position occurred three times",
        f"no winner after {MOVE_LIMIT} moves",
        f"{COLOUR} has no legal move",
    ),
    "hexade": (SURVIVED, "the board is full", f"no winner after {NUMBER} moves"),
    "rekushu": (f"{COLOUR} cannot place a stone; {ANY}",),
    "stones": (f"decisive capture of {ANY}", f"{COLOUR} has no legal move"),
}
"""Per game (registry name), the reasons with which its rules end a game."""
LOSSES = ("resigned", "ran out of time", "withdrew from the tournament")
"""How a player loses a game by their own doing, written after their name."""
DRAW = "draw agreed"
AS_RECORDED = "as recorded"
"""The reason of an imported game whose record gave none."""
NOT_RATED = (" before any move: not rated", " without moving: not rated")
"""What follows a player's ending when it made a rated game unrated."""
FORFEIT = "; a forfeit, no rating changes"
"""What follows a withdrawal that forfeited a game not played out (a tournament's
`NAME withdrew from the tournament`, a league's `NAME left LEAGUE`)."""
LEFT = "left"
"""The ending of a player who left a league: `NAME left LEAGUE; a forfeit, ...`."""
_PIECES = re.compile(r"(\{colour\}|\{number\}|\{any\})")
_WORDS = re.compile(r"[\W_]+")


def _loose(text: str) -> str:
    """`text` in lower case, its punctuation and runs of spaces made one space."""
    return _WORDS.sub(" ", text.casefold()).strip()


def _pattern(ending: str, *, loose: bool) -> re.Pattern[str]:
    """The ending as a pattern: exactly as the engine writes it, or `loose` (to compare
    with `_loose` text: any case, any punctuation)."""
    stands = {COLOUR: "(?:White|Black)", NUMBER: "[0-9]+", ANY: ".+"}
    if loose:
        stands = {COLOUR: "(?:white|black)", NUMBER: "[0-9]+", ANY: ".+"}
    parts = [
        stands[piece] if piece in stands else re.escape(_loose(piece) if loose else piece)
        for piece in _PIECES.split(ending)
    ]
    if loose:
        parts = [part for part in parts if part]
    return re.compile((" " if loose else "").join(parts))


_EXACT = {
    game: tuple(_pattern(ending, loose=False) for ending in endings)
    for game, endings in RULES_ENDINGS.items()
}
_LOOSE = {
    game: tuple(_pattern(ending, loose=True) for ending in endings)
    for game, endings in RULES_ENDINGS.items()
}


def by_the_rules(game: str, reason: str) -> bool:
    """Whether `reason` is, word for word, how the rules of `game` end a game (not a
    resignation, time, an agreement or anything else a player or the clock decides)."""
    return any(pattern.fullmatch(reason) for pattern in _EXACT.get(game, ()))


def like_the_rules(game: str, reason: str) -> bool:
    """Whether `reason` reads as one of the rules' endings of `game` once case and
    punctuation are ignored (`All six stones connected!`)."""
    loose = _loose(reason)
    return any(pattern.fullmatch(loose) for pattern in _LOOSE.get(game, ()))


def players_ending(reason: str, names: Sequence[str] = ()) -> tuple[str, str | None] | None:
    """How a player ended the game, and who, when `reason` says so in Tabula's words:
    (`resigned`, `alice`), (`draw agreed`, None), (`as recorded`, None); else None.
    `names` are the players' names, by which a league's leaver is found."""
    if reason == AS_RECORDED:
        return AS_RECORDED, None
    if reason.endswith(FORFEIT):
        core = reason.removesuffix(FORFEIT)
        for name in names:
            if core.startswith(f"{name} {LEFT} ") and core.removeprefix(f"{name} {LEFT} "):
                return LEFT, name
        name = core.removesuffix(" withdrew from the tournament")
        return ("withdrew from the tournament", name) if name not in ("", core) else None
    for suffix in ("", *NOT_RATED):
        if not reason.endswith(suffix):
            continue
        core = reason[: len(reason) - len(suffix)]
        if core == DRAW:
            return DRAW, None
        for how in LOSSES:
            name = core.removesuffix(f" {how}")
            if name != core and name:
                return how, name
    return None


def accepted(game: str, title: str) -> str:
    """The reasons a record of `game` may give, in words, for a refusal."""
    shown = {COLOUR: "White/Black", NUMBER: "N", ANY: "…"}
    rules = [
        "".join(shown.get(piece, piece) for piece in _PIECES.split(ending))
        for ending in RULES_ENDINGS.get(game, ())
    ]
    players = [f"NAME {how}" for how in LOSSES]
    players += [f"NAME {LOSSES[-1]}{FORFEIT}", f"NAME {LEFT} LEAGUE{FORFEIT}", DRAW, AS_RECORDED]
    return f"the rules of {title} end a game with {' | '.join(rules)}; a player with " + (
        " | ".join(players)
    )
