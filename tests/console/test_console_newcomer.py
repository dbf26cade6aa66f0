"""What a new user meets first at the console: /rules, their name, the log, the clock."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from tests.console.test_console import Session, session  # noqa: F401
from tests.databases import Backend


async def test_rules_show_the_starting_position(session: Session) -> None:  # noqa: F811
    """/rules GAME shows the game's starting position as a diagram."""
    printed = await session.run("alice> /rules hexade\n")
    assert "(to alice) The starting position:" in printed
    from rules import get_game

    first_row = get_game("hexade").new_game().diagram().splitlines()[0]
    assert f"(to alice) {first_row}" in printed


async def test_names_may_start_with_any_letter(session: Session) -> None:  # noqa: F811
    """A Cyrillic (or any alphabet's) name is a user; a digit first is still refused."""
    printed = await session.run("Борис> /play groups @Zoë\nZoë> /accept\n")
    assert "@Борис challenges @Zoë to Groups." in printed
    assert "Challenge #1 was accepted: game #1." in printed
    refused = await session.run("9lives> /games\n")
    assert "'9lives' is not a user name" in refused


def test_log_lines_go_to_a_file_not_into_the_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """By default the console's log lines go to tabula-console.log, not to its output
    (nor to standard error); --log - sends them to standard error."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TABULA_LOG_LEVEL", "debug")
    monkeypatch.setattr("sys.stdin", io.StringIO("alice> /play groups @bob\nbob> /accept\n"))
    assert main(["console", "--database", str(tmp_path / "x.sqlite3")]) == 0
    captured = capsys.readouterr()
    assert "Challenge #1 was accepted" in captured.out
    assert " DEBUG " not in captured.out and " INFO " not in captured.out
    assert " DEBUG " not in captured.err and " INFO " not in captured.err
    logged = (tmp_path / "tabula-console.log").read_text()
    assert " DEBUG " in logged or " INFO " in logged
    monkeypatch.setattr("sys.stdin", io.StringIO("alice> /games\n"))
    assert main(["console", "--database", str(tmp_path / "x.sqlite3"), "--log", "-"]) == 0
    captured = capsys.readouterr()
    assert " DEBUG " in captured.err or " INFO " in captured.err
    assert " DEBUG " not in captured.out


def test_a_manual_clock_plays_on_a_scratch_copy(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """--manual-clock says it plays on a copy: the simulated days never reach the file."""
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "real.sqlite3"
    monkeypatch.setattr("sys.stdin", io.StringIO("alice> /play groups @bob\n"))
    assert main(["console", "--database", str(database)]) == 0
    script = "bob> /accept\nalice> /play groups @carol time=1d\ncarol> /accept\n/wait 3d\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["console", "--database", str(database), "--manual-clock"]) == 0
    captured = capsys.readouterr()
    assert f"playing on a scratch copy of {database}" in captured.err
    assert "Challenge #1 was accepted" in captured.out  # the copy holds what was there
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM challenges").fetchone() == (1,)


async def test_a_manual_clock_on_postgresql_says_it_writes_into_the_database(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    postgres_backend: Backend,
) -> None:
    """A PostgreSQL database cannot be copied: --manual-clock says first that this
    session writes its simulated dates into it, and then plays on it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("alice> /play groups @bob\n"))
    arguments = ["console", "--database", postgres_backend.location, "--manual-clock"]
    assert await asyncio.to_thread(main, arguments) == 0  # the console runs its own loop
    err = capsys.readouterr().err
    assert err.startswith("--manual-clock: postgresql://")
    assert "cannot be copied, so this session writes its simulated dates into it" in err
    repository = await postgres_backend.open()
    assert len(await repository.open_challenges()) == 1


async def test_texts_a_new_user_reads(session: Session) -> None:  # noqa: F811
    """A Diffusion turn is numbered as a turn; a page of /history past the end says so;
    an unknown level is a capitalised sentence; the computer's name takes its colour
    inside its brackets; durations are written as everywhere ("in 1h")."""
    printed = await session.run("alice> /play diffusion @bob colour=white\nbob> /accept\n")
    assert "Challenge #1 expires in 1h." in printed
    from rules import get_game

    state = get_game("diffusion").new_game()
    script = ""
    while state.to_move == 0:
        notation = state.legal_notations()[0]
        state = state.play_text(notation)
        script += f"alice> /move {notation}\n"
    printed = await session.run(script)
    assert "Turn 1 (moves 1-4): alice played" in printed
    printed = await session.run("alice> /resign\n/history page=2\n")
    assert "(to alice) There is no page 2: the history has 1 page; the last one:" in printed
    printed = await session.run("alice> /play groups @tabula level=impossible\n")
    assert "(to alice) Unknown level 'impossible': the levels are easy, medium, hard." in printed


def test_one_prisoner_is_singular_and_the_computer_s_colour_sits_in_its_brackets() -> None:
    """ "1 prisoner" in Stones' diagram; "Tabula (easy, White)" in a picture's words."""
    from renderers.describe import describe
    from renderers.view import BoardView
    from rules import get_game

    state = get_game("stones").new_game(size=5, compensation=1)
    assert "White: 1 prisoner, " in state.diagram()
    words = describe(get_game("groups").new_game(), BoardView(players=("Tabula (easy)", "bob")))
    assert "Tabula (easy, White)" in words and "(easy) (" not in words
