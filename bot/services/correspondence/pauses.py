"""Clock time with pauses: how much of a stretch counts, and when an allowance runs out.

A pause is a time in which a clock does not run: the player's vacation, or the bot's
downtime. Pauses may overlap; they are merged before use.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True, order=True)
class Pause:
    """A half-open stretch [start, end) in which the clock stands still."""

    start: datetime
    end: datetime


def merged(pauses: Iterable[Pause]) -> list[Pause]:
    """The pauses sorted, with overlapping or touching ones joined; empty ones dropped."""
    result: list[Pause] = []
    for pause in sorted(p for p in pauses if p.end > p.start):
        if result and pause.start <= result[-1].end:
            if pause.end > result[-1].end:
                result[-1] = Pause(result[-1].start, pause.end)
        else:
            result.append(pause)
    return result


def counted(start: datetime, end: datetime, pauses: Iterable[Pause]) -> timedelta:
    """The time from `start` to `end` that is outside every pause (zero if end < start)."""
    if end <= start:
        return timedelta()
    total = end - start
    for pause in merged(pauses):
        overlap = min(end, pause.end) - max(start, pause.start)
        if overlap > timedelta():
            total -= overlap
    return total


def runs_out(start: datetime, allowance: timedelta, pauses: Iterable[Pause]) -> datetime:
    """The moment a clock started at `start` with `allowance` has counted all of it."""
    moment = start
    left = allowance
    for pause in merged(pauses):
        if pause.end <= moment:
            continue
        if pause.start > moment:
            if moment + left <= pause.start:
                return moment + left
            left -= pause.start - moment
        moment = pause.end
    return moment + left


def paused_at(moment: datetime, pauses: Iterable[Pause]) -> Pause | None:
    """The (merged) pause that `moment` falls in, if any."""
    for pause in merged(pauses):
        if pause.start <= moment < pause.end:
            return pause
    return None
