"""`Outbox` and `Dispatcher`: what is stored is told, exactly once, across crashes and faults.

Services write announcements (`bot.services.announcing.announcements`) with `Outbox.add`, inside
the transaction that makes the change they report. The `Dispatcher` delivers them through
the front end's `Notifier`: in order per stream (a game, a user, a tournament), with
retries and backoff, each marked delivered with the message it produced. After a
restart it resumes with what is still pending. An announcement that cannot be delivered
(a deleted channel, missing permissions, too many failures) is parked with the reason
(`tabula doctor` shows it) and its players are told by direct message.

An interaction that changes a game usually answers with the same message itself (the
fast path): while the service runs inside `Outbox.replying(handle)`, the first row it
writes for the place the interaction came from is held for the interaction's front end
for `REPLY_LEASE`, carrying the handle, and collected for it. The front end then delivers
them as its answer (`delivered`) or gives them back (`release`) for the dispatcher to
post instead. A dispatcher taking over a held row after a crash can ask Discord whether
the interaction's answer exists (the handle says how), so nothing is posted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from bot.services.announcing.announcements import ANSWERABLE
from bot.services.clock import Clock
from bot.storage.repository import (
    Announcement,
    NewAnnouncement,
    Repository,
    ShardFilter,
)

log = logging.getLogger(__name__)

REPLY_LEASE = timedelta(seconds=30)
"""How long an interaction's front end holds the announcements it answers."""
CLAIM_LEASE = timedelta(minutes=2)
"""How long a dispatcher holds an announcement while delivering it."""
ATTEMPT_TIMEOUT = 90.0
"""Seconds one delivery attempt may take (within the claim's lease)."""
BACKOFF = (2, 5, 15, 30, 60, 120, 300, 600, 900)
"""Seconds before the next attempt after each failure; then the announcement is parked."""
MAX_ATTEMPTS = len(BACKOFF) + 1


class Refusal(enum.StrEnum):
    """What kind of refusal stopped a delivery (the players are told accordingly)."""

    ACCESS = "access"
    """Permissions: a moderator can give them back."""
    NO_ACCESS = "no_access"
    """The channel cannot be seen at all (Discord's Missing Access): permissions, or
    Tabula is no longer in the server."""
    CLOSED = "closed"
    """A locked (or archived) thread that only a moderator can reopen."""
    GONE = "gone"
    """What it was for no longer exists (a deleted channel or message)."""
    OTHER = "other"


class DeliveryRefused(Exception):
    """The front end cannot deliver this announcement and retrying will not help
    (a deleted channel, missing permissions); the message says why, for people."""

    def __init__(self, message: str, kind: Refusal = Refusal.OTHER) -> None:
        super().__init__(message)
        self.kind = kind


class NowhereToPost(DeliveryRefused):
    """A game's place is gone (its channel deleted) and there is nowhere to move it: the
    game is suspended until a place is named, and the announcement waits for it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, Refusal.GONE)


class NotYet(Exception):
    """Too early to deliver this announcement (what it shows is still being stored);
    it is tried again shortly, without counting as a failed attempt."""


@dataclass(frozen=True)
class ReplyHandle:
    """An interaction that can answer announcements itself."""

    channel_id: int
    """Where the interaction came from: only announcements for there are its to answer."""
    data: Mapping[str, Any]
    """What its front end needs to find the answer again after a crash (stored)."""


@dataclass
class Replying:
    """The announcements written while a reply handle was in effect."""

    handle: ReplyHandle
    task: asyncio.Task[Any] | None = None
    """The task answering the interaction: tasks it starts (a computer's reply) copy the
    context, but what they write is not this interaction's to answer."""
    rows: list[Announcement] = field(default_factory=list)
    """The ones held for the interaction to answer, oldest first."""
    others: list[Announcement] = field(default_factory=list)
    """The others (for other places, direct messages), oldest first."""


_replying: ContextVar[Replying | None] = ContextVar("tabula_replying", default=None)


class Outbox:
    """Writes announcements with the changes they report, and settles the fast path."""

    def __init__(self, repository: Repository, clock: Clock, *, owner: str = "tabula") -> None:
        self._repository = repository
        self._clock = clock
        self.name = owner
        """The deliverer's name: the same for every run of this process (its shards)."""
        self.owner = f"{owner}/{secrets.token_hex(4)}"
        """Who holds announcements for this run's interactions and deliveries: a restart
        takes back what an earlier run held, never what this one holds."""
        self._listeners: list[asyncio.Event] = []
        self.inline: Callable[[], Awaitable[object]] | None = None
        """Delivers what is waiting; when set, `committed()` calls it instead of waking
        a dispatcher running in the background."""

    @contextlib.contextmanager
    def replying(self, handle: ReplyHandle) -> Iterator[Replying]:
        """Collect, and hold for the interaction, what is written for its place meanwhile."""
        replying = Replying(handle, asyncio.current_task())
        token = _replying.set(replying)
        try:
            yield replying
        finally:
            _replying.reset(token)

    async def add(self, rows: Sequence[NewAnnouncement]) -> list[Announcement]:
        """Store announcements (call inside the transaction of the change they report)."""
        replying = _replying.get()
        if replying is not None and replying.task is not asyncio.current_task():
            replying = None
        now = self._clock.now()
        held: list[NewAnnouncement] = []
        free: list[NewAnnouncement] = []
        for row in rows:
            # An interaction answers with one announcement at most: its original response
            # is the one message a dispatcher taking over after a crash can find again.
            # Anything more for its place (a conditional reply) goes to the dispatcher,
            # which posts it after the answer (a stream keeps its order).
            first = replying is not None and not replying.rows and not held
            if first and replying is not None and _answers(replying.handle, row):
                held.append(_with_reply(row, replying.handle))
            else:
                free.append(row)
        stored = []
        if held:
            taken = await self._repository.add_announcements(
                held, now, claimed_by=self.owner, lease_until=now + REPLY_LEASE
            )
            assert replying is not None
            replying.rows.extend(taken)
            stored += taken
        if free:
            added = await self._repository.add_announcements(free, now)
            if replying is not None:
                replying.others.extend(added)
            stored += added
        return stored

    async def committed(self) -> None:
        """New announcements were committed: wake the dispatchers, or with `inline` set
        (the console, tests), deliver them before going on. Call it outside any
        transaction."""
        if self.inline is not None:
            await self.inline()
        else:
            self.wake()

    def wake(self) -> None:
        """Tell the dispatchers that new announcements may be waiting."""
        for event in self._listeners:
            event.set()

    def listen(self) -> asyncio.Event:
        """An event set whenever `wake()` is called."""
        event = asyncio.Event()
        self._listeners.append(event)
        return event

    async def delivered(self, announcement: Announcement, message_id: int | None) -> None:
        """The interaction answered it: it is delivered."""
        await self._repository.deliver_announcement(announcement.id, message_id, self._clock.now())
        self.wake()

    async def release(self, announcement: Announcement) -> None:
        """The interaction could not answer it: the dispatcher delivers it now."""
        await self._repository.retry_announcement(
            announcement.id, self._clock.now(), "the interaction's answer failed"
        )
        self.wake()


def _answers(handle: ReplyHandle, row: NewAnnouncement) -> bool:
    return row.kind in ANSWERABLE and row.data.get("location") == handle.channel_id


def _with_reply(row: NewAnnouncement, handle: ReplyHandle) -> NewAnnouncement:
    return replace(row, reply=handle.data)


def backoff(attempts: int, rng: random.Random | None = None) -> timedelta:
    """How long to wait after the `attempts`-th failed attempt (with a little jitter)."""
    base = BACKOFF[min(attempts, len(BACKOFF)) - 1]
    jitter = (rng or random).uniform(0, base / 10)
    return timedelta(seconds=base + jitter)


__all__ = [
    "ATTEMPT_TIMEOUT",
    "CLAIM_LEASE",
    "MAX_ATTEMPTS",
    "REPLY_LEASE",
    "DeliveryRefused",
    "NotYet",
    "NowhereToPost",
    "Outbox",
    "Refusal",
    "ReplyHandle",
    "Replying",
    "ShardFilter",
    "backoff",
]
