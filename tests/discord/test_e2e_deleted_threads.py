"""A game's thread deleted by a moderator: the game goes on in a new thread."""

from __future__ import annotations

from pathlib import Path

from tests.discord.test_e2e import challenge_and_accept, running
from tests.fakediscord.fixtures import FakeClub


async def test_a_deleted_game_thread_is_replaced_at_once(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """THREAD_DELETE while the game runs: the bot opens a new thread in the game's channel
    at once, with the board and a line saying why; moves go on there, and a move typed in
    the channel points there, not to the deleted thread."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        fake.world.delete_channel(thread)
        new = await fake.wait_for_thread(channel, lambda t: t is not thread)
        board = await fake.wait_for_message(new, lambda m: bool(m.attachments))
        assert board.content.startswith("The game's thread was deleted, so the game goes on")
        assert f"{alice.mention} to move" in board.content
        moved = await fake.slash(alice, channel, "move", {"notation": "d3-e2", "game": 1})
        answer = await moved.response(timeout=15)
        assert answer.message is not None
        assert f"<#{new.id}>" in answer.message.content
        assert f"<#{thread.id}>" not in answer.message.content
        await fake.wait_for_message(new, lambda m: "Alice played" in m.content)
        reply = await fake.slash(bob, new, "move", {"notation": "e3-e1"})
        assert (await reply.response()).message is not None
        assert [t for t in channel.threads if not t.deleted] == [new]


async def test_a_thread_deleted_while_the_bot_was_away_is_replaced_at_the_next_post(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The thread was deleted while the bot was stopped (no THREAD_DELETE reaches it):
    the next move (typed in the channel) is posted in a new thread of the game's channel
    with the board and a line saying why, becomes the game's place, and the mover is
    pointed there, not to the deleted thread."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    database = tmp_path / "t.sqlite3"
    async with running(fake, database):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
    fake.world.delete_channel(thread)
    async with running(fake, database):
        moved = await fake.slash(alice, channel, "move", {"notation": "d3-e2", "game": 1})
        answer = await moved.response(timeout=15)
        assert answer.message is not None
        new = next(t for t in channel.threads if t is not thread and not t.deleted)
        posted = await fake.wait_for_message(new, lambda m: "Alice played" in m.content)
        assert posted.content.startswith("The game's thread was deleted")
        assert posted.attachments  # the board
        assert f"<#{new.id}>" in answer.message.content
        assert f"<#{thread.id}>" not in answer.message.content
        reply = await fake.slash(bob, new, "move", {"notation": "e3-e1"})
        assert (await reply.response()).message is not None
