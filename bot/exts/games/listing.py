"""/games: the caller's active games in every server, most urgent first."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.discord_ui.style import STYLE
from bot.texts.clocks import dashboard_pages


class Listing(commands.Cog):
    """Lists games."""

    @app_commands.command(
        name="games", description="Your games in progress, most urgent first, with time left"
    )
    async def games(self, interaction: discord.Interaction) -> None:
        """/games: game, opponent, whose turn, time left, link; only the caller sees it."""
        bot = bot_of(interaction)
        lines = await bot.services.notifications.dashboard(interaction.user.id)
        await bot.flows.keep_alive(interaction, ephemeral=True)
        first, *more = dashboard_pages(lines, STYLE)
        await bot.flows.respond(interaction, {"content": first}, ephemeral=True)
        for page in more:  # a long list comes in several private messages
            await interaction.followup.send(page, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Listing())
