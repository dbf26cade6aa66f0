"""The real bot against the fake Discord: a tournament from /tournament create to its
final standings, rounds started by the results alone; ratings and the leaderboard."""

from __future__ import annotations

import re
from pathlib import Path

from bot.services.announcing.announcements import StartNotice
from bot.services.announcing.notify import Ticket
from bot.services.games.players import Player
from tests.discord.test_e2e import running
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

ROUND_THREAD = re.compile(
    r"Club Cup R(?P<round>\d) #(?P<game>\d+) · (?P<first>\w+) vs (?P<second>\w+)"
)


async def private_text(inter) -> str:
    """The text of an ephemeral answer."""
    response = await inter.response()
    assert response.ephemeral, response
    assert response.message is not None
    return response.message.content


async def play_round(club: FakeClub, number: int) -> FakeMessage:
    """Round `number`'s thread opens with both players called; the first seat plays a
    move (a game without one is not rated), then resigns."""
    fake = club.fake
    users = {user.name: user for user in (club.alice, club.bob, club.carol)}
    thread: FakeChannel = await fake.wait_for_thread(
        club.channel, lambda t: t.name.startswith(f"Club Cup R{number} ")
    )
    match = ROUND_THREAD.fullmatch(thread.name)
    assert match is not None, thread.name
    first: FakeUser = users[match["first"].lower()]
    second: FakeUser = users[match["second"].lower()]
    board = await fake.wait_for_message(thread, lambda m: "The game begins" in m.content)
    assert f"**Club Cup** (#1) · round {number}, board 1" in board.content
    assert set(board.pinged) == {first, second}  # both players are called
    assert board.attachments and board.buttons()
    moved = await (await fake.slash(first, thread, "move", {"notation": "c3"})).response()
    assert moved.message is not None and not moved.ephemeral
    resigned = await (await fake.slash(first, thread, "resign")).response()
    assert resigned.message is not None and not resigned.ephemeral
    return resigned.message


async def test_a_round_robin_tournament_end_to_end(fake_club: FakeClub, tmp_path: Path) -> None:
    """Create (organisers only), Join button and /join, start, three rounds, standings."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    channel = fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3"):
        play_options = {o["name"] for o in fake.commands["play"]["options"]}
        assert "casual" in play_options
        refused = await fake.slash(
            bob, channel, "tournament create", {"game": "groups", "format": "round-robin"}
        )
        assert "Manage Server permission or the organiser role" in await private_text(refused)
        created = await fake.slash(
            carol,
            channel,
            "tournament create",
            {"game": "groups", "format": "round-robin", "name": "Club Cup", "start": "drop"},
        )
        announcement = (await created.response()).message
        assert announcement is not None and not announcement.ephemeral
        assert announcement.content.startswith(
            "**Club Cup** (#1) · Groups (start drop) · Round robin, everyone meets everyone "
            "once · no clock · rated"
        )
        assert [label for _, label, _ in announcement.buttons()] == ["Join", "Leave"]
        joined = await fake.click(alice, announcement, label="Join")
        assert (await joined.response()).type == 7
        assert "1 of 128 players entered" in fake.messages[announcement.id].content
        assert (await joined.followups())[0].content == "You joined **Club Cup** (#1)."
        for user in (bob, carol):
            reply = (await (await fake.slash(user, channel, "tournament join")).response()).message
            assert reply is not None and "joined **Club Cup** (#1)" in reply.content
        info = (await (await fake.slash(bob, channel, "tournament info")).response()).message
        assert info is not None and [label for _, label, _ in info.buttons()] == ["Join", "Leave"]
        early = await fake.slash(alice, channel, "tournament start")
        assert "Only Carol, who created Club Cup" in await private_text(early)
        started = await fake.slash(carol, channel, "tournament start")
        start_reply = (await started.response()).message
        assert start_reply is not None and "round 1 is being paired" in start_reply.content
        round_one = await fake.wait_for_message(channel, lambda m: "round 1 of 3" in m.content)
        assert "has started with 3 players" in round_one.content and "```" in round_one.content
        await fake.wait_for(
            lambda: not fake.messages[announcement.id].buttons() or None, what="entries closed"
        )
        closed = fake.messages[announcement.id].content
        assert "3 of 128 players entered.\nEntries are closed: it started <t:" in closed
        stale = await fake.click(bob, info, label="Join")  # the buttons of /tournament info
        assert (await stale.response()).type == 7 and not fake.messages[info.id].buttons()
        [refusal] = await stale.followups()
        assert refusal.ephemeral and "is not taking entries: it has started" in refusal.content
        result = await play_round(fake_club, 1)
        assert "wins** with Black" in result.content
        assert "Ratings: " in result.content and "1500? → 1662? (+162)" in result.content
        await fake.wait_for_message(channel, lambda m: "round 2 of 3 has started" in m.content)
        await play_round(fake_club, 2)
        await fake.wait_for_message(channel, lambda m: "round 3 of 3 has started" in m.content)
        await play_round(fake_club, 3)
        final = await fake.wait_for_message(channel, lambda m: "is over" in m.content)
        assert final.content.startswith("🏆 **Club Cup** (#1) is over: ")
        assert "Final standings:\n```\n#" in final.content and "SB" in final.content
        standings = await fake.slash(alice, channel, "tournament standings")
        table = (await standings.response()).message
        assert table is not None and "**Club Cup** (#1) · final standings" in table.content
        board = await fake.slash(alice, channel, "leaderboard", {"game": "groups"})
        embed = (await board.response()).message
        assert embed is not None and embed.embeds
        assert embed.embeds[0]["title"] == "Groups leaderboard"
        assert "?" in embed.embeds[0]["description"]
        assert embed.embeds[0]["footer"]["text"].startswith("? provisional")
        rating = await private_text(await fake.slash(alice, channel, "rating", {"game": "groups"}))
        assert rating.startswith("Rating of **Alice**:\n**Groups**: ")
        assert "Place " in rating and " of 3 on this server's leaderboard." in rating


async def test_an_organiser_role_a_withdrawal_and_a_cancellation(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """/config organiser_role lets its members run tournaments; a withdrawal before the
    first move aborts the game; cancelling aborts the rest and says so in their threads."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    channel, guild = fake_club.channel, fake_club.guild
    organisers = guild.add_role("Organisers")
    dave = fake.add_user("dave", global_name="Dave")
    guild.add_member(dave, roles=[organisers])
    async with running(fake, tmp_path / "t.sqlite3"):
        create = {"game": "hexade", "format": "swiss", "name": "Club Cup", "size": 5}
        refused = await fake.slash(dave, channel, "tournament create", create)
        assert "organiser role can create tournaments" in await private_text(refused)
        configured = await fake.slash(carol, channel, "config", {"organiser_role": organisers})
        assert f"Manage Server or the <@&{organisers.id}> role" in await private_text(configured)
        created = await fake.slash(dave, channel, "tournament create", create)
        assert (await created.response()).message is not None
        for user in (alice, bob, carol, dave):
            await (await fake.slash(user, channel, "tournament join", {"tournament": 1})).response()
        choices = await fake.autocomplete(
            alice, channel, "tournament standings", {"tournament": "cup"}, focused="tournament"
        )
        assert choices == [{"name": "#1 Club Cup (open)", "value": 1}]
        await (await fake.slash(dave, channel, "tournament start")).response()
        await fake.wait_for(lambda: len(channel.threads) == 2 or None, what="two game threads")
        alice_thread = next(t for t in channel.threads if "Alice" in t.name)
        other_thread = next(t for t in channel.threads if t is not alice_thread)
        withdraw = await fake.slash(alice, channel, "tournament withdraw")
        note = (await withdraw.response()).message
        assert note is not None and not note.ephemeral
        assert "Alice withdrew from **Club Cup** (#1)" in note.content
        forfeit = "had not begun and will not be played: Alice withdrew, so"
        assert forfeit in note.content and "wins it by forfeit" in note.content
        told = await fake.wait_for_message(alice_thread, lambda m: forfeit in m.content)
        assert "no result" not in told.content
        refused = await fake.slash(bob, channel, "tournament cancel")
        assert "Only Dave, who created Club Cup" in await private_text(refused)
        cancel = await fake.slash(dave, channel, "tournament cancel")
        cancelled = (await cancel.response()).message
        assert cancelled is not None and not cancelled.ephemeral
        assert cancelled.content.startswith(f"**Club Cup** (#1) was cancelled: by {dave.mention}.")
        assert "Games in progress were aborted without a result" in cancelled.content
        announcement = (await created.response()).message
        assert announcement is not None
        await fake.wait_for(
            lambda: (
                "Entries are closed. Cancelled." in fake.messages[announcement.id].content or None
            ),
            what="the announcement closed",
        )
        assert not fake.messages[announcement.id].buttons()
        aborted = await fake.wait_for_message(other_thread, lambda m: "was aborted" in m.content)
        assert "Club Cup was cancelled by Dave" in aborted.content


async def test_a_game_announced_again_after_a_crash_keeps_its_thread(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """A game announced again (a retried delivery) is posted into its own thread: no
    second thread."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    channel = fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        create = {"game": "groups", "format": "knockout", "name": "Club Cup"}
        await (await fake.slash(carol, channel, "tournament create", create)).response()
        for user in (alice, bob):
            await (await fake.slash(user, channel, "tournament join")).response()
        await (await fake.slash(carol, channel, "tournament start")).response()
        thread = await fake.wait_for_thread(channel, lambda t: t.name.startswith("Club Cup R1"))
        await fake.wait_for_message(thread, lambda m: "The game begins" in m.content)
        await bot.services.background.settle()
        # As if the bot had stopped before storing that the game was announced:
        view = await bot.services.tournaments.view(1)
        [pairing] = view.pairings
        assert pairing.game_id is not None and pairing.announced
        game = await bot.services.games.view(pairing.game_id)
        notice = StartNotice(game, view, pairing)
        await bot.notifier.game_started(notice, ticket=Ticket(10_000, attempts=2))
        boards = [m for m in thread.messages if "The game begins" in m.content]
        assert len(boards) == 2 and len(channel.threads) == 1


def whole_lines(content: str, full: str) -> list[str]:
    """The lines of a shortened message that come from the full text, each checked whole."""
    kept = [line for line in content.splitlines() if not line.startswith(("…", "```"))]
    full_lines = set(full.splitlines())
    assert all(line in full_lines for line in kept), [x for x in kept if x not in full_lines]
    return kept


async def test_long_lists_fit_a_message_and_come_attached_whole(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """20 tournaments with 60-character names, then 70 entrants with 32-character names:
    /tournament list, standings and info stay within Discord's 2,000 characters, cut
    between whole lines or names, and attach everything in a file that is never empty."""
    fake, alice, carol, channel = (
        fake_club.fake,
        fake_club.alice,
        fake_club.carol,
        fake_club.channel,
    )
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        names = [f"Tournament {n:02d} " + "x" * 46 for n in range(20)]
        assert {len(name) for name in names} == {60}
        for name in names:
            made = await fake.slash(
                carol,
                channel,
                "tournament create",
                {"game": "groups", "format": "swiss", "name": name},
            )
            assert (await made.response()).message is not None
        seen = ""
        for page in (1, 2):
            listing = await fake.slash(alice, channel, "tournament list", {"page": page})
            response = await listing.response()
            assert response.ephemeral and response.message is not None
            assert len(response.message.content) <= 2000
            assert f"page {page} of 2:" in response.message.content
            seen += response.message.content
        assert all(seen.count(f"**{name}**") == 1 for name in names)
        assert "More on page 2" in seen
        past = await (await fake.slash(alice, channel, "tournament list", {"page": 3})).response()
        assert past.message is not None and past.ephemeral
        assert "There is no page 3: the list has 2 pages." in past.message.content
        entrants = [Player(9000 + n, f"entrant {n:02d} " + "y" * 21) for n in range(70)]
        for entrant in entrants:
            await bot.services.tournaments.join(fake_club.guild.id, 20, entrant)
        standings = await fake.slash(alice, channel, "tournament standings", {"tournament": 20})
        table = (await standings.response()).message
        assert table is not None and len(table.content) <= 2000
        [attached] = table.attachments
        assert attached.filename == "standings.txt" and attached.size > 0
        full = attached.data.decode()
        assert all(entrant.name in full for entrant in entrants)
        assert len(whole_lines(table.content, full)) > 10
        info = await fake.slash(alice, channel, "tournament info", {"tournament": 20})
        about = (await info.response()).message
        assert about is not None and len(about.content) <= 2000
        [attached] = about.attachments
        assert attached.filename == "players.txt"
        assert attached.data.decode().splitlines() == [entrant.name for entrant in entrants]
        players = about.content.splitlines()[-1]
        assert players.startswith("Players (70): entrant 00 ") and players.endswith(" more.")
        listed = players.removeprefix("Players (70): ").rsplit(" and ", 1)[0].split(", ")
        assert listed == [entrant.name for entrant in entrants[: len(listed)]]


async def test_pairings_take_the_round_first(fake_club: FakeClub, tmp_path: Path) -> None:
    """/tournament pairings declares `round` before `tournament`, so a number typed
    first is the round; the tournament is a separate, explicit option."""
    fake = fake_club.fake
    async with running(fake, tmp_path / "t.sqlite3"):
        group = next(o for o in fake.commands["tournament"]["options"] if o["name"] == "pairings")
        assert [o["name"] for o in group["options"]] == ["round", "tournament"]
