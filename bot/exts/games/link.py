"""/link: a player's own sign-in link to a game's web page (only they see it)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.services.errors import NotAllowedError, ServiceError
from bot.web.links import lifetime_note


async def link_text(interaction: discord.Interaction, game: int | None) -> str:
    """The caller's sign-in link to the game (of this thread, or the one named)."""
    bot = bot_of(interaction)
    if bot.web is None:
        raise ServiceError("The web pages are not served by this bot (TABULA_WEB is off).")
    services = bot.services
    record = await services.games.find(
        interaction.user.id, interaction.channel_id or 0, game, guild_id=interaction.guild_id
    )
    if record.seat_of(interaction.user.id) is None:
        raise NotAllowedError(
            f"You do not play in game #{record.id}: its page is at {bot.web.links.game(record.id)}"
        )
    settings = await services.settings.guild(record.guild_id)
    if settings.web == "off":
        raise ServiceError("This server does not show its games on the web (/config web).")
    name = getattr(interaction.user, "display_name", None) or interaction.user.name
    link = bot.web.links.sign_in(record, interaction.user.id, name)
    return f"Your board for game #{record.id}: {link}\n{lifetime_note()}"


class Link(commands.Cog):
    """The web pages."""

    @app_commands.command(
        name="link", description="Your own link to a game's web page, to play by clicking"
    )
    @app_commands.describe(game="the game's number (default: the game of this thread)")
    async def link(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """/link [game]: answered privately; the link is never logged."""
        text = await link_text(interaction, game)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Link())
