"""What every Discord flow shares: who acts, and answering before Discord gives up."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.services.games.players import Player

DEFER_AFTER = 1.5
"""Seconds after which an unanswered interaction is deferred before slow work (rendering,
games ending): Discord drops interactions not answered within 3 seconds."""

Payload = dict[str, Any]
"""Keyword arguments for `send_message` / `send`: content, file, view, embed."""
T = TypeVar("T")


def player(user: discord.abc.User) -> Player:
    """A Discord user as the services see them."""
    return Player(user.id, user.display_name, user.bot)


async def answer_in_time(
    interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False
) -> T:
    """Await `work`; if it takes long (games to end and announce), defer the answer first
    (privately with `ephemeral`: the answer must then be sent privately too).

    Refusals come before any slow work, so they are still answered privately.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    return await task
