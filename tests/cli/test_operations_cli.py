"""The operator's commands: run's start-up checks, backup, restore, config, --env-file."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from _pytest.capture import CaptureResult

from bot.cli import main
from bot.config_docs import env_example
from bot.storage.maintenance import latest_schema
from tests.storage.test_maintenance import consistent_moves, database_with_moves

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean working directory and environment: no token, no Tabula variables."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "TABULA_DATABASE", "TABULA_CONFIG", "TABULA_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def one_line(captured: CaptureResult[str]) -> str:
    """The only line on standard error (no traceback), checked to be alone."""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def test_run_refuses_an_unwritable_database_path_in_one_line(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The database under a regular file: exit 1 before connecting, one clear line."""
    (workdir / "data").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["run"]) == 1
    line = one_line(capsys.readouterr())
    assert line == ("tabula: cannot create the database data/tabula.sqlite3: data is not a folder")


def test_run_refuses_a_database_from_a_newer_tabula(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked (and migrated) before connecting, so no network is needed to see it."""
    path = workdir / "t.sqlite3"
    asyncio.run(database_with_moves(path, games=1, moves=1))
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {latest_schema() + 1}")
    connection.commit()
    connection.close()
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("TABULA_DATABASE", str(path))
    assert main(["run"]) == 1
    line = one_line(capsys.readouterr())
    assert line.startswith(f"tabula: cannot use the database {path}: the database is at schema")
    assert "upgrade Tabula, or restore a backup" in line


def test_console_refuses_a_damaged_file_in_one_line(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tabula run` without a token opens the console, which checks the database too."""
    path = workdir / "t.sqlite3"
    path.write_bytes(b"garbage" * 1000)
    assert main(["console", "--database", str(path)]) == 1
    assert one_line(capsys.readouterr()) == (
        f"tabula: cannot use the database {path}: file is not a database; restore the "
        "latest backup with `tabula restore BACKUP` (it keeps this file aside)"
    )


async def test_backup_and_restore_commands(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Backup reports what it copied; refuses to overwrite; restore brings it back."""
    live = workdir / "data" / "tabula.sqlite3"
    live.parent.mkdir()
    await database_with_moves(live, games=2, moves=3)
    assert main(["backup", "b.sqlite3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Backed up data/tabula.sqlite3 to b.sqlite3 (")
    assert f"schema version {latest_schema()}, integrity ok; rows: " in out
    assert "games 2" in out and "moves 6" in out

    assert main(["backup", "b.sqlite3"]) == 1
    assert one_line(capsys.readouterr()) == (
        "tabula: b.sqlite3 already exists (use --force to replace it)"
    )
    assert main(["backup", "b.sqlite3", "--force"]) == 0
    capsys.readouterr()

    live.unlink()
    assert main(["restore", "b.sqlite3"]) == 0
    assert capsys.readouterr().out == (
        "Restored b.sqlite3 to data/tabula.sqlite3. Start the bot again.\n"
    )
    assert await consistent_moves(live) == 6


def test_backup_keep_prunes_a_folder(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--keep 2 leaves the two newest timestamped copies; it needs a folder."""
    live = workdir / "live.sqlite3"
    connection = sqlite3.connect(live)
    connection.execute("CREATE TABLE t (x)")
    connection.close()
    folder = workdir / "backups"
    folder.mkdir()
    for old in ("tabula-20240101-000000.sqlite3", "tabula-20240102-000000.sqlite3"):
        (folder / old).write_bytes(b"old")
    assert main(["backup", str(folder), "--database", str(live), "--keep", "2"]) == 0
    out = capsys.readouterr().out
    assert "Removed 1 older backup(s): tabula-20240101-000000.sqlite3." in out
    names = sorted(path.name for path in folder.iterdir())
    assert len(names) == 2 and names[0] == "tabula-20240102-000000.sqlite3"
    assert main(["backup", "x.sqlite3", "--database", str(live), "--keep", "2"]) == 2
    assert "--keep needs a folder" in one_line(capsys.readouterr())
    assert main(["backup", "missing/", "--database", str(live)]) == 1
    assert one_line(capsys.readouterr()) == "tabula: the folder missing/ does not exist"
    assert not (workdir / "missing").exists()


def test_config_shows_values_and_origins_never_the_token(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tabula config`: each variable, its value (the token hidden) and where it came from."""
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n", encoding="utf-8")
    (workdir / "tabula.toml").write_text("[shutdown]\ntimeout = 20\n", encoding="utf-8")
    monkeypatch.setenv("TABULA_LOG_LEVEL", "debug")
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert TOKEN not in out
    rows = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()}
    assert rows["DISCORD_TOKEN"].split() == ["(set,", f"{len(TOKEN)}", "characters)", ".env"]
    assert rows["TABULA_LOG_LEVEL"].split() == ["debug", "environment"]
    assert rows["TABULA_SHUTDOWN_TIMEOUT"].split() == ["20", "tabula.toml"]
    assert rows["TABULA_DATABASE"].split() == ["data/tabula.sqlite3", "default"]
    monkeypatch.setenv("TABULA_LOG_LEVEL", "loud")
    assert main(["config"]) == 2
    out = capsys.readouterr().out
    assert "problem: TABULA_LOG_LEVEL must be one of" in out
    rows = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()}
    assert rows["TABULA_LOG_LEVEL"].split() == [
        "'loud'", "environment:", "bad", "value,", "not", "used", "(see", "below)",
    ]  # fmt: skip
    monkeypatch.delenv("TABULA_LOG_LEVEL")
    (workdir / ".env").write_text("DISCORD_TOKEN=x\nTABULA_LOG_LEVEL=shout\n", encoding="utf-8")
    assert main(["config"]) == 2
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()}
    assert rows["TABULA_LOG_LEVEL"].split()[:2] == ["'shout'", ".env:"]
    assert "info" not in rows["TABULA_LOG_LEVEL"]
    assert main(["config", "--format", "env"]) == 0
    assert capsys.readouterr().out == env_example()


def test_env_file_option_reads_another_file(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tabula --env-file /etc/tabula/tabula.env ...` reads that file instead of .env."""
    settings = workdir / "tabula.env"
    settings.write_text("TABULA_DATABASE=/srv/tabula.sqlite3\n", encoding="utf-8")
    assert main(["--env-file", str(settings), "config"]) == 0
    rows = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()}
    assert rows["TABULA_DATABASE"] == ["/srv/tabula.sqlite3", str(settings)]
    assert main(["--env-file", str(workdir / "typo.env"), "backup", "b.sqlite3"]) == 2
    assert one_line(capsys.readouterr()) == (
        f"tabula: the environment file {workdir / 'typo.env'} does not exist (or cannot be read)"
    )
