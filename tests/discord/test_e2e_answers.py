"""Finding an interaction's answer again: only a definite "not found" leads to a post."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest

from bot.discord_ui.posting import Poster
from tests.discord.test_e2e import running
from tests.fakediscord.fixtures import FakeClub


@pytest.mark.usefixtures("quick_webhook_retries")
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


SLOW = 3.5
"""Seconds each slowed database read takes: more than Discord's 3 s to answer."""


async def test_answers_after_database_work_are_deferred_in_time(
    fake_club: FakeClub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a database slower than 3 s, /history, /export, /settings and /tournament list,
    info and standings defer their answers in time and then give them, privately."""
    fake, alice, channel = fake_club.fake, fake_club.alice, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        repository = bot.services.repository
        for name in (
            "finished_games",
            "latest_game_at",
            "history_page",
            "get_user_settings",
            "list_tournaments",
            "get_tournament",
        ):
            monkeypatch.setattr(repository, name, slowed(getattr(repository, name)))
        commands: list[tuple[str, dict[str, object], str]] = [
            ("history", {}, "Alice"),
            ("export", {}, "no finished game"),
            ("settings", {}, "Your notification settings"),
            ("tournament list", {}, "No tournament"),
            ("tournament info", {"tournament": 1}, "no tournament #1"),
            ("tournament standings", {"tournament": 1}, "no tournament #1"),
        ]
        # All at once: each waits on the slowed database in parallel with the others.
        asked_all = [await fake.slash(alice, channel, c, options) for c, options, _ in commands]
        for (command, _, expected), asked in zip(commands, asked_all, strict=True):
            response = await asked.response(timeout=10)
            assert response.type == 5, (command, response)  # deferred, in time
            [answer] = await asked.followups(timeout=15)
            assert answer.ephemeral, command
            text = answer.content + " ".join(str(e) for e in answer.embeds)
            assert expected.lower() in text.lower(), (command, text)


def slowed(method):
    """`method`, taking `SLOW` seconds longer."""

    async def slow(*args, **kwargs):
        await asyncio.sleep(SLOW)
        return await method(*args, **kwargs)

    return slow
