"""Two servers on the two shards of a fake Discord, and a PostgreSQL database for the bot
processes that run them (the sharding end-to-end tests share these)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeGuild, FakeMessage, FakeUser


@dataclass
class Server:
    """One server of the fake on a given shard, with a channel for games."""

    guild: FakeGuild
    channel: FakeChannel


@dataclass
class World:
    """Two servers, one on each of two shards, where alice and bob play."""

    fake: FakeDiscord
    zero: Server
    one: Server
    alice: FakeUser
    bob: FakeUser


@asynccontextmanager
async def two_shards() -> AsyncIterator[World]:
    """A fake Discord recommending two shards, with a server on each (discord.py in this
    process pointed at it)."""
    async with FakeDiscord(shards=2) as fake:
        fake.install()
        alice = fake.add_user("alice", global_name="Alice")
        bob = fake.add_user("bob", global_name="Bob")
        servers = []
        for shard in (0, 1):
            guild = fake.add_guild(f"Shard {shard}", shard=(shard, 2))
            guild.add_member(alice)
            guild.add_member(bob)
            servers.append(Server(guild, guild.add_channel("games")))
        yield World(fake, servers[0], servers[1], alice, bob)
        assert not fake.unknown_routes and not fake.rest.internal_errors


async def start_game(
    world: World, server: Server, time: str = "none"
) -> tuple[FakeMessage, FakeChannel]:
    """Alice challenges Bob in `server`, Bob accepts: the first board and its thread."""
    fake = world.fake
    options = {"game": "groups", "opponent": world.bob, "colour": "white", "time": time}
    play = await fake.slash(world.alice, server.channel, "play", options)
    challenge = (await play.response()).message
    assert challenge is not None
    accept = await fake.click(world.bob, challenge, label="Accept")
    assert (await accept.response()).type == 7
    thread = await fake.wait_for_thread(server.channel)
    board = await fake.wait_for_message(thread, lambda m: "The game begins" in m.content)
    return board, thread
