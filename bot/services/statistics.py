"""Keeping the database's query statistics current while the bot runs."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.services.clock import Clock
from bot.storage.repository import Repository

OPTIMIZE_EVERY = timedelta(hours=1)
"""How often the planner's statistics are refreshed (`Repository.optimize`)."""


class PlannerStatistics:
    """Runs the repository's `optimize` once an hour (it also runs when the database is
    opened), so that the query planner knows how the tables grew."""

    def __init__(self, repository: Repository, clock: Clock) -> None:
        self._repository = repository
        self._clock = clock
        self._last: datetime = clock.now()

    async def keep_current(self) -> None:
        """The scheduler's job: optimize when an hour has passed since the last time."""
        now = self._clock.now()
        if now - self._last < OPTIMIZE_EVERY:
            return
        self._last = now
        await self._repository.optimize()
