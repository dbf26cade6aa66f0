"""Ranking legal moves for autocomplete: what matches the typed text, most useful first."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rules import GameError, GameState
from rules.squares import parse_point

_CELL = re.compile(r"([a-z])(\d{1,2})")
_SEPARATORS = re.compile(r"[\s\-x:,]+")

Priority = Callable[[GameState[Any], str], int]
"""A per-game ranking hint: lower numbers are offered first (e.g. captures, claims)."""


def _point(state: GameState[Any], name: str) -> tuple[int, int] | None:
    """(col, row) of a square-board cell name such as `d13`, or None."""
    size = getattr(state, "size", 19)
    try:
        return parse_point(name, size, size)
    except GameError:
        return None


def _diffusion_capture(state: GameState[Any], notation: str) -> int:
    """Diffusion Chess: a path ending on an opponent's stone is a capture (offered first)."""
    end = _point(state, notation.rsplit("-", 1)[-1])
    stone_at = getattr(state, "stone_at", None)
    if end is None or stone_at is None:
        return 1
    return 0 if stone_at(*end) == 1 - state.to_move else 1


def _stones_capture(state: GameState[Any], notation: str) -> int:
    """Stones: a placement next to an opponent group in atari captures it (offered first)."""
    point = _point(state, notation)
    stone_at = getattr(state, "stone_at", None)
    liberties = getattr(state, "liberties", None)
    if point is None or stone_at is None or liberties is None:
        return 1
    size = getattr(state, "size", 19)
    col, row = point
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        c, r = col + dc, row + dr
        on_board = 0 <= c < size and 0 <= r < size
        if on_board and stone_at(c, r) == 1 - state.to_move and liberties(c, r) == 1:
            return 0
    return 1


def _rekushu_claim(state: GameState[Any], notation: str) -> int:
    """Rekushu: a placement with a claim (`d13 c10-f13`) is offered before a plain one."""
    return 0 if " " in notation else 1


PRIORITIES: dict[str, Priority] = {
    "diffusion": _diffusion_capture,
    "stones": _stones_capture,
    "rekushu": _rekushu_claim,
}
"""Per-game hints by game name; games without one are ranked by the generic rules only."""


def _cells(notation: str) -> list[tuple[int, int]]:
    """The (column, row) of every cell named in a notation, in order."""
    return [(ord(letter) - ord("a"), int(row)) for letter, row in _CELL.findall(notation)]


def _compact(text: str) -> str:
    return _SEPARATORS.sub("", text)


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


class MoveIndex:
    """A position's legal moves in the order offered when nothing is typed, ready to filter.

    Built once per position (ranking thousands of Diffusion Chess paths takes a while);
    each keystroke then only filters.

    The order: quick moves such as `return` first, then the game's own hint (captures,
    claims), then closeness to the last move (the middle of the board at the start),
    then shorter moves, in natural order (d9 before d10).
    """

    def __init__(self, state: GameState[Any], notations: Sequence[str]) -> None:
        quick = set(state.game.quick_moves)
        priority = PRIORITIES.get(state.game.name)
        focus = _focus(state, notations)

        def key(notation: str) -> tuple[Any, ...]:
            hint = priority(state, notation) if priority is not None else 0
            distance = _distance(_cells(notation), focus)
            return (notation not in quick, hint, distance, len(notation), _natural(notation))

        self.ordered = sorted(notations, key=key)
        """Every legal move, best first."""
        self._legal = frozenset(notations)
        self._compact = [_compact(notation) for notation in self.ordered]
        self._parts = [tuple(_SEPARATORS.split(notation)) for notation in self.ordered]
        self._longest = max((len(notation) for notation in self.ordered), default=0)

    def rank(self, typed: str, limit: int = 25, max_length: int | None = None) -> list[str]:
        """At most `limit` moves matching `typed`: the exact move, then moves starting
        with it (separators may be left out: `d3e2` finds `d3-e2`), then moves with a
        part starting with it (the destination), then moves containing it. Moves longer
        than `max_length` are left out (Discord's choices hold 100 characters)."""
        text = " ".join(typed.lower().split())
        longest = max_length if max_length is not None else self._longest
        if not text:
            return [notation for notation in self.ordered if len(notation) <= longest][:limit]
        compact = _compact(text)
        exact = [text] if text in self._legal and len(text) <= longest else []
        prefix: list[str] = []
        part: list[str] = []
        inside: list[str] = []
        for notation, packed, parts in zip(self.ordered, self._compact, self._parts, strict=True):
            if notation == text or len(notation) > longest:
                continue
            if notation.startswith(text) or (compact and packed.startswith(compact)):
                prefix.append(notation)
                if len(exact) + len(prefix) >= limit:
                    break
            elif len(part) < limit and any(p.startswith(text) for p in parts):
                part.append(notation)
            elif len(inside) < limit and (text in notation or (compact and compact in packed)):
                inside.append(notation)
        return (exact + prefix + part + inside)[:limit]


def rank_moves(
    state: GameState[Any],
    notations: Sequence[str],
    typed: str,
    limit: int = 25,
    max_length: int | None = None,
) -> list[str]:
    """At most `limit` legal notations matching `typed`, best first (see `MoveIndex`)."""
    return MoveIndex(state, notations).rank(typed, limit, max_length)
