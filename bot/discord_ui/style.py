"""How the Discord front end writes mentions, times and links."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.storage.repository import GameRecord


class DiscordStyle:
    """Mentions as <@id>, times as Discord timestamps, games as jump links."""

    def mention(self, user_id: int | None, name: str) -> str:
        """`<@id>` for a user; the name for a computer seat."""
        return f"<@{user_id}>" if user_id is not None else f"**{name}**"

    def when(self, moment: datetime) -> str:
        """A relative timestamp each reader sees in their own time zone."""
        return discord.utils.format_dt(moment, "R")

    def game_link(self, record: GameRecord) -> str:
        """A jump link to the game's thread (or channel)."""
        guild = record.guild_id if record.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{record.location}"


STYLE = DiscordStyle()


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A jump link to a message."""
    guild = guild_id if guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{channel_id}/{message_id}"
