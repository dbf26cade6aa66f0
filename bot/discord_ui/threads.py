"""Game threads: opening one of the right type, and keeping it open for the whole game.

Discord archives a thread after at most a week without activity, and in an archived
thread nobody can run a command or click a button. Correspondence games can stay
silent longer than that (clocks like `7d+1d max 10d`, vacations), so `ThreadKeeper`, a
scheduler job, looks at the thread of every game in progress once an hour: a thread
close to archiving is touched (its archive duration changed and set back, which Discord
counts as activity), an archived one is unarchived. A thread moderators locked is left
alone. It reads each thread's last activity from Discord (its last message and archive
timestamp), so nothing is stored for it.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Literal

import discord

from bot.services.clock import Clock
from bot.services.games.games import GameService
from bot.storage.repository import ShardFilter

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""Game threads archive after a week without messages, the longest Discord allows."""
TOUCH_MINUTES: Literal[4320] = 4320
"""The archive duration a thread is switched to and back from, to count as activity."""
CHECK_EVERY = timedelta(hours=1)
"""How often the threads of games in progress are looked at."""
MARGIN = timedelta(days=1)
"""A thread idle for its archive duration less this margin is touched."""


async def open_thread(channel: discord.TextChannel, name: str, *, reason: str) -> discord.Thread:
    """A public thread in a text channel, an announcement thread in an announcement channel
    (Discord allows no other kind there), archiving after a week."""
    kind = (
        discord.ChannelType.news_thread if channel.is_news() else discord.ChannelType.public_thread
    )
    return await channel.create_thread(
        name=name, type=kind, auto_archive_duration=THREAD_ARCHIVE_MINUTES, reason=reason
    )


def last_activity(thread: discord.Thread) -> datetime:
    """When Discord last saw activity in the thread: its creation, its last message, or
    the last change of its archive status, whichever is latest."""
    moments = [thread.archive_timestamp]
    if thread.created_at is not None:
        moments.append(thread.created_at)
    if thread.last_message_id is not None:
        moments.append(discord.utils.snowflake_time(thread.last_message_id))
    return max(moments)


class ThreadKeeper:
    """Keeps the threads of games in progress from archiving (a scheduler job); with
    `shards`, only those of the servers on this process's shards (another process keeps
    the others')."""

    def __init__(
        self,
        client: discord.Client,
        games: GameService,
        clock: Clock,
        *,
        shards: ShardFilter | None = None,
    ) -> None:
        self.client = client
        self.games = games
        self.clock = clock
        self.shards = shards
        self.checked: datetime | None = None
        """When the threads were last looked at (by the bot's clock)."""
        self._failing: set[int] = set()
        """Threads the bot could not keep open (logged once, not every hour)."""

    async def tick(self) -> None:
        """Look after every game thread, at most once per `CHECK_EVERY`."""
        now = self.clock.now()
        if not self.client.is_ready() or (
            self.checked is not None and now - self.checked < CHECK_EVERY
        ):
            return
        for thread_id in await self.games.active_threads(self.shards):
            await self.keep_open(thread_id, now)
        self.checked = now

    async def keep_open(self, thread_id: int, now: datetime) -> None:
        """Unarchive the thread if it was archived; touch it if it soon would be."""
        try:
            thread = self.client.get_channel(thread_id)
            if not isinstance(thread, discord.Thread):  # archived threads leave the cache
                fetched = await self.client.fetch_channel(thread_id)
                if not isinstance(fetched, discord.Thread):
                    return
                thread = fetched
            if thread.locked:
                # Moderators locked it: theirs to reopen. Open or archived, nobody without
                # Manage Threads may change it, and players cannot move there anyway.
                self._failed(thread_id, "it is locked")
                return
            if thread.archived:
                await thread.edit(archived=False, reason="a game is in progress here")
                log.info("unarchived the thread %s of a game in progress", thread_id)
            else:
                duration = timedelta(minutes=thread.auto_archive_duration)
                if now - last_activity(thread) < duration - MARGIN:
                    return
                await thread.edit(auto_archive_duration=TOUCH_MINUTES)
                await thread.edit(auto_archive_duration=THREAD_ARCHIVE_MINUTES)
                log.debug("kept the thread %s of a game in progress open", thread_id)
        except discord.HTTPException as exc:
            self._failed(thread_id, str(exc))
        else:
            self._failing.discard(thread_id)

    def _failed(self, thread_id: int, why: str) -> None:
        if thread_id not in self._failing:
            self._failing.add(thread_id)
            log.warning("cannot keep the thread %s of a game in progress open: %s", thread_id, why)
