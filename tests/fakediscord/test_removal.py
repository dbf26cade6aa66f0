"""The bot removed from a server and invited back, as discord.py sees it: GUILD_DELETE
without `unavailable` (on_guild_remove), 403 50001 on the server's routes, no shared
server for direct messages, and GUILD_CREATE as for a server joined (on_guild_join)."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fakediscord.errors import FakeDiscordError
from tests.fakediscord.fixtures import FakeClub


class Watcher(discord.Client):
    """A client that notes the servers it is removed from and joins."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.removed: asyncio.Queue[int] = asyncio.Queue()
        self.joined: asyncio.Queue[int] = asyncio.Queue()
        self.available: list[int] = []

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.removed.put(guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.joined.put(guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.available.append(guild.id)


async def test_a_removed_bot_loses_the_server_and_gets_it_back_when_invited(
    fake_club: FakeClub,
) -> None:
    fake, guild, channel = fake_club.fake, fake_club.guild, fake_club.channel
    async with fake.run_client(Watcher()) as client:
        await client.get_partial_messageable(channel.id).send("before")
        fake.remove_bot(guild)
        assert await asyncio.wait_for(client.removed.get(), 5) == guild.id
        assert client.get_guild(guild.id) is None  # gone from the cache, not unavailable
        with pytest.raises(discord.Forbidden) as refused:
            await client.get_partial_messageable(channel.id).send("after")
        assert (refused.value.status, refused.value.code) == (403, 50001)
        with pytest.raises(discord.Forbidden) as thread:
            await client.http.start_thread_without_message(
                channel.id,
                name="t",
                auto_archive_duration=60,
                type=11,
            )
        assert thread.value.code == 50001
        with pytest.raises(discord.Forbidden) as dm:  # alice shares no server with the bot
            user = await client.fetch_user(fake_club.alice.id)
            await user.send("hello")
        assert dm.value.code == 50007
        with pytest.raises(FakeDiscordError, match="the bot is not in Club"):
            await fake.post(fake_club.alice, channel, "anyone?")

        fake.invite_bot(guild)
        assert await asyncio.wait_for(client.joined.get(), 5) == guild.id
        assert client.available == [guild.id]  # only the first connection's
        assert client.get_guild(guild.id) is not None
        await client.get_partial_messageable(channel.id).send("back")
        assert [m.content for m in channel.messages] == ["before", "back"]
