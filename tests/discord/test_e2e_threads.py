"""The real bot against the fake Discord, whose threads archive after a week without
activity: a correspondence game silent for ten days keeps a usable thread, a thread that
archived while the bot was down is brought back, and announcement channels get
announcement threads. The bot's clock and the fake's move on together."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.client import TabulaBot
from bot.services.clock import ManualClock
from tests.discord.test_e2e import challenge_and_accept, move, running
from tests.fakediscord import permissions as perm
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel

STEP = timedelta(hours=3)
HOUR = timedelta(hours=1)


async def pass_time(
    fake: FakeDiscord, clock: ManualClock, bot: TabulaBot, days: int, thread: FakeChannel
) -> None:
    """Move both clocks on three hours at a time, letting the bot's scheduler look after
    the threads at each step; the game's thread must never archive."""
    keeper = bot.thread_keeper
    assert keeper is not None
    for _ in range(days * 8):
        fake.advance_time(STEP.total_seconds())
        clock.advance(STEP)
        await fake.wait_for(
            lambda: True if keeper.checked == clock.now() else None, what="the thread keeper"
        )
        assert not thread.archived, f"the thread archived at {clock.now()}"


async def test_a_game_silent_for_ten_days_keeps_a_usable_thread(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Ten days without a move: the thread is kept from archiving (touched once, before
    the week is out), the reminder is posted there, and the buttons and /move work."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    clock = ManualClock(datetime.now(UTC))
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        board, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "11d"}
        )
        assert thread.auto_archive_duration == 10080
        await fake.wait_for_message(fake_club.channel, lambda m: "Play in" in m.content)
        await pass_time(fake, clock, bot, 10, thread)
        touches = [r for r in fake.requests if r.method == "PATCH" and str(thread.id) in r.path]
        assert len(touches) == 2  # once: the archive duration changed and set back
        assert thread.auto_archive_duration == 10080
        reminder = await fake.wait_for_message(thread, lambda m: "⏰" in m.content)
        assert reminder.content.startswith(f"⏰ {alice.mention}, you have 1d left to move")
        click = await fake.click(alice, board, label="Move")
        form = await click.response()
        assert form.modal is not None
        submitted = await fake.submit_modal(alice, click, {"notation": "c3"})
        played = (await submitted.response()).message
        assert played is not None and "Move 1: Alice played **c3**." in played.content
        answer = await move(fake, bob, thread, "c5")
        assert answer.message is not None and "Move 2: Bob played **c5**." in answer.message.content


async def test_a_thread_archived_while_the_bot_was_down_comes_back(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The bot is away for eight days and the thread archives; once back, the bot
    unarchives it at its first look, and the players move there again."""
    fake, alice = fake_club.fake, fake_club.alice
    clock = ManualClock(datetime.now(UTC))
    database = tmp_path / "t.sqlite3"
    async with running(fake, database, clock):
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        await fake.wait_for_message(fake_club.channel, lambda m: "Play in" in m.content)
    fake.advance_time(timedelta(days=8).total_seconds())
    clock.advance(timedelta(days=8))
    assert thread.archived
    async with running(fake, database, clock) as bot:
        keeper = bot.thread_keeper
        assert keeper is not None
        await fake.wait_for(
            lambda: True if keeper.checked == clock.now() else None, what="the thread keeper"
        )
        assert not thread.archived
        answer = await move(fake, alice, thread, "c3")
        assert answer.message is not None and "Alice played **c3**" in answer.message.content


async def test_games_in_an_announcement_channel_get_announcement_threads(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """A challenge accepted in an announcement channel opens an announcement thread (the
    only kind Discord allows there), and the game is played in it."""
    fake, alice = fake_club.fake, fake_club.alice
    news = fake_club.guild.add_channel("news", announcement=True)
    async with running(fake, tmp_path / "t.sqlite3"):
        board, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}, channel=news
        )
        assert thread.type == 10 and thread.parent is news
        assert board.channel is thread
        answer = await move(fake, alice, thread, "c3")
        assert answer.message is not None and "Alice played **c3**" in answer.message.content


async def test_a_thread_moderators_locked_is_left_alone(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A locked, archived game thread is the moderators' to reopen: the bot leaves it and
    says so in its log once, not every hour."""
    fake = fake_club.fake
    clock = ManualClock(datetime.now(UTC))
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        await fake.wait_for_message(fake_club.channel, lambda m: "Play in" in m.content)
        thread.locked = True
        fake.world.set_archived(thread, True)
        keeper = bot.thread_keeper
        assert keeper is not None
        for _ in range(3):
            fake.advance_time(HOUR.total_seconds())
            clock.advance(HOUR)
            await fake.wait_for(
                lambda: True if keeper.checked == clock.now() else None, what="the keeper"
            )
        assert thread.archived
    warnings = [r for r in caplog.records if "cannot keep the thread" in r.getMessage()]
    assert len(warnings) == 1 and "it is locked" in warnings[0].getMessage()


async def test_an_open_thread_moderators_locked_is_not_touched(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Moderators locked a game's thread without archiving it, and the bot has no Manage
    Threads: Discord would refuse any change to it, so the keeper does not try to keep
    it open (no refused request), and says so in its log once."""
    fake = fake_club.fake
    clock = ManualClock(datetime.now(UTC))
    role = fake_club.guild.bot_role
    assert role is not None
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        await fake.wait_for_message(fake_club.channel, lambda m: "Play in" in m.content)
        fake.lock_thread(thread)
        fake_club.channel.set_overwrite(role, deny=perm.MANAGE_THREADS)
        keeper = bot.thread_keeper
        assert keeper is not None
        for step in (timedelta(days=6, hours=1), HOUR, HOUR):  # due to be touched
            fake.advance_time(step.total_seconds())
            clock.advance(step)
            await fake.wait_for(
                lambda: True if keeper.checked == clock.now() else None, what="the keeper"
            )
        assert not [r for r in fake.requests if r.path == f"/channels/{thread.id}"]
        assert thread.locked and thread.auto_archive_duration == 10080
    warnings = [r for r in caplog.records if "cannot keep the thread" in r.getMessage()]
    assert len(warnings) == 1 and "it is locked" in warnings[0].getMessage()
