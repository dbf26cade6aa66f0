"""`Background`: work a request sets off but must not wait for (pairing a round).

Discord wants an answer to a command within three seconds; starting a tournament round
creates a thread per game and can take longer, so the services hand such work here. It
runs as tracked tasks whose failures are logged. Everything it does is also recorded
in the database and picked up by a scheduler job, so work lost in a crash is redone.

`deferred=True` queues the work until `settle()` instead (the console, whose output
must come in a fixed order).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[object]]
"""A piece of background work."""


class Background:
    """Runs work after the current request, tracked so it can be awaited."""

    def __init__(self, *, deferred: bool = False) -> None:
        self.deferred = deferred
        self._queue: list[tuple[str, Work]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def run(self, name: str, work: Work) -> None:
        """Start `work` now as a task, or queue it when deferred."""
        if self.deferred:
            self._queue.append((name, work))
            return
        task = asyncio.get_running_loop().create_task(self._guarded(name, work), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Run the queued work and wait for every task, including work they start."""
        while self._queue or self._tasks:
            if self._queue:
                name, work = self._queue.pop(0)
                await self._guarded(name, work)
            else:
                await asyncio.wait(set(self._tasks))

    @property
    def pending(self) -> int:
        """Work queued or running."""
        return len(self._queue) + len(self._tasks)

    async def close(self) -> None:
        """Cancel running tasks and drop queued work (at shutdown)."""
        self._queue.clear()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks))

    @staticmethod
    async def _guarded(name: str, work: Work) -> None:
        try:
            await work()
        except Exception:
            log.exception("background work %r failed", name)
