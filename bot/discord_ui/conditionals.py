"""/conditional add|list|clear on Discord, and the notes shown with a player's next command.

Every answer is private: only the tree's owner ever sees it. A listing of one game shows,
where pictures exist, the position at the end of each line; a line just stored shows the
position it leads to.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Sequence

import discord

from bot.boards import render_board
from bot.discord_ui.answers import Payload, answer_in_time
from bot.discord_ui.style import STYLE
from bot.discord_ui.tournaments import text_file
from bot.refusals import MESSAGE_LIMIT, shorten
from bot.services.container import Services
from bot.services.correspondence.conditionals import LineEnd, TreeView
from bot.texts.conditionals import (
    PICTURES,
    added_text,
    cleared_text,
    removed_text,
    trees_message,
)

log = logging.getLogger(__name__)

FILES = 10
"""The most files one Discord message carries."""


async def pictures(ends: Sequence[LineEnd], limit: int) -> list[discord.File]:
    """The position at the end of each line, `line-N.png` (none without a renderer)."""
    files = []
    for number, end in enumerate(ends[:limit], 1):
        image = await asyncio.to_thread(render_board, end.view)
        if image.png is None:
            return []
        files.append(
            discord.File(
                io.BytesIO(image.png),
                filename=f"line-{number}.png",
                description=f"Line {number}, at its end: {image.description}"[:1024],
            )
        )
    return files


async def private(interaction: discord.Interaction, payload: Payload) -> None:
    """Answer privately, or follow up privately when the interaction was answered."""
    if interaction.response.is_done():
        await interaction.followup.send(**payload, ephemeral=True)
    else:
        await interaction.response.send_message(**payload, ephemeral=True)


class ConditionalFlows:
    """What /conditional does; refusals raise and are answered privately by the caller."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def add(self, interaction: discord.Interaction, game_id: int, line: str) -> None:
        """/conditional add game line: store the line, show where it leads."""
        conditionals = self.services.conditionals

        async def work() -> Payload:
            found = await conditionals.which(
                interaction.user.id,
                interaction.channel_id or 0,
                guild_id=interaction.guild_id,
                game_id=game_id,
            )
            added = await conditionals.add(found, interaction.user.id, line)
            files = await pictures([added.line], 1)
            return {"content": shorten(added_text(added), MESSAGE_LIMIT), "files": files}

        await self._answer(interaction, work())

    async def list(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/conditional list [game]: the tree(s), with pictures for one game."""
        conditionals = self.services.conditionals

        async def work() -> Payload:
            trees = await conditionals.trees(
                interaction.user.id, guild_id=interaction.guild_id, game_id=game_id
            )
            return await self.listing(trees)

        await self._answer(interaction, work())

    async def listing(self, trees: Sequence[TreeView]) -> Payload:
        """The message listing trees: text (a long one cut, and attached whole) and, for
        one game, the position at the end of each line."""
        message = trees_message(trees, pictures=len(trees) == 1)
        text, cut = message.shortened()
        files = [text_file(message.plain(), "conditional-moves.txt")] if cut else []
        if len(trees) == 1:
            files += await pictures(trees[0].ends, min(PICTURES, FILES - len(files)))
        return {"content": text, "files": files}

    async def clear(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/conditional clear [game]: remove the tree."""
        conditionals = self.services.conditionals
        user = interaction.user.id
        found = await conditionals.which(
            user, interaction.channel_id or 0, guild_id=interaction.guild_id, game_id=game_id
        )
        removed = await conditionals.clear(found, user, guild_id=interaction.guild_id)
        await interaction.response.send_message(removed_text(removed), ephemeral=True)

    @staticmethod
    async def _answer(interaction: discord.Interaction, work: Awaitable[Payload]) -> None:
        await private(interaction, await answer_in_time(interaction, work, ephemeral=True))

    async def show_notes(self, interaction: discord.Interaction) -> None:
        """After a command: tell its user, privately, what became of conditional moves of
        theirs that were cleared while they take no direct messages."""
        conditionals = self.services.conditionals
        notices = await conditionals.take_notes(interaction.user.id)
        if not notices:
            return
        text = "\n".join(cleared_text(notice, STYLE) for notice in notices)
        try:
            await private(interaction, {"content": shorten(text, MESSAGE_LIMIT)})
        except discord.HTTPException as error:
            log.warning("could not show conditional notes to user %s: %s", interaction.user.id,
                        error)  # fmt: skip
            await conditionals.give_back(notices)
