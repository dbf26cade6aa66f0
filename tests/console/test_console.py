"""The console, driven by scripted sessions like a user piping commands into it."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.boards import BoardImage
from bot.cli import main
from bot.cli.console_command import DEFAULT_IMAGE_DIR
from bot.console.app import ConsoleApp
from bot.console.help import CONSOLE_COMMANDS
from bot.console.output import save_picture
from bot.console.users import ConsoleUsers, user_id
from bot.services.clock import ManualClock
from bot.services.errors import InvalidInputError
from bot.storage.sqlite import SqliteRepository

DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]


class Session:
    """A console over a temporary database, fed lines, with its output captured."""

    def __init__(self, app: ConsoleApp, out: io.StringIO, repo: SqliteRepository) -> None:
        self.app = app
        self.out = out
        self.repo = repo

    async def run(self, script: str) -> str:
        """Run the script's lines; return what they printed."""
        start = self.out.tell()
        await self.app.run(io.StringIO(script), prompt=False)
        self.out.seek(start)
        printed = self.out.read()
        self.out.seek(0, io.SEEK_END)
        return printed


async def open_session(path: Path, clock: ManualClock, images: Path | None = None) -> Session:
    repo = await SqliteRepository.open(path)
    out = io.StringIO()
    return Session(ConsoleApp(repo, clock, out=out, image_dir=images), out, repo)


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    opened = await open_session(tmp_path / "c.sqlite3", ManualClock())
    yield opened
    await opened.repo.close()


def moves_script(moves: list[str], players: tuple[str, str] = ("alice", "bob")) -> str:
    return "".join(f"{players[i % 2]}> /move {m}\n" for i, m in enumerate(moves))


async def test_a_whole_game(session: Session) -> None:
    """Challenge, accept, moves to a win: the result is printed and the game is over."""
    printed = await session.run(
        "alice> /play groups @bob start=drop colour=white\nbob> /accept\n" + moves_script(DROP_WIN)
    )
    assert "@alice challenges @bob to Groups (start drop)." in printed
    assert "alice plays White." in printed
    assert "Challenge #1 was accepted: game #1." in printed
    assert "The game begins: @alice (White) vs @bob (Black)." in printed
    assert "Move 1: alice played c3.\n@bob to move (Black)." in printed
    assert "Move 11: alice played d4.\nalice wins with White (all six stones connected)." in printed
    assert "3 . . W W W W . ." in printed  # the text diagram after the last move
    after = await session.run("alice> /games\n/move e4\n")
    assert "(to alice) You have no game in progress. Start one with /play." in after
    assert "(to alice) You have no game in progress here." in after


async def test_refusals_are_private_and_change_nothing(session: Session) -> None:
    """Wrong turn, stranger, illegal move, bad notation, unknown command."""
    await session.run("alice> /play groups @bob colour=white\nbob> /accept\n")
    printed = await session.run(
        "bob> /move e3-e1\ncarol> /move 1 d3-e2\nalice> /move d3-d4\n/move d3-e2-f1\n/dance\n"
    )
    assert "(to bob) It is alice's turn, not yours." in printed
    assert "(to carol) You are not playing in this game (alice vs bob)." in printed
    assert "(to alice) That move is not allowed: d4 is occupied." in printed
    assert "(to alice) 'd3-e2-f1' is not a Groups move" in printed
    assert "(to alice) Unknown command '/dance'" in printed
    assert await session.repo.list_moves(1) == []


async def test_challenge_answers(session: Session) -> None:
    """Decline, cancel, an open challenge taken by a third user, and who may do what."""
    printed = await session.run(
        "alice> /play hexade @bob size=6\ncarol> /accept 1\nbob> /decline\n"
        "alice> /play groups @bob\nbob> /cancel 2\nalice> /cancel\n"
        "alice> /play hexade\nalice> /accept 3\ncarol> /accept\n"
    )
    assert "(to carol) This challenge is for bob." in printed
    assert "Challenge #1 was declined by bob." in printed
    assert "(to bob) Only alice, who made this challenge, can cancel it." in printed
    assert "Challenge #2 was cancelled by alice." in printed
    assert "@alice is looking for an opponent for Hexade: anyone may accept." in printed
    assert "(to alice) You cannot accept your own challenge" in printed
    assert "Challenge #3 was accepted: game #1." in printed


async def test_bad_challenges(session: Session) -> None:
    """Self-challenges, unknown games and bad options get specific messages."""
    printed = await session.run(
        "alice> /play groups @alice\n/play chess @bob\n/play groups @bob start=wild\n"
        "/play groups @bob colour=green\n/play\n/play groups bob\n"
    )
    assert "(to alice) You cannot challenge yourself." in printed
    assert "(to alice) Unknown game 'chess'" in printed
    assert "(to alice) Start must be one of standard, drop (got 'wild')." in printed
    assert "(to alice) 'green' is not a colour in Groups" in printed
    assert "(to alice) Name a game: /play GAME" in printed
    assert (
        "(to alice) 'bob': write options as key=value (or key:value) and opponents as @name."
        in printed
    )


async def test_options_may_be_written_as_in_discord(session: Session) -> None:
    """`key:value` works wherever `key=value` does, with Discord's option names too."""
    printed = await session.run(
        "alice> /play stones @bob size:13 colour:black time:3d\n"
        "/play game:groups opponent:@bob start:drop casual:true\n"
        "/settings turn_messages:on reminders:2h digest_period:2d\n"
        "/config challenge_expiry:30m threads:off\n/config threads:maybe\n"
        "/tournament create game:hexade format:swiss rounds:3 size:7 casual:yes max_players:8\n"
    )
    assert "@alice challenges @bob to Stones (size 13)." in printed
    assert "alice plays Black. Rated game.\nClock: 3d per move.\n" in printed
    assert "@alice challenges @bob to Groups (start drop)." in printed
    assert "Casual game: not rated." in printed
    challenges = await session.repo.open_challenges(user_id=user_id("alice"))
    assert sorted((c.game, c.time_control, c.rated) for c in challenges) == [
        ("groups", "none", False), ("stones", "3d", True),
    ]  # fmt: skip
    assert "(to alice) Direct message when it is your turn: on" in printed
    assert "(to alice) Reminders: 2h before a deadline" in printed
    assert "Threads off · challenges expire after 30m" in printed
    assert "(to alice) threads is on or off (got 'maybe')." in printed
    assert "Hexade (size 7)" in printed and "3 rounds" in printed
    assert "write options as" not in printed and "write settings as" not in printed


async def test_expiry_is_announced(tmp_path: Path) -> None:
    """A challenge left unanswered past its expiry is announced on the next line typed."""
    clock = ManualClock()
    session = await open_session(tmp_path / "e.sqlite3", clock)
    try:
        await session.run("alice> /config expiry=10m\n/play groups @bob\n")
        clock.advance(timedelta(minutes=11))
        printed = await session.run("bob> /accept\n")
    finally:
        await session.repo.close()
    assert "Challenge #1 expired without an answer." in printed
    assert "(to bob) There is no challenge for you to accept." in printed


async def test_a_resigned_game_s_diagram_says_so(session: Session) -> None:
    """After a resignation the diagram no longer says whose turn it is, but who won."""
    printed = await session.run(
        "alice> /play diffusion @bob colour=white\nbob> /accept\nalice> /resign\n"
    )
    start, end = printed.split("alice> /resign")
    assert "turn 1: White to move, 4 moves left" in start
    assert "to move" not in end
    assert end.rstrip().endswith(
        "(w/b stones, W/B kings)\nbob wins: alice resigned before any move: not rated"
    )


async def test_hints_and_refusals_say_what_applies(session: Session) -> None:
    """An open challenge's hint does not offer /decline; `#abc` is no game number; a game
    against the computer refuses a clock; an increment not under its cap is refused."""
    printed = await session.run(
        'alice> /play hexade\n/play groups @bob "time=1d+2d max 1d"\n'
        "/play groups @tabula time=1d\n/move #abc d4\n/board #\n"
    )
    assert "(anyone else may answer with `name> /accept 1`; alice can /cancel)" in printed
    assert "/decline" not in printed
    assert "(to alice) The increment (2d) is not less than the cap (1d)" in printed
    assert "(to alice) Games against the computer have no clock: leave out time=1d." in printed
    assert "(to alice) '#abc' is not a game number: write one like #12." in printed
    assert "(to alice) '#' is not a game number" in printed
    assert "no game in progress" not in printed
    direct = await session.run("alice> /play groups @bob\n")
    assert "(answer with `bob> /accept 2` or /decline; alice can /cancel)" in direct


async def test_draw_and_undo(session: Session) -> None:
    """Offer and decline a draw; take back a move with approval; agree a draw."""
    await session.run("alice> /play groups @bob colour=white\nbob> /accept\nalice> /move d3-e2\n")
    printed = await session.run(
        "alice> /undo\nbob> /undo accept\nalice> /draw\nbob> /draw decline\n"
        "alice> /draw\nbob> /draw\n"
    )
    assert (
        "alice asks to take back d3-e2 in game #1. bob: /undo accept or /undo decline." in printed
    )
    assert "Taken back: d3-e2." in printed
    assert "alice offers a draw in game #1. bob: /draw accept or /draw decline." in printed
    assert "bob declined the draw offer in game #1." in printed
    assert "(to alice) bob declined your draw offer; you can offer again after the next move." in (
        printed
    )
    await session.run("alice> /move d3-e2\nalice> /draw\n")
    ended = await session.run("bob> /draw accept\n")
    assert "Draw (draw agreed)." in ended


async def test_resign_and_several_games(session: Session) -> None:
    """With two games, /move picks the one where it is the user's turn; /resign names one."""
    await session.run(
        "alice> /play groups @bob colour=white\nbob> /accept\n"
        "alice> /play groups @bob colour=black start=drop\nbob> /accept\n"
    )
    printed = await session.run("alice> /move d3-e2\n/resign\n/resign 2\n")
    assert "Move 1: alice played d3-e2." in printed
    assert "(to alice) You have 2 games here: name one with its number" in printed
    assert "bob wins with White (alice resigned before any move: not rated)." in printed


async def test_restart_continues_the_game(tmp_path: Path) -> None:
    """A new console over the same database goes on with the game."""
    clock = ManualClock()
    first = await open_session(tmp_path / "r.sqlite3", clock)
    await first.run("alice> /play groups @bob colour=white\nbob> /accept\nalice> /move d3-e2\n")
    await first.repo.close()
    second = await open_session(tmp_path / "r.sqlite3", clock)
    try:
        printed = await second.run("bob> /move e3-e1\n/board\n")
    finally:
        await second.repo.close()
    assert "Move 2: bob played e3-e1." in printed
    assert "Groups #1 · alice vs bob\nMove 2.\n@alice to move (White)." in printed


async def test_pictures_are_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With an image folder, each board's picture is saved there and its path printed."""

    def fake_render(view, **kwargs) -> BoardImage:
        return BoardImage(b"\x89PNG fake", view.state.diagram(), f"game-{view.id}.png")

    monkeypatch.setattr("bot.console.output.render_board", fake_render)
    session = await open_session(tmp_path / "p.sqlite3", ManualClock(), tmp_path / "boards")
    try:
        printed = await session.run("alice> /play groups @bob\nbob> /accept\n")
    finally:
        await session.repo.close()
    picture = tmp_path / "boards" / "game-1.png"
    assert picture.read_bytes() == b"\x89PNG fake"
    assert f"[picture: {picture}]" in printed


def test_no_picture_is_overwritten(tmp_path: Path) -> None:
    """The same name again (after an undo, at the end of a game) gets a number."""
    folder = tmp_path / "console-boards"
    paths = [save_picture(folder, "game-1-move-4.png", bytes([n])) for n in range(3)]
    assert [p.name for p in paths] == [
        "game-1-move-4.png", "game-1-move-4-2.png", "game-1-move-4-3.png",
    ]  # fmt: skip
    assert [p.read_bytes() for p in paths] == [b"\x00", b"\x01", b"\x02"]


def test_the_console_s_pictures_are_not_committed() -> None:
    """`console-boards/`, where `tabula console` writes pictures, is in `.gitignore`."""
    root = Path(__file__).resolve().parents[2]
    ignored = (root / ".gitignore").read_text().splitlines()
    assert f"/{DEFAULT_IMAGE_DIR}/" in ignored


async def test_help_rules_users_and_quit(session: Session) -> None:
    """Informational commands answer privately; /quit ends the session early."""
    printed = await session.run(
        "/help\nalice> /help\n/rules groups\n/rules\nbob> /users\n/quit\nalice> /games\n"
    )
    assert printed.startswith("/help\nTabula console: one simulated server.")
    assert "\n/play GAME @tabula [level=easy|medium|hard]: play the computer\n" in printed
    assert "Say who is typing first" in printed
    assert "(to alice) Tabula console: one simulated server." in printed
    assert "(to alice) /vacation [start [LENGTH]|end|status]: pause your clocks" in printed
    assert "(to alice) Groups: White moves first, then Black." in printed
    assert "(to alice) Name a game: /rules groups." in printed
    assert "(to bob) Users: alice, bob." in printed
    assert "You have no game" not in printed  # nothing after /quit ran


async def test_quit_needs_no_user(session: Session) -> None:
    """A bare /quit ends the session before anyone typed."""
    assert await session.run("/quit\nalice> /games\n") == "/quit\n"


def test_help_lists_every_console_command(session: Session) -> None:
    """Each command the console answers is in its /help (a new one must be added there)."""
    usages = " ".join(usage for usage, _ in CONSOLE_COMMANDS)
    listed = set(re.findall(r"/(\w+)", usages))
    assert set(session.app._handlers) | {"quit"} == listed


def test_user_ids_are_stable_and_names_checked() -> None:
    """The same name (any case) always gets the same id; odd names are refused."""
    users = ConsoleUsers()
    assert users.get("Alice").id == users.get("@alice").id == user_id("ALICE")
    assert users.get("Alice").name == "Alice"
    with pytest.raises(InvalidInputError, match="is not a user name"):
        users.get("9lives")


async def test_malformed_names_and_huge_numbers_are_refused(session: Session) -> None:
    """A malformed @name gets the naming rule, a number no database holds is no game:
    neither gets the apology."""
    long_name = "a" * 33
    printed = await session.run(
        f"alice> /rating @1bad\n/rating @{long_name}\n/play groups @{long_name}\n"
        "/board #99999999999999999999999\n/move 99999999999999999999999 c3\n"
        "/resign #9223372036854775808\n/accept 99999999999999999999999\n"
    )
    rule = "is not a user name: a name is a letter, then up to 31 letters, digits, _ . or -"
    assert f"(to alice) '1bad' {rule}" in printed
    assert printed.count(f"(to alice) '{long_name}' {rule}") == 2
    assert "(to alice) There is no game #99999999999999999999999." in printed
    assert printed.count("There is no game #99999999999999999999999.") == 2
    assert "(to alice) There is no game #9223372036854775808." in printed
    assert "(to alice) There is no challenge #99999999999999999999999." in printed
    assert "Sorry" not in printed


def test_console_command_reads_piped_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`tabula console` runs piped commands and echoes them like a transcript."""
    monkeypatch.setattr("sys.stdin", io.StringIO("alice> /play groups @bob\nbob> /accept\n"))
    status = main(["console", "--database", str(tmp_path / "x.sqlite3"), "--images", str(tmp_path)])
    assert status == 0
    out = capsys.readouterr().out
    assert "bob> /accept\nChallenge #1 was accepted: game #1." in out
