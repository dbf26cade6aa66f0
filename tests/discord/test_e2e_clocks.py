"""The real bot against the fake Discord with a correspondence clock: reminders as a
thread mention and as a direct message, then the loss on time posted in the thread and
both players told; a long /games list. The bot's clock is moved by hand; its scheduler
ticks every 50 ms."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.client import TabulaBot
from bot.services.clock import ManualClock
from bot.storage.repository import GameStatus, NewGame
from tests.discord.test_e2e import challenge_and_accept, move, private_reply, running
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeMessage

H = timedelta(hours=1)


async def test_reminders_then_a_loss_on_time(fake_club: FakeClub, tmp_path: Path) -> None:
    """Alice (no direct messages) is reminded in the thread; Bob (turn messages on) by
    direct message; Bob's time runs out: the result is posted with both mentioned, Bob is
    told privately too, and moves are refused."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        text = await private_reply(fake, fake.slash(bob, fake_club.channel, "settings",
                                                    {"turn_messages": True}))  # fmt: skip
        assert "Direct message when it is your turn: on" in text
        assert "Reminders: 1d, 1h before a deadline, by direct message" in text
        refused = await private_reply(
            fake,
            fake.slash(alice, fake_club.channel, "play",
                       {"game": "groups", "opponent": bob, "time": "1x"}),
        )  # fmt: skip
        assert refused.startswith("'1x' is not a duration")
        board, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "1d"}
        )
        assert "⏱ 1d per move: Alice has 1d left (runs out <t:" in board.content

        clock.advance(23 * H)
        reminder = await fake.wait_for_message(thread, lambda m: "⏰" in m.content)
        assert reminder.content.startswith(f"⏰ {alice.mention}, you have 1h left to move")
        assert alice in reminder.pinged

        answer = await move(fake, alice, thread, "c3")
        assert answer.message is not None and "Bob has 1d left" in answer.message.content
        bob_dms = fake.dm_channel(bob)
        turn = await fake.wait_for_message(bob_dms, lambda m: "Your turn" in m.content)
        assert "Alice played **c3**" in turn.content and str(thread.id) in turn.content

        clock.advance(23 * H)
        await fake.wait_for_message(bob_dms, lambda m: "You have 1h left to move" in m.content)
        clock.advance(H)
        result = await fake.wait_for_message(thread, lambda m: "ran out of time" in m.content)
        assert result.content.startswith(f"⏰ {bob.mention} ran out of time.")
        assert "**Alice wins** with White (Bob ran out of time without moving: not rated)." in (
            result.content
        )
        assert {alice, bob} <= set(result.pinged) and result.attachments
        assert [label for _, label, _ in result.buttons()] == ["Rematch"]  # posted, not answered
        lost = await fake.wait_for_message(bob_dms, lambda m: "You ran out of time" in m.content)
        assert "Alice wins" in lost.content
        assert fake.dm_channel(alice).messages == []  # she asked for no direct messages

        late = await move(fake, bob, thread, "c5")
        assert late.ephemeral and late.message is not None
        assert late.message.content.startswith("You have no game in progress here.")
        record = await bot.services.games.record(1)
        assert record.status is GameStatus.FINISHED and record.winner == 0
        reminders = [m for m in thread.messages if m.content.startswith("⏰")]
        assert len(reminders) == 2  # the reminder and the result: nothing twice


async def test_a_long_games_list_comes_in_several_private_messages(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """/games with more games than one message holds: every game is listed, in private
    messages of at most 2000 characters, the most urgent first."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3", ManualClock()) as bot:
        await timed_games(bot, fake_club, 30)
        listed = await fake.slash(alice, fake_club.channel, "games")
        first = (await listed.response()).message
        assert first is not None and first.ephemeral
        assert first.content.startswith("Your games (30), most urgent first:\n#30 Groups")
        more = await listed.followups(2)
        assert all(page.ephemeral and len(page.content) <= 2000 for page in more)
        text = "\n".join([first.content, *(page.content for page in more)])
        order = [int(line.split(" ", 1)[0][1:]) for line in text.splitlines()[1:]]
        assert order == list(range(30, 0, -1))


async def timed_games(bot: TabulaBot, club: FakeClub, count: int) -> None:
    """`count` games of Alice against Bob with a clock, played in the club's channel."""
    clock = bot.services.clock
    for number in range(1, count + 1):  # the later the game, the sooner its deadline
        record = await bot.services.repository.create_game(
            NewGame(
                game="groups",
                options={"start": "drop"},
                guild_id=club.guild.id,
                channel_id=club.channel.id,
                players=(club.alice.id, club.bob.id),
                names=("Alice", "Bob"),
                created_at=clock.now(),
                time_control=f"{40 - number}d",
            )
        )
        await bot.services.games.started(record)


async def test_a_vacation_is_answered_privately_even_when_posting_is_slow(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Bob's vacation is announced in each of his games; Discord slowing those posts down
    does not hold up his private answer: the posts are stored with the vacation and go out
    when Discord lets them, once each."""
    fake, bob, channel = fake_club.fake, fake_club.bob, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3", ManualClock()) as bot:
        await timed_games(bot, fake_club, 2)
        fake.fail_next("POST", rf"/channels/{channel.id}/messages", status=429, retry_after=3.2)
        start = await fake.slash(bob, channel, "vacation start", {"length": "2d"})
        answer = (await start.response()).message
        assert answer is not None and answer.ephemeral
        assert answer.content.startswith("🏖 You are on vacation, back <t:")
        assert "Your opponents in 2 games were told. Vacation left in " in answer.content

        def both_posted() -> list[FakeMessage] | None:
            away = [m for m in channel.messages if m.content.startswith("🏖 Bob is on vacation")]
            return away if len(away) >= 2 else None

        away = await fake.wait_for(both_posted, timeout=10, what="both vacation posts")
        assert len(away) == 2 and not any(m.pinged for m in away)
        status = await private_reply(fake, fake.slash(bob, channel, "vacation status"))
        assert status.startswith("You are on vacation, back <t:")
        back = await private_reply(fake, fake.slash(bob, channel, "vacation end"))
        assert back.startswith("Welcome back: your clocks run again.")
        assert sum("Bob is back from vacation" in m.content for m in channel.messages) == 2
        again = await private_reply(fake, fake.slash(bob, channel, "vacation end"))
        assert again == "You are not on vacation."


async def test_a_slow_direct_message_does_not_hold_up_the_move(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Bob wants turn messages; Discord is slow to open his direct messages: Alice's
    move is answered at once, and Bob's message follows."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3", ManualClock()) as bot:
        await bot.services.notifications.update(bob.id, turn_dms=True)
        await timed_games(bot, fake_club, 1)
        fake.fail_next("POST", "/users/@me/channels", status=429, retry_after=3.2)
        answer = await move(fake, alice, channel, "c3")
        assert answer.type == 4 and answer.message is not None
        assert "Move 1: Alice played **c3**." in answer.message.content
        turn = await fake.wait_for_message(
            fake.dm_channel(bob), lambda m: "Your turn" in m.content, timeout=10
        )
        assert "Alice played **c3**" in turn.content


async def test_a_refused_direct_message_reminder_goes_to_the_thread(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Bob asked for direct messages but Discord refuses them: his reminder is posted
    where the game is played, mentioning him, and only once."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    bob.accepts_dms = False
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        await bot.services.notifications.update(bob.id, turn_dms=True)
        await timed_games(bot, fake_club, 1)  # 39 days per move
        await move(fake, alice, channel, "c3")
        clock.advance(timedelta(days=38, minutes=1))
        reminder = await fake.wait_for_message(channel, lambda m: m.content.startswith("⏰"))
        assert reminder.content.startswith(f"⏰ {bob.mention}, you have 23h 59m left to move")
        assert bob in reminder.pinged and fake.dm_channel(bob).messages == []
        await bot.services.scheduler.tick()
        assert sum(m.content.startswith("⏰") for m in channel.messages) == 1
