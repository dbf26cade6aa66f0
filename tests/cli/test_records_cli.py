"""`tabula export` and `tabula import` over a database file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage.sqlite import SqliteRepository
from tests.records.games import store_played


def stored_game(database: Path, *args: object, **kwargs: object) -> int:
    """Store a random game in the database file; its id."""

    async def store() -> int:
        repository = await SqliteRepository.open(database)
        try:
            return (await store_played(repository, *args, **kwargs)).id  # type: ignore[arg-type]
        finally:
            await repository.close()

    return asyncio.run(store())


def test_export_then_import_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Export each format to stdout or a file; import prints the new game's number; its
    export equals the original but for that number."""
    database = tmp_path / "t.sqlite3"
    game = stored_game(database, "stones", {"size": 7}, 3, "resigned")
    assert main(["export", str(game), "--database", str(database)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["header"]["site"] == {"name": "Tabula", "gameid": game}
    sgf_file = tmp_path / "game.sgf"
    assert (
        main(
            [
                "export",
                str(game),
                "--format",
                "sgf",
                "-o",
                str(sgf_file),
                "--database",
                str(database),
            ]
        )
        == 0
    )
    assert sgf_file.read_text().startswith("(;FF[4]GM[1]")
    assert main(["import", str(sgf_file), "--database", str(database)]) == 0
    out = capsys.readouterr().out
    assert out == f"imported {sgf_file} as game #{game + 1} (finished, unrated, marked imported)\n"
    assert main(["export", str(game + 1), "--format", "sgf", "--database", str(database)]) == 0
    again = capsys.readouterr().out
    assert again == sgf_file.read_text().replace(f"Tabula game {game}]", f"Tabula game {game + 1}]")


def test_a_running_game_exports_as_text_and_refusals_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Default format text for a game in progress; JSON and SGF refused with the reason;
    an unknown game; a missing database."""
    database = tmp_path / "t.sqlite3"
    game = stored_game(database, "groups", {}, 1, "none")
    assert main(["export", str(game), "--database", str(database)]) == 0
    assert "Result: In progress\n" in capsys.readouterr().out
    assert main(["export", str(game), "--format", "json", "--database", str(database)]) == 1
    assert "records finished games only" in capsys.readouterr().err
    assert main(["export", str(game), "--format", "sgf", "--database", str(database)]) == 1
    assert "only Stones games are written as SGF" in capsys.readouterr().err
    assert main(["export", "99", "--database", str(database)]) == 1
    assert capsys.readouterr().err == "tabula: there is no game #99\n"
    assert main(["export", "1", "--database", str(tmp_path / "none.sqlite3")]) == 1
    assert "there is no database at" in capsys.readouterr().err


def test_import_refuses_an_illegal_move_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ply and the reason, exit status 1, and the database unchanged."""
    database = tmp_path / "t.sqlite3"
    game = stored_game(database, "hexade", {"size": 5}, 2)
    assert main(["export", str(game), "--format", "text", "--database", str(database)]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1. White: "))
    lines[first + 1] = "2. Black: " + lines[first][len("1. White: ") :]
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["import", str(bad), "--database", str(database)]) == 1
    err = capsys.readouterr().err
    cell = lines[first][len("1. White: ") :]
    assert (
        err == f"tabula: {bad}: ply 2 (Black, '{cell}'): {cell} is occupied; nothing was stored\n"
    )
    assert main(["export", str(game + 1), "--database", str(database)]) == 1
    assert main(["import", str(tmp_path / "missing.json"), "--database", str(database)]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_import_of_variations_and_a_collection_says_what_was_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The main line of the first game is stored; one note per thing left out."""
    database = tmp_path / "t.sqlite3"
    game = stored_game(database, "stones", {"size": 7}, 3, "resigned")
    assert main(["export", str(game), "--format", "sgf", "--database", str(database)]) == 0
    text = capsys.readouterr().out
    root, *moves = text.strip()[1:-1].split("\n")
    branched = f"({root}({''.join(moves)})(;B[aa])(;B[bb]))\n" + text
    path = tmp_path / "two.sgf"
    path.write_text(branched)
    assert main(["import", str(path), "--database", str(database)]) == 0
    assert capsys.readouterr().out == (
        f"imported {path} as game #{game + 1} (finished, unrated, marked imported)\n"
        "note: the SGF record has 2 variations beside its main line; only the main line "
        "(the first variation at each branch) was read\n"
        "note: the file holds 2 games; only the first was read, the second was left out\n"
    )
    assert main(["export", str(game + 1), "--format", "sgf", "--database", str(database)]) == 0
    again = capsys.readouterr().out
    assert again == text.replace(f"Tabula game {game}]", f"Tabula game {game + 1}]")


def test_a_refused_import_creates_no_database_nor_its_directories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file is checked before the database is opened: a refusal into a database that
    does not exist yet leaves nothing behind; a good file then creates it."""
    made = tmp_path / "made.sqlite3"
    game = stored_game(made, "groups", {"start": "drop"}, 1, "resigned")
    assert main(["export", str(game), "--database", str(made)]) == 0
    good = tmp_path / "good.json"
    good.write_text(capsys.readouterr().out)
    record = json.loads(good.read_text())
    record["header"]["tabula"]["reason"] = "all six stones connected"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    database = tmp_path / "new" / "dir" / "t.sqlite3"
    for refused in (bad, tmp_path / "missing.json", Path("/dev/zero")):
        assert main(["import", str(refused), "--database", str(database)]) == 1
        assert str(refused) in capsys.readouterr().err
        assert not (tmp_path / "new").exists()
    assert main(["import", str(good), "--database", str(database)]) == 0
    assert capsys.readouterr().out == (
        f"imported {good} as game #1 (finished, unrated, marked imported)\n"
    )
    assert database.is_file()


def test_a_file_of_unknown_size_over_the_limit_is_said_to_be_more_than_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A device (no size until read) is read up to one byte past the limit: more than
    2,000,000 bytes, not 2,000,001."""
    assert main(["import", "/dev/zero", "--database", str(tmp_path / "t.sqlite3")]) == 1
    assert capsys.readouterr().err == (
        "tabula: /dev/zero: the file is more than 2,000,000 bytes; a game record may be at "
        "most 2,000,000 bytes (a long real game takes a few thousand); nothing was stored\n"
    )
