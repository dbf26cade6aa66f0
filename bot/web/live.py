"""Live pages: the visitors watching each game in this process, told of every change.

The repository publishes each committed change of a game (from any process, with
PostgreSQL). For a game with watchers, one refresh reads the game once and builds one
snapshot per kind of visitor (a spectator, each player), then points each watcher at the
snapshot for its seat. What a watcher's page is sent is a patch from the snapshot it
holds to that one (`patches.patch`: the fields that changed, the board as a few edits),
made and encoded once for all the watchers holding the same snapshot: the work per
change does not grow with the number of watchers, and neither do the bytes per watcher
with the size of the board. A watcher that falls behind skips to the latest snapshot.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.storage.repository import GameRecord
from bot.web.patches import patch

log = logging.getLogger(__name__)

Snapshot = Callable[[GameRecord, int | None], Awaitable[dict[str, Any]]]
"""Builds the page's view of a game for a visitor in a seat (None: a spectator)."""
Reader = Callable[[int], Awaitable[GameRecord | None]]

_serials = itertools.count(1)


@dataclass(frozen=True, eq=False)
class Held:
    """A snapshot of a game for one kind of visitor, numbered so that patches between two
    of them can be remembered."""

    serial: int
    snapshot: dict[str, Any]


def encode(data: dict[str, Any], board_id: str | None = None) -> bytes:
    """One Server-Sent Event carrying `data` as JSON; its id names the board it leaves the
    page with, which the browser sends back when it reconnects (`Last-Event-ID`)."""
    text = json.dumps(data, separators=(",", ":"))
    head = f"id: {board_id}\n" if board_id else ""
    return f"{head}data: {text}\n\n".encode()


class Watcher:
    """One open page: the snapshot its page holds, and the latest one for its seat."""

    def __init__(self, seat: int | None, board: str | None = None) -> None:
        self.seat = seat
        self.board = board
        """The board the page holds already (by `board_id`), before its first event."""
        self.held: Held | None = None
        self.target: Held | None = None
        self.ready = asyncio.Event()
        self.ended: str | None = None
        """Why the page may no longer watch (its stream ends with this), if it may not."""
        self.beat = False
        """Whether the page is due a keep-alive."""

    def aim(self, target: Held) -> None:
        """Bring the page to `target` next."""
        self.target = target
        self.ready.set()

    def heartbeat(self) -> None:
        """Send the page a keep-alive (a page gone is noticed when writing to it)."""
        self.beat = True
        self.ready.set()

    def end(self, why: str) -> None:
        """End this page's stream, telling it `why`."""
        self.ended = why
        self.ready.set()


class _Game:
    """The watchers of one game, its refresh in progress and the recent patches."""

    def __init__(self) -> None:
        self.watchers: set[Watcher] = set()
        self.refreshing: asyncio.Task[None] | None = None
        self.again = False
        self.events: dict[tuple[Any, int], bytes | None] = {}
        """Encoded events by (what the page holds, the snapshot it gets)."""


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

    def watched(self) -> list[tuple[int, list[Watcher]]]:
        """The games watched and their watchers."""
        return [(game_id, list(game.watchers)) for game_id, game in self._games.items()]

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
                    latest: dict[int | None, Held] = {}
                    for seat in {watcher.seat for watcher in game.watchers}:
                        latest[seat] = Held(next(_serials), await self._snapshot(record, seat))
                    game.events = {}
                    for watcher in list(game.watchers):
                        if watcher.seat in latest:
                            watcher.aim(latest[watcher.seat])
            except Exception:
                log.exception("refreshing the watchers of game %s failed", game_id)
            if not game.again:
                return

    def take(self, game_id: int, watcher: Watcher) -> bytes | None:
        """The event that brings `watcher`'s page to its latest snapshot, if anything
        changed for it (and then, it holds that snapshot)."""
        watcher.ready.clear()
        target, held = watcher.target, watcher.held
        if target is None or target is held:
            return None
        game = self._games.get(game_id)
        events = game.events if game is not None else {}
        has_board = watcher.board == target.snapshot["board_id"]
        base: Any = held.serial if held is not None else ("full", has_board)
        key = (base, target.serial)
        if key not in events:
            events[key] = self._event(held, target, watcher.board)
        watcher.held = target
        return events[key]

    @staticmethod
    def _event(held: Held | None, target: Held, board: str | None) -> bytes | None:
        snapshot = target.snapshot
        if held is None:
            # The first event is the whole snapshot, but for the board the page has.
            full = {"full": True, **snapshot}
            if board == snapshot["board_id"]:
                del full["board"]
            return encode(full, snapshot["board_id"])
        found = patch(held.snapshot, snapshot)
        return None if found is None else encode(found, snapshot["board_id"])

    @asynccontextmanager
    async def watching(
        self, game_id: int, seat: int | None, board: str | None = None
    ) -> AsyncIterator[Watcher]:
        """Register a page watching `game_id` for as long as the block runs; `board`: the
        board it holds already."""
        watcher = Watcher(seat, board)
        game = self._games.setdefault(game_id, _Game())
        game.watchers.add(watcher)
        try:
            yield watcher
        finally:
            game.watchers.discard(watcher)
            if not game.watchers and self._games.get(game_id) is game:
                del self._games[game_id]

    async def close(self) -> None:
        """Wake every watcher so that its page's stream ends; stop the refreshes."""
        self.closing = True
        refreshing = []
        for game in self._games.values():
            for watcher in game.watchers:
                watcher.ready.set()
            if game.refreshing is not None and not game.refreshing.done():
                game.refreshing.cancel()
                refreshing.append(game.refreshing)
        await asyncio.gather(*refreshing, return_exceptions=True)
