"""The real bot against the fake Discord: a league from /league create through a season
started by the clock alone to its final standings, each announcement posted once."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from bot.services.clock import ManualClock
from tests.discord.test_e2e import running
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel, FakeUser

GAME_THREAD = re.compile(r"Groups #(?P<game>\d+) · (?P<first>\w+) vs (?P<second>\w+)")


async def private_text(inter) -> str:
    """The text of an ephemeral answer."""
    response = await inter.response()
    assert response.ephemeral, response
    assert response.message is not None
    return response.message.content


async def public_text(inter) -> str:
    """The text of a public answer."""
    response = await inter.response()
    assert response.message is not None and not response.ephemeral, response
    return response.message.content


async def play_game(club: FakeClub, thread: FakeChannel) -> None:
    """The first seat plays a move (so the game counts), then resigns."""
    fake = club.fake
    users = {user.name: user for user in (club.alice, club.bob, club.carol)}
    match = GAME_THREAD.fullmatch(thread.name)
    assert match is not None, thread.name
    first: FakeUser = users[match["first"].lower()]
    second: FakeUser = users[match["second"].lower()]
    board = await fake.wait_for_message(thread, lambda m: "The game begins" in m.content)
    assert {first, second} <= set(board.pinged)
    await public_text(await fake.slash(first, thread, "move", {"notation": "c3"}))
    await public_text(await fake.slash(first, thread, "resign"))


async def test_a_league_season_end_to_end(fake_club: FakeClub, tmp_path: Path) -> None:
    """Create (organisers only), join, the season starts when its entry window closes,
    divisions and standings, three games, the final standings and the next season."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    channel = fake_club.channel
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock):
        options = {o["name"] for o in fake.commands["league"]["options"]}
        assert {"create", "join", "leave", "standings", "divisions", "history"} <= options
        refused = await fake.slash(
            bob, channel, "league create", {"game": "groups", "season": "30d"}
        )
        assert "Manage Server permission or the organiser role" in await private_text(refused)
        bad = await fake.slash(carol, channel, "league create", {"game": "groups", "season": "2h"})
        assert "A season lasts between 1d and 366d" in await private_text(bad)
        created = await fake.slash(
            carol,
            channel,
            "league create",
            {
                "game": "groups",
                "season": "30d",
                "name": "Club League",
                "entry_window": "1h",
                "start": "drop",
            },
        )
        summary = await public_text(created)
        assert summary.startswith("**Club League** (#1): a rated Groups league")
        assert "Season 1 takes entries and starts <t:" in summary
        for user in (alice, bob, carol):
            joined = await public_text(await fake.slash(user, channel, "league join"))
            assert f"{user.mention} joined **Club League** (#1)" in joined
        again = await fake.slash(alice, channel, "league join")
        assert "You have already joined Club League." in await private_text(again)
        early = await public_text(await fake.slash(alice, channel, "league divisions"))
        assert "has not started a season yet" in early

        clock.advance(timedelta(hours=1))
        started = await fake.wait_for_message(
            channel, lambda m: "Season 1 of **Club League** (#1) has started" in m.content
        )
        assert "3 players in 1 division(s), 3 games, all starting now" in started.content
        threads = []
        for _ in range(3):
            threads.append(
                await fake.wait_for_thread(
                    channel,
                    lambda t: GAME_THREAD.fullmatch(t.name) is not None and t not in threads,
                )
            )
        divisions = await public_text(await fake.slash(bob, channel, "league divisions"))
        assert "season 1 · divisions" in divisions and "Division 1" in divisions
        standings = await public_text(await fake.slash(bob, channel, "league standings"))
        assert "season 1 · standings so far" in standings and "SB" in standings
        missing = await fake.slash(bob, channel, "league standings", {"season": 4})
        assert "Club League has played season 1 only." in await private_text(missing)

        for thread in threads:
            await play_game(fake_club, thread)
        final = await fake.wait_for_message(
            channel, lambda m: "Season 1 of **Club League** (#1) is over" in m.content
        )
        assert "Final standings:" in final.content and "Division 1" in final.content
        assert "Season 2 takes entries now and starts <t:" in final.content
        table = await public_text(await fake.slash(alice, channel, "league standings"))
        assert "season 1 · final standings" in table
        history = await public_text(await fake.slash(alice, channel, "league history"))
        assert "Season 1 (" in history and "Division 1: won by" in history
        listed = await private_text(await fake.slash(alice, channel, "league list"))
        assert "Club League" in listed and "taking entries" in listed

        # Each announcement was posted exactly once.
        posted = [m.content for m in channel.messages]
        assert sum("has started" in text for text in posted) == 1
        assert sum("is over" in text for text in posted) == 1
        assert sum(1 for t in threads for m in t.messages if "The game begins" in m.content) == 3

        cancel = await fake.slash(alice, channel, "league cancel")
        assert "Only Carol, who created Club League" in await private_text(cancel)
