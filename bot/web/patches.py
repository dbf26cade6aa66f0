"""Live updates kept small: what changed between the snapshot a page holds and the
current one, with the board as a few edits of its markup rather than the whole of it.

A board's SVG is up to 30 KB on the largest boards; a move changes a few of its
elements. The markup is cut before each `<` into pieces, and the edits replace runs of
pieces (the page cuts its copy the same way and applies them). A page applies a patch
only to the snapshot it was made from: it checks `board_from` against the board it holds.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from difflib import SequenceMatcher
from typing import Any

LISTS = frozenset({"board", "board_id", "moves", "clocks"})
"""Snapshot fields compared in their own way (the rest are compared as values)."""
CLOCK_SLACK = timedelta(seconds=1)
"""A running clock read again later is the same clock if it runs out at the same time,
give or take this (the seconds are rounded)."""


def board_id(svg: str) -> str:
    """A short name of a board's markup: equal markup, equal name."""
    return hashlib.blake2b(svg.encode(), digest_size=8).hexdigest()


def board_edits(old: str, new: str) -> list[list[Any]]:
    """Edits turning `old` into `new`: `[start, end, pieces]` replaces pieces `start` to
    `end` (exclusive) of `old` cut before each `<` with `pieces`, in increasing order."""
    before, after = old.split("<"), new.split("<")
    matcher = SequenceMatcher(None, before, after)
    return [
        [i1, i2, after[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def apply_edits(old: str, edits: list[list[Any]]) -> str:
    """`old` with `edits` applied (what the page's script does)."""
    pieces = old.split("<")
    for start, end, added in reversed(edits):
        pieces[start:end] = added
    return "<".join(pieces)


def same_clocks(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    """Whether two readings of the clocks show the same clocks: the same seat running
    and, for it, the same moment it runs out; the same time for the others."""
    if old is None or new is None:
        return old is new
    running = new["running"]
    if running != old["running"]:
        return False
    if any(
        a != b
        for seat, (a, b) in enumerate(zip(old["left"], new["left"], strict=True))
        if seat != running
    ):
        return False
    if running is None:
        return bool(old["left"] == new["left"])
    ends_old = datetime.fromisoformat(old["at"]) + timedelta(seconds=old["left"][running])
    ends_new = datetime.fromisoformat(new["at"]) + timedelta(seconds=new["left"][running])
    return abs(ends_new - ends_old) <= CLOCK_SLACK


def patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """What a page holding snapshot `old` needs to hold `new`, or None if nothing changed.

    Changed fields come with their new value; `drop` lists fields `new` no longer has;
    `moves_at` and `moves_add` cut the move list to its first `moves_at` moves, then add
    some; `board_edits` (see `board_edits`) turn the board named `board_from` into the
    one named `board_id`, unless the whole `board` is shorter.
    """
    out: dict[str, Any] = {}
    for key, value in new.items():
        if key not in LISTS and (key not in old or old[key] != value):
            out[key] = value
    dropped = [key for key in old if key not in new and key not in LISTS]
    if dropped:
        out["drop"] = dropped
    if not same_clocks(old.get("clocks"), new.get("clocks")):
        out["clocks"] = new.get("clocks")
    before, after = old["moves"], new["moves"]
    common = 0
    while common < min(len(before), len(after)) and before[common] == after[common]:
        common += 1
    if common < len(before) or common < len(after):
        out["moves_at"] = common
        out["moves_add"] = after[common:]
    if old["board_id"] != new["board_id"]:
        edits = board_edits(old["board"], new["board"])
        out["board_id"] = new["board_id"]
        if sum(len(piece) + 1 for _, _, added in edits for piece in added) < len(new["board"]):
            out["board_from"] = old["board_id"]
            out["board_edits"] = edits
        else:
            out["board"] = new["board"]
    return out or None
