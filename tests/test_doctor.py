"""`tabula doctor`: each check on good and broken set-ups, the report and the exit status."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import doctor
from bot.cli import main
from bot.config import read_config
from bot.doctor import Check, Status, database_location_problem, format_report, run_checks
from bot.storage import maintenance
from bot.storage.maintenance import latest_schema
from bot.storage.repository import NewAnnouncement, NewGame
from bot.storage.sqlite import SqliteRepository
from bot.storage.suspensions import SuspensionOutcome, SuspensionReason
from renderers import fonts
from tests.databases import POSTGRES_URL, Backend
from tests.storage.test_maintenance import damage, database_with_moves

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture(autouse=True)
def not_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checks run as an ordinary user unless a test says otherwise."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)


@pytest.fixture(autouse=True)
def fonts_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback fonts are found unless a test says otherwise (whatever this machine has)."""
    monkeypatch.setattr(fonts, "file_exists", lambda path: True)


def checks_for(tmp_path: Path, database: Path | str, **environ: str) -> dict[str, Check]:
    """Run every check with the token set and `database`; the last check of each name."""
    env = {"DISCORD_TOKEN": TOKEN, "TABULA_DATABASE": str(database), **environ}
    report = read_config(env, tmp_path / ".env", tmp_path / "none.toml")
    return {check.name: check for check in run_checks(report)}


def statuses(checks: dict[str, Check]) -> dict[str, str]:
    """Check name → status word."""
    return {name: check.status.value for name, check in checks.items()}


async def test_a_healthy_installation_passes_every_check(tmp_path: Path) -> None:
    """Migrated, intact, WAL, writable: all ok."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path)
    checks = checks_for(tmp_path, path)
    assert statuses(checks) == {
        "configuration": "ok",
        "token": "ok",
        "fonts": "ok",
        "database folder": "ok",
        "disk space": "ok",
        "database": "ok",
        "integrity": "ok",
        "migrations": "ok",
        "announcements": "ok",
        "suspended servers": "ok",
        "journal mode": "ok",
    }
    assert checks["migrations"].detail == f"schema version {latest_schema()}, the latest"
    assert checks["announcements"].detail == "0 waiting, none parked"
    assert checks["configuration"].detail == "valid (read from: environment)"


def test_a_missing_database_will_be_created(tmp_path: Path) -> None:
    """No file yet, in a folder that does not exist yet either: fine."""
    checks = checks_for(tmp_path, tmp_path / "data" / "t.sqlite3")
    assert checks["database"].status is Status.OK
    assert "does not exist yet: created at first start" in checks["database"].detail
    assert "integrity" not in checks


def test_a_file_that_is_not_a_database_is_a_problem(tmp_path: Path) -> None:
    """Garbage where the database should be: a problem with a hint to restore."""
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"not sqlite" * 500)
    check = checks_for(tmp_path, path)["database"]
    assert check.status is Status.PROBLEM
    assert check.detail == f"{path} is not a readable SQLite database: file is not a database"
    assert check.hint == (
        "stop the bot and restore the latest backup with `tabula restore BACKUP` "
        "(it keeps this file aside); docs/operating/maintenance.md, Backups"
    )


async def test_damaged_pages_are_an_integrity_problem(tmp_path: Path) -> None:
    """`PRAGMA integrity_check` findings are shown (the first few)."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path)
    damage(path)
    check = checks_for(tmp_path, path)["integrity"]
    assert check.status is Status.PROBLEM
    assert check.detail.startswith("PRAGMA integrity_check found damage: ")
    assert "page" in check.detail


async def test_a_newer_schema_is_a_problem_an_older_one_a_warning(tmp_path: Path) -> None:
    """Newer than the code: upgrade or restore. Older: migrated at the next start."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path)
    set_version(path, latest_schema() + 2)
    check = checks_for(tmp_path, path)["migrations"]
    assert check.status is Status.PROBLEM
    assert check.detail == (
        f"schema version {latest_schema() + 2} is newer than this version of Tabula knows "
        f"({latest_schema()})"
    )
    unmigrated = tmp_path / "unmigrated.sqlite3"
    connection = sqlite3.connect(unmigrated)
    connection.execute("CREATE TABLE t (x)")
    connection.close()
    check = checks_for(tmp_path, unmigrated)["migrations"]
    assert check.status is Status.WARNING
    assert check.detail == f"schema version 0; {latest_schema()} migration(s) to apply"


def set_version(path: Path, version: int) -> None:
    """Set `PRAGMA user_version` as a newer Tabula would have."""
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {version}")
    connection.commit()
    connection.close()


def test_a_rollback_journal_is_a_warning(tmp_path: Path) -> None:
    """Not WAL (a copied-in file): Tabula switches it at start, so only a warning."""
    path = tmp_path / "t.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (x)")
    connection.close()
    check = checks_for(tmp_path, path)["journal mode"]
    assert check.status is Status.WARNING and check.detail == "delete, not wal"


def test_a_file_where_the_folder_should_be_is_a_problem(tmp_path: Path) -> None:
    """TABULA_DATABASE under a regular file: refused for any user, root included."""
    blocker = tmp_path / "data"
    blocker.write_text("a file", encoding="utf-8")
    check = checks_for(tmp_path, blocker / "t.sqlite3")["database folder"]
    assert check.status is Status.PROBLEM
    assert (
        check.detail
        == f"cannot create the database {blocker / 't.sqlite3'}: {blocker} is not a folder"
    )
    assert check.hint is not None and "-wal and -shm" in check.hint


def test_a_folder_as_database_path_is_a_problem(tmp_path: Path) -> None:
    """TABULA_DATABASE naming a folder."""
    assert database_location_problem(tmp_path) == (
        f"the database path {tmp_path} is a folder, not a file"
    )


def test_an_unwritable_folder_is_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing is tried for real; when the system refuses, the check says so."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(doctor.tempfile, "TemporaryFile", refuse)
    problem = database_location_problem(tmp_path / "t.sqlite3")
    database = tmp_path / "t.sqlite3"
    assert problem == f"cannot write in {tmp_path} (for the database {database}): Permission denied"


@pytest.mark.skipif(
    hasattr(os, "getuid") and os.getuid() == 0,
    reason="permission bits do not stop root; test_root_is_warned_about covers that case",
)
def test_a_read_only_folder_is_a_problem(tmp_path: Path) -> None:
    """A real read-only folder (as an ordinary user)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        problem = database_location_problem(folder / "t.sqlite3")
    finally:
        folder.chmod(0o755)
    assert problem is not None and "Permission denied" in problem


def test_root_is_warned_about(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root, the write checks cannot speak for the service's user: a warning says so."""
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    check = checks_for(tmp_path, tmp_path / "t.sqlite3")["user"]
    assert check.status is Status.WARNING
    assert "running as root" in check.detail


def test_low_disk_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under 64 MiB free: a problem; under 512 MiB: a warning."""
    usage = SimpleNamespace(free=10 * 1024**2)
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda path: usage)
    check = checks_for(tmp_path, tmp_path / "t.sqlite3")["disk space"]
    assert check.status is Status.PROBLEM and check.detail.startswith("10.0 MiB free in ")
    usage.free = 300 * 1024**2
    check = checks_for(tmp_path, tmp_path / "t.sqlite3")["disk space"]
    assert check.status is Status.WARNING


def test_token_checks_never_show_the_token(tmp_path: Path) -> None:
    """Missing: a problem. Oddly shaped: a warning. The value itself never appears."""
    report = read_config({}, tmp_path / ".env", tmp_path / "none.toml")
    missing = {check.name: check for check in run_checks(report)}["token"]
    assert missing.status is Status.PROBLEM and "DISCORD_TOKEN is not set" in missing.detail
    odd = checks_for(tmp_path, tmp_path / "t.sqlite3", DISCORD_TOKEN="hunter2-not-a-token")
    assert odd["token"].status is Status.WARNING
    assert odd["token"].detail == "set (19 characters) but not shaped like a Discord bot token"
    text = format_report(list(odd.values()))
    assert "hunter2" not in text


def test_configuration_problems_are_listed(tmp_path: Path) -> None:
    """Each bad setting is its own problem line; unknown TABULA_ variables are warnings."""
    checks = run_checks(
        read_config(
            {"TABULA_LOG_LEVEL": "loud", "TABULA_SHUTDOWN_TIMEOUT": "x", "TABULA_FOO": "1"},
            tmp_path / ".env",
            tmp_path / "none.toml",
        )
    )
    configuration = [check for check in checks if check.name == "configuration"]
    assert [check.status for check in configuration] == [
        Status.PROBLEM,
        Status.PROBLEM,
        Status.WARNING,
    ]


def test_the_report_format() -> None:
    """Aligned columns, hints under problems and warnings only, a verdict line."""
    text = format_report(
        [
            Check("token", Status.OK, "set", "never shown"),
            Check("disk space", Status.PROBLEM, "1 MiB free", "free some space"),
        ]
    )
    assert text.splitlines() == [
        "ok       token       set",
        "problem  disk space  1 MiB free",
        "                     → free some space",
        "1 problem(s), 0 warning(s).",
    ]


async def test_the_command_exits_1_on_problems_and_0_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tabula doctor` prints the report; status 1 with a problem, 0 with warnings only."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "t.sqlite3"
    repo = await SqliteRepository.open(path)
    await repo.close()
    monkeypatch.setenv("TABULA_DATABASE", str(path))
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("TABULA_DISCORD_LOG_LEVEL", "")
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("All checks passed.\n")
    assert TOKEN not in out
    monkeypatch.delenv("DISCORD_TOKEN")
    assert main(["doctor", "--quick"]) == 1
    out = capsys.readouterr().out
    assert "PRAGMA quick_check: ok" in out
    assert out.endswith("1 problem(s), 0 warning(s).\n")


def test_an_empty_file_is_a_problem(tmp_path: Path) -> None:
    """Zero bytes: the bot refuses to start on it, so the doctor says so (no restore by
    reflex: deleting it is right when no games were there)."""
    path = tmp_path / "t.sqlite3"
    path.touch()
    checks = checks_for(tmp_path, path)
    assert checks["database"].status is Status.PROBLEM
    assert checks["database"].detail == (
        f"{path} is an empty file (0 bytes): the bot refuses to start on it"
    )
    assert checks["database"].hint == (
        "if your games were in this file, restore the latest backup with `tabula restore "
        "BACKUP` (it keeps this file aside); to start a new database instead, delete the "
        "empty file"
    )
    assert "integrity" not in checks


def refuse_writable_opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """SQLite as on a read-only file system: a WAL database cannot be opened for writing
    (it fails with SQLite's own words there); reading the file as it is still works.
    Returns the URIs opened."""
    opened: list[str] = []
    connect = sqlite3.connect

    def connect_read_only(database: str, **kwargs: Any) -> sqlite3.Connection:
        opened.append(database)
        if "mode=rw" in database:
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, **kwargs)

    monkeypatch.setattr(maintenance.sqlite3, "connect", connect_read_only)
    return opened


async def test_a_read_only_file_system_is_not_called_damage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An intact database on a read-only mount: the doctor names the mount, checks the
    file without writing, and does not send anyone to their backups."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path)
    opened = refuse_writable_opens(monkeypatch)
    statvfs = os.statvfs

    def mounted_read_only(folder: Path) -> os.statvfs_result:
        values = list(statvfs(folder))
        values[8] |= os.ST_RDONLY  # f_flag
        return os.statvfs_result(values)

    monkeypatch.setattr(os, "statvfs", mounted_read_only)
    checks = checks_for(tmp_path, path)
    database = checks["database"]
    assert database.status is Status.PROBLEM
    assert database.detail == (
        f"{path} cannot be written: the file system holding {tmp_path} is mounted "
        "read-only; checked without writing"
    )
    assert database.hint == (
        "make the database, its -wal and -shm files and its folder writable for the bot's "
        "user (on a read-only file system, mount it read-write); this is not damage, and "
        "restoring a backup would not help"
    )
    assert statuses(checks)["integrity"] == "ok"
    assert checks["migrations"].detail == f"schema version {latest_schema()}, the latest"
    assert "journal mode" not in checks  # SQLite does not tell it without writing
    assert [uri.rsplit("?", 1)[1] for uri in opened] == ["mode=rw", "mode=ro&immutable=1"]


async def test_an_unopenable_database_says_what_sqlite_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When nothing on the system looks read-only, SQLite's own reason is shown."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path)
    refuse_writable_opens(monkeypatch)
    checks = checks_for(tmp_path, path)
    assert checks["database"].detail == (
        f"{path} cannot be written: SQLite cannot open it (unable to open database file); "
        "checked without writing"
    )
    assert statuses(checks)["integrity"] == "ok"


def test_garbage_on_a_read_only_file_system_is_still_garbage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read without writing, a file that is not a database is recognised as such."""
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"not sqlite" * 500)
    refuse_writable_opens(monkeypatch)
    check = checks_for(tmp_path, path)["database"]
    assert check.detail == f"{path} is not a readable SQLite database: file is not a database"
    assert check.hint is not None and "tabula restore BACKUP" in check.hint


@pytest.mark.skipif(
    hasattr(os, "getuid") and os.getuid() == 0,
    reason="permission bits do not stop root; the read-only tests above simulate it",
)
async def test_a_read_only_folder_holding_an_intact_database(tmp_path: Path) -> None:
    """For real, as an ordinary user: SQLite cannot create the -shm file in the folder."""
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "t.sqlite3"
    await database_with_moves(path)
    folder.chmod(0o555)
    try:
        checks = checks_for(tmp_path, path)
    finally:
        folder.chmod(0o755)
    assert checks["database"].detail == (
        f"{path} cannot be written: its folder {folder} is read-only for this user (SQLite "
        "writes -wal and -shm there); checked without writing"
    )
    assert statuses(checks)["integrity"] == "ok"


def test_the_doctor_reports_parked_and_waiting_announcements() -> None:
    """Parked announcements are a warning with their reasons; announcements waiting more
    than ten minutes ask whether the bot runs; otherwise all is well."""
    from datetime import UTC, datetime, timedelta

    from bot.doctor import Status, check_outbox
    from bot.storage.maintenance import OutboxHealth

    now = datetime(2026, 1, 1, tzinfo=UTC)
    parked = check_outbox(OutboxHealth(parked=2, reasons=("403 Missing Access",)), now)
    assert parked.status is Status.WARNING
    assert parked.detail == "2 could not be delivered and were parked (latest: 403 Missing Access)"
    stuck = check_outbox(OutboxHealth(pending=3, oldest_pending=now - timedelta(hours=2)), now)
    assert stuck.status is Status.WARNING and "3 waiting to be posted, the oldest for 2h" in (
        stuck.detail
    )
    fresh = check_outbox(OutboxHealth(pending=1, oldest_pending=now - timedelta(seconds=5)), now)
    assert fresh.status is Status.OK and fresh.detail == "1 waiting, none parked"


def test_the_doctor_reads_the_announcements_of_either_backend(
    backend: Backend, tmp_path: Path
) -> None:
    """Against a real database of each kind: an announcement waiting an hour is a warning,
    a parked one a warning with its reason."""

    async def store(park: bool) -> None:
        repository = await backend.open()
        try:
            now = datetime.now(UTC)
            if park:
                [row] = await repository.list_announcements()
                assert await repository.park_announcement(row.id, "403 Missing Access", now)
            else:
                waiting = NewAnnouncement(kind="turn", stream="user:5", data={"game": 1})
                await repository.add_announcements([waiting], now - timedelta(hours=1))
        finally:
            await repository.close()
            backend.opened.remove(repository)

    location: Path | str = backend.path
    if backend.is_postgres:
        assert POSTGRES_URL is not None
        location = backend.location
    asyncio.run(store(park=False))
    stuck = checks_for(tmp_path, location)
    assert stuck["announcements"].status is Status.WARNING
    assert stuck["announcements"].detail == "1 waiting to be posted, the oldest for 1h"
    assert stuck["migrations"].status is Status.OK
    asyncio.run(store(park=True))
    parked = checks_for(tmp_path, location)
    assert parked["announcements"].detail == (
        "1 could not be delivered and were parked (latest: 403 Missing Access)"
    )


def test_the_doctor_lists_suspended_servers_of_either_backend(
    backend: Backend, tmp_path: Path
) -> None:
    """A server that removed Tabula (with its games in progress) and a game left without a
    channel are listed with their ids, since when and when they will be aborted (by the
    suspension period set); ended suspensions are not."""
    since = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    async def store() -> None:
        repository = await backend.open()
        try:
            for guild in (7, 7, 8):
                await repository.create_game(
                    NewGame("groups", {}, guild, 10, (1, 2), ("a", "b"), since)
                )
            one = await repository.suspend(7, None, SuspensionReason.REMOVED, since)
            await repository.suspend(8, 3, SuspensionReason.NO_CHANNEL, since)
            old = await repository.suspend(9, None, SuspensionReason.REMOVED, since)
            assert one is not None and old is not None
            await repository.end_suspension(old.id, SuspensionOutcome.RESUMED, since, 0)
        finally:
            await repository.close()
            backend.opened.remove(repository)

    location: Path | str = backend.path
    if backend.is_postgres:
        assert POSTGRES_URL is not None
        location = backend.location
    asyncio.run(store())
    found = checks_for(tmp_path, location, TABULA_SUSPENSION_DAYS="10")["suspended servers"]
    assert found.status is Status.WARNING
    server, game = found.detail.split("; ")
    assert server.startswith("server 7 since 2026-01-01 12:00 UTC (")
    assert server.endswith("), 2 games in progress, aborted after 2026-01-11")
    assert game.startswith("game #3 of server 8 (its channel was deleted) since 2026-01-01")
    assert "server 9" not in found.detail
    assert found.hint is not None and "invited back" in found.hint


def test_the_fonts_check_finds_the_fallback_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Noto Sans CJK and Noto Color Emoji installed, the fonts check is ok."""
    seen: list[str] = []

    def lookup(path: str) -> bool:
        seen.append(path)
        return path.endswith(("NotoSansCJK-Regular.ttc", "NotoColorEmoji.ttf"))

    monkeypatch.setattr(fonts, "file_exists", lookup)
    check = doctor.check_fonts()
    assert check.status is Status.OK
    assert check.detail == "Noto Sans CJK and Noto Color Emoji found"
    assert seen


def test_missing_fonts_are_a_warning_naming_the_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the fallback fonts the doctor warns, says what is drawn as boxes and names the
    Debian packages; with only the emoji font missing, only its package."""
    monkeypatch.setattr(fonts, "file_exists", lambda path: False)
    check = checks_for(tmp_path, tmp_path / "t.sqlite3")["fonts"]
    assert check.status is Status.WARNING
    assert "Noto Sans CJK and Noto Color Emoji are not installed" in check.detail
    assert check.hint is not None
    assert "apt-get install fonts-noto-cjk fonts-noto-color-emoji" in check.hint
    assert "drawn as boxes" in check.hint
    monkeypatch.setattr(fonts, "file_exists", lambda path: "CJK" in path)
    check = doctor.check_fonts()
    assert check.status is Status.WARNING
    assert check.detail == "Noto Color Emoji is not installed"
    assert check.hint is not None and "fonts-noto-cjk" not in check.hint
    report = format_report([check])
    assert "apt-get install fonts-noto-color-emoji" in report
    assert report.endswith("No problems; 1 warning(s).")
