"""Sharding as Discord does it: each server's events and interactions reach only the
session of shard `(guild_id >> 22) % count`, direct messages only shard 0; IDENTIFY's
shard is checked, and its rate (one per 5 seconds per `max_concurrency` bucket);
`GET /gateway/bot` recommends the shard count."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from tests.fakediscord.errors import FakeDiscordError
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.gateway import IDENTIFY_WINDOW
from tests.fakediscord.sample_bot import ScriptedBot
from tests.fakediscord.state import FakeGuild, FakeUser


def guild_on(fake: FakeDiscord, shard: int, count: int = 2) -> FakeGuild:
    """A new server on `shard` of `count`."""
    guild = fake.add_guild(f"Server {len(fake.world.guilds)}", shard=(shard, count))
    assert (guild.id >> 22) % count == shard
    return guild


class PatientBot(ScriptedBot):
    """A client that, like discord.py's, waits 5 seconds before identifying again (not
    before its first identify), but on the fake's clock, so that the test does not wait."""

    def __init__(self, fake: FakeDiscord, **options: object) -> None:
        super().__init__(**options)
        self.fake = fake
        self.waits: list[bool] = []
        """`initial` of each identify, in order."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py's own wait (`asyncio.sleep(5)` unless initial), on the fake's clock."""
        self.waits.append(initial)
        if not initial:
            self.fake.advance_time(IDENTIFY_WINDOW)


@pytest.fixture
async def sharded() -> AsyncIterator[FakeDiscord]:
    """A fake recommending two shards."""
    async with FakeDiscord(shards=2) as fake:
        fake.install()
        yield fake


async def answered_by(fake: FakeDiscord, bots: list[ScriptedBot], user: FakeUser, channel) -> int:
    """Which bot (index) answered `/do` in `channel`."""
    answered: list[int] = []

    def script_for(index: int):
        async def script(interaction: discord.Interaction) -> None:
            answered.append(index)
            await interaction.response.send_message(f"bot {index}")

        return script

    for index, bot in enumerate(bots):
        bot.script = script_for(index)
    response = await (await fake.slash(user, channel, "do")).response()
    assert response.message is not None
    (index,) = answered
    assert response.message.content == f"bot {index}"
    return index


async def test_each_shard_gets_its_own_servers(sharded: FakeDiscord) -> None:
    """Two clients, shards 0 and 1 of 2: each sees and answers only its servers; DMs and
    their commands go to shard 0."""
    fake = sharded
    zero, one = guild_on(fake, 0), guild_on(fake, 1)
    alice = fake.add_user("alice")
    for guild in (zero, one):
        guild.add_member(alice)
    here, there = zero.add_channel("games"), one.add_channel("games")
    first = PatientBot(fake, shard_id=0, shard_count=2)
    second = PatientBot(fake, shard_id=1, shard_count=2)
    async with fake.run_client(first), fake.run_client(second):
        assert [g.id for g in first.guilds] == [zero.id]
        assert [g.id for g in second.guilds] == [one.id]
        assert fake.gateway.identified_shards == [(0, 2), (1, 2)]
        # One identify per 5 seconds (max_concurrency 1): shard 1, started right after
        # shard 0, was told to wait (op 9); discord.py waited and identified again.
        assert fake.gateway.refused_identifies == [(1, 2)]
        assert (first.waits, second.waits) == ([True], [True, False])
        bots: list[ScriptedBot] = [first, second]
        assert await answered_by(fake, bots, alice, here) == 0
        assert await answered_by(fake, bots, alice, there) == 1
        assert await answered_by(fake, bots, alice, fake.dm_channel(alice)) == 0
        # A channel made now is announced to its own shard only.
        later = one.add_channel("later")
        await fake.wait_for(lambda: second.get_channel(later.id), what="CHANNEL_CREATE")
        assert first.get_channel(later.id) is None


async def test_a_shard_without_a_session_gets_nothing(sharded: FakeDiscord) -> None:
    """With only shard 0 connected, a command in a server of shard 1 reaches nobody: the
    fake refuses to pretend it was delivered."""
    fake = sharded
    guild_on(fake, 0)
    one = guild_on(fake, 1)
    bob = fake.add_user("bob")
    one.add_member(bob)
    channel = one.add_channel("games")
    async with fake.run_client(ScriptedBot(shard_id=0, shard_count=2)) as client:
        assert len(client.guilds) == 1
        with pytest.raises(FakeDiscordError, match="no bot is connected on the shard of"):
            await fake.slash(bob, channel, "do")


async def test_a_sharded_client_asks_how_many_shards(sharded: FakeDiscord) -> None:
    """An AutoShardedClient without a count asks `GET /gateway/bot`, and runs every shard."""
    fake = sharded
    zero, one = guild_on(fake, 0), guild_on(fake, 1)

    class Quick(discord.AutoShardedClient):
        async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False):
            """discord.py's 5-second wait between shards, on the fake's clock."""
            if not initial:
                fake.advance_time(IDENTIFY_WINDOW)

    client = Quick(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    async with fake.run_client(client):
        assert client.shard_count == 2
        assert {g.id: g.shard_id for g in client.guilds} == {zero.id: 0, one.id: 1}
    assert ("GET", "/gateway/bot", 200) in fake.requests
    assert fake.gateway.refused_identifies == []  # it waited between its own shards


async def test_identifying_too_soon_is_an_invalid_session() -> None:
    """Each bucket of shards (`shard_id % max_concurrency`) may identify once per 5
    seconds: one more gets op 9 Invalid Session (not resumable) and no session; once the
    5 seconds are over it is welcome. With `max_concurrency` 2, shards 0 and 1 may
    identify together, shards 0 and 2 not."""
    async with FakeDiscord(shards=4) as fake:
        assert await identify(fake, [0, 4]) is None
        assert await identify(fake, [1, 4]) == "invalid session"
        fake.advance_time(4.9)
        assert await identify(fake, [1, 4]) == "invalid session"
        fake.advance_time(0.1)
        assert await identify(fake, [1, 4]) is None
        assert fake.gateway.identified_shards == [(0, 4), (1, 4)]
        assert fake.gateway.refused_identifies == [(1, 4), (1, 4)]
    async with FakeDiscord(shards=4, max_concurrency=2) as fake:
        assert await identify(fake, [0, 4]) is None
        assert await identify(fake, [1, 4]) is None
        assert await identify(fake, [2, 4]) == "invalid session"
        assert await identify(fake, [3, 4]) == "invalid session"
        headers = {"Authorization": f"Bot {fake.token}"}
        async with (
            aiohttp.ClientSession(headers=headers) as session,
            session.get(fake.api_url + "/gateway/bot") as response,
        ):
            body = await response.json()
        assert body["session_start_limit"]["max_concurrency"] == 2


async def test_a_restart_within_5_seconds_waits_and_identifies_again(
    fake_club: FakeClub,
) -> None:
    """A bot restarted at once identifies too soon: Discord answers op 9, and discord.py
    waits and identifies again (no resume: the session was never made)."""
    fake = fake_club.fake
    async with fake.run_client(PatientBot(fake)):
        pass
    again = PatientBot(fake)
    async with fake.run_client(again):
        assert again.waits == [True, False]
        assert fake.gateway.refused_identifies == [(0, 1)]
        assert fake.gateway.identifies == 2 and fake.gateway.resumes == 0


async def identify(fake: FakeDiscord, shard: object) -> int | str | None:
    """A raw IDENTIFY with `shard`; the close code the fake answers with, "invalid
    session" for op 9 (None: READY)."""
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway.url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        data = {"token": fake.token, "intents": 1, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_str(json.dumps({"op": 2, "d": data}))
        message = await ws.receive()
        with contextlib.suppress(Exception):
            await ws.close()
        if message.type is aiohttp.WSMsgType.TEXT:
            frame = json.loads(message.data)
            if frame["op"] == 9:
                assert frame["d"] is False
                return "invalid session"
            assert frame["t"] == "READY"
            return None
        return ws.close_code


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [1], "0,2", [0.0, 2], [True, 2]])
async def test_an_invalid_shard_closes_with_4010(sharded: FakeDiscord, shard: object) -> None:
    """The shard must be [id, count] with whole numbers and 0 <= id < count."""
    assert await identify(sharded, shard) == 4010


async def test_too_many_servers_on_one_shard_closes_with_4011(sharded: FakeDiscord) -> None:
    """Discord makes a bot shard once a session would hold too many servers."""
    fake = sharded
    fake.gateway.max_guilds_per_shard = 1
    guild_on(fake, 0)
    guild_on(fake, 1)
    assert await identify(fake, None) == 4011
    assert await identify(fake, [0, 2]) is None
    fake.advance_time(IDENTIFY_WINDOW)  # one identify per 5 seconds
    assert await identify(fake, [1, 2]) is None


async def test_gateway_bot_recommends_the_shard_count(sharded: FakeDiscord) -> None:
    """`GET /gateway/bot` names the count; `GET /gateway` only the URL."""
    headers = {"Authorization": f"Bot {sharded.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(sharded.api_url + "/gateway/bot") as response:
            body = await response.json()
        assert body["shards"] == 2 and body["url"] == sharded.gateway.url
        assert body["session_start_limit"]["max_concurrency"] == 1
        async with session.get(sharded.api_url + "/gateway") as response:
            assert await response.json() == {"url": sharded.gateway.url}
