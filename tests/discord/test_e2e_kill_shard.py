"""Two bot processes as shards 0 and 1 over one PostgreSQL database; shard 1's process is
killed with `kill -9` while it holds an announcement (a new game's thread, which Discord
keeps refusing with a long rate limit). Shard 0 keeps serving its server; shard 1's
restarted process releases what its previous run held and delivers it, once."""

from __future__ import annotations

import asyncio

import pytest

from bot.bench.bot_processes import BotProcess, BotTarget
from bot.sharding import owner_name
from bot.storage.repository import AnnouncementStatus, ShardFilter
from tests.databases import Backend, needs_postgres
from tests.discord.sharded import World, start_game
from tests.discord.test_e2e import move
from tests.fakediscord.errors import FakeDiscordError
from tests.fakediscord.state import FakeChannel

pytestmark = needs_postgres


def shard_process(world: World, url: str, shard: int) -> BotProcess:
    """A bot process running `shard` of 2."""
    target = BotTarget.of(world.fake, url, shard_count=2, shard_ids=(shard,), tick_seconds=0.5)
    return BotProcess(target, name=f"tabula-shard-{shard}")


def threads_named(channel: FakeChannel, prefix: str) -> list[FakeChannel]:
    """The channel's threads whose name starts with `prefix`."""
    return [t for t in channel.threads if t.name.startswith(prefix)]


async def test_kill_9_of_one_shard_loses_nothing(
    sharded_world: World, postgres_backend: Backend
) -> None:
    world = sharded_world
    fake = world.fake
    url = postgres_backend.location
    repo = postgres_backend.opened[0]
    processes = [shard_process(world, url, 0), shard_process(world, url, 1)]
    try:
        await fake.wait_until_ready(timeout=60, shards=[0, 1])
        _, here = await start_game(world, world.zero)
        _, there = await start_game(world, world.one)

        # Discord refuses shard 1's next thread for a minute; its bot waits, holding it.
        refused = fake.fail_next(
            "POST", f"/channels/{world.one.channel.id}/threads", 429, retry_after=60
        )
        options = {"game": "groups", "opponent": world.bob, "colour": "white"}
        play = await fake.slash(world.alice, world.one.channel, "play", options)
        challenge = (await play.response()).message
        assert challenge is not None
        await (await fake.click(world.bob, challenge, label="Accept")).response()
        await fake.wait_for(lambda: refused.remaining == 0 or None, what="the refused thread")
        held = await repo.list_announcements(status=AnnouncementStatus.PENDING, game_id=3)
        assert [a.kind for a in held] == ["start"]
        shard_one = owner_name(ShardFilter(2, frozenset({1})))
        assert held[0].claimed_by is not None and held[0].claimed_by.startswith(f"{shard_one}/")

        await processes[1].kill()
        assert processes[1].process.exitcode == -9

        # Shard 0 goes on serving its server; shard 1's server has no bot now.
        answer = await move(fake, world.alice, here, "d3-e2")
        assert answer.message is not None and "Alice played **d3-e2**" in answer.message.content
        with pytest.raises(FakeDiscordError, match="no bot is connected on the shard"):
            await fake.slash(world.alice, there, "board")
        await asyncio.sleep(1.5)  # shard 0's dispatcher runs, but shard 1's thread is not its
        assert threads_named(world.one.channel, "Groups #3") == []

        # Shard 1 comes back: what it held is released at its start and delivered once,
        # long before the two-minute lease it held it under would have run out.
        processes[1] = shard_process(world, url, 1)
        await fake.wait_until_ready(timeout=60, shards=[1])
        thread = await fake.wait_for_thread(
            world.one.channel, lambda t: t.name.startswith("Groups #3"), timeout=20
        )
        await fake.wait_for_message(thread, lambda m: "The game begins" in m.content, timeout=20)
        answer = await move(fake, world.alice, there, "d3-e2")
        assert answer.message is not None and "Alice played **d3-e2**" in answer.message.content
        assert len(threads_named(world.one.channel, "Groups #3")) == 1
        boards = [m for m in thread.messages if "The game begins" in m.content]
        assert len(boards) == 1
        delivered = await repo.get_announcement(held[0].id)
        assert delivered is not None and delivered.status is AnnouncementStatus.DELIVERED
    finally:
        await asyncio.gather(*(process.stop() for process in processes))
