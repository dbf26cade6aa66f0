"""Create Message's `nonce` and `enforce_nonce`: a repeated create returns the first message."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.messages import NONCE_WINDOW
from tests.fakediscord.rest_client import Api, first_error
from tests.fakediscord.sample_bot import ScriptedBot


async def test_an_enforced_nonce_returns_the_first_message(fake_club: FakeClub, api: Api) -> None:
    """Same nonce, same channel, within the window: the first message back, nothing new."""
    channel = fake_club.channel
    body = {"content": "Move 12: d4", "nonce": "game-1-move-12", "enforce_nonce": True}
    status, first = await api.post_message(channel, body)
    assert status == 200 and first["nonce"] == "game-1-move-12"
    status, again = await api.post_message(channel, {**body, "content": "something else"})
    assert status == 200
    assert again["id"] == first["id"] and again["content"] == "Move 12: d4"
    assert [m.content for m in channel.messages] == ["Move 12: d4"]


async def test_integer_nonces_and_the_window(fake_club: FakeClub, api: Api) -> None:
    """An integer nonce works too; after the window the same nonce creates a new message."""
    channel = fake_club.channel
    body = {"content": "hello", "nonce": 12345, "enforce_nonce": True}
    _, first = await api.post_message(channel, body)
    fake_club.fake.advance_time(NONCE_WINDOW - 5)
    _, second = await api.post_message(channel, body)
    assert second["id"] == first["id"]
    fake_club.fake.advance_time(10)
    _, third = await api.post_message(channel, body)
    assert third["id"] != first["id"]
    assert len(channel.messages) == 2


async def test_without_enforcement_or_elsewhere_a_nonce_does_not_deduplicate(
    fake_club: FakeClub, api: Api
) -> None:
    """Without `enforce_nonce`, or in another channel, the same nonce posts again."""
    channel = fake_club.channel
    other = fake_club.guild.add_channel("other")
    plain = {"content": "a", "nonce": "n1"}
    _, one = await api.post_message(channel, plain)
    _, two = await api.post_message(channel, plain)
    assert one["id"] != two["id"]
    enforced = {"content": "b", "nonce": "n2", "enforce_nonce": True}
    _, here = await api.post_message(channel, enforced)
    _, there = await api.post_message(other, enforced)
    assert here["id"] != there["id"]
    assert [m.content for m in channel.messages] == ["a", "a", "b"]
    assert [m.content for m in other.messages] == ["b"]


async def test_a_deleted_message_s_nonce_is_not_found(fake_club: FakeClub, api: Api) -> None:
    """The nonce of a message deleted shortly before: 404 10008 (discord.py documents it)."""
    channel = fake_club.channel
    body = {"content": "gone", "nonce": "n3", "enforce_nonce": True}
    _, first = await api.post_message(channel, body)
    status, _ = await api.call("DELETE", f"/channels/{channel.id}/messages/{first['id']}")
    assert status == 204
    status, error = await api.post_message(channel, body)
    assert (status, error["code"]) == (404, 10008)
    assert channel.messages == []


@pytest.mark.parametrize(
    ("extra", "path", "code"),
    [
        ({"nonce": "x" * 26}, ["nonce"], "BASE_TYPE_MAX_LENGTH"),
        ({"nonce": ["list"]}, ["nonce"], "BASE_TYPE_STRING"),
        ({"nonce": 2**64}, ["nonce"], "NUMBER_TYPE_MAX"),
        ({"nonce": "n", "enforce_nonce": "yes"}, ["enforce_nonce"], "BASE_TYPE_BOOLEAN"),
    ],
)
async def test_bad_nonces_are_refused(
    fake_club: FakeClub, api: Api, extra: dict[str, object], path: list[str], code: str
) -> None:
    """A nonce over 25 characters, of another type or out of range: 400 50035."""
    status, body = await api.post_message(fake_club.channel, {"content": "x", **extra})
    assert (status, body["code"]) == (400, 50035)
    assert first_error(body) == (path, code)
    assert fake_club.channel.messages == []


async def test_discord_py_sends_and_gets_back_its_nonce(fake_club: FakeClub) -> None:
    """discord.py's `send(nonce=...)` enforces it: a repeat returns the same message."""
    fake = fake_club.fake
    bot = ScriptedBot()
    async with fake.run_client(bot):
        channel = bot.get_channel(fake_club.channel.id)
        assert isinstance(channel, discord.TextChannel)
        first = await channel.send("Turn 3", nonce="turn-3")
        second = await channel.send("Turn 3 again", nonce="turn-3")
    assert second.id == first.id and second.nonce == "turn-3"
    assert [m.content for m in fake_club.channel.messages] == ["Turn 3"]
