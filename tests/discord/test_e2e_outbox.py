"""What is stored is told, end to end: each way delivery can fail, against the fake Discord.

The interaction's answer failing (5xx, a 429 past the 3-second deadline), posts failing
and retried, the database locked by another process, a thread opened but not recorded:
every stored move's board appears exactly once, every game gets its first board.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.services.announcing.announcements import StartNotice
from bot.services.announcing.notify import Ticket
from bot.storage.repository import AnnouncementStatus
from tests.discord.test_e2e import challenge_and_accept, running
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel, FakeMessage

CALLBACK = r"/interactions/\d+/[^/]+/callback"


def boards(channel: FakeChannel, ply: int) -> list[FakeMessage]:
    """The board messages of a move in a game's thread."""
    return [m for m in channel.messages if re.search(rf"\nMove {ply}: ", m.content)]


async def one_board(fake: FakeDiscord, thread: FakeChannel, ply: int) -> FakeMessage:
    """Wait for the move's board, then check it is there exactly once."""
    await fake.wait_for(lambda: boards(thread, ply) or None, timeout=15, what=f"move {ply}")
    await asyncio.sleep(0.3)  # a second copy would come right after
    found = boards(thread, ply)
    assert len(found) == 1, [m.content[:60] for m in found]
    return found[0]


@pytest.mark.usefixtures("quick_webhook_retries")
async def test_an_answer_that_fails_is_posted_in_the_thread_once(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The interaction's answer fails for good (Discord answers 500 to every try): the
    move counts, and its board is posted in the thread by the dispatcher, once."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        fake.fail_next("POST", CALLBACK, status=500, count=5)  # discord.py tries five times
        await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        board = await one_board(fake, thread, 1)
        assert board.interaction is None and board.attachments
        assert "Move 1: Alice played **d3-e2**." in board.content
        [row] = [a for a in await bot.services.repository.list_announcements() if a.kind == "move"]
        assert row.status is AnnouncementStatus.DELIVERED and row.message_id == board.id


async def test_a_429_past_the_deadline_still_gets_the_board_posted_once(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """A 4-second 429 on the answer (the interaction expires meanwhile): the board is
    posted in the thread instead, once; the next move is answered normally."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        fake.fail_next("POST", CALLBACK, status=429, retry_after=4.0)
        await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        await one_board(fake, thread, 1)
        answer = await (await fake.slash(bob, thread, "move", {"notation": "e3-e1"})).response()
        assert answer.type == 4 and answer.message is not None
        assert boards(thread, 2) == [answer.message]


async def test_failing_posts_are_retried_until_they_are_there_once(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The first board's post fails with a server error discord.py gives up on (a 503,
    which it does not retry itself): the dispatcher tries again after its backoff, and
    the board appears once."""
    fake = fake_club.fake
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        play = await fake.slash(
            fake_club.alice,
            fake_club.channel,
            "play",
            {"game": "groups", "opponent": fake_club.bob, "colour": "white"},
        )
        challenge = (await play.response()).message
        assert challenge is not None
        failing = fake.fail_next("POST", r"/channels/\d+/messages", status=503)
        await (await fake.click(fake_club.bob, challenge, label="Accept")).response()
        first = await fake.wait_for_message(
            None, lambda m: "The game begins" in m.content, timeout=60
        )
        assert failing.remaining == 0
        await asyncio.sleep(0.3)
        assert sum("The game begins" in m.content for m in first.channel.messages) == 1
        [start] = [
            a for a in await bot.services.repository.list_announcements() if a.kind == "start"
        ]
        assert start.attempts == 2 and start.message_id == first.id
        assert start.error is not None and "503" in start.error


async def test_a_database_locked_by_another_process_delays_but_loses_nothing(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Another process holds the database's write lock past Discord's 3 seconds: the move
    is acknowledged in time (privately deferred), stored once the lock is free, and its
    board posted once."""
    fake, alice = fake_club.fake, fake_club.alice
    database = tmp_path / "t.sqlite3"
    async with running(fake, database) as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        locked, release = threading.Event(), threading.Event()

        def hold() -> None:
            connection = sqlite3.connect(database, timeout=30, isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(timeout=60)
            connection.execute("COMMIT")
            connection.close()

        holder = threading.Thread(target=hold)
        holder.start()
        await asyncio.to_thread(locked.wait)
        inter = await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        deferred = await inter.response()
        assert deferred.type == 5 and deferred.ephemeral
        assert not await bot.services.repository.list_moves(1)  # still waiting for the lock
        release.set()
        (pointer,) = await inter.followups(timeout=20)
        assert pointer.ephemeral and pointer.content.startswith("Done:")
        await asyncio.to_thread(holder.join)
        await one_board(fake, thread, 1)
        moves = await bot.services.repository.list_moves(1)
        assert [m.notation for m in moves] == ["d3-e2"]


async def test_a_thread_opened_but_not_recorded_is_found_again(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The bot stopped after Discord opened the game's thread but before it recorded it:
    delivering the first board again finds that thread (by the game's number in its
    name) instead of opening a second one."""
    fake = fake_club.fake
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        games = bot.services.games
        record = await games.record(1)
        assert record.thread_id == thread.id
        unrecorded = record.evolve(thread_id=None)
        await bot.services.repository.update_game(unrecorded)
        view = await games.view(1)
        await bot.notifier.game_started(StartNotice(view), ticket=Ticket(10_000, attempts=2))
        assert len(fake_club.channel.threads) == 1
        assert (await games.record(1)).thread_id == thread.id
        assert sum("The game begins" in m.content for m in thread.messages) == 2
