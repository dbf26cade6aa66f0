"""What is stored is told, proved by killing the bot: SIGKILL at the worst moments.

The real bot runs in a child process against the fake Discord. The fake holds one of its
requests (a stalled network) so the bot is killed at an exact point: after a move was
stored but before its answer reached Discord, after Discord acted on a request but before
the bot heard back, after a game's thread was opened but before the bot recorded it. A
new process over the same database must then tell the players everything, exactly once.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.bench.crash_bench import BotChild
from bot.storage.opening import open_repository
from bot.storage.repository import Announcement, AnnouncementStatus, Repository
from tests.discord.test_e2e import challenge_and_accept
from tests.discord.test_e2e_outbox import CALLBACK, boards, one_board
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel
from tests.waiting import PATIENCE

THREADS = r"/channels/\d+/(messages/\d+/)?threads"
POSTS = r"/channels/\d+/messages"


@asynccontextmanager
async def child_bot(fake: FakeDiscord, database: Path) -> AsyncIterator[BotChild]:
    """The bot in a child process over `database`, connected; stopped at the end."""
    bot = BotChild(fake, database)
    bot.start()
    try:
        await fake.wait_until_ready(timeout=60)
        yield bot
    finally:
        await bot.stop()


async def kill_and_restart(fake: FakeDiscord, bot: BotChild) -> None:
    """SIGKILL, then a new process over the same database, connected."""
    await bot.kill()
    bot.start()
    await fake.wait_until_ready(timeout=60)


@asynccontextmanager
async def reading(database: Path) -> AsyncIterator[Repository]:
    """The database as the test reads it, beside the bot."""
    repo = await open_repository(database)
    try:
        yield repo
    finally:
        await repo.close()


async def accept_held(club: FakeClub, path: str) -> FakeChannel:
    """Alice challenges Bob to Groups; Bob accepts, and the bot's request to `path` is
    taken by Discord but its answer held: the thread the game got."""
    fake = club.fake
    play = await fake.slash(
        club.alice,
        club.channel,
        "play",
        {"game": "groups", "opponent": club.bob, "colour": "white"},
    )
    challenge = (await play.response()).message
    assert challenge is not None
    held = fake.hold_next("POST", path, after=True)
    await fake.click(club.bob, challenge, label="Accept")
    await asyncio.wait_for(held.reached.wait(), 15)
    [thread] = game_threads(fake, club.channel)
    return thread


async def delivered(repo: Repository, kind: str) -> Announcement:
    """The one announcement of `kind`, once it is delivered (waits up to `PATIENCE`)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while True:
        [row] = [a for a in await repo.list_announcements() if a.kind == kind]
        if row.status is AnnouncementStatus.DELIVERED:
            return row
        if loop.time() > deadline:
            raise AssertionError(f"the {kind} announcement is still {row.status}")
        await asyncio.sleep(0.1)


def game_threads(fake: FakeDiscord, parent: FakeChannel) -> list[FakeChannel]:
    """The threads opened under `parent` (each game has one)."""
    return [c for c in fake.world.channels.values() if c.parent is parent]


async def test_killed_before_a_stored_moves_answer_reached_discord(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The move is stored and its answer is on its way when the bot dies: the restarted
    bot posts the board in the thread, mentioning the opponent, once."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    database = tmp_path / "t.sqlite3"
    async with child_bot(fake, database) as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        held = fake.hold_next("POST", CALLBACK)
        interaction = await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        await asyncio.wait_for(held.reached.wait(), 15)
        await kill_and_restart(fake, bot)
        board = await one_board(fake, thread, 1)
        assert "Move 1: Alice played **d3-e2**." in board.content
        assert f"<@{bob.id}>" in board.content and board.attachments
        assert interaction.response_info is None  # the answer itself never got through
        async with reading(database) as repo:
            [game] = await repo.active_games()
            assert [m.notation for m in await repo.list_moves(game.id)] == ["d3-e2"]
            [row] = [a for a in await repo.list_announcements() if a.kind == "move"]
            assert row.status is AnnouncementStatus.DELIVERED and row.message_id == board.id
        answer = await (await fake.slash(bob, thread, "move", {"notation": "e3-e1"})).response()
        assert answer.type == 4 and boards(thread, 2) == [answer.message]


async def test_killed_after_discord_took_the_answer_but_before_the_bot_heard(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Discord has the move's answer (the board is shown) but the bot dies before hearing
    so: the restarted bot finds that answer and posts nothing more."""
    fake, alice = fake_club.fake, fake_club.alice
    database = tmp_path / "t.sqlite3"
    async with child_bot(fake, database) as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        held = fake.hold_next("POST", CALLBACK, after=True)
        interaction = await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        await asyncio.wait_for(held.reached.wait(), 15)
        await kill_and_restart(fake, bot)
        answer = await interaction.response()
        assert answer.message is not None
        async with reading(database) as repo:
            assert (await delivered(repo, "move")).message_id == answer.message.id
        await asyncio.sleep(0.5)  # a second copy would come now
        assert boards(thread, 1) == [answer.message]


async def test_killed_after_a_games_thread_was_opened_but_not_recorded(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Discord opened the new game's thread, the bot died before it heard: the restarted
    bot finds that thread (not a second one), posts the first board there once, and a
    /move in it plays in the game."""
    fake, alice = fake_club.fake, fake_club.alice
    async with child_bot(fake, tmp_path / "t.sqlite3") as bot:
        thread = await accept_held(fake_club, THREADS)
        await kill_and_restart(fake, bot)
        first = await fake.wait_for_message(
            thread, lambda m: "The game begins" in m.content, timeout=30
        )
        await asyncio.sleep(0.5)
        assert game_threads(fake, fake_club.channel) == [thread]
        assert sum("The game begins" in m.content for m in thread.messages) == 1
        assert re.search(r"#\d+ · Alice vs Bob", thread.name), thread.name
        assert first.attachments
        answer = await (await fake.slash(alice, thread, "move", {"notation": "d3-e2"})).response()
        assert answer.type == 4 and boards(thread, 1) == [answer.message]


async def test_killed_after_the_first_board_was_posted_but_not_recorded(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Discord took the first board's post, the bot died before it heard: after the
    restart the first board is there once (Discord's nonce, or the bot's look back)."""
    fake, alice = fake_club.fake, fake_club.alice
    database = tmp_path / "t.sqlite3"
    async with child_bot(fake, database) as bot:
        thread = await accept_held(fake_club, POSTS)
        assert sum("The game begins" in m.content for m in thread.messages) == 1
        await kill_and_restart(fake, bot)
        async with reading(database) as repo:
            row = await delivered(repo, "start")
        await asyncio.sleep(0.5)
        [first] = [m for m in thread.messages if "The game begins" in m.content]
        assert row.message_id == first.id
        answer = await (await fake.slash(alice, thread, "move", {"notation": "d3-e2"})).response()
        assert answer.type == 4
