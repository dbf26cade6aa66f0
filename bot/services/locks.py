"""Per-resource asyncio locks: one lock per game id, created on demand."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from weakref import WeakValueDictionary


class KeyedLocks:
    """Hands out one `asyncio.Lock` per key; a lock nobody holds is forgotten."""

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[Hashable, asyncio.Lock] = WeakValueDictionary()

    def __call__(self, key: Hashable) -> asyncio.Lock:
        """The lock for `key` (use it as `async with locks(game_id): ...`)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def __len__(self) -> int:
        return len(self._locks)
