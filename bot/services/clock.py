"""Clocks: the services ask an injected clock for the time, never `datetime.now()`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """A source of the current time."""

    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        """The current time in UTC."""
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to (tests, benchmarks, scripted consoles)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2025, 1, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        """The time this clock was last set to."""
        return self._now

    def advance(self, delta: timedelta) -> datetime:
        """Move the clock forward by `delta`; return the new time."""
        self._now += delta
        return self._now
