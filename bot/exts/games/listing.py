"""/games: the caller's active games in every server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.discord_ui.style import STYLE
from bot.texts import games_text


class Listing(commands.Cog):
    """Lists games."""

    @app_commands.command(name="games", description="Your games in progress, with links")
    async def games(self, interaction: discord.Interaction) -> None:
        """/games: game, opponent, whose turn, link; only the caller sees it."""
        user = interaction.user.id
        records = await bot_of(interaction).services.games.active_games(user)
        records.sort(key=lambda r: (r.players[r.to_move] != user, r.id))
        text = games_text(records, user, STYLE)
        if len(text) > 2000:
            text = text[:1990].rsplit("\n", 1)[0] + "\n…"
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Listing())
