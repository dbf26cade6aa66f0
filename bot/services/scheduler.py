"""One loop for background work: every job reads what is due from the database.

Nothing is kept only in memory, so after a restart the first tick finds everything that
became due while the bot was down. Later slices add jobs (reminders, timeouts, rounds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[object]]
"""A background job: does whatever has become due, then returns."""


class Scheduler:
    """Runs its jobs one after another on every tick."""

    def __init__(self, interval: float = 15.0) -> None:
        self.interval = interval
        """Seconds between ticks."""
        self._jobs: list[tuple[str, Job]] = []
        self._stopping = asyncio.Event()

    def add(self, name: str, job: Job) -> None:
        """Run `job` on every tick from now on."""
        self._jobs.append((name, job))

    @property
    def job_names(self) -> list[str]:
        """The names of the jobs, in the order they run."""
        return [name for name, _ in self._jobs]

    def job(self, name: str) -> Job:
        """The job added as `name`."""
        return next(job for added, job in self._jobs if added == name)

    async def tick(self) -> None:
        """Run every job once; a failing job is logged and does not stop the others."""
        for name, job in self._jobs:
            try:
                await job()
            except Exception:
                log.exception("scheduled job %r failed", name)

    async def run_forever(self) -> None:
        """Tick every `interval` seconds until `stop()` (or cancelled)."""
        while not self._stopping.is_set():
            await self.tick()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.interval)

    def stop(self) -> None:
        """End `run_forever` once the tick in progress (if any) is done."""
        self._stopping.set()
