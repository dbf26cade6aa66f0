"""`Notices`: what the clocks tell players on Discord, hours after any interaction.

Interaction tokens expire after 15 minutes, so everything here is an ordinary message:
a direct message to a player, or a post in the game's thread. A direct message that
Discord refuses (the player closed them, or shares no server with the bot) falls back
to a mention in the game's thread, so a reminder is never lost silently.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.clock_texts import (
    digest_text,
    reminder_text,
    timeout_dm_text,
    timeout_text,
    turn_text,
    vacation_dm,
    vacation_post,
)
from bot.discord_ui.style import STYLE
from bot.services.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
)

if TYPE_CHECKING:
    from bot.discord_ui.flows import Flows

log = logging.getLogger(__name__)


class Notices:
    """Sends the clock services' notices through the flows' client."""

    def __init__(self, flows: Flows) -> None:
        self.flows = flows

    async def direct(self, user_id: int, text: str) -> bool:
        """Send a direct message; False (logged) when Discord refuses it."""
        client = self.flows.client
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException as exc:
            log.info("no direct message to user %s: %s", user_id, exc)
            return False
        return True

    async def post(self, location: int, payload: dict[str, Any]) -> bool:
        """Post in a game's thread or channel; False (logged) when Discord refuses it."""
        try:
            await self.flows.post(location, payload)
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s: %s", location, exc)
            return False
        return True

    async def turn_waiting(self, notice: TurnNotice) -> None:
        """Direct message: it is your turn (the thread post already mentions the player).

        Sent in the background: the move that caused it is answered first, even when
        Discord is slow to open the direct message."""
        text = turn_text(notice, STYLE)
        self.flows.services.background.run(
            f"turn message to user {notice.user_id}", partial(self.direct, notice.user_id, text)
        )

    async def reminder(self, notice: ReminderNotice) -> None:
        """By direct message when the player accepts them, else (or if refused) in the
        game's thread with a mention."""
        if notice.by_dm and await self.direct(notice.user_id, reminder_text(notice, STYLE)):
            return
        in_thread = ReminderNotice(
            notice.user_id, notice.record, notice.seat, notice.left, notice.deadline, False
        )
        await self.post(notice.record.location, {"content": reminder_text(in_thread, STYLE)})

    async def timed_out(self, notice: TimeoutNotice) -> None:
        """The final board in the thread, mentioning both players; direct messages to
        those who accept them."""
        view = notice.view
        payload = await self.flows.board_payload(view, timeout_text(notice, STYLE), buttons=None)
        await self.post(view.record.location, payload)
        for user in notice.dm_user_ids:
            await self.direct(user, timeout_dm_text(notice, user, STYLE))

    async def digest(self, notice: DigestNotice) -> None:
        """The digest, by direct message."""
        await self.direct(notice.user_id, digest_text(notice, STYLE))

    async def vacation_changed(self, notice: VacationNotice) -> None:
        """A line in each of the player's games (no ping); a direct message to the player
        when the vacation ended by itself."""
        for record in notice.games:
            await self.post(record.location, {"content": vacation_post(notice, record, STYLE)})
        if notice.dm:
            await self.direct(notice.user_id, vacation_dm(notice, STYLE))
