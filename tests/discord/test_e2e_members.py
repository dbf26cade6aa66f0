"""Members who left the server while the bot was not told (no privileged intent)."""

from __future__ import annotations

from pathlib import Path

from tests.discord.test_e2e import running
from tests.fakediscord.fixtures import FakeClub


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
