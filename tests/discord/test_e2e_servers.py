"""Servers changing under the real bot, staged by the fake Discord as Discord does it: the
bot removed from a server (GUILD_DELETE, or 403 50001 found after a restart) and invited
back; a game's channel deleted, with and without a game channel to move it to; a locked
thread refusing several posts; a challenge expiring in a locked, archived thread."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import TypeVar

from bot.client import TabulaBot
from bot.services.clock import ManualClock
from bot.storage.repository import AnnouncementStatus, GameStatus
from bot.storage.suspensions import Suspension, SuspensionOutcome, SuspensionReason
from tests.discord.test_e2e import challenge_and_accept, move, private_reply, running
from tests.fakediscord import permissions as perm
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import PUBLIC_THREAD, FakeChannel

T = TypeVar("T")
H = timedelta(hours=1)
D = timedelta(days=1)


async def eventually(check: Callable[[], Awaitable[T | None]], what: str) -> T:
    """What `check` finds once it finds something (looked for again as the bot works)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while True:
        found = await check()
        if found is not None and found is not False:
            return found
        if loop.time() > deadline:
            raise AssertionError(f"waited 15 s for {what}")
        await asyncio.sleep(0.02)


def server_suspension(bot: TabulaBot, guild_id: int) -> Callable[[], Awaitable[Suspension | None]]:
    return lambda: bot.services.repository.suspension_of(guild_id, None)


async def test_a_removed_bot_suspends_the_server_and_goes_on_when_invited_back(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """GUILD_DELETE: the server's game is suspended (no loss on time however long), Alice,
    who shares another server with the bot, is told by direct message (Bob shares none:
    his fails quietly). Invited back (GUILD_CREATE): the game's thread says it goes on,
    with Alice's 14 hours left, and moves are played again."""
    fake, alice, bob, guild = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.guild
    fake.add_guild("Elsewhere").add_member(alice)
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "1d"}
        )
        clock.advance(10 * H)
        fake.remove_bot(guild)
        suspension = await eventually(server_suspension(bot, guild.id), "the suspension")
        assert suspension.reason is SuspensionReason.REMOVED
        told = await fake.wait_for_message(
            fake.dm_channel(alice), lambda m: "Tabula was removed" in m.content
        )
        assert "your game #1 (Groups (start drop), Alice vs Bob)" in told.content
        assert "the clocks are stopped" in told.content
        assert fake.dm_channel(bob).messages == []

        clock.advance(5 * D)
        await bot.services.scheduler.tick()
        record = await bot.services.games.record(1)
        assert record.status is GameStatus.ACTIVE  # no loss on time

        fake.invite_bot(guild)
        back = await fake.wait_for_message(thread, lambda m: "Tabula is back" in m.content)
        assert "game #1 goes on after 5d, each player with the time they had" in back.content
        assert "Alice has 14h left" in back.content and back.attachments
        answer = await move(fake, alice, thread, "c3")
        assert answer.message is not None and "Alice played **c3**" in answer.message.content
        (ended,) = await bot.services.repository.suspensions(guild.id, suspension.started_at)
        assert ended.outcome is SuspensionOutcome.RESUMED


async def test_a_removal_found_by_a_refused_post_holds_it_until_the_return(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Removed while the bot was stopped (it never gets GUILD_DELETE): the first post
    there, a reminder, gets 403 50001 for a server the bot no longer has. That suspends
    the server instead of giving up: no direct message about a failed post, no loss on
    time; invited back, the reminder is posted once, then the game goes on, and the
    clock runs out when it would have."""
    fake, alice, guild = fake_club.fake, fake_club.alice, fake_club.guild
    database = tmp_path / "t.sqlite3"
    clock = ManualClock()
    async with running(fake, database, clock) as bot:
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "1d"}
        )
        clock.advance(22 * H)
        await bot.services.scheduler.tick()  # the heartbeat: the restart is no outage
    fake.remove_bot(guild)
    async with running(fake, database, clock) as bot:
        assert bot.get_guild(guild.id) is None
        clock.advance(H)  # Alice's reminder (1h left) comes due
        await eventually(server_suspension(bot, guild.id), "the suspension")
        waiting = await bot.services.repository.list_announcements(
            status=AnnouncementStatus.PENDING, game_id=1
        )
        assert [row.kind for row in waiting] == ["reminder"]
        assert (
            await bot.services.repository.list_announcements(status=AnnouncementStatus.PARKED) == []
        )
        clock.advance(3 * D)
        await bot.services.scheduler.tick()
        assert (await bot.services.games.record(1)).status is GameStatus.ACTIVE

        fake.invite_bot(guild)
        reminder = await fake.wait_for_message(thread, lambda m: m.content.startswith("⏰"))
        assert reminder.content.startswith(f"⏰ {alice.mention}, you have 1h left to move")
        back = await fake.wait_for_message(thread, lambda m: "Tabula is back" in m.content)
        assert back.id > reminder.id
        clock.advance(H)
        await fake.wait_for_message(thread, lambda m: "ran out of time" in m.content)
        assert sum("you have 1h left" in m.content for m in thread.messages) == 1


async def test_a_deleted_channel_moves_the_game_to_the_servers_game_channel(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """CHANNEL_DELETE takes the game's channel and its thread: the bot opens a thread in
    the server's game channel at once, with the board and a line saying why; a move typed
    there is pointed to it, never to the deleted place."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    games = fake_club.guild.add_channel("games-2")
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        settings = await private_reply(
            fake, fake.slash(carol, games, "config", {"add_channel": games})
        )
        assert f"Games may be started in: <#{games.id}>." in settings
        fake.world.delete_channel(fake_club.channel)
        assert thread.deleted
        new = await fake.wait_for_thread(games)
        board = await fake.wait_for_message(new, lambda m: bool(m.attachments))
        assert board.content.startswith("The game's channel was deleted, so the game goes on")
        assert f"{alice.mention} to move" in board.content
        moved = await fake.slash(alice, games, "move", {"notation": "d3-e2", "game": 1})
        answer = await moved.response(timeout=15)
        assert answer.message is not None
        assert f"<#{new.id}>" in answer.message.content
        assert str(thread.id) not in answer.message.content
        await fake.wait_for_message(new, lambda m: "Alice played" in m.content)
        reply = await fake.slash(bob, new, "move", {"notation": "e3-e1"})
        assert (await reply.response()).message is not None


async def test_a_game_with_no_channel_left_is_suspended_and_goes_on_where_one_is_named(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The game's channel deleted and the server names no game channel: the game is
    suspended at once, both players get a direct message saying why and what a moderator
    can do (not to "give back access"), and moves are refused saying so. Once a game
    channel is named, the game goes on there, with one board saying why and how long it
    waited."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    lobby = fake_club.guild.add_channel("lobby")
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        fake.world.delete_channel(fake_club.channel)
        for user in (alice, bob):
            told = await fake.wait_for_message(
                fake.dm_channel(user), lambda m: "can no longer be posted" in m.content
            )
            assert "names no game channel" in told.content
            assert "/config add_channel" in told.content and "access" not in told.content
        assert await bot.services.repository.suspension_of(fake_club.guild.id, 1) is not None
        refused = await private_reply(
            fake, fake.slash(alice, lobby, "move", {"notation": "d3-e2", "game": 1})
        )
        assert refused.startswith("Game #1 is suspended: its channel was deleted")

        named = await private_reply(
            fake, fake.slash(carol, lobby, "config", {"add_channel": lobby})
        )
        assert "Games suspended for want of a channel go on there: #1." in named
        new = await fake.wait_for_thread(lobby)
        board = await fake.wait_for_message(new, lambda m: bool(m.attachments))
        assert board.content.startswith("The game's channel was deleted, so the game goes on")
        assert "goes on after" in board.content and f"{alice.mention} to move" in board.content
        moved = await fake.slash(alice, new, "move", {"notation": "d3-e2"})
        assert (await moved.response()).message is not None
        await fake.wait_for_message(new, lambda m: m.id > board.id and bool(m.attachments))
        boards = [m for m in new.messages if m.attachments]
        assert len(boards) == 2, [m.content for m in boards]  # the resumed board, the move


async def test_a_channel_deleted_while_the_bot_was_away_suspends_the_game_at_its_next_move(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The channel was deleted while the bot was stopped: the next move (typed elsewhere)
    is stored, and the mover is told plainly that the game is suspended (not pointed to
    the deleted place, nor told to ask for access); the players get the direct message."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    lobby = fake_club.guild.add_channel("lobby")
    database = tmp_path / "t.sqlite3"
    async with running(fake, database):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
    fake.world.delete_channel(fake_club.channel)
    async with running(fake, database) as bot:
        moved = await fake.slash(alice, lobby, "move", {"notation": "d3-e2", "game": 1})
        answer = (await moved.response(timeout=15)).message
        assert answer is not None and answer.ephemeral
        assert answer.content.startswith("Done: it is stored. Game #1 is suspended: its channel")
        assert str(thread.id) not in answer.content and "give me back access" not in answer.content
        assert (await bot.services.games.record(1)).ply == 1
        await fake.wait_for_message(
            fake.dm_channel(bob), lambda m: "can no longer be posted" in m.content
        )
        waiting = await bot.services.repository.list_announcements(
            status=AnnouncementStatus.PENDING, game_id=1
        )
        assert [row.kind for row in waiting] == ["move"]


async def test_a_reminder_after_the_thread_was_deleted_opens_a_new_thread(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Posts that are not a game's own boards (a reminder) recover the same way: a new
    thread in the game's channel with the board, then the reminder; nothing given up."""
    fake, alice = fake_club.fake, fake_club.alice
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "1d"}
        )
        fake.world.delete_channel(thread)
        clock.advance(23 * H)
        new = await fake.wait_for_thread(fake_club.channel, lambda t: t is not thread)
        board = await fake.wait_for_message(new, lambda m: bool(m.attachments))
        assert board.content.startswith("The game's thread was deleted")
        reminder = await fake.wait_for_message(new, lambda m: m.content.startswith("⏰"))
        assert reminder.content.startswith(f"⏰ {alice.mention}, you have 1h left to move")
        assert (
            await bot.services.repository.list_announcements(status=AnnouncementStatus.PARKED) == []
        )
        assert fake.dm_channel(alice).messages == []


async def test_a_locked_thread_brings_each_player_one_notice(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The game's thread locked, the bot without Manage Threads: its two reminders and the
    loss on time are refused for good (each tried once, never again); each player gets one
    direct message about it, not one per post, saying a moderator can reopen it."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        await bot.services.notifications.update(alice.id, reminders="2h,1h")
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "1d"}
        )
        assert fake_club.guild.bot_role is not None
        fake_club.channel.set_overwrite(fake_club.guild.bot_role, deny=perm.MANAGE_THREADS)
        thread.locked = True
        posts = len([r for r in fake.requests if r[0] == "POST" and str(thread.id) in r[1]])
        for step in (22 * H, H, H):
            clock.advance(step)
            await bot.services.scheduler.tick()
        repository = bot.services.repository

        async def three_parked() -> bool:
            parked = await repository.list_announcements(status=AnnouncementStatus.PARKED)
            return len(parked) == 3

        await eventually(three_parked, "the three posts given up")
        assert (await bot.services.games.record(1)).status is GameStatus.FINISHED
        await bot.services.dispatcher.drain()
        for user in (alice, bob):
            told = await fake.wait_for_message(
                fake.dm_channel(user), lambda m: "I could not post" in m.content
            )
            assert "the thread is locked: a moderator can reopen it" in told.content
            assert len(fake.dm_channel(user).messages) == 1
        tries = [r for r in fake.requests if r[0] == "POST" and str(thread.id) in r[1]]
        assert len(tries) - posts == 3  # one try each, refused with 160005


async def test_a_challenge_expiring_in_a_locked_archived_thread_says_so_anew(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """A challenge made in a member's thread that moderators then lock and archive: when
    it expires, editing its message is refused (archived), reopening the thread is
    refused (locked, no Manage Threads), posting there too; so the expiry is posted in
    the thread's channel, naming the challenge, and nothing is tried again."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    side = fake.world.create_thread(channel, "side talk", thread_type=PUBLIC_THREAD)
    side.owner_id = alice.id
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock):
        play = await fake.slash(alice, side, "play", {"game": "groups", "opponent": bob})
        challenge = (await play.response()).message
        assert challenge is not None and challenge.channel is side
        assert fake_club.guild.bot_role is not None
        channel.set_overwrite(fake_club.guild.bot_role, deny=perm.MANAGE_THREADS)
        side.locked = True
        fake.world.set_archived(side, True)
        clock.advance(2 * H)
        notice = await fake.wait_for_message(channel, lambda m: "expired" in m.content)
        assert notice.content.startswith("Challenge #1 (Alice to Bob, **Groups**) expired")
        assert "buttons no longer work" in notice.content and not notice.pinged
        edits = [r for r in fake.requests if r[0] == "PATCH" and str(challenge.id) in r[1]]
        assert len(edits) == 1 and edits[0][2] == 400
        assert all(not disabled for _, _, disabled in challenge.buttons())  # never edited
        assert side.archived and side.locked


async def test_a_challenge_expiring_in_an_archived_thread_not_the_bots_is_posted_there(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The same in a member's archived (not locked) thread: the bot may not reopen it
    (not its thread, no Manage Threads), but a new message does, so the expiry is posted
    in the thread itself."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    side: FakeChannel = fake.world.create_thread(channel, "side talk", thread_type=PUBLIC_THREAD)
    side.owner_id = alice.id
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock):
        play = await fake.slash(alice, side, "play", {"game": "groups", "opponent": bob})
        assert (await play.response()).message is not None
        assert fake_club.guild.bot_role is not None
        channel.set_overwrite(fake_club.guild.bot_role, deny=perm.MANAGE_THREADS)
        fake.world.set_archived(side, True)
        clock.advance(2 * H)
        notice = await fake.wait_for_message(
            side, lambda m: "expired without an answer" in m.content
        )
        assert notice.content.startswith("Challenge #1 (Alice to Bob")
        assert not side.archived


async def test_a_challenge_in_a_deleted_channel_is_withdrawn_and_both_told(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """A challenge waiting in a channel that is deleted can no longer be answered: it is
    withdrawn, and the challenger and the challenged each get a direct message saying so."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        options = {"opponent": bob, "game": "groups"}
        play = await fake.slash(alice, fake_club.channel, "play", options)
        assert (await play.response()).message is not None
        fake.world.delete_channel(fake_club.channel)
        mine = await fake.wait_for_message(
            fake.dm_channel(alice), lambda m: "was withdrawn" in m.content
        )
        assert mine.content.startswith("Your challenge #1 (**Groups**, to Bob)")
        assert "the channel it was made in was deleted" in mine.content
        theirs = await fake.wait_for_message(
            fake.dm_channel(bob), lambda m: "was withdrawn" in m.content
        )
        assert theirs.content.startswith("Alice's challenge #1 to you")
        challenge = await bot.services.challenges.get(1)
        assert challenge.status.value == "cancelled"
