"""pytest fixtures: a started, installed fake Discord, and one with a server already set up.

`tests/conftest.py` loads this module as a plugin, so every test can ask for them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest

from tests.fakediscord import permissions as perm
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.rest_client import Api
from tests.fakediscord.state import FakeChannel, FakeGuild, FakeUser


@dataclass
class FakeClub:
    """A fake Discord with one server "Club": #games, and members alice, bob and carol.

    carol has Manage Server (the permission `/config`-like commands require).
    """

    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord that discord.py points at; stopped and uninstalled afterwards.

    The test fails at teardown if the bot called a REST route the fake does not have.
    """
    async with FakeDiscord() as fake:
        fake.install()
        yield fake
    if fake.unknown_routes:
        pytest.fail(f"the bot called routes the fake does not implement: {fake.unknown_routes}")
    if fake.rest.internal_errors:
        pytest.fail(f"the fake itself failed: {fake.rest.internal_errors}")


@pytest.fixture
async def fake_club(fake_discord: FakeDiscord) -> FakeClub:
    """`fake_discord` with the "Club" server, its #games channel and three members."""
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = guild.add_channel("games")
    alice = fake.add_user("alice", global_name="Alice")
    bob = fake.add_user("bob", global_name="Bob")
    carol = fake.add_user("carol", global_name="Carol")
    guild.add_member(alice)
    guild.add_member(bob)
    guild.add_member(carol, permissions=perm.MANAGE_GUILD)
    return FakeClub(fake, guild, channel, alice, bob, carol)


@pytest.fixture
async def api(fake_club: FakeClub) -> AsyncIterator[Api]:
    """A bare HTTP client, authorised as the bot, for the fake in `fake_club`."""
    async with aiohttp.ClientSession() as session:
        yield Api(fake_club.fake, session)
