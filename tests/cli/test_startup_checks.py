"""The start-up checks of `tabula run` and `tabula console`, in real processes.

A process that cannot use its database must exit at once with one line and status 1:
systemd's `Restart=on-failure` depends on the exit, and only a real interpreter shows
whether a leftover thread keeps it alive after `main` returned.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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
        f"tabula: cannot use the database {path}: file is not a database"
    ]
