"""A multi-move turn under way is the mover's alone until it is complete."""

from __future__ import annotations

from pathlib import Path

from tests.discord.test_e2e import challenge_and_accept, move, running
from tests.fakediscord.fixtures import FakeClub


async def test_the_opponent_sees_the_board_at_the_turns_start(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """After White's first move of a Diffusion turn, Bob's /board shows the position at the
    turn's start (no stone on the square moved to); Alice alone sees her turn so far."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "diffusion", "colour": "white"})
        start = await (await fake.slash(bob, thread, "board", {})).response()
        assert start.message is not None
        start_alt = start.message.attachments[0].description
        played = await move(fake, alice, thread, "k9-k10")
        assert played.ephemeral
        seen = await (await fake.slash(bob, thread, "board", {})).response()
        assert seen.message is not None and not seen.ephemeral
        assert "3 moves left" not in seen.message.content
        assert "No move yet." in seen.message.content
        assert seen.message.attachments[0].description == start_alt
        own = await (await fake.slash(alice, thread, "board", {})).response()
        assert own.message is not None and own.ephemeral
        assert "3 moves left in this turn" in own.message.content
        assert "Only you see this" in own.message.content
        assert own.message.attachments[0].description != start_alt
