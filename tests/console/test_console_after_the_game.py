"""The console's /rematch (people and the computer) and the next game it offers after a
turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.clock import ManualClock
from tests.console.test_console import Session, open_session
from tests.console.test_console_computer import run


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    """A console over a new database, its clock standing still."""
    opened = await open_session(tmp_path / "c.sqlite3", ManualClock())
    yield opened
    await opened.repo.close()


async def test_a_rematch_at_the_console(session: Session) -> None:
    """/rematch challenges the opponent with the colours swapped (the latest game by
    default), once; a stranger and a game in progress are refused; accepted, it starts."""
    await session.run("alice> /play groups @bob start=drop colour=white time=2d\nbob> /accept\n")
    early = await session.run("alice> /rematch\n/rematch #1\n")
    assert "(to alice) You have no finished game here; name one by its number." in early
    assert "(to alice) Game #1 is still being played: a rematch can be asked for" in early
    printed = await session.run(
        "bob> /resign\ncarol> /rematch 1\nbob> /rematch\n/rematch\nalice> /rematch 1\n"
    )
    assert "(to carol) Only alice and bob can ask for a rematch of game #1." in printed
    assert (
        "Rematch of game #1, colours swapped.\n@bob challenges @alice to Groups (start drop).\n"
        "bob plays White. Rated game.\nClock: 2d per move.\nChallenge #2 expires in 1h.\n"
        "(answer with `alice> /accept 2` or /decline; bob can /cancel)\n"
    ) in printed
    assert (
        "(to bob) You have asked alice for a rematch already (challenge #2); it waits for "
        "an answer." in printed
    )
    assert "(to alice) bob has asked you for a rematch already: accept challenge #2." in printed
    accepted = await session.run("alice> /accept\n")
    assert "Challenge #2 was accepted: game #2." in accepted
    assert "The game begins: @bob (White) vs @alice (Black)." in accepted
    again = await session.run("alice> /rematch 1\n/rematch 1 now\n")
    assert "(to alice) The rematch of game #1 is being played already: game #2." in again
    assert "(to alice) Write /rematch, or /rematch #12 for another game than your last." in again


async def test_a_rematch_against_the_computer_at_the_console(tmp_path: Path) -> None:
    """Against the computer the new game starts at once, the computer opening it."""
    printed = await run(
        tmp_path / "c.sqlite3",
        "alice> /play hexade @tabula level=easy colour=white size=5\n/resign\n/rematch\n",
    )
    assert "alice plays Hexade (size 5) against Tabula (easy) again, colours swapped: game #2." in (
        printed
    )
    assert "The game begins: @Tabula (easy, White) vs @alice (Black)." in printed
    assert "Move 1: Tabula (easy) played " in printed


async def test_the_next_game_after_a_turn(session: Session) -> None:
    """After a turn, the mover is told privately of the most urgent other game waiting
    for them, after the board; nothing when no other game waits."""
    await session.run(
        "alice> /play groups @bob colour=white\nbob> /accept\n"
        "alice> /play hexade @bob colour=white size=5 time=1d\nbob> /accept\n"
        "alice> /play groups @bob colour=black\nbob> /accept\n"
    )
    printed = await session.run("alice> /move 1 d3-e2\n")
    board = printed.index("Move 1: alice played d3-e2.")
    offer = printed.index("(to alice) Next: your move in Hexade (size 5) #2 vs bob, 1d left, ")
    assert board < offer
    assert printed.rstrip().endswith("/board #2")
    printed = await session.run("alice> /move 2 c3\n")
    assert "Move 1: alice played c3." in printed and "Next:" not in printed
    printed = await session.run("bob> /move 3 d3-e2\n")
    assert "(to bob) Next: your move in Hexade (size 5) #2 vs alice, 1d left, " in printed
    assert "(to bob) 1 more game waits for you: /games lists them." in printed
