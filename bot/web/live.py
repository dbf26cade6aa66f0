"""Live pages: the visitors watching each game in this process, told of every change.

The repository publishes each committed change of a game (from any process, with
PostgreSQL). For a game with watchers, one refresh reads the game once and builds one
snapshot per kind of visitor (a spectator, each player), then hands each watcher the
snapshot for its seat: the work per change does not grow with the number of watchers.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.storage.repository import GameRecord

log = logging.getLogger(__name__)

Snapshot = Callable[[GameRecord, int | None], Awaitable[dict[str, Any]]]
"""Builds the page's view of a game for a visitor in a seat (None: a spectator)."""
Reader = Callable[[int], Awaitable[GameRecord | None]]


class Watcher:
    """One open page: the latest snapshot not yet sent to it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.pending: bytes | None = None
        self.sent: bytes | None = None
        self.ready = asyncio.Event()
        self.closed = False

    def offer(self, payload: bytes) -> None:
        """Send `payload` (an event, ready to write) next, unless it was sent last."""
        if payload != self.sent:
            self.pending = payload
            self.ready.set()

    def take(self) -> bytes | None:
        """The payload to send now, if any."""
        self.ready.clear()
        payload, self.pending = self.pending, None
        if payload is not None:
            self.sent = payload
        return payload


class _Game:
    """The watchers of one game and its refresh in progress."""

    def __init__(self) -> None:
        self.watchers: set[Watcher] = set()
        self.refreshing: asyncio.Task[None] | None = None
        self.again = False


class LiveGames:
    """Every watched game of this process."""

    def __init__(self, read: Reader, snapshot: Snapshot) -> None:
        self._read = read
        self._snapshot = snapshot
        self._games: dict[int, _Game] = {}
        self.closing = False

    @property
    def watchers(self) -> int:
        """How many pages are open."""
        return sum(len(game.watchers) for game in self._games.values())

    def changed(self, game_id: int | None) -> None:
        """A game changed (None: any may have): refresh its watchers."""
        targets = list(self._games) if game_id is None else [game_id]
        for target in targets:
            game = self._games.get(target)
            if game is None:
                continue
            if game.refreshing is not None and not game.refreshing.done():
                game.again = True
                continue
            game.refreshing = asyncio.get_running_loop().create_task(self._refresh(target, game))

    async def _refresh(self, game_id: int, game: _Game) -> None:
        while True:
            game.again = False
            try:
                record = await self._read(game_id)
                if record is not None:
                    # One event per kind of visitor, encoded once for all its watchers.
                    payloads: dict[int | None, bytes] = {}
                    for watcher in list(game.watchers):
                        if watcher.seat not in payloads:
                            snapshot = await self._snapshot(record, watcher.seat)
                            text = json.dumps(snapshot, separators=(",", ":"))
                            payloads[watcher.seat] = f"data: {text}\n\n".encode()
                        watcher.offer(payloads[watcher.seat])
            except Exception:
                log.exception("refreshing the watchers of game %s failed", game_id)
            if not game.again:
                return

    @asynccontextmanager
    async def watching(self, game_id: int, seat: int | None) -> AsyncIterator[Watcher]:
        """Register a page watching `game_id` for as long as the block runs."""
        watcher = Watcher(seat)
        game = self._games.setdefault(game_id, _Game())
        game.watchers.add(watcher)
        try:
            yield watcher
        finally:
            watcher.closed = True
            game.watchers.discard(watcher)
            if not game.watchers and self._games.get(game_id) is game:
                del self._games[game_id]

    def close(self) -> None:
        """Wake every watcher so that its page's stream ends."""
        self.closing = True
        for game in self._games.values():
            for watcher in game.watchers:
                watcher.ready.set()
