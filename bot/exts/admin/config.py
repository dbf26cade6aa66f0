"""/config: server settings for members with Manage Server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.services.durations import format_span
from bot.services.settings import WEB_ACCESS
from bot.storage.repository import GuildSettings

WEB_WORDS = {
    "off": "off (no page)",
    "players": "players (only a game's two players, signed in)",
    "public": "public (anyone with the link watches)",
}


def settings_text(settings: GuildSettings) -> str:
    """The server's settings in words."""
    channels = (
        ", ".join(f"<#{channel}>" for channel in sorted(settings.game_channels))
        if settings.game_channels
        else "every channel"
    )
    organisers = "Manage Server"
    if settings.organiser_role is not None:
        organisers += f" or the <@&{settings.organiser_role}> role"
    return "\n".join(
        [
            "**Tabula settings for this server**",
            f"Games may be started in: {channels}.",
            f"Each game gets its own thread: {'yes' if settings.threads else 'no'}.",
            f"Challenges expire after {format_span(settings.challenge_expiry)}.",
            f"Default time control: {settings.default_time_control}.",
            f"Tournaments are run by members with {organisers}.",
            f"Web pages of games: {WEB_WORDS.get(settings.web, settings.web)}.",
        ]
    )


class Config(commands.Cog):
    """Server settings."""

    @app_commands.command(name="config", description="Tabula's settings for this server")
    @app_commands.describe(
        threads="play each game in its own thread",
        challenge_expiry="how long a challenge stays open, like 30m, 2h or 1d",
        default_time_control="none, a time per move like 3d, or 7d+1d max 10d",
        add_channel="allow games in this channel (once any is added, only those)",
        remove_channel="stop allowing games in this channel",
        all_channels="allow games in every channel again",
        organiser_role="members with this role may create and run tournaments",
        clear_organiser_role="only members with Manage Server run tournaments again",
        web="who sees this server's games on the web pages: off, players or public",
    )
    @app_commands.choices(web=[app_commands.Choice(name=w, value=w) for w in WEB_ACCESS])
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction,
        *,
        threads: bool | None = None,
        challenge_expiry: str | None = None,
        default_time_control: str | None = None,
        add_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        organiser_role: discord.Role | None = None,
        clear_organiser_role: bool | None = None,
        web: str | None = None,
    ) -> None:
        """Show the settings, or change the ones given (Manage Server is checked here too)."""
        assert interaction.guild_id is not None
        service = bot_of(interaction).services.settings
        changes = (
            threads, challenge_expiry, default_time_control, add_channel, remove_channel,
            organiser_role, web,
        )  # fmt: skip
        if all(value is None for value in changes) and not (all_channels or clear_organiser_role):
            settings = await service.guild(interaction.guild_id)
        else:
            settings = await service.update(
                interaction.guild_id,
                can_manage=interaction.permissions.manage_guild,
                threads=threads,
                challenge_expiry=challenge_expiry,
                default_time_control=default_time_control,
                add_channel=add_channel.id if add_channel else None,
                remove_channel=remove_channel.id if remove_channel else None,
                all_channels=bool(all_channels),
                organiser_role=organiser_role.id if organiser_role else None,
                clear_organiser_role=bool(clear_organiser_role),
                web=web,
            )
        text = settings_text(settings)
        if add_channel is not None:
            # Games suspended for want of a channel go on there (their next post moves them).
            resumed = await bot_of(interaction).services.suspensions.resume_without_channel(
                interaction.guild_id
            )
            if resumed:
                numbers = ", ".join(f"#{record.id}" for record in resumed)
                text += f"\nGames suspended for want of a channel go on there: {numbers}."
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Config())
