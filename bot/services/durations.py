"""Durations and time controls written as text: `30m`, `12h`, `1d12h`, `7d+1d max 10d`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from bot.services.errors import InvalidInputError

_UNITS = {"w": timedelta(weeks=1), "d": timedelta(days=1), "h": timedelta(hours=1),
          "m": timedelta(minutes=1), "s": timedelta(seconds=1)}  # fmt: skip
_PART = re.compile(r"(\d+)\s*([wdhms])")
MAX_DURATION = timedelta(days=365)
"""The longest duration anything takes (a clock, a vacation, a wait): far-off dates
would break the date arithmetic."""
_DURATION = re.compile(r"(?:\d+\s*[wdhms]\s*)+")


def parse_duration(text: str) -> timedelta:
    """Parse `1d12h`, `30m`, `2w` (units w, d, h, m, s); raise `InvalidInputError` otherwise."""
    cleaned = text.strip().lower()
    if not cleaned or not _DURATION.fullmatch(cleaned):
        raise InvalidInputError(
            f"{quoted(text)} is not a duration: write a number and a unit "
            "(w, d, h, m or s), like 30m, 12h or 1d12h"
        )
    total = timedelta()
    for amount, unit in _PART.findall(cleaned):
        digits = amount.lstrip("0") or "0"
        if len(digits) <= 6:
            total += int(digits) * _UNITS[unit]
        if len(digits) > 6 or total > MAX_DURATION:
            raise InvalidInputError(
                f"{quoted(text)} is too long: a duration is at most {format_span(MAX_DURATION)}"
            )
    if total <= timedelta():
        raise InvalidInputError(
            f"{quoted(text)} is no time at all: a duration must be longer than zero."
        )
    return total


def quoted(text: str, limit: int = 30) -> str:
    """What the player typed, quoted for a message (cut when long)."""
    cleaned = text.strip()
    return repr(cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…")


def format_span(delta: timedelta, parts: int = 4) -> str:
    """A duration for reading, spelled one way in every message: units from the largest,
    separated by spaces ("2d 5h", "1h 30m", "45s"), at most `parts` of them from the
    largest present, the rest cut (never rounded up: a clock never shows more time than
    is left); "0s" for none. `parse_duration` reads it back when nothing was cut."""
    seconds = max(0, int(delta.total_seconds()))
    amounts = []
    for unit in ("d", "h", "m", "s"):
        size = int(_UNITS[unit].total_seconds())
        amounts.append((seconds // size, unit))
        seconds %= size
    first = next((i for i, (amount, _) in enumerate(amounts) if amount), len(amounts) - 1)
    shown = amounts[first : first + parts]
    return " ".join(f"{amount}{unit}" for amount, unit in shown if amount) or "0s"


def format_duration(delta: timedelta) -> str:
    """The compact text `parse_duration` reads back as `delta` (whole seconds), "1d12h":
    only for text meant to be typed back (a time control's option value, the settings
    file); messages write durations with `format_span`."""
    seconds = int(delta.total_seconds())
    if seconds <= 0:
        return "0s"
    parts = []
    for unit in ("d", "h", "m", "s"):
        size = int(_UNITS[unit].total_seconds())
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time players have: none, a fixed time per move, or a capped increment."""

    per_move: timedelta | None = None
    """Correspondence: this much time for every move, the clock resetting after each."""
    initial: timedelta | None = None
    """Capped increment: the starting bank."""
    increment: timedelta | None = None
    """Capped increment: added to the bank after each move."""
    cap: timedelta | None = None
    """Capped increment: the bank never grows beyond this."""

    @property
    def is_none(self) -> bool:
        """True when the game has no clock."""
        return self.per_move is None and self.initial is None

    def __str__(self) -> str:
        if self.per_move is not None:
            return format_duration(self.per_move)
        if self.initial is not None and self.increment is not None and self.cap is not None:
            return (
                f"{format_duration(self.initial)}+{format_duration(self.increment)} "
                f"max {format_duration(self.cap)}"
            )
        return "none"

    def describe(self) -> str:
        """The time control in words, for boards and challenges (`str` is the compact form
        typed in options)."""
        if self.per_move is not None:
            return f"{format_span(self.per_move)} per move"
        if self.initial is not None and self.increment is not None and self.cap is not None:
            return (
                f"{format_span(self.initial)} + {format_span(self.increment)} a move, "
                f"at most {format_span(self.cap)}"
            )
        return "no clock"


_INCREMENT = re.compile(r"(?P<initial>[^+]+)\+(?P<increment>.+?)\s+max\s+(?P<cap>.+)")


def parse_time_control(text: str) -> TimeControl:
    """Parse `none`, `3d` (per move) or `7d+1d max 10d`; raise `InvalidInputError` otherwise."""
    cleaned = text.strip().lower()
    if cleaned in ("", "none", "off", "no"):
        return TimeControl()
    match = _INCREMENT.fullmatch(cleaned)
    if match is None:
        if "+" in cleaned:
            raise InvalidInputError(
                f"{quoted(text)} is not a time control: write none, a time per move "
                "like 3d, or bank+increment with a cap like 7d+1d max 10d"
            )
        return TimeControl(per_move=parse_duration(cleaned))
    initial = parse_duration(match["initial"])
    increment = parse_duration(match["increment"])
    cap = parse_duration(match["cap"])
    if cap < initial:
        raise InvalidInputError(
            f"The cap ({format_span(cap)}) must be at least the initial time "
            f"({format_span(initial)})."
        )
    if increment >= cap:
        raise InvalidInputError(
            f"The increment ({format_span(increment)}) is not less than the cap "
            f"({format_span(cap)}), so every move would fill the bank to the cap: "
            f"for that, give a time per move like {format_duration(cap)}."
        )
    return TimeControl(initial=initial, increment=increment, cap=cap)
