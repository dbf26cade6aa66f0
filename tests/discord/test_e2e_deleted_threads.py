"""A game's thread deleted by a moderator: the game goes on in a new thread."""

from __future__ import annotations

from pathlib import Path

from tests.discord.test_e2e import challenge_and_accept, running
from tests.fakediscord.fixtures import FakeClub


async def test_a_deleted_game_thread_is_replaced_with_a_new_one(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """THREAD_DELETE while the game runs: the next move (typed in the channel) is posted in
    a new thread of the game's channel with the board and a line saying why, becomes the
    game's place, and the mover is pointed there, not to the deleted thread."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        fake.world.delete_channel(thread)
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
