"""The difficulty levels of the computer player and the budgets behind them.

| level  | iterations per move | time cap per answer          | tactical lookahead |
|--------|---------------------|------------------------------|--------------------|
| easy   | 60                  | a tenth of the time budget   | wins in 1 ply      |
| medium | 600                 | half of the time budget      | wins in 1 ply      |
| hard   | no limit            | the whole time budget (5 s)  | 3 plies (wins: 5)  |

An answer is a whole turn: a multi-move turn (Diffusion Chess) shares the time among
its moves. Iteration limits make `easy` and `medium` play the same move for the same
seed on any machine unless their time cap cuts the search short (on a slow or busy
machine, or in games whose iterations are expensive); `hard` plays as well as the
configured time allows and answers within it.
"""

from __future__ import annotations

from enum import StrEnum

from bot.ai.budget import Budget

DEFAULT_SECONDS = 5.0
"""The default time budget of one answer at the `hard` level."""


class Level(StrEnum):
    """How strongly the computer plays."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @property
    def description(self) -> str:
        """One line for players choosing an opponent."""
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Level.EASY: "a quick, beatable opponent",
    Level.MEDIUM: "thinks a little longer",
    Level.HARD: "uses its whole thinking time",
}

_ITERATIONS = {Level.EASY: 60, Level.MEDIUM: 600, Level.HARD: None}
_TIME_SHARE = {Level.EASY: 0.1, Level.MEDIUM: 0.5, Level.HARD: 1.0}
HARD_LOOKAHEAD = 3
"""Plies of `hard`'s exact tactical search: it plays a forced win within them and avoids
a move that lets the opponent force one."""
_LOOKAHEAD = {Level.EASY: 0, Level.MEDIUM: 0, Level.HARD: HARD_LOOKAHEAD}


def parse_level(text: str) -> Level:
    """The level named `text` (case-insensitive); `ValueError` with the choices otherwise."""
    try:
        return Level(text.strip().lower())
    except ValueError:
        choices = ", ".join(level.value for level in Level)
        raise ValueError(f"Unknown level {text!r}: the levels are {choices}.") from None


def budget_for(level: Level, seconds: float = DEFAULT_SECONDS) -> Budget:
    """The budget of one answer (a whole turn) at `level`, given the time budget `seconds`."""
    return Budget(
        iterations=_ITERATIONS[level],
        seconds=seconds * _TIME_SHARE[level],
        lookahead=_LOOKAHEAD[level],
    )
