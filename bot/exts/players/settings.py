"""/settings: turn messages, reminder times and the digest."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.discord_ui.replies import in_time
from bot.texts.clocks import settings_text


class Settings(commands.Cog):
    """A player's notification settings."""

    @app_commands.command(
        name="settings", description="Turn messages, reminders and digest (no options: show them)"
    )
    @app_commands.describe(
        turn_messages="a direct message when it becomes your turn",
        reminders="how long before a deadline to remind you, like 24h,1h (or none)",
        digest="one direct message listing your waiting games instead of one per turn",
        digest_period="the least time between two digests, like 1d or 12h",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_messages: bool | None = None,
        reminders: str | None = None,
        digest: bool | None = None,
        digest_period: str | None = None,
    ) -> None:
        """Change the given settings (each checked first; nothing changes on an error)."""
        services = bot_of(interaction).services
        notifications = services.notifications
        user = interaction.user.id
        async with in_time(interaction, services) as reply:
            if (turn_messages, reminders, digest, digest_period) == (None, None, None, None):
                current = await notifications.settings(user)
            else:
                current = await notifications.update(
                    user,
                    turn_dms=turn_messages,
                    reminders=reminders,
                    digest=digest,
                    digest_period=digest_period,
                )
            await reply.private(settings_text(current))


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Settings())
