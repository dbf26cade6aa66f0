"""Members who left the server while the bot was not told (no privileged intent): a
challenge to one is refused plainly; one who left during a game loses on time as usual."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest

from bot.services.clock import ManualClock
from bot.storage.repository import GameStatus
from tests.discord.test_e2e import challenge_and_accept, move, running
from tests.fakediscord.fixtures import FakeClub

HOUR = timedelta(hours=1)


async def test_challenging_a_member_who_left_is_refused_plainly(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Bob left the server: Alice's challenge to him is refused privately, in words a
    player understands (not discord.py's "Failed to convert"), and nothing is posted."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3"):
        fake_club.guild.remove_member(bob)
        before = len(channel.messages)
        play = await fake.slash(alice, channel, "play", {"game": "groups", "opponent": bob})
        response = await play.response()
        assert response.ephemeral and response.message is not None
        text = response.message.content
        assert "is not a member of this server (they may have left it)" in text
        assert "Failed to convert" not in text and "bob" in text.lower()
        assert len(channel.messages) == before


async def test_a_member_who_left_runs_out_of_time_as_usual(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Bob leaves the server on his move in a correspondence game. Direct messages to him
    fail from then on (no server is shared any more); his clock runs on, his reminder goes
    to the thread, and when his time runs out Alice is told there as in any loss on time:
    the final board, the result, a mention. Nothing crashes or is logged as an error."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        await bot.services.notifications.update(bob.id, turn_dms=True)
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "1d"}
        )
        answer = await move(fake, alice, thread, "c3")
        assert answer.message is not None and "Bob has 1d left" in answer.message.content
        bob_dms = fake.dm_channel(bob)
        await fake.wait_for_message(bob_dms, lambda m: "Your turn" in m.content)
        fake_club.guild.remove_member(bob)

        clock.advance(23 * HOUR)
        reminder = await fake.wait_for_message(thread, lambda m: m.content.startswith("⏰"))
        assert reminder.content.startswith(f"⏰ {bob.mention}, you have 1h left to move")
        clock.advance(HOUR)
        result = await fake.wait_for_message(thread, lambda m: "ran out of time" in m.content)
        assert result.content.startswith(f"⏰ {bob.mention} ran out of time.")
        assert "**Alice wins** with White" in result.content
        assert alice in result.pinged and result.attachments
        assert [label for _, label, _ in result.buttons()] == ["Rematch"]
        record = await bot.services.games.record(1)
        assert record.status is GameStatus.FINISHED and record.winner == 0
        assert [m.content.startswith("Your turn") for m in bob_dms.messages] == [True]
        board = await move(fake, alice, thread, "c5")
        assert board.message is not None
        assert board.message.content.startswith("You have no game in progress here.")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
