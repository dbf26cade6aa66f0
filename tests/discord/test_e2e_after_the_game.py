"""The real bot against the fake Discord after a game and between games: the Rematch
button (after restarts, refused to strangers and for tournament games, against the
computer) and the next game offered privately after a turn."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.client import TabulaBot
from bot.config import Settings
from bot.discord_ui.buttons import OneGameButton
from bot.services.clock import ManualClock
from bot.services.competition.tournaments import Member
from bot.services.games.players import Player
from tests.discord.test_e2e import challenge_and_accept, move, private_reply, running
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel, FakeMessage


def labels(message: FakeMessage) -> list[str | None]:
    """The labels of a message's buttons."""
    return [label for _, label, _ in message.buttons()]


async def new_game(club: FakeClub, options: dict[str, object]) -> FakeChannel:
    """Alice challenges Bob, Bob accepts: the new game's thread, once its board is up."""
    fake = club.fake
    play = await fake.slash(club.alice, club.channel, "play", {"opponent": club.bob, **options})
    challenge = (await play.response()).message
    assert challenge is not None
    accept = await fake.click(club.bob, challenge, label="Accept")
    thread = await fake.wait_for_thread(club.channel, after=accept)
    await fake.wait_for_message(thread, lambda m: "The game begins" in m.content)
    return thread


async def test_a_rematch_asked_for_and_accepted_across_restarts(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """The final board's Rematch works after a restart: refused to a stranger, a challenge
    with the colours swapped and the same choices in the game's thread, asked once; the
    opponent accepts it after another restart, and the new game opens its own thread."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    database = tmp_path / "t.sqlite3"
    options: dict[str, object] = {
        "game": "groups",
        "start": "drop",
        "colour": "white",
        "time": "3d",
    }
    async with running(fake, database):
        _, thread = await challenge_and_accept(fake_club, options)
        assert (await move(fake, alice, thread, "c3")).type == 4
        final = (await (await fake.slash(bob, thread, "resign")).response()).message
        assert final is not None and "**Alice wins** with White (Bob resigned)." in final.content
        assert labels(final) == ["Rematch"]
    async with running(fake, database) as bot:
        text = await private_reply(fake, fake.click(carol, final, label="Rematch"))
        assert text == "Only Alice and Bob can ask for a rematch of game #1."
        asked = await (await fake.click(bob, final, label="Rematch")).response()
        challenge = asked.message
        assert challenge is not None and not asked.ephemeral and challenge.channel is thread
        assert challenge.content.startswith(
            f"**Rematch** of game #1, colours swapped.\n{bob.mention} challenges "
            f"{alice.mention} to **Groups (start drop)**.\nBob plays White. Rated game.\n"
            "Clock: 3d per move.\nChallenge #2 expires "
        )
        assert alice in challenge.pinged
        assert bot.gate is not None and await bot.gate.wait_idle(5)  # its message is recorded
        assert labels(challenge) == ["Accept", "Decline", "Cancel"]
        link = f"https://discord.com/channels/{fake_club.guild.id}/{thread.id}/{challenge.id}"
        text = await private_reply(fake, fake.click(bob, final, label="Rematch"))
        assert text == (
            f"You have asked Alice for a rematch already (challenge #2); it waits for an "
            f"answer. {link}"
        )
        text = await private_reply(fake, fake.slash(alice, thread, "rematch"))  # this game
        assert text == f"Bob has asked you for a rematch already: accept challenge #2. {link}"
        text = await private_reply(fake, fake.click(alice, final, label="Rematch"))
        assert text == f"Bob has asked you for a rematch already: accept challenge #2. {link}"
        assert len(await bot.services.repository.open_challenges(user_id=alice.id)) == 1
    async with running(fake, database) as bot:
        accept = await fake.click(alice, challenge, label="Accept")
        assert (await accept.response()).type == 7
        second: FakeChannel = await fake.wait_for_thread(fake_club.channel, after=accept)
        assert second.name == "Groups #2 · Bob vs Alice" and second.parent is fake_club.channel
        board = await fake.wait_for_message(second, lambda m: "The game begins" in m.content)
        assert f"{bob.mention} to move (White)" in board.content
        await fake.wait_for(lambda: f"<#{second.id}>" in challenge.content or None)
        assert "Challenge #2 was accepted: game #2." in challenge.content
        record = await bot.services.games.record(2)
        assert record.players == (bob.id, alice.id) and dict(record.options) == {"start": "drop"}
        assert record.rated and record.time_control == "3d" and record.thread_id == second.id
        text = await private_reply(fake, fake.click(alice, final, label="Rematch"))
        assert text == "The rematch of game #1 is being played already: game #2."


async def test_a_rematch_asked_for_elsewhere_is_posted_in_the_game_thread(
    fake_club: FakeClub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rematch under a finished game's /board in another channel: the challenge goes to the
    game's thread, the click gets a private link to it; so too when the answer in the
    thread was deferred (privately). An imported game's /board has no Rematch."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    guild = fake_club.guild.id
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        final = (await (await fake.slash(alice, thread, "resign")).response()).message
        assert final is not None
        shown = await (await fake.slash(bob, fake_club.channel, "board", {"game": 1})).response()
        assert shown.message is not None and not shown.ephemeral
        assert labels(shown.message) == ["Rematch"]
        clicked = fake.click(bob, shown.message, label="Rematch")
        text = await private_reply(fake, clicked)
        challenge = thread.messages[-1]
        assert (
            text
            == f"Rematch asked for: https://discord.com/channels/{guild}/{thread.id}/{challenge.id}"
        )
        assert challenge.content.startswith(
            f"**Rematch** of game #1, colours swapped.\n{bob.mention} challenges {alice.mention}"
        )
        assert alice in challenge.pinged and labels(challenge) == ["Accept", "Decline", "Cancel"]
        [stored] = await bot.services.repository.open_challenges(user_id=bob.id)
        assert (stored.channel_id, stored.challenger_seat) == (thread.id, 0)

        assert (await (await fake.click(alice, challenge, label="Decline")).response()).type == 7
        monkeypatch.setattr("bot.discord_ui.replies.DEFER_AFTER", 0.0)  # every answer is "late"
        late = await fake.click(alice, final, label="Rematch")
        assert (await late.response()).type == 5
        (pointer,) = await late.followups()
        again = thread.messages[-1]
        assert again.content.startswith(
            f"**Rematch** of game #1, colours swapped.\n{alice.mention}"
        )
        assert pointer.ephemeral and pointer.content == (
            f"Rematch asked for: https://discord.com/channels/{guild}/{thread.id}/{again.id}"
        )
        assert [m for m in thread.messages if " challenges " in m.content] == [
            challenge, again,
        ]  # fmt: skip
        monkeypatch.undo()

        export = await bot.services.records.export_of(await bot.services.games.record(1))
        record = export.file("json")
        assert record is not None
        imported = await bot.services.records.import_record(record.content, guild_id=guild)
        board = await (
            await fake.slash(bob, fake_club.channel, "board", {"game": imported.id})
        ).response()
        assert board.message is not None and board.message.buttons() == []


async def test_no_rematch_for_tournament_games(fake_club: FakeClub, tmp_path: Path) -> None:
    """A tournament game's final board has no Rematch; a click on an old message's button
    is refused privately and challenges nobody."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        tournaments = bot.services.tournaments
        guild, channel = fake_club.guild.id, fake_club.channel.id
        organiser = Member(Player(carol.id, "Carol"), can_manage=True)
        created = await tournaments.create(
            guild_id=guild, channel_id=channel, member=organiser, game="groups",
            format="round-robin", name="Cup",
        )  # fmt: skip
        for user in (alice, bob):
            await tournaments.join(guild, created.id, Player(user.id, user.global_name or ""))
        await tournaments.start(guild, created.id, organiser)
        thread = await fake.wait_for_thread(fake_club.channel, lambda t: t.name.startswith("Cup"))
        board = await fake.wait_for_message(thread, lambda m: "The game begins" in m.content)
        first = next(user for user in (alice, bob) if f"{user.mention} to move" in board.content)
        assert (await move(fake, first, thread, "c3")).type == 4
        final = (await (await fake.slash(first, thread, "resign")).response()).message
        assert final is not None and "resigned" in final.content and final.buttons() == []
        view = discord.ui.View(timeout=None)
        view.add_item(OneGameButton("rm", 1))
        old = await bot.get_partial_messageable(thread.id).send("An old final board", view=view)
        text = await private_reply(fake, fake.click(alice, fake.messages[old.id], label="Rematch"))
        assert text == (
            "Game #1 was a tournament game: the tournament decides who plays whom, so it has "
            "no rematch."
        )
        assert await bot.services.repository.open_challenges(user_id=alice.id) == []


async def test_a_rematch_against_the_computer_starts_at_once(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Against the computer, Rematch starts the new game at once in its own thread, at the
    same level with the colours swapped: the computer opens it; once only."""
    fake, alice = fake_club.fake, fake_club.alice
    settings = Settings(token=fake.token, database=tmp_path / "c.sqlite3", ai_seconds=1.0)
    bot = TabulaBot(settings, tick_seconds=0.05, guild_ready_timeout=0.05)
    async with fake.run_client(bot):
        await bot.sync_commands()
        options = {"game": "hexade", "size": 5, "opponent": fake.bot_user, "level": "easy"}
        play = await fake.slash(alice, fake_club.channel, "play", {**options, "colour": "white"})
        await play.response()
        board = await fake.wait_for_message(None, lambda m: "The game begins" in m.content)
        first = board.channel
        final = (await (await fake.slash(alice, first, "resign")).response()).message
        assert final is not None and labels(final) == ["Rematch"]
        asked = await (await fake.click(alice, final, label="Rematch")).response()
        announced = asked.message
        assert announced is not None and not asked.ephemeral
        second: FakeChannel = await fake.wait_for_thread(
            fake_club.channel, lambda t: t.name.startswith("Hexade #2")
        )
        assert second.name == "Hexade #2 · Tabula (easy) vs Alice"
        await fake.wait_for(lambda: f"<#{second.id}>" in announced.content or None)
        assert announced.content == (
            f"{alice.mention} plays Hexade (size 5) against Tabula (easy) again, colours "
            f"swapped: game #2.\nPlay in <#{second.id}>."
        )
        reply = await fake.wait_for_message(
            second, lambda m: "Move 1: Tabula (easy) played" in m.content, timeout=30
        )
        assert f"{alice.mention} to move" in reply.content
        record = await bot.services.games.record(2)
        assert record.ai_levels == ("easy", None) and record.players == (None, alice.id)
        assert dict(record.options) == {"size": 5} and not record.rated
        text = await private_reply(fake, fake.click(alice, final, label="Rematch"))
        assert text == "The rematch of game #1 is being played already: game #2."


async def test_the_next_game_is_offered_privately_after_a_turn(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """With two other games waiting, the mover privately gets the most urgent (the nearest
    deadline), with a link and a button showing its board; the public board stays one
    message. With none waiting, nothing is offered."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    guild = fake_club.guild.id
    async with running(fake, tmp_path / "t.sqlite3", ManualClock()) as bot:
        untimed = await new_game(fake_club, {"game": "groups", "colour": "white"})
        later = await new_game(
            fake_club, {"game": "hexade", "size": 5, "colour": "white", "time": "3d"}
        )
        sooner = await new_game(
            fake_club, {"game": "groups", "start": "drop", "colour": "white", "time": "1d"}
        )
        before = len(untimed.messages)
        played = await fake.slash(alice, untimed, "move", {"notation": "d3-e2"})
        answer = await played.response()
        assert answer.type == 4 and not answer.ephemeral and answer.message is not None
        assert "Move 1: Alice played **d3-e2**." in answer.message.content
        (offer,) = await played.followups()
        assert offer.ephemeral
        assert offer.content.startswith(
            "Next: your move in **Groups (start drop)** #3 vs Bob, 1d left, runs out <t:"
        )
        assert offer.content.endswith(
            f":R> · https://discord.com/channels/{guild}/{sooner.id}\n"
            "1 more game waits for you: /games lists them."
        )
        assert labels(offer) == ["Show game #3"]
        assert len(untimed.messages) == before + 1  # the public board only

        shown = await (await fake.click(alice, offer, label="Show game #3")).response()
        assert shown.ephemeral and shown.message is not None and shown.message.attachments
        assert "No move yet." in shown.message.content
        assert labels(shown.message)[0] == "Move"
        form = await fake.click(alice, shown.message, label="Move")
        submitted = await fake.submit_modal(alice, form, {"notation": "c3"})
        pointer = await submitted.response()
        assert pointer.ephemeral and pointer.message is not None
        assert pointer.message.content == f"Done: see <#{sooner.id}>."
        await fake.wait_for_message(sooner, lambda m: "Move 1: Alice played **c3**." in m.content)
        (offer,) = await submitted.followups()
        assert offer.content.startswith("Next: your move in **Hexade (size 5)** #2 vs Bob, 3d left")
        assert "more game" not in offer.content and labels(offer) == ["Show game #2"]

        last = await fake.slash(alice, later, "move", {"notation": "c3"})
        assert (await last.response()).type == 4
        assert bot.gate is not None and await bot.gate.wait_idle(5)
        assert last.followup_messages == []
        waiting = await fake.slash(bob, later, "move", {"notation": "d4"})
        assert (await waiting.response()).type == 4
        (offer,) = await waiting.followups()
        assert offer.content.startswith("Next: your move in **Groups (start drop)** #3 vs Alice")
        assert offer.content.endswith("\n1 more game waits for you: /games lists them.")
        assert alice not in offer.pinged and bob not in offer.pinged
