"""Two bots as the two shards of one Discord bot, over one PostgreSQL database, against
the fake Discord (which sends each server's events to its shard only): each serves its
own servers, delivers its own servers' announcements and none of the other's, and
direct messages belong to shard 0. A stopped shard's announcements wait for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest

from bot.client import ShardedTabulaBot, TabulaBot, create_bot
from bot.config import Settings
from bot.services.clock import ManualClock
from bot.storage.repository import AnnouncementStatus, GameRecord, GameStatus
from tests.databases import Backend, needs_postgres
from tests.discord.sharded import World, start_game
from tests.discord.test_e2e import move
from tests.fakediscord.errors import FakeDiscordError
from tests.waiting import PATIENCE

pytestmark = needs_postgres


@asynccontextmanager
async def shard(
    world: World, url: str, ids: tuple[int, ...], clock: ManualClock
) -> AsyncIterator[TabulaBot]:
    """The bot process running `ids` of 2 shards, connected and ready (started 5 seconds
    after the last identify, as Discord's identify limit wants)."""
    world.fake.pass_identify_window()
    settings = Settings(token=world.fake.token, database=url, shard_count=2, shard_ids=ids)
    bot = create_bot(settings, clock=clock, tick_seconds=0.05, guild_ready_timeout=0.05)
    assert isinstance(bot, ShardedTabulaBot)
    async with world.fake.run_client(bot):
        await bot.sync_commands()
        yield bot


async def test_two_shards_serve_their_own_servers(
    sharded_world: World, postgres_backend: Backend
) -> None:
    """Each shard's bot answers in its server and posts its announcements; a DM command
    goes to shard 0; with shard 1 stopped, its server's result waits (shard 0 does not
    post it) until shard 1 is back, then it is posted once."""
    world = sharded_world
    fake = world.fake
    url = postgres_backend.location
    clock = ManualClock()
    async with shard(world, url, (0,), clock) as first, shard(world, url, (1,), clock) as second:
        assert [g.id for g in first.guilds] == [world.zero.guild.id]
        assert [g.id for g in second.guilds] == [world.one.guild.id]
        assert first.services.outbox.name == "shards-0"
        assert second.services.outbox.name == "shards-1"
        assert first.services.dispatcher.owner.startswith("shards-0/")
        _, here = await start_game(world, world.zero)
        _, there = await start_game(world, world.one, time="1d")
        for thread in (here, there):
            answer = await move(fake, world.alice, thread, "d3-e2")
            assert answer.message is not None and "Alice played **d3-e2**" in answer.message.content
        games = await fake.slash(world.alice, fake.dm_channel(world.alice), "games")
        listed = (await games.response()).message
        assert listed is not None and "#1" in listed.content and "#2" in listed.content
        records = [await first.services.games.record(n) for n in (1, 2)]
        assert [r.guild_id for r in records] == [world.zero.guild.id, world.one.guild.id]

    # Shard 1 is down: bob's time runs out there; shard 0 ends the game but leaves the
    # announcement to shard 1, whose server it is.
    async with shard(world, url, (0,), clock) as first:
        clock.advance(timedelta(days=2))
        ended = await _until_finished(first, 2)
        assert ended.status is GameStatus.FINISHED
        pending = await first.services.repository.list_announcements(
            status=AnnouncementStatus.PENDING, game_id=2
        )
        assert [a.kind for a in pending] == ["timeout"]
        assert not [m for m in there.messages if "ran out of time" in m.content]
        with pytest.raises(FakeDiscordError, match="no bot is connected on the shard"):
            await fake.slash(world.bob, there, "board")
        async with shard(world, url, (1,), clock):
            posted = await fake.wait_for_message(there, lambda m: "ran out of time" in m.content)
            assert posted.content.startswith(f"⏰ {world.bob.mention} ran out of time.")
            answer = await move(fake, world.bob, here, "c5-b4")
            assert answer.message is not None and not answer.ephemeral
    assert len([m for m in there.messages if "ran out of time" in m.content]) == 1


async def _until_finished(bot: TabulaBot, game_id: int) -> GameRecord:
    """The game's record once the scheduler ended it (waiting as long as a busy machine
    may need)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while loop.time() < deadline:
        record = await bot.services.games.record(game_id)
        if record.status is not GameStatus.ACTIVE:
            return record
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} was not ended on time")
