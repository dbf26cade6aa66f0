"""Finding an interaction's answer again: only a definite "not found" leads to a post."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.discord_ui.posting import Poster
from tests.discord.test_e2e import running
from tests.fakediscord.fixtures import FakeClub


async def test_only_a_definite_not_found_leads_to_a_new_post(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The lookup of an interaction's answer finds it; a 5xx is an error to try again
    later (posting then could show the answer twice); a 404 means there is none."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        play = await fake.slash(alice, fake_club.channel, "play", {"game": "groups"})
        answer = (await play.response()).message
        assert answer is not None and not answer.ephemeral
        poster = Poster(bot)
        reply = {"application": fake.application_id, "token": play.token}
        assert await poster.answered(reply, {}) == answer.id
        original = r"/webhooks/\d+/[^/]+/messages/@original"
        failing = fake.fail_next("GET", original, status=500, count=100)
        with pytest.raises(discord.HTTPException):
            await poster.answered(reply, {})
        fake.rest.failures.remove(failing)
        fake.fail_next(
            "GET", original, status=404, body={"message": "Unknown Message", "code": 10008}
        )
        assert await poster.answered(reply, {}) is None
