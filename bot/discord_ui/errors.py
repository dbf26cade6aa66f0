"""Turning refusals and failures into ephemeral replies."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.refusals import MESSAGE_LIMIT, refusal_text, shorten
from bot.services.errors import ServiceError, storage_failure_message
from bot.services.gate import Gate
from bot.services.settings import ChannelNotAllowedError
from bot.texts.guide import Page, with_guide
from rules import GameError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. The error was logged; please try again."
NEEDED = (
    "A moderator can give me View Channel, Send Messages, Send Messages in Threads, "
    "Attach Files and Create Public Threads in this channel."
)
"""The permissions the bot needs where games are played."""


def docs_url_of(interaction: discord.Interaction) -> str | None:
    """The documentation site's address from the bot's settings, if it has one."""
    settings = getattr(interaction.client, "settings", None)
    return getattr(settings, "docs_url", None)


def user_message(error: BaseException, docs_url: str | None = None) -> str | None:
    """The message to show for an expected refusal, or None for an unexpected error; a
    refusal that sends the user to a moderator links the site's page when there is one."""
    if isinstance(error, ChannelNotAllowedError):
        where = ", ".join(f"<#{channel}>" for channel in sorted(error.allowed))
        return f"{error} Games are played in {where}."
    if isinstance(error, ServiceError | GameError):
        return refusal_text(error)
    if isinstance(error, discord.Forbidden):
        return with_guide(
            f"Discord did not let me do that here ({error.text or 'missing permissions'}). "
            f"{NEEDED}",
            docs_url,
            Page.PERMISSIONS,
        )
    if isinstance(error, app_commands.MissingPermissions):
        return with_guide(
            "You need the Manage Server permission for this.", docs_url, Page.SERVER_SETTINGS
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in servers only."
    if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
        return str(error)
    return None


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer only the user who acted, whether or not the interaction was answered yet
    (through the flow's `Reply` when it has one: it may be deferring right now)."""
    text = shorten(text, MESSAGE_LIMIT)
    reply = interaction.extras.get("tabula_reply")
    try:
        if reply is not None:
            await reply.private(text)
        elif interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply for interaction %s", interaction.id)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed interaction: the refusal's message; after logging an unexpected
    error, what was not stored and why when the database failed, else an apology."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    message = user_message(error, docs_url_of(interaction))
    if isinstance(error, discord.Forbidden):
        log.warning("interaction %s: forbidden by Discord: %s", interaction.id, error.text)
    if message is None:
        log.error(
            "interaction %s (%s) by user %s failed",
            interaction.id,
            interaction.data.get("custom_id") or interaction.data.get("name")
            if interaction.data
            else "?",
            interaction.user.id,
            exc_info=error,
        )
        message = storage_failure_message(error) or APOLOGY
    await send_ephemeral(interaction, message)


async def guarded(
    interaction: discord.Interaction, action: Callable[[], Awaitable[object]]
) -> None:
    """Run a component's action; refusals and failures are answered, never raised.

    The action counts as work in progress for a graceful shutdown; once the bot is
    stopping it is refused with a "restarting" message instead.
    """
    gate: Gate | None = getattr(interaction.client, "gate", None)
    try:
        if gate is None:
            await action()
        else:
            async with gate.enter():
                await action()
    except Exception as error:
        await report(interaction, error)
