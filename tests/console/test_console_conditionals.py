"""The console's /conditional: stored privately, played when the opponent's move comes,
and the note about a cleared tree printed with the owner's next command."""

from __future__ import annotations

from pathlib import Path

from bot.services.clock import ManualClock
from tests.console.test_console import open_session

START = "alice> /play groups @bob start=drop colour=white\nbob> /accept\nalice> /move c3\n"


async def test_conditional_moves_at_the_console(tmp_path: Path) -> None:
    """add (with the diagram of where the line leads, and its picture), list, the reply
    played and announced as conditional, a deviation told at Alice's next command."""
    images = tmp_path / "images"
    session = await open_session(tmp_path / "c.sqlite3", ManualClock(), images)
    try:
        await session.run(START)
        printed = await session.run("alice> /conditional add #1 c5 d3 d5 e3\n")
        lines = printed.splitlines()
        assert lines[1:4] == [
            "(to alice) Groups (start drop) #1 · alice vs bob",
            "(to alice) Stored: c5 → d3; then d5 → e3. Your conditional moves here: 2 "
            "replies in 1 line (/conditional list shows them); bob is not told. The picture "
            "shows where this line leads.",
            "(to alice) The position after this line:",
        ]
        assert "(to alice) 5 . . B B . . . ." in lines
        assert "(to alice) 3 . . W W W . . ." in lines
        assert lines[-1] == f"(to alice) [picture: {images / 'game-1-line-new.png'}]"
        assert (images / "game-1-line-new.png").read_bytes().startswith(b"\x89PNG")
        printed = await session.run('/conditional add game:1 line:"c5 d3 e5 f3"\n')
        assert "replies in 2 lines" in printed
        printed = await session.run("/conditional add c5 c3\n")
        assert printed.splitlines()[1:] == [
            "(to alice) 'c3' (step 2, your reply): c3 is occupied. Nothing was stored."
        ]
        printed = await session.run("/conditional list\n")
        assert printed.splitlines()[1:5] == [
            "(to alice) Groups (start drop) #1 · alice vs bob",
            "(to alice) Your conditional moves: 3 replies in 2 lines, each written as bob's "
            "turn → your reply.",
            "(to alice) 1. c5 → d3; then d5 → e3",
            "(to alice) 2. c5 → d3; then e5 → f3",
        ]
        assert "(to alice) The position after line 2:" in printed
        printed = await session.run("bob> /move c5\n")
        assert "Move 2: bob played c5." in printed
        assert "Move 3: alice played d3, a conditional move stored in advance." in printed
        assert "conditional move" not in printed.split("Move 3:")[0]
        printed = await session.run("/move f5\n")
        assert "Move 4: bob played f5." in printed and "(to alice)" not in printed
        printed = await session.run("alice> /games\n")
        assert printed.splitlines()[-2:] == [
            "(to alice) Groups (start drop) #1 · alice vs bob",
            "(to alice) bob played f5, which none of your conditional moves expected, so they "
            "were cleared. It is your turn: /board #1",
        ]
        printed = await session.run("/games\n/conditional list\n/conditional clear\n")
        assert "which none of your" not in printed
        assert "(to alice) You have no conditional moves in any game here." in printed
        assert printed.splitlines()[-1] == "(to alice) You have no conditional moves in game #1."
    finally:
        await session.repo.close()


async def test_conditional_usage_and_clear(tmp_path: Path) -> None:
    """A wrong sub-command shows the usage; clear removes the tree."""
    session = await open_session(tmp_path / "c.sqlite3", ManualClock())
    try:
        await session.run(START)
        printed = await session.run("alice> /conditional\n/conditional list 1 2\n")
        usage = (
            "(to alice) Write /conditional add [#game] LINE (like e5 d4 f6 c3), /conditional "
            "list [#game] or /conditional clear [#game]."
        )
        assert printed.splitlines() == [
            "alice> /conditional",
            usage,
            "/conditional list 1 2",
            usage,
        ]
        await session.run("/conditional add c5 d3\n")
        printed = await session.run("/conditional clear\n")
        assert printed.splitlines()[1:] == [
            "(to alice) Groups (start drop) #1 · alice vs bob",
            "(to alice) Cleared your conditional moves (1 reply).",
        ]
        printed = await session.run("bob> /move c5\n")
        assert "conditional move" not in printed and "Move 2: bob played c5." in printed
    finally:
        await session.repo.close()


async def test_a_turn_answered_at_once_names_the_next_players_clock(tmp_path: Path) -> None:
    """The board of a turn a conditional reply answered names the clock of the player to
    move there (not the mover's, nor the one running after the reply)."""
    session = await open_session(tmp_path / "c.sqlite3", ManualClock())
    try:
        await session.run(
            "bob> /play groups @alice colour=white start=drop time=1d\nalice> /accept\n"
            "bob> /move c3\nalice> /move c6\nalice> /conditional add #1 d3 d6\n"
        )
        printed = await session.run("bob> /move d3\n")
        turn, reply = printed.split("Move 4: ")
        assert "@alice to move (Black).\n⏱ 1d per move: alice has 1d left.\n" in turn
        assert "bob has" not in turn
        assert "@bob to move (White).\n⏱ 1d per move: bob has 1d left (runs out" in reply
    finally:
        await session.repo.close()
