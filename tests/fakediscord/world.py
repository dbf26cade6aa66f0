"""The fake's data and its core changes: ids, clock, indexes, posting, threads, DMs, waiting."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from tests.fakediscord import permissions as perm
from tests.fakediscord.commands import CommandStore
from tests.fakediscord.errors import FakeDiscordTimeout
from tests.fakediscord.state import (
    DISCORD_EPOCH_MS,
    DM,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    PRIVATE_THREAD,
    THREAD_CREATED,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)

if TYPE_CHECKING:
    from tests.fakediscord.interactions import FakeInteraction

T = TypeVar("T")

POLL_INTERVAL = 0.05
"""Seconds between re-checks of a wait when nothing in the fake changes."""

Listener = Callable[[str, Any], None]
"""Called as `listener(event, obj)` for "message_create", "message_update", "message_delete",
"thread_create" (a FakeMessage or FakeChannel) and "interaction_response" (a FakeInteraction)."""


class EventSink(Protocol):
    """Where gateway events go (the gateway, once the fake is started)."""

    @property
    def intents(self) -> int:
        """The intents of the connected bot (0 when none is connected)."""
        ...

    def dispatch(self, event: str, data: dict[str, Any], intent: int = INTENT_GUILDS) -> bool:
        """Send a dispatch event to the connected bot; False if no bot is connected."""
        ...

    def guild_available(self, guild: FakeGuild, *, joined: bool = False) -> None:
        """Send GUILD_CREATE for a guild the bot just joined (`joined`: invited into an
        existing server, so without `unavailable`)."""
        ...


class World:
    """Everything the fake Discord knows, indexed by id for O(1) lookups."""

    def __init__(self, *, bot_name: str = "Tabula") -> None:
        self.base_url = ""
        self.shards = 1
        """The shard count `GET /gateway/bot` recommends."""
        self.max_concurrency = 1
        """How many buckets of shards may identify at once (each once per 5 seconds;
        `GET /gateway/bot` advertises it)."""
        self.time_offset = 0.0
        self.response_deadline = 3.0
        """Seconds a bot has to answer an interaction (Discord: 3)."""
        self.token_lifetime = 15 * 60.0
        """Seconds an interaction token works for follow-ups and edits (Discord: 15 minutes)."""
        self._last_id = 0
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self._next_archive = math.inf
        """The earliest moment a thread may archive (see `archive_idle_threads`)."""
        self.nonced: dict[tuple[int, int, str], FakeMessage] = {}
        """Messages created with `enforce_nonce`, by (channel id, author id, nonce)."""
        self.dm_channels: dict[int, FakeChannel] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self.gateway: EventSink | None = None
        self.listeners: list[Listener] = []
        self.recent_errors: deque[str] = deque(maxlen=5)
        """The last REST errors (and unknown routes), quoted when a wait times out."""
        self._waiters: dict[object, list[asyncio.Future[None]]] = {}
        self.global_commands = CommandStore(self)
        self.guild_commands: dict[int, CommandStore] = {}
        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.token = f"fake.{self.bot_user.id}.{secrets.token_urlsafe(24)}"

    # ids and time

    def now(self) -> float:
        """The fake's clock: real time plus whatever `advance_time` added."""
        return time.time() + self.time_offset

    def new_id(self) -> int:
        """A fresh snowflake, increasing, encoding the fake clock like Discord's."""
        candidate = (int(self.now() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(candidate, self._last_id + 1)
        return self._last_id

    def new_id_on_shard(self, shard: int, count: int) -> int:
        """A fresh snowflake that shard `shard` of `count` receives (its millisecond part
        picks the shard: the next milliseconds are taken until one fits)."""
        candidate = self.new_id()
        while (candidate >> 22) % count != shard:
            candidate = ((candidate >> 22) + 1) << 22
        self._last_id = candidate
        return candidate

    # people and places

    def add_user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        accepts_dms: bool = True,
    ) -> FakeUser:
        """Create a user."""
        user = FakeUser(self.new_id(), name, global_name, bot, accepts_dms)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        bot_permissions: int = perm.DEFAULT_BOT,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a server with @everyone, the bot as a member (its role has `bot_permissions`);
        with `shard` (id, count), one whose events go to that shard."""
        guild_id = self.new_id() if shard is None else self.new_id_on_shard(*shard)
        guild = FakeGuild(self, guild_id, name, owner.id if owner else 0)
        role = FakeRole(self.new_id(), guild, self.bot_user.name, bot_permissions, 1, managed=True)
        guild.roles[role.id] = role
        guild.bot_role = role
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild, [role], self.now())
        self.guilds[guild.id] = guild
        if owner is not None:
            guild.add_member(owner)
        if self.gateway is not None:
            self.gateway.guild_available(guild)
        return guild

    def guild_command_store(self, guild_id: int) -> CommandStore:
        """The commands synced to one guild."""
        store = self.guild_commands.get(guild_id)
        if store is None:
            store = self.guild_commands[guild_id] = CommandStore(self, guild_id)
        return store

    def register_channel(self, channel: FakeChannel) -> None:
        """Index a channel, thread or DM."""
        self.channels[channel.id] = channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user` (created on first use)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self, self.new_id(), DM, f"dm-{user.name}", recipient=user)
            self.dm_channels[user.id] = channel
            self.register_channel(channel)
        return channel

    # gateway events and observers

    def announce(self, event: str, data: dict[str, Any], intent: int = INTENT_GUILDS) -> None:
        """Dispatch a gateway event if a bot is connected (and asked for `intent`)."""
        if self.gateway is not None:
            self.gateway.dispatch(event, data, intent)

    def emit(self, event: str, obj: Any, topics: tuple[object, ...] = ()) -> None:
        """Tell listeners; wake the waits on these topics (a channel, an interaction...) and
        the waits on no topic in particular."""
        for listener in self.listeners:
            listener(event, obj)
        for topic in (None, *topics):
            waiters = self._waiters.pop(topic, None)
            for waiter in waiters or ():
                if not waiter.done():
                    waiter.set_result(None)

    def emit_message(self, event: str, message: FakeMessage) -> None:
        """`emit` for a message: its channel and its interaction are the topics."""
        self.emit(event, message, (message.channel, message.interaction))

    async def wait_until(
        self,
        check: Callable[[], T | None],
        timeout: float,
        what: Callable[[], str],
        *,
        topic: object = None,
        poll: bool = False,
    ) -> T:
        """Wait until `check()` returns something other than None.

        It is re-checked whenever `topic` changes (any change if `topic` is None), and every
        50 ms with `poll` (for checks on state the fake does not see, like the bot's).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result is not None:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordTimeout(f"timed out after {timeout:g}s waiting for {what()}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.setdefault(topic, []).append(waiter)
            try:
                await asyncio.wait_for(waiter, min(remaining, POLL_INTERVAL) if poll else remaining)
            except TimeoutError:
                continue

    def error_hint(self) -> str:
        """Recent REST errors, to explain a timeout (empty if there were none)."""
        if not self.recent_errors:
            return ""
        return "; recent REST errors: " + " | ".join(self.recent_errors)

    def message_payload(self, message: FakeMessage) -> dict[str, Any]:
        """A message's JSON, with attachment URLs on this server."""
        return message.payload(self.base_url, self.bot_user.id)

    # messages

    def store_message(self, message: FakeMessage) -> None:
        """Index a new message, show it in its channel unless ephemeral, tell the bot."""
        self.messages[message.id] = message
        message.changed = message.id
        channel = message.channel
        if not message.ephemeral:
            channel.messages.append(message)
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.total_message_sent += 1
                if channel.archived and not channel.locked:
                    self.set_archived(channel, False)  # a new message revives the thread
                else:
                    self.thread_active(channel)
            self.announce("MESSAGE_CREATE", self._event_payload(message), _intent_for(channel))
        self.emit_message("message_create", message)

    def _event_payload(self, message: FakeMessage) -> dict[str, Any]:
        """A message as the bot receives it: without MESSAGE_CONTENT, others' text is hidden."""
        data = self.message_payload(message)
        hidden = (
            message.author is not self.bot_user
            and not message.channel.is_dm
            and self.bot_user not in message.mentions
            and not (self.gateway is not None and self.gateway.intents & INTENT_MESSAGE_CONTENT)
        )
        if hidden:
            data.update(content="", embeds=[], attachments=[], components=[])
        return data

    def message_edited(self, message: FakeMessage) -> None:
        """Tell the bot and the waiters that a message changed."""
        message.changed = self.new_id()
        if not message.ephemeral:
            self.announce(
                "MESSAGE_UPDATE", self._event_payload(message), _intent_for(message.channel)
            )
        self.emit_message("message_update", message)

    def delete_message(self, message: FakeMessage) -> None:
        """Delete a message."""
        message.deleted = True
        channel = message.channel
        if message in channel.messages:
            channel.messages.remove(message)
        if not message.ephemeral:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild is not None:
                data["guild_id"] = str(channel.guild.id)
            self.announce("MESSAGE_DELETE", data, _intent_for(channel))
        self.emit_message("message_delete", message)

    # threads

    def create_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        thread_type: int,
        starter: FakeMessage | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> FakeChannel:
        """Start a thread (from `starter`, whose id it takes, or standalone); the bot joins it."""
        assert parent.guild is not None
        thread = FakeChannel(
            self,
            starter.id if starter is not None else self.new_id(),
            thread_type,
            name,
            guild=parent.guild,
            parent=parent,
            owner_id=self.bot_user.id,
        )
        thread.stamp = self.new_id()
        thread.auto_archive_duration = auto_archive_duration
        self.thread_active(thread)
        thread.invitable = invitable
        thread.thread_member_ids.append(self.bot_user.id)
        parent.threads.append(thread)
        parent.guild.threads_by_id[thread.id] = thread
        self.register_channel(thread)
        data = thread.payload(bot_id=self.bot_user.id)
        data["newly_created"] = True
        self.announce("THREAD_CREATE", data)
        if starter is not None:
            starter.thread = thread
            self.message_edited(starter)
        elif thread_type != PRIVATE_THREAD:
            notice = FakeMessage(
                self.new_id(),
                parent,
                self.bot_user,
                content=name,
                type=THREAD_CREATED,
                created_at=self.now(),
                thread=thread,
            )
            self.store_message(notice)
        self.emit("thread_create", thread, (parent, parent.guild))
        return thread

    def thread_active(self, thread: FakeChannel) -> None:
        """Activity in a thread (a message, unarchiving, a new archive duration): its
        archive countdown starts again."""
        thread.last_activity = now = self.now()
        self._next_archive = min(self._next_archive, now + thread.auto_archive_duration * 60)

    def delete_channel(self, channel: FakeChannel) -> dict[str, Any]:
        """Delete a thread or channel (a moderator, or the bot): its routes answer 404
        10003 from now on, and THREAD_DELETE (id, guild_id, parent_id, type) or
        CHANNEL_DELETE tells the bots. A channel's threads go with it (one CHANNEL_DELETE
        for all). The deleted channel's payload."""
        channel.deleted = True
        for thread in channel.threads:
            thread.deleted = True
        data = channel.payload(bot_id=self.bot_user.id)
        if channel.is_thread:
            keys = ("id", "guild_id", "parent_id", "type")
            self.announce("THREAD_DELETE", {k: data[k] for k in keys})
        else:
            self.announce("CHANNEL_DELETE", data)
        return data

    def remove_bot(self, guild: FakeGuild) -> None:
        """The bot is removed from the server (kicked; a deleted server looks the same to
        it): its membership and managed role go, GUILD_DELETE without `unavailable` tells
        its shard, and from now on the server's routes answer 403 50001 (Missing Access)
        and its users share no server with the bot through it."""
        if self.bot_user.id not in guild.members:
            raise ValueError(f"the bot is not in {guild.name}")
        del guild.members[self.bot_user.id]
        if guild.bot_role is not None:
            guild.roles.pop(guild.bot_role.id, None)
            guild.bot_role = None
        self.announce("GUILD_DELETE", {"id": str(guild.id)})
        self.emit("guild_delete", guild, (guild,))

    def invite_bot(self, guild: FakeGuild, *, bot_permissions: int = perm.DEFAULT_BOT) -> None:
        """The bot is invited (back) into the server: a new managed role holding
        `bot_permissions`, and GUILD_CREATE to its shard as for a server joined (without
        `unavailable`, which only a server coming back from an outage carries)."""
        if self.bot_user.id in guild.members:
            raise ValueError(f"the bot is in {guild.name} already")
        role = FakeRole(self.new_id(), guild, self.bot_user.name, bot_permissions, 1, managed=True)
        guild.roles[role.id] = role
        guild.bot_role = role
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild, [role], self.now())
        if self.gateway is not None:
            self.gateway.guild_available(guild, joined=True)
        self.emit("guild_create", guild, (guild,))

    def set_archived(self, thread: FakeChannel, archived: bool, *, at: float | None = None) -> None:
        """Archive or unarchive a thread (unarchiving is activity) and tell the bot."""
        thread.archived = archived
        if archived:
            thread.archived_at = self.now() if at is None else at
        else:
            self.thread_active(thread)
            thread.archived_at = thread.last_activity
        self.thread_updated(thread)

    def archive_idle_threads(self) -> None:
        """Archive every thread idle for its `auto_archive_duration`, as Discord does.

        Called whenever the fake's clock may have moved on (`advance_time`, each REST
        request, each user action); cheap until the earliest deadline has passed.
        """
        now = self.now()
        if now < self._next_archive:
            return
        self._next_archive = math.inf
        for guild in self.guilds.values():
            for thread in guild.threads_by_id.values():
                if thread.archived or thread.deleted:
                    continue
                due = thread.last_activity + thread.auto_archive_duration * 60
                if due <= now:
                    self.set_archived(thread, True, at=due)
                else:
                    self._next_archive = min(self._next_archive, due)

    def thread_updated(self, thread: FakeChannel) -> None:
        """Tell the bot a thread changed (archived, renamed, members...)."""
        self.announce("THREAD_UPDATE", thread.payload(bot_id=self.bot_user.id))
        self.emit("thread_update", thread, (thread, thread.parent))


def _intent_for(channel: FakeChannel) -> int:
    return INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
