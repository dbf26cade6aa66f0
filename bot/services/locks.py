"""Per-resource asyncio locks: one lock per game id, created on demand."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from weakref import WeakValueDictionary

from bot.services.gate import Gate


class KeyedLocks:
    """Hands out one `asyncio.Lock` per key; a lock nobody holds is forgotten.

    With a `Gate`, holding a lock counts as work in progress, and once the gate closes for
    shutdown, only work admitted before may take a lock (others get `ShuttingDownError`).
    """

    def __init__(self, gate: Gate | None = None) -> None:
        self._locks: WeakValueDictionary[Hashable, asyncio.Lock] = WeakValueDictionary()
        self._gate = gate

    def lock(self, key: Hashable) -> asyncio.Lock:
        """The lock for `key` itself."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    @asynccontextmanager
    async def __call__(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the lock for `key`: `async with locks(game_id): ...`."""
        if self._gate is None:
            async with self.lock(key):
                yield
            return
        async with self._gate.enter(), self.lock(key):
            yield

    def __len__(self) -> int:
        return len(self._locks)
