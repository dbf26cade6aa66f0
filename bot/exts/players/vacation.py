"""/vacation start|end|status: pause one's clocks, within a yearly allowance."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.discord_ui.answers import answer_in_time
from bot.discord_ui.style import STYLE
from bot.texts.clocks import vacation_change_text, vacation_status_text


class Vacation(commands.GroupCog, group_name="vacation"):
    """Vacations: the player's clocks stand still while it is their turn."""

    @app_commands.command(name="start", description="Go on vacation: your clocks stop")
    @app_commands.describe(length="how long, like 5d or 36h (default: until /vacation end)")
    async def start(self, interaction: discord.Interaction, length: str | None = None) -> None:
        """Start a vacation; the opponents are told in each game (which may take a while
        with many games: the answer is then deferred)."""
        bot = bot_of(interaction)
        change = await answer_in_time(
            interaction, bot.services.vacations.start(interaction.user.id, length), ephemeral=True
        )
        await bot.flows.respond(
            interaction, {"content": vacation_change_text(change, STYLE)}, ephemeral=True
        )

    @app_commands.command(name="end", description="Come back from vacation: your clocks run")
    async def end(self, interaction: discord.Interaction) -> None:
        """End the vacation now; the unused days return to the year's allowance."""
        bot = bot_of(interaction)
        change = await answer_in_time(
            interaction, bot.services.vacations.end(interaction.user.id), ephemeral=True
        )
        await bot.flows.respond(
            interaction, {"content": vacation_change_text(change, STYLE)}, ephemeral=True
        )

    @app_commands.command(name="status", description="Your vacation and the days left this year")
    async def status(self, interaction: discord.Interaction) -> None:
        """Whether the caller is away, and the allowance used and left."""
        status = await bot_of(interaction).services.vacations.status(interaction.user.id)
        await interaction.response.send_message(vacation_status_text(status, STYLE), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Vacation())
