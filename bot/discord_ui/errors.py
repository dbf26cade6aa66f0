"""Turning refusals and failures into ephemeral replies."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.discord_ui.permissions import NEEDED
from bot.refusals import MESSAGE_LIMIT, refusal_text, shorten
from bot.services.errors import ServiceError, storage_failure_message
from bot.services.gate import Gate
from bot.services.settings import ChannelNotAllowedError
from bot.texts.guide import Page, refusal_page, with_guide
from rules import GameError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. The error was logged; please try again."


def docs_url_of(interaction: discord.Interaction) -> str | None:
    """The documentation site's address from the bot's settings, if it has one."""
    return site_of(interaction.client)


def site_of(client: discord.Client) -> str | None:
    """The documentation site's address from the client's settings, if it has one."""
    settings = getattr(client, "settings", None)
    return getattr(settings, "docs_url", None)


def user_message(error: BaseException, docs_url: str | None = None) -> str | None:
    """The message to show for an expected refusal, or None for an unexpected error; a
    refusal that sends the user to someone else (a moderator, an organiser) links the
    site's page that explains it when there is one."""
    if isinstance(error, ChannelNotAllowedError):
        where = ", ".join(f"<#{channel}>" for channel in sorted(error.allowed))
        return f"{error} Games are played in {where}."
    if isinstance(error, ServiceError | GameError):
        return with_guide(refusal_text(error), docs_url, refusal_page(error))
    if isinstance(error, discord.Forbidden):
        return with_guide(
            f"Discord did not let me do that here ({error.text or 'missing permissions'}). "
            f"{NEEDED}",
            docs_url,
            Page.PERMISSIONS,
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in servers only."
    if isinstance(error, app_commands.TransformerError):
        return transformer_message(error)
    if isinstance(error, app_commands.CheckFailure):
        return str(error)
    return None


def failure_message(error: BaseException, docs_url: str | None = None) -> str:
    """What to tell the user after an unexpected error: what was not stored and why when
    the database failed (with the operator's page when only the operator can mend it),
    else an apology."""
    message = storage_failure_message(error)
    if message is None:
        return APOLOGY
    return with_guide(message, docs_url, refusal_page(error))


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
        message = failure_message(error, docs_url_of(interaction))
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


def transformer_message(error: app_commands.TransformerError) -> str:
    """A slash option Discord's data could not turn into what the command takes: a user
    given where a member of this server is needed has left it (or cannot be seen)."""
    if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
        value = error.value
        name = getattr(value, "display_name", None) or getattr(value, "name", None) or value
        return (
            f"{name} is not a member of this server (they may have left it), so they cannot "
            "play here. Challenge someone who is a member."
        )
    return str(error)
