"""How each legal move is made by clicking: the cells (and buttons) to press, in order.

The page receives every legal move of the player to move with its clicks and offers, at
each step, what continues the clicks made so far. A word that is not a cell (`return`,
`stake`, `echo`) is a button. Several click sequences may make the same move.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_CELL = re.compile(r"[a-z]+\d+")


@dataclass(frozen=True)
class Clicks:
    """One way of making `move`: the cells and button words to press, in order."""

    move: str
    steps: tuple[str, ...]

    def as_json(self) -> dict[str, object]:
        """The form the page reads."""
        return {"move": self.move, "steps": list(self.steps)}


def clicks_of(game: str, move: str) -> list[Clicks]:
    """The click sequences that make `move` in `game`."""
    words = move.split()
    if game == "diffusion" and "-" in move:
        cells = move.split("-")
        return [Clicks(move, (cells[0], cells[-1]))]  # a stone, then where it goes
    if game == "rekushu" and len(words) == 2:
        first, second = words[1].split("-")
        return [Clicks(move, (words[0], first, second)), Clicks(move, (words[0], second, first))]
    steps: list[str] = []
    for word in words:
        steps += word.split("-") if _CELL.fullmatch(word.split("-")[0]) else [word]
    return [Clicks(move, tuple(steps))]


def all_clicks(game: str, moves: Iterable[str]) -> list[dict[str, object]]:
    """Every legal move's click sequences, for the page."""
    return [clicks.as_json() for move in moves for clicks in clicks_of(game, move)]
