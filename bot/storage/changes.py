"""`GameChanges`: who wants to hear that a game (its row or its clock) was changed.

The databases publish here after each commit that changed games: SQLite from triggers
on its one writing connection, PostgreSQL from `LISTEN tabula_games` (so a change made by
any process reaches every process). A change is only a hint: a listener reads the game
again and compares versions, so a spurious one costs a read and nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

Listener = Callable[[int | None], None]
"""Called with a game's number, or None when any game may have changed (a reconnect)."""


class GameChanges:
    """Listeners of game changes, called synchronously (they must not block)."""

    def __init__(self) -> None:
        self._listeners: dict[int, Listener] = {}
        self._next = 0

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` on every change from now on; returns how to stop."""
        key = self._next
        self._next += 1
        self._listeners[key] = listener

        def unsubscribe() -> None:
            self._listeners.pop(key, None)

        return unsubscribe

    def publish(self, game_ids: Iterable[int | None]) -> None:
        """Tell every listener of these changes (None: any game)."""
        ids = set(game_ids)
        for listener in list(self._listeners.values()):
            for game_id in ids:
                try:
                    listener(game_id)
                except Exception:
                    log.exception("a game change listener failed")

    def __len__(self) -> int:
        return len(self._listeners)
