"""Games against the computer in the console: `alice> /play groups @tabula level=easy`."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console.app import ConsoleApp
from bot.services.clock import ManualClock
from bot.services.computer.runner import TurnRunner
from bot.storage.sqlite import SqliteRepository
from tests.services.test_computer import InlineExecutor


async def run(path: Path, script: str) -> str:
    """Run a scripted session over the database at `path`; return what it printed."""
    repo = await SqliteRepository.open(path)
    out = io.StringIO()
    app = ConsoleApp(
        repo, ManualClock(), out=out, runner=TurnRunner(InlineExecutor()), ai_seconds=1.0
    )
    try:
        await app.run(io.StringIO(script), prompt=False)
    finally:
        await app.computer.close()
        await repo.close()
    return out.getvalue()


async def test_a_game_against_the_computer(tmp_path: Path) -> None:
    """The game starts at once; after alice's move the computer's reply is printed."""
    printed = await run(
        tmp_path / "c.sqlite3",
        "alice> /play groups @tabula level=easy colour=white\n/move d3-e2\n/games\n",
    )
    assert "The game begins: @alice (White) vs @Tabula (easy, Black)." in printed
    assert "Move 1: alice played d3-e2." in printed
    assert "Move 2: Tabula (easy) played " in printed
    assert printed.count("@alice to move (White).") == 2
    assert "#1 Groups vs Tabula (easy) · move 2 · your turn" in printed


async def test_the_computer_moves_first_and_levels_are_checked(tmp_path: Path) -> None:
    """As Black, alice sees the computer's opening move; a bad level or a level against
    a person is refused with a hint."""
    printed = await run(
        tmp_path / "d.sqlite3",
        "alice> /play hexade @Tabula level:hard colour=black size=5\n"
        "/play groups @tabula level=expert\n"
        "/play groups @bob level=easy\n",
    )
    assert "Move 1: Tabula (hard) played " in printed
    assert "(to alice) Unknown level 'expert': the levels are easy, medium, hard." in printed
    assert "(to alice) A level is for games against the computer" in printed


async def test_draws_and_undos_against_the_computer(tmp_path: Path) -> None:
    """The computer lets alice take back her move and declines an even draw."""
    printed = await run(
        tmp_path / "u.sqlite3",
        "alice> /play groups @tabula level=easy colour=white\n/move d3-e2\n/undo\n/draw\n",
    )
    assert "Taken back: d3-e2, " in printed
    assert "Tabula (easy) declined the draw offer in game #1." in printed


async def test_a_restarted_console_lets_the_computer_move(tmp_path: Path) -> None:
    """A game where the computer was to move goes on when the console opens again."""
    path = tmp_path / "r.sqlite3"
    repo = await SqliteRepository.open(path)
    app = ConsoleApp(repo, ManualClock(), out=io.StringIO(), runner=TurnRunner(InlineExecutor()))
    await app.computer.start(
        guild_id=1,
        channel_id=1,
        player=app.users.get("alice"),
        game="groups",
        level="easy",
        colour="black",
    )
    await app.computer.close()  # stopped before the computer's first move
    await repo.close()
    printed = await run(path, "alice> /board\n")
    assert "Move 1: Tabula (easy) played " in printed
