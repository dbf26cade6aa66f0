"""Moves on the command line: words starting with `-`, `--`, help, pipes and output files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import build_parser, main
from bot.cli.moves_argv import split_moves

TABULA = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]


def tabula(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run `tabula ARGV` in a fresh process."""
    return subprocess.run(
        [*TABULA, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("argv", "expected", "moves"),
    [
        (["replay", "groups", "d3-e2", "-a1"], ["replay", "--", "groups"], ["d3-e2", "-a1"]),
        (["replay", "groups", "-a1"], ["replay", "--", "groups"], ["-a1"]),
        (["replay", "groups", "d3-e2", "-h"], ["replay", "--", "groups"], ["d3-e2", "-h"]),
        (["replay", "groups", "-h"], ["replay", "-h", "--", "groups"], []),
        (
            ["replay", "groups", "-O", "start=drop", "c3", "--option=x=y", "-c5"],
            ["replay", "-O", "start=drop", "--option=x=y", "--", "groups"],
            ["c3", "-c5"],
        ),
        (["replay", "groups", "--", "-O", "--"], ["replay", "--", "groups"], ["-O", "--"]),
        (["replay", "-x", "groups"], ["replay", "-x", "--", "groups"], []),
        (
            ["--env-file", "x.env", "render", "groups", "d3-e2", "-o", "b.png", "--hint"],
            ["--env-file", "x.env", "render", "-o", "b.png", "--hint", "--", "groups"],
            ["d3-e2"],
        ),
        (
            ["render", "groups", "--hint", "c5", "-ob.png", "--players", "A", "B", "-d3"],
            ["render", "--hint", "c5", "-ob.png", "--players", "A", "B", "--", "groups"],
            ["-d3"],
        ),
        (["games", "--json"], ["games", "--json"], []),
    ],
)
def test_words_are_sorted_into_options_and_moves(
    argv: list[str], expected: list[str], moves: list[str]
) -> None:
    """Options keep their values; the game goes to argparse, the moves around it."""
    assert split_moves(build_parser(), argv) == (expected, moves)


@pytest.mark.parametrize(
    ("moves", "ply", "bad"),
    [
        (["d3-e2", "-a1"], 1, "-a1"),
        (["-a1"], 0, "-a1"),
        (["d3-e2", "-h"], 1, "-h"),
        (["d3-e2", "--help"], 1, "--help"),
        (["--", "-O"], 0, "-O"),
        (["--", "d3-e2", "--"], 1, "--"),
    ],
)
def test_a_move_starting_with_a_dash_reaches_the_engine(
    moves: list[str], ply: int, bad: str
) -> None:
    """Such a move is refused in the JSON contract, with its index, and exit status 2."""
    result = tabula("replay", "groups", *moves)
    assert result.returncode == 2, result.stderr
    assert result.stderr == ""
    report = json.loads(result.stdout)
    assert report["ply"] == ply
    assert report["error"].startswith(f"{bad!r} is not a Groups move")


def test_help_before_the_moves_is_help() -> None:
    """`-h` right after the game still asks for help, which mentions `--`."""
    result = tabula("replay", "groups", "-h")
    assert result.returncode == 0
    assert "usage: tabula replay" in result.stdout
    assert "Every word after -- is a move" in " ".join(result.stdout.split())


def test_replay_without_arguments_names_only_the_game_as_required() -> None:
    """Moves are optional, so only the game is said to be missing."""
    result = tabula("replay")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "tabula replay: error: the following arguments are required: game"
    )


def test_replay_into_a_closed_pipe_ends_quietly() -> None:
    """A reader that stops reading (`| head -c 200`) ends the command without a traceback."""
    process = subprocess.Popen(
        [*TABULA, "replay", "stones", "--option", "size=19"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before the child has written anything (it is still importing)
    errors = process.stderr.read()
    assert process.wait(timeout=60) == 1
    assert errors == ""


def test_options_may_follow_moves_that_start_with_a_dash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--option` is still an option after the moves; the bad move is reported."""
    status = main(["replay", "groups", "c3", "-c5", "--option", "start=drop"])
    assert status == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "'-c5' is not a Groups move: write a step or jump like d3-e2, or a drop like d4",
        "ply": 1,
    }


def test_render_refuses_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    """A file that cannot be written is one line on stderr and exit status 2."""
    target = tmp_path / "missing" / "x.png"
    result = tabula("render", "groups", "d3-e2", "-o", str(target))
    assert result.returncode == 2
    assert result.stderr == f"error: cannot write {target}: No such file or directory\n"
    assert result.stdout == ""


@pytest.mark.parametrize(("suffix", "kind"), [("png", "PNG"), ("gif", "GIF"), ("webp", "WEBP")])
def test_render_writes_the_format_the_name_asks_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str, kind: str
) -> None:
    """`-o x.gif` is a GIF and `-o x.WEBP` a WebP, not PNG data under another name."""
    target = tmp_path / f"board.{suffix.upper() if suffix == 'webp' else suffix}"
    assert main(["render", "groups", "d3-e2", "-o", str(target)]) == 0
    with Image.open(target) as picture:
        assert picture.format == kind
        assert picture.size == (840, 1016)
    assert capsys.readouterr().out == f"wrote {target}\n"


def test_render_refuses_a_format_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`-o x.jpg` is refused before anything is drawn, and nothing is written."""
    target = tmp_path / "board.jpg"
    assert main(["render", "groups", "-o", str(target)]) == 2
    assert capsys.readouterr().err == (
        f"error: cannot write {target}: the name must end in .png, .gif, .webp\n"
    )
    assert not target.exists()


def test_render_refuses_a_replay_name_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A replay must be named for an animated format."""
    replay = tmp_path / "game.png"
    assert main(["render", "groups", "-o", str(tmp_path / "b.png"), "--replay", str(replay)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not replay.exists() and not (tmp_path / "b.png").exists()
