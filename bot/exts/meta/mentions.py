"""Messages that mention the bot: Tabula has no text commands, so it points to /help.

The answer is a reply that pings nobody, at most once a minute per channel, and never to
bots; where the bot may not write, it stays silent.
"""

from __future__ import annotations

import logging
import time

import discord
from discord.ext import commands

log = logging.getLogger(__name__)

POINTER = "I answer slash commands: type **/help** to see them, or **/play** to start a game."
QUIET_SECONDS = 60.0
"""After pointing to /help in a channel, the bot stays quiet there this long."""


def mentions_me(message: discord.Message, me: discord.abc.User) -> bool:
    """Whether the text itself mentions the bot (not a reply's ping, not @everyone)."""
    return f"<@{me.id}>" in message.content or f"<@!{me.id}>" in message.content


class Mentions(commands.Cog):
    """Answers a mention of the bot with a pointer to /help."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._answered: dict[int, float] = {}
        """Channel id → when the bot last pointed to /help there (monotonic)."""

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Point a person who mentions the bot to /help."""
        me = self.bot.user
        if me is None or message.author.bot or not mentions_me(message, me):
            return
        now = time.monotonic()
        last = self._answered.get(message.channel.id)
        if last is not None and now - last < QUIET_SECONDS:
            return
        self._answered[message.channel.id] = now
        try:
            await message.reply(
                POINTER, mention_author=False, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.info("could not point to /help in channel %s: %s", message.channel.id, exc)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Mentions(bot))
