"""`Reply`: answering one interaction in time, and with the announcements it produced.

Discord drops an interaction not answered within 3 seconds. A `Reply` starts its clock
when the flow takes the interaction (before any lock or database write) and, if nothing
was sent by `DEFER_AFTER`, defers privately ("thinking…", visible only to the user).
A refusal then stays private, and the public announcements go out as channel posts.

When nothing was deferred, the public announcement a service stored for the place the
interaction came from (`Outbox.replying`) is sent as the interaction's answer, and
marked delivered with that message; if sending fails, it is handed back to the
dispatcher, which posts it in the channel instead: either way it appears exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import discord

from bot.discord_ui.answers import DEFER_AFTER, Payload
from bot.discord_ui.posting import reply_data
from bot.services.announcing.outbox import ReplyHandle, Replying
from bot.services.container import Services
from bot.storage.repository import Announcement

log = logging.getLogger(__name__)

ANSWER_TIMEOUT = 10.0
"""Seconds an answer may take before it is given up and the dispatcher posts instead
(within the outbox's hold on it, `REPLY_LEASE`)."""

Compose = Callable[[Announcement], Awaitable[Payload]]


class Reply:
    """One interaction's answers: deferred in time, sent once, private when deferred."""

    def __init__(self, interaction: discord.Interaction, services: Services) -> None:
        self.interaction = interaction
        self._services = services
        self._arrived = time.monotonic()
        self._lock = asyncio.Lock()
        self.deferred = False
        """True once the answer was deferred (privately): later answers are private."""
        self._timer = asyncio.get_running_loop().create_task(self._defer_in_time())

    # --- the deadline ---

    async def _defer_in_time(self) -> None:
        await asyncio.sleep(max(0.0, DEFER_AFTER - (time.monotonic() - self._arrived)))
        async with self._lock:
            if self.interaction.response.is_done():
                return
            age = time.monotonic() - self._arrived
            log.info("interaction %s is %.1f s old: deferring its answer", self.interaction.id, age)
            try:
                await self.interaction.response.defer(thinking=True, ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not defer interaction %s: %s", self.interaction.id, error)
                return
            self.deferred = True

    def close(self) -> None:
        """Stop the deadline's timer (the flow is done)."""
        self._timer.cancel()

    @contextlib.contextmanager
    def collecting(self) -> Iterator[Replying]:
        """Around a service call: the announcements it stores for the interaction's place
        are held for this reply (and all it stores are listed)."""
        channel = self.interaction.channel_id or 0
        handle = ReplyHandle(channel, reply_data(self.interaction))
        with self._services.outbox.replying(handle) as replying:
            yield replying

    # --- answering ---

    async def send(self, payload: Payload, *, ephemeral: bool = False) -> int | None:
        """Answer (or follow up); private once deferred. The message's id, if known."""
        async with self._lock:
            return await self._send(payload, ephemeral)

    async def send_public(self, payload: Payload) -> tuple[bool, int | None]:
        """Answer publicly, unless the answer was deferred privately: whether it was sent,
        and the message's id if known."""
        async with self._lock:
            if self.deferred:
                return False, None
            return True, await self._send(payload, False)

    async def _send(self, payload: Payload, ephemeral: bool) -> int | None:
        self._timer.cancel()
        response = self.interaction.response
        if response.is_done():
            sent = await self.interaction.followup.send(
                **payload, ephemeral=ephemeral or self.deferred, wait=True
            )
            return sent.id
        callback = await response.send_message(**payload, ephemeral=ephemeral)
        return callback.message_id

    async def update(self, payload: Payload) -> int | None:
        """Edit the message the clicked component is on (the answer to a click)."""
        async with self._lock:
            self._timer.cancel()
            if self.interaction.response.is_done():
                await self.interaction.edit_original_response(**payload)
            else:
                await self.interaction.response.edit_message(**payload)
            message = self.interaction.message
            return None if message is None else message.id

    async def private(self, text: str) -> None:
        """A private answer."""
        await self.send({"content": text}, ephemeral=True)

    async def announce(
        self,
        replying: Replying,
        compose: Compose,
        *,
        first: Callable[[Payload], Awaitable[int | None]] | None = None,
        pointer: str | None = None,
    ) -> None:
        """Deliver the announcements held for this interaction as its answers, each
        marked delivered with its message; the ones it cannot answer (deferred, failed)
        go to the dispatcher. `first` sends the first one instead of `send` (a click's
        update of its message). With `pointer`, a private note follows when the
        announcements were posted by the dispatcher instead (the answer was deferred)."""
        outbox = self._services.outbox
        dispatcher = self._services.dispatcher
        handed_back = False
        for index, row in enumerate(replying.rows):
            if self.deferred or handed_back:
                await outbox.release(row)
                await dispatcher.deliver_now(row.id)
                handed_back = True
                continue
            try:
                payload = await compose(row)
                sender = first if index == 0 and first is not None else self.send
                message_id = await asyncio.wait_for(sender(payload), ANSWER_TIMEOUT)
            except Exception as error:
                log.warning(
                    "interaction %s could not answer with announcement %s (%s): posting it",
                    self.interaction.id,
                    row.id,
                    error,
                )
                await outbox.release(row)
                await dispatcher.deliver_now(row.id)
                handed_back = True
                continue
            await outbox.delivered(row, message_id)
        if handed_back and pointer is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.private(pointer)


@contextlib.asynccontextmanager
async def in_time(interaction: discord.Interaction, services: Services) -> AsyncIterator[Reply]:
    """A `Reply` for an answer that waits on the database first (a history, a table):
    deferred privately if the work takes longer than `DEFER_AFTER`, then sent."""
    reply = Reply(interaction, services)
    try:
        yield reply
    finally:
        reply.close()
