"""/export and /history: a game's record as files, and a player's finished games."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.discord_ui.records import RecordFlows
from bot.exts.competition.ratings import game_choices


class Records(commands.Cog):
    """Game records and histories."""

    @app_commands.command(
        name="export", description="A game's record as files: JSON, SGF (Stones) and text"
    )
    @app_commands.describe(
        game="the game's number (default: the game of this thread, or your latest here)"
    )
    async def export(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        """/export [game]: only the caller sees the files."""
        await RecordFlows(bot_of(interaction).services).export(interaction, game)

    @app_commands.command(
        name="history", description="Finished games, newest first (yours by default)"
    )
    @app_commands.describe(user="whose games (default: yours)", game="one game only")
    @app_commands.choices(game=game_choices())
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        """/history [user] [game]: pages of finished games; only the caller sees them."""
        await RecordFlows(bot_of(interaction).services).history(interaction, user, game)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Records())
