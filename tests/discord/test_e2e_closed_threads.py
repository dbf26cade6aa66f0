"""Archived and locked threads: refusals that do not change by waiting are not retried."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_ui.posting import Poster
from bot.services.announcing.notify import Ticket
from bot.services.announcing.outbox import DeliveryRefused
from tests.discord.test_e2e import challenge_and_accept, running
from tests.fakediscord import permissions as perm
from tests.fakediscord.fixtures import FakeClub


async def test_an_archived_thread_is_reopened_and_a_locked_one_refuses_at_once(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Editing in an archived game thread reopens it (the bot opened it) and edits; once
    the thread is locked and the bot lacks Manage Threads, an edit or a post is refused
    at once (DeliveryRefused, never retried) and Discord saw one try each."""
    fake = fake_club.fake
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        board, thread = await challenge_and_accept(fake_club, {"game": "groups"})
        poster = Poster(bot)
        fake.world.set_archived(thread, True)
        await poster.edit(thread.id, board.id, {"content": "edited while archived"})
        assert not thread.archived
        assert fake.messages[board.id].content == "edited while archived"
        assert fake_club.guild.bot_role is not None
        fake_club.channel.set_overwrite(fake_club.guild.bot_role, deny=perm.MANAGE_THREADS)
        fake.lock_thread(thread)  # still open: no edits without Manage Threads either
        before = len(fake.requests)
        with pytest.raises(DeliveryRefused, match="Thread is locked"):
            await poster.edit(thread.id, board.id, {"content": "edited while locked"})
        tries = [r for r in fake.requests[before:] if str(thread.id) in r.path]
        assert [(r.method, r.status) for r in tries] == [("PATCH", 403)]  # once, not retried
        fake.world.set_archived(thread, True)
        with pytest.raises(DeliveryRefused, match="edit message"):
            await poster.edit(thread.id, board.id, {"content": "again"})
        with pytest.raises(DeliveryRefused, match="Thread is locked"):
            await poster.send(thread.id, {"content": "a post"}, Ticket(10**6))
        assert fake.messages[board.id].content == "edited while archived"
