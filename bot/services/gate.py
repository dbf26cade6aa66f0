"""`Gate`: counts the work in progress, and once closed for shutdown lets no new work in.

Front ends admit each request at the door (a command, a click); services enter the gate
again around each change to a game (with its lock). Work admitted before the gate closed
runs to the end, including what it enters later and the tasks it starts; anything new
is refused with `ShuttingDownError`, whose message the front ends show like any other
refusal. Shutdown closes the gate and waits until nothing is in progress.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.services.errors import ServiceError

RESTARTING = "Tabula is restarting. Please try again in a minute."


class ShuttingDownError(ServiceError):
    """The bot is shutting down and takes no new requests."""

    def __init__(self, message: str = RESTARTING) -> None:
        super().__init__(message)


class Gate:
    """Admits work while open; counts what is in progress; waits for it to finish."""

    def __init__(self) -> None:
        self._closed = False
        self._active = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._admitted: contextvars.ContextVar[bool] = contextvars.ContextVar(
            "tabula_gate_admitted", default=False
        )

    @property
    def closed(self) -> bool:
        """True once shutdown began."""
        return self._closed

    @property
    def active(self) -> int:
        """How many pieces of work are in progress."""
        return self._active

    def _check(self) -> None:
        if self._closed and not self._admitted.get():
            raise ShuttingDownError

    def _start(self) -> None:
        self._active += 1
        self._idle.clear()

    def _finish(self) -> None:
        self._active -= 1
        if self._active == 0:
            self._idle.set()

    @asynccontextmanager
    async def enter(self) -> AsyncIterator[None]:
        """Count the block as work in progress; refuse it if the gate closed before and
        it is not part of work admitted earlier."""
        self._check()
        self._start()
        token = self._admitted.set(True)
        try:
            yield
        finally:
            self._admitted.reset(token)
            self._finish()

    def admit_current_task(self) -> None:
        """Count the running task as work in progress until it ends (for front ends whose
        handlers cannot be wrapped in `enter`, such as discord.py's command tree)."""
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("admit_current_task() needs a running task")
        if self._admitted.get():
            return
        self._check()
        self._start()
        self._admitted.set(True)
        task.add_done_callback(lambda _: self._finish())

    def close(self) -> None:
        """Refuse new work from now on (work already admitted goes on)."""
        self._closed = True

    async def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no work is in progress; False if `timeout` seconds passed first."""
        if self._idle.is_set():  # also with a timeout of 0
            return True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True
