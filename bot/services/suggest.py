"""Ranking legal moves for autocomplete: what matches the typed text, most useful first."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rules import GameState

_CELL = re.compile(r"([a-z])(\d{1,2})")
_SEPARATORS = re.compile(r"[\s\-x:,]+")

Priority = Callable[[GameState[Any], str], int]
"""A per-game ranking hint: lower numbers are offered first (e.g. captures, claims)."""

PRIORITIES: dict[str, Priority] = {}
"""Per-game hints by game name; games without one are ranked by the generic rules only."""


def _cells(notation: str) -> list[tuple[int, int]]:
    """The (column, row) of every cell named in a notation, in order."""
    return [(ord(letter) - ord("a"), int(row)) for letter, row in _CELL.findall(notation)]


def _compact(text: str) -> str:
    return _SEPARATORS.sub("", text)


def _tier(notation: str, typed: str, compact: str) -> int | None:
    """How well `notation` matches: 0 exact, 1 prefix, 2 a part's prefix, 3 anywhere."""
    if not typed:
        return 0
    if notation == typed:
        return 0
    if notation.startswith(typed) or (compact and _compact(notation).startswith(compact)):
        return 1
    if any(part.startswith(typed) for part in _SEPARATORS.split(notation)):
        return 2
    if typed in notation or (compact and compact in _compact(notation)):
        return 3
    return None


def _natural(text: str) -> tuple[Any, ...]:
    """Sort key that orders d9 before d10."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


def _focus(state: GameState[Any], notations: Sequence[str]) -> list[tuple[int, int]]:
    """Where the action is: the cells of the last move, else the middle of the board."""
    last = state.last_move
    if last is not None:
        try:
            cells = _cells(state.format_move(last))
        except Exception:  # the last move need not be formattable from the new position
            cells = []
        if cells:
            return cells
    every = [cell for notation in notations[:2000] for cell in _cells(notation)]
    if not every:
        return []
    cols = [c for c, _ in every]
    rows = [r for _, r in every]
    return [((min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2)]


def _distance(cells: list[tuple[int, int]], focus: list[tuple[int, int]]) -> int:
    """How far a move's destination (its last cell) is from the focus."""
    if not cells or not focus:
        return 0
    col, row = cells[-1]
    return min(max(abs(col - c), abs(row - r)) for c, r in focus)


def rank_moves(
    state: GameState[Any], notations: Sequence[str], typed: str, limit: int = 25
) -> list[str]:
    """At most `limit` legal notations matching `typed`, best first.

    Order: how well the text matches (exact, prefix, prefix of a part such as the
    destination, anywhere; separators may be left out, so `d3e2` finds `d3-e2`), then
    quick moves such as `return`, then the game's own hint (captures, claims), then
    closeness to the last move (the middle of the board at the start), then shorter
    moves, in natural order.
    """
    typed_norm = " ".join(typed.lower().split())
    compact = _compact(typed_norm)
    quick = set(state.game.quick_moves)
    priority = PRIORITIES.get(state.game.name)
    focus = _focus(state, notations)
    scored = []
    for notation in notations:
        tier = _tier(notation, typed_norm, compact)
        if tier is None:
            continue
        hint = priority(state, notation) if priority is not None else 0
        scored.append(
            (
                tier,
                notation not in quick,
                hint,
                _distance(_cells(notation), focus),
                len(notation),
                _natural(notation),
                notation,
            )
        )
    scored.sort()
    return [entry[-1] for entry in scored[:limit]]
