"""Ratings and tournaments at the console: scripted sessions over the same services."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.services.clock import ManualClock
from tests.console.test_console import Session, open_session


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    opened = await open_session(tmp_path / "c.sqlite3", ManualClock())
    yield opened
    await opened.repo.close()


async def test_a_swiss_tournament_from_creation_to_final_standings(session: Session) -> None:
    """Create, join, start; resignations finish the rounds; the next comes by itself."""
    printed = await session.run(
        'carol> /tournament create groups swiss rounds=2 name="Spring Swiss" start=drop\n'
        "alice> /tournament join\nbob> /tournament join\ndave> /tournament join\n"
        "alice> /tournament start\ncarol> /tournament start\n"
    )
    assert "Spring Swiss (#1) · Groups (start drop) · Swiss, 2 rounds · no clock · rated" in printed
    assert "dave joined Spring Swiss (#1): 3 of 128 players." in printed
    assert "(to alice) Only carol, who created Spring Swiss, or members" not in printed
    assert "Spring Swiss (#1) has started with 3 players: round 1 of 2." in printed
    assert "1  alice (0)  bob (0)  …\n   dave (0)   bye" in printed
    assert "Spring Swiss (#1) · round 1, board 1\nGroups (start drop) #1 · alice vs bob" in printed
    round_one = await session.run("alice> /move c3\n/resign\n")
    assert round_one.index("bob wins with Black (alice resigned).") < round_one.index(
        "round 2 of 2 has started"
    )  # the result first, then the new round
    assert "Ratings: alice 1500? → 1338? (-162), bob 1500? → 1662? (+162)." in round_one
    assert "1  bob (1)    dave (1)  …\n   alice (0)  bye" in round_one
    final = await session.run("bob> /move c3\n/resign\n/tournament pairings 1\n")
    assert "🏆 Spring Swiss (#1) is over: @dave wins!" in final
    assert (
        "\n".join(
            [
                "#  Player  Pts  W  D  L  Bye  Bh  Bh-1  SB",
                "1  dave      2  1  0  0    1   3     2   1",
                "2  bob       1  1  0  1    0   3     2   1",
                "3  alice     1  0  0  1    1   2     1   0",
                "Tie-breaks: Bh = Buchholz, Bh-1 = Buchholz cut 1, SB = Sonneborn-Berger.",
            ]
        )
        in final
    )
    assert "1  alice (0)  bob (0)  0-1" in final
    ratings = await session.run("dave> /rating groups\n/leaderboard groups\n")
    assert "(to dave) Groups: 1732? (± 287) · 1 game: 1 won, 0 drawn, 0 lost" in ratings
    assert "(to dave) Place 1 of 3 on this server's leaderboard." in ratings
    assert "1  dave     1732?  287      1  1-0-0" in ratings


async def test_casual_games_and_bad_tournament_commands(session: Session) -> None:
    """/play ... casual is unrated; bad /tournament lines get specific messages."""
    printed = await session.run(
        "alice> /play groups @bob casual colour=white\nbob> /accept\n/resign\n"
        "/rating\n/tournament\n/tournament dance\n/tournament create groups\n"
        "/tournament create groups ladder\n/tournament create groups swiss rounds=x\n"
        "/tournament join\n/leaderboard\n"
    )
    assert "alice plays White. Casual game: not rated." in printed
    assert "alice wins with White (bob resigned).\n@alice" in printed
    assert "(to bob) bob has not played a rated game yet" in printed
    assert "(to bob) /tournament create GAME FORMAT" in printed
    assert "(to bob) Unknown /tournament command 'dance'." in printed
    assert "(to bob) Name a game and a format." in printed
    assert "(to bob) 'ladder' is not a tournament format" in printed
    assert "(to bob) rounds must be a whole number, not 'x'." in printed
    assert "(to bob) No tournament is taking entries on this server." in printed
    assert "(to bob) Name a game: /leaderboard groups." in printed


async def test_an_entry_window_starts_the_tournament_on_a_later_line(tmp_path: Path) -> None:
    """When the window closes, the next line typed finds the tournament started."""
    clock = ManualClock()
    session = await open_session(tmp_path / "w.sqlite3", clock)
    try:
        await session.run(
            "carol> /tournament create hexade knockout entry=1h size=5\n"
            "alice> /tournament join\nbob> /tournament join\n"
        )
        clock.advance(timedelta(hours=1))
        printed = await session.run("bob> /tournament withdraw\n/games\nalice> /board 1\n")
    finally:
        await session.repo.close()
    assert "Hexade Knockout (#1) has started with 2 players: round 1 of 1." in printed
    assert "bob withdrew from Hexade Knockout (#1)" in printed
    forfeit = (
        "Game #1 had not begun and will not be played: bob withdrew, so alice wins it by "
        "forfeit (no rating changes)."
    )
    assert printed.count(forfeit) == 2  # the answer, and where the game was played
    assert "aborted" not in printed and "no result" not in printed
    assert "🏆 Hexade Knockout (#1) is over: @alice wins!" in printed
    why = "bob withdrew from the tournament; a forfeit, no rating changes"
    assert f"alice wins with White ({why}).\n" in printed  # the game's own board says it
    assert f"alice wins: {why}" in printed


async def test_pairings_name_the_round_and_the_tournament_apart(session: Session) -> None:
    """A bare number after pairings is the round, as on Discord; #1, tournament=1 and
    round=2 say which is which; /tournament list shows the same lines as Discord."""
    printed = await session.run(
        'carol> /tournament create groups swiss rounds=2 name="Cup" start=drop\n'
        "alice> /tournament join\nbob> /tournament join\ndave> /tournament join\n"
        "carol> /tournament start\nalice> /move c3\n/resign\n"
        "/tournament pairings 1\n/tournament pairings round=2 tournament=1\n"
        "/tournament pairings 2 #1\n/tournament pairings 3\n/tournament pairings size=2\n"
        "/tournament pairings round=x\n/tournament list\n"
    )
    assert "/tournament pairings 1\nCup (#1) · round 1 of 2\n" in printed
    assert printed.count("Cup (#1) · round 2 of 2\n") == 2
    assert "Cup (#1) has paired rounds 1 to 2 so far." in printed
    assert "(to alice) 'size=2': this command takes round and tournament only." in printed
    assert "(to alice) round must be a number, like round=2, not 'x'." in printed
    assert (
        "(to alice) Tournaments on this server (1):\n(to alice) #1 Cup · Groups · Swiss · running"
        in printed
    )
