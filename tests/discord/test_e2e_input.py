"""The real bot against the fake Discord: what people type that is not a move, and
input too long to quote: mentions of the bot, a /move of 2,500 characters."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.discord.test_e2e import challenge_and_accept, private_reply, running
from tests.fakediscord.fixtures import FakeClub


async def test_a_mention_gets_a_pointer_to_help_once(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """@Tabula is answered with a pointer to /help that pings nobody, once a minute per
    channel; messages without a mention, and bots, get nothing; nothing is logged as an
    error."""
    caplog.set_level(logging.INFO)
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    robot = fake.add_user("robot", bot=True)
    fake_club.guild.add_member(robot)
    async with running(fake, tmp_path / "t.sqlite3"):
        me = fake.bot_user
        asked = await fake.post(alice, channel, f"{me.mention} how do I play?")
        answer = await fake.wait_for_message(channel, lambda m: m.author is me, after=asked)
        assert answer.content.startswith("I answer slash commands: type **/help**")
        assert answer.reference is asked and answer.pinged == []
        await fake.post(bob, channel, f"<@!{me.id}> hello?")  # within the minute
        other = fake_club.guild.add_channel("other")
        await fake.post(robot, other, f"{me.mention} beep")
        await fake.post(alice, other, "no mention here")
        later = await fake.post(bob, other, f"hi {me.mention}")
        pointer = await fake.wait_for_message(other, lambda m: m.author is me, after=later)
        assert pointer.reference is later  # the bot and the unmentioned message: no answer
        assert [m for m in channel.messages if m.author is me] == [answer]
        assert [m for m in other.messages if m.author is me] == [pointer]
    assert "CommandNotFound" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_very_long_move_is_quoted_shortened(fake_club: FakeClub, tmp_path: Path) -> None:
    """A /move of 2,500 characters is refused privately, quoting only its start."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        typed = "d3-e2" + "x" * 2495
        text = await private_reply(fake, fake.slash(alice, thread, "move", {"notation": typed}))
        assert text.startswith("'d3-e2xxxxx")
        assert "…' is not a Groups move: write a step or jump like d3-e2" in text
        assert len(text) < 300 and text.endswith(".")


async def test_a_game_against_the_computer_refuses_a_clock(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """/play with the bot as opponent and a time is refused, not silently played untimed."""
    fake, alice, channel = fake_club.fake, fake_club.alice, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3"):
        options = {"game": "groups", "opponent": fake.bot_user, "time": "1d"}
        text = await private_reply(fake, fake.slash(alice, channel, "play", options))
        assert text == "Games against me have no clock: leave out the time."
        assert channel.threads == []
