"""/rematch: a finished game again, with the colours swapped (the final board's button)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of


class Rematch(commands.Cog):
    """After a game."""

    @app_commands.command(
        name="rematch", description="Play a finished game again, with the colours swapped"
    )
    @app_commands.describe(
        game="the game's number (default: the game of this thread, or your latest finished one)"
    )
    async def rematch(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """/rematch [game]."""
        await bot_of(interaction).flows.rematch(interaction, game)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Rematch())
