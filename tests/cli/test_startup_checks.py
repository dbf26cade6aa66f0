"""The start-up checks of `tabula run` and `tabula console`, in real processes.

A process that cannot use its database must exit at once with one line and status 1:
systemd's `Restart=on-failure` depends on the exit, and only a real interpreter shows
whether a leftover thread keeps it alive after `main` returned.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import doctor
from bot.cli import main
from bot.cli.startup import database_problem
from tests.cli.test_operations_cli import one_line
from tests.storage.test_maintenance import consistent_moves, database_with_moves

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"
EXIT_WITHIN = 20.0
"""Seconds a refused start may take, however loaded the machine (it takes about one)."""


def tabula(folder: Path, *args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """Run `tabula ARGS` in `folder` with a clean environment and no input."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("TABULA_") and name != "DISCORD_TOKEN"
    }
    env.update(environ)
    code = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        check=False,
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=EXIT_WITHIN,
    )


@pytest.mark.parametrize("command", ["console", "run"])
def test_a_file_that_is_not_a_database_stops_the_process_at_once(
    tmp_path: Path, command: str
) -> None:
    """Garbage where the database should be: one line, status 1, and the process ends.

    It used to print the line and then hang for ever: the connection whose first
    statement failed was never closed, and its thread kept the interpreter alive.
    """
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"garbage " * 1000)
    environ = {"TABULA_DATABASE": str(path)}
    if command == "run":
        environ["DISCORD_TOKEN"] = TOKEN
    finished = tabula(tmp_path, command, **environ)
    assert finished.returncode == 1, finished.stderr
    assert finished.stderr.splitlines() == [
        f"tabula: cannot use the database {path}: file is not a database; restore the "
        "latest backup with `tabula restore BACKUP` (it keeps this file aside)"
    ]


def flip_bit(path: Path, page: int, offset: int) -> None:
    """Flip the lowest bit of one byte of a database page (pages count from 1)."""
    data = bytearray(path.read_bytes())
    data[(page - 1) * PAGE + offset] ^= 1
    path.write_bytes(bytes(data))


PAGE = 4096
RESTORE = "restore the latest backup with `tabula restore BACKUP` (it keeps this file aside)"


def test_damage_in_a_page_stops_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One flipped bit in page 2's header: `PRAGMA quick_check` finds it at start-up.

    The bit is in the page's cell count, so the page still reads as a table and only a
    check of the page notices (the bot used to start on it).
    """
    path = tmp_path / "t.sqlite3"
    asyncio.run(database_with_moves(path))
    flip_bit(path, page=2, offset=3)
    damaged = path.read_bytes()
    assert main(["console", "--database", str(path)]) == 1
    line = one_line(capsys.readouterr())
    assert line.startswith(
        f"tabula: cannot use the database {path}: it is damaged (PRAGMA quick_check: "
        "On tree page 2 cell "
    )
    assert line.endswith(f"); {RESTORE}, and see `tabula doctor` for the damage found")
    assert path.read_bytes() == damaged  # not migrated, not switched to WAL: untouched


def test_a_page_sqlite_cannot_read_stops_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A flipped bit in page 2's type byte: the check itself fails to read the page."""
    path = tmp_path / "t.sqlite3"
    asyncio.run(database_with_moves(path))
    flip_bit(path, page=2, offset=0)
    assert main(["console", "--database", str(path)]) == 1
    assert one_line(capsys.readouterr()) == (
        f"tabula: cannot use the database {path}: database disk image is malformed; {RESTORE}"
    )


def test_an_empty_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 0-byte file that was there before the start is not quietly made a new database."""
    path = tmp_path / "t.sqlite3"
    path.touch()
    assert main(["console", "--database", str(path)]) == 1
    assert one_line(capsys.readouterr()) == (
        f"tabula: cannot use the database {path}: it is an empty file (0 bytes), not a "
        f"database the bot created; if your games were in this file, {RESTORE}; to start "
        "a new database instead, delete the empty file"
    )
    assert path.stat().st_size == 0


def test_the_first_start_creates_the_database(tmp_path: Path) -> None:
    """No file yet: the start-up check creates and migrates it, and accepts it next time."""
    path = tmp_path / "data" / "t.sqlite3"
    assert database_problem(path) is None
    assert path.stat().st_size > 0
    assert database_problem(path) is None
    assert asyncio.run(consistent_moves(path)) == 0


def test_a_nearly_full_disk_is_named_with_the_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a full disk SQLite fails in many ways ("disk I/O error" when it cannot create
    the -shm file, say), so whatever the problem, the line adds how much room is left."""
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"garbage " * 1000)
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda folder: SimpleNamespace(free=0))
    assert main(["console", "--database", str(path)]) == 1
    assert one_line(capsys.readouterr()) == (
        f"tabula: cannot use the database {path}: file is not a database; {RESTORE}; "
        f"only 0 bytes free in {tmp_path}: free some space first"
    )
