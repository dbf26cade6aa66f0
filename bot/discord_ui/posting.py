"""`Poster`: Discord's side of delivering an announcement exactly once.

- Every message is created with the announcement's nonce: Discord (`enforce_nonce`)
  returns the first message instead of creating a second when an attempt is retried
  within its window. For an attempt older than that window, the channel's recent
  messages are searched for the same text first.
- An announcement an interaction was to answer is first looked for there: the answer
  exists (adopted), was deferred ("thinking…", filled in now), or never came (posted).
- A game's thread is created with the game's number in its name, and found again by it
  when an earlier attempt may have created it without the bot recording it.
- Discord's permanent refusals (missing permissions, a deleted channel) become
  `DeliveryRefused`, so the announcement is parked instead of retried for ever.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping
from datetime import timedelta
from typing import Any, TypeVar

import discord
from discord.webhook.async_ import async_context

from bot.discord_ui.answers import Payload
from bot.services.announcing.notify import Ticket
from bot.services.announcing.outbox import DeliveryRefused, Refusal

log = logging.getLogger(__name__)

T = TypeVar("T")

NONCE_WINDOW = timedelta(minutes=2)
"""How long Discord surely remembers a nonce ("a few minutes"): a retry after this
looks for an earlier attempt's message itself."""
HISTORY_LIMIT = 50
"""Recent messages searched for an earlier attempt's post."""
LOADING = 1 << 7
"""The flag of a deferred interaction answer still "thinking"."""
EPHEMERAL = 1 << 6
"""The flag of a message only its user sees."""
MISSING_ACCESS = 50001
"""Discord's error code when the bot cannot see a channel at all (also after it was
removed from the server)."""
DMS_CLOSED = 50007
"""Discord's error code when a user does not accept direct messages from the bot."""
ARCHIVED_THREAD = 50083
"""Discord's error code for an action in an archived thread (until it is unarchived)."""
LOCKED_THREAD = 160005
"""Discord's error code for a post in a locked thread (only Manage Threads may)."""
INVALID_WEBHOOK_TOKEN = 50027
"""An interaction token past its 15 minutes: its answer can no longer be read."""

TEXT_CHANNEL, ANNOUNCEMENT_CHANNEL = 0, 5
THREAD_TYPES = {TEXT_CHANNEL: 11, ANNOUNCEMENT_CHANNEL: 10}
"""The thread type each kind of channel holds (public threads, announcement threads)."""
THREADS = frozenset({10, 11, 12})
"""The kinds of threads: announcement, public, private."""


def nonce(ticket: Ticket, part: int | None = None) -> str:
    """The nonce of an announcement's message (or of its `part`-th, when it posts
    several): at most 25 characters, as Discord allows."""
    return f"tabula-{ticket.id}" if part is None else f"tabula-{ticket.id}.{part}"


def reply_data(interaction: discord.Interaction) -> dict[str, Any]:
    """What is stored of an interaction to find its answer again after a crash."""
    return {"application": interaction.application_id, "token": interaction.token}


async def refusals(action: Awaitable[T], what: str) -> T:
    """Await a Discord call; permanent refusals become `DeliveryRefused`: missing access
    or permissions, something deleted, an archived or locked thread (not retried: the
    refusal does not change by waiting)."""
    try:
        return await action
    except discord.HTTPException as error:
        kind = refusal_kind(error)
        if kind is None:
            raise
        if kind is Refusal.GONE:
            message = f"cannot {what}: {error.text or 'it no longer exists'}"
        elif kind is Refusal.CLOSED:
            message = f"cannot {what}: {error.text or 'the thread is closed'}"
        else:
            message = f"Discord refused to let me {what} ({error.text or 'missing permissions'})"
        raise DeliveryRefused(message, kind) from error


def refusal_kind(error: discord.HTTPException) -> Refusal | None:
    """What a refusal from Discord means, if it is one that waiting does not change."""
    if error.code in (ARCHIVED_THREAD, LOCKED_THREAD):
        return Refusal.CLOSED
    if isinstance(error, discord.NotFound):
        return Refusal.GONE
    if isinstance(error, discord.Forbidden):
        return Refusal.NO_ACCESS if error.code == MISSING_ACCESS else Refusal.ACCESS
    return None


class Poster:
    """Posts, edits, opens threads and finds interaction answers, each at most once."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    # --- messages ---

    async def send(
        self, channel_id: int, payload: Payload, ticket: Ticket, *, part: int | None = None
    ) -> int:
        """Post in a channel or thread; the message's id."""
        found = await self._earlier_post(channel_id, payload, ticket)
        if found is not None:
            return found
        channel = self.client.get_partial_messageable(channel_id)
        message = await refusals(
            channel.send(**payload, nonce=nonce(ticket, part)), f"post in <#{channel_id}>"
        )
        return message.id

    async def direct(self, user_id: int, payload: Payload, ticket: Ticket) -> int | None:
        """Send a direct message; None when the user does not accept them."""
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            channel = user.dm_channel or await user.create_dm()
            found = await self._earlier_post(channel.id, payload, ticket)
            if found is not None:
                return found
            message = await channel.send(**payload, nonce=nonce(ticket))
        except discord.Forbidden as error:
            log.info("no direct message to user %s: %s", user_id, error.text)
            return None
        except discord.NotFound as error:
            log.info("no direct message to unknown user %s: %s", user_id, error.text)
            return None
        return message.id

    async def edit(self, channel_id: int, message_id: int, payload: Payload) -> int:
        """Edit a message the bot posted; its id. In a thread that archived meanwhile the
        thread is reopened first where the bot may (its own thread, or with Manage
        Threads); otherwise the refusal is final."""
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        what = f"edit message {message_id}"
        try:
            await message.edit(**payload)
        except discord.HTTPException as error:
            if error.code != ARCHIVED_THREAD:
                await refusals(_raise(error), what)
            await refusals(self.client.http.edit_channel(channel_id, archived=False), what)
            await refusals(message.edit(**payload), what)
        return message_id

    async def _earlier_post(self, channel_id: int, payload: Payload, ticket: Ticket) -> int | None:
        """The message an earlier attempt of this announcement posted, if Discord's nonce
        window may be over and one is found among the channel's recent messages."""
        started = ticket.first_attempt
        if ticket.attempts <= 1 or started is None:
            return None
        if discord.utils.utcnow() - started < NONCE_WINDOW:
            return None  # the nonce still deduplicates
        content = payload.get("content")
        me = self.client.user
        channel = self.client.get_partial_messageable(channel_id)
        try:
            async for message in channel.history(
                limit=HISTORY_LIMIT, after=discord.Object(discord.utils.time_snowflake(started))
            ):
                if me is not None and message.author.id == me.id and message.content == content:
                    log.info("announcement %s was posted before: message %s", ticket.id, message.id)
                    return message.id
        except discord.HTTPException as error:
            log.info("could not read channel %s's history: %s", channel_id, error)
        return None

    # --- interaction answers ---

    async def answered(
        self, reply: Mapping[str, Any], payload: Payload, *, edit: bool = True
    ) -> int | None:
        """The interaction's answer, if it was sent (its message id); a deferred answer is
        filled in with `payload` (unless `edit` is False). None when the interaction
        never answered, or its token expired (after 15 minutes)."""
        application, token = reply.get("application"), reply.get("token")
        if not isinstance(application, int) or not isinstance(token, str):
            return None
        webhook = discord.Webhook.partial(application, token, client=self.client)
        adapter = async_context.get()
        try:
            data = await adapter.get_original_interaction_response(
                application, token, session=webhook.session, proxy=webhook.proxy
            )
        except discord.NotFound as error:
            log.info("interaction answer not found (%s): posting instead", error.code)
            return None
        except discord.HTTPException as error:
            if error.code == INVALID_WEBHOOK_TOKEN or error.status == 401:
                log.info("interaction token expired (%s): posting instead", error.code)
                return None
            # Anything else (a 5xx) says nothing about the answer: posting now could show
            # it twice, so the announcement is tried again later.
            raise
        message_id = int(data["id"])
        flags = int(data.get("flags", 0))
        if flags & EPHEMERAL:
            return None  # a private answer (a deferral): the announcement is still to post
        if flags & LOADING and edit:
            kept = {key: value for key, value in payload.items() if key not in ("file", "files")}
            files = [payload["file"]] if "file" in payload else list(payload.get("files", []))
            if files:
                kept["attachments"] = files
            await webhook.edit_message(message_id, **kept)
        return message_id

    # --- threads ---

    async def channel_type(self, channel_id: int) -> tuple[int, int | None] | None:
        """The kind of a channel (0 text, 5 announcement, 11 thread, ...) and, for a
        thread, the channel it is in; None if it is gone."""
        channel = self.client.get_channel(channel_id)
        kind = getattr(channel, "type", None)
        if isinstance(kind, discord.ChannelType):
            parent = getattr(channel, "parent_id", None) if kind.value in THREADS else None
            return int(kind.value), parent
        try:
            data = await self.client.http.get_channel(channel_id)
        except discord.HTTPException as error:
            log.info("channel %s cannot be read: %s", channel_id, error)
            return None
        kind = int(data["type"])
        parent = str(data.get("parent_id") or "") if kind in THREADS else ""
        return kind, int(parent) if parent else None

    async def thread(
        self, guild_id: int, parent_id: int, name: str, ticket: Ticket, reason: str
    ) -> int | None:
        """A thread named `name` in `parent_id`: found (an earlier attempt made it) or
        created; None when the channel holds no threads or the bot may not open one.
        When `parent_id` is a thread itself (a rematch asked for in the thread of the game
        before), the new thread opens beside it, in the same channel."""
        channel = await self.channel_type(parent_id)
        if channel is not None and channel[1] is not None:
            parent_id = channel[1]
            channel = await self.channel_type(parent_id)
        thread_type = THREAD_TYPES.get(channel[0]) if channel is not None else None
        if thread_type is None:
            return None
        if ticket.attempts > 1:
            found = await self._find_thread(guild_id, parent_id, name)
            if found is not None:
                return found
        try:
            data = await self.client.http.start_thread_without_message(
                parent_id,
                name=name,
                auto_archive_duration=10080,
                type=thread_type,  # type: ignore[arg-type]
                reason=reason,
            )
        except discord.Forbidden as error:
            log.warning("no thread in channel %s (%s): playing in the channel", parent_id, error)
            return None
        return int(data["id"])

    async def _find_thread(self, guild_id: int, parent_id: int, name: str) -> int | None:
        try:
            data = await self.client.http.get_active_threads(guild_id)
        except discord.HTTPException as error:
            log.info("active threads of server %s cannot be read: %s", guild_id, error)
            return None
        for thread in data.get("threads", []):
            if thread.get("name") == name and int(thread.get("parent_id") or 0) == parent_id:
                log.info("thread %s was opened before: %s", name, thread["id"])
                return int(thread["id"])
        return None


async def _raise(error: BaseException) -> None:
    """An awaitable that raises `error` (to pass a caught error through `refusals`)."""
    raise error
