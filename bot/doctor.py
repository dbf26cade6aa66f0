"""`tabula doctor`'s checks: configuration, token, database file, folder, schema, disk,
announcements and suspended servers."""

from __future__ import annotations

import asyncio
import enum
import os
import shutil
import tempfile
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg

from bot.config import DEFAULT_SUSPENSION_DAYS, SETTINGS, ConfigReport
from bot.logs import TOKEN_SHAPE
from bot.services.durations import format_span
from bot.storage.maintenance import (
    OUTBOX_QUERIES,
    SUSPENSIONS_QUERY,
    DatabaseInfo,
    MaintenanceError,
    NotADatabaseError,
    OutboxHealth,
    SuspendedServer,
    companions,
    inspect_database,
    latest_schema,
    outbox_health,
    startup_check,
    suspended_servers,
)
from bot.storage.opening import display_location
from bot.storage.postgres import migrations as postgres_migrations
from renderers.fonts import FALLBACK_FAMILIES, missing_fonts_warning

STUCK = timedelta(minutes=10)
"""Announcements waiting longer than this while the doctor looks: is the bot running?"""
LOW_DISK = 64 * 1024**2
"""Below this much free space the database may fail to grow: a problem."""
SMALL_DISK = 512 * 1024**2
"""Below this much free space: a warning."""
ENV_NAMES = {entry.name: entry.env for entry in SETTINGS}
RESTORE = "restore the latest backup with `tabula restore BACKUP` (it keeps this file aside)"
"""What to do about a database that is damaged or not a database at all."""
RESTORE_HINT = f"stop the bot and {RESTORE}; docs/operating/maintenance.md, Backups"
EMPTY_HINT = (
    f"if your games were in this file, {RESTORE}; to start a new database instead, "
    "delete the empty file"
)
ACCESS_HINT = (
    "make the database, its -wal and -shm files and its folder writable for the bot's "
    "user (on a read-only file system, mount it read-write); this is not damage, and "
    "restoring a backup would not help"
)


class Status(enum.Enum):
    """How a check went."""

    OK = "ok"
    WARNING = "warning"
    PROBLEM = "problem"


@dataclass(frozen=True)
class Check:
    """One line of the report, with a hint on what to do when it is not ok."""

    name: str
    status: Status
    detail: str
    hint: str | None = None


def human_size(size: float) -> str:
    """`1.5 MiB`."""
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def existing_folder(path: Path) -> Path:
    """The nearest ancestor of `path` that exists (where its folders would be created)."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def database_location_problem(path: Path) -> str | None:
    """Why the bot could not create or write the database at `path`; None if it can.

    Writing is tried for real (a temporary file in the folder), so the answer is right for
    the user running this, including root, for whom permission bits do not apply.
    """
    if path.is_dir():
        return f"the database path {path} is a folder, not a file"
    folder = path.parent if path.parent.exists() else existing_folder(path)
    if not folder.is_dir():
        return f"cannot create the database {path}: {folder} is not a folder"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return f"cannot write in {folder} (for the database {path}): {error.strerror}"
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.exists() and not os.access(file, os.R_OK | os.W_OK):
            return f"cannot write the database file {file}: permission denied"
    return None


def database_file_problem(path: Path) -> str | None:
    """Why the file at `path` must not be opened as the database, in one line; None if
    it may be (or does not exist yet, and the bot will create it).

    An empty file is refused, since SQLite would quietly start a new database in it; so
    is a file that is not a database, one cut short, or one damaged as far as
    `startup_check` looks (the whole file only while it is small: start-up must not grow
    with the history; `tabula doctor` checks all of it).
    """
    if not path.is_file():
        return None
    if path.stat().st_size == 0:
        return (
            f"cannot use the database {path}: it is an empty file (0 bytes), not a database "
            f"the bot created; {EMPTY_HINT}"
        )
    try:
        findings = startup_check(path)
    except NotADatabaseError as error:
        return f"cannot use the database {path}: {error.reason}; {RESTORE}"
    except MaintenanceError as error:
        return f"cannot use the database {path}: {error}"
    if findings != ("ok",):
        return (
            f"cannot use the database {path}: it is damaged (PRAGMA quick_check: "
            f"{findings[0]}); {RESTORE}, and see `tabula doctor` for the damage found"
        )
    return None


def read_only_reason(path: Path) -> str | None:
    """What keeps the database at `path` from being written, if the system says so."""
    folder = path.parent
    statvfs = getattr(os, "statvfs", None)  # not on Windows
    if statvfs is not None and statvfs(folder).f_flag & os.ST_RDONLY:
        return f"the file system holding {folder} is mounted read-only"
    if not os.access(path, os.W_OK):
        return "the file is read-only for this user"
    if not os.access(folder, os.W_OK):
        return f"its folder {folder} is read-only for this user (SQLite writes -wal and -shm there)"
    return None


def check_configuration(report: ConfigReport) -> Iterator[Check]:
    """Each configuration problem, each oddity, or one ok naming the sources."""
    for problem in report.problems:
        yield Check("configuration", Status.PROBLEM, problem, "see docs/operating/settings.md")
    for note in report.notes:
        yield Check("configuration", Status.WARNING, note)
    if not report.problems:
        sources = sorted({origin for origin in report.origins.values() if origin != "default"})
        read = ", ".join(sources) if sources else "defaults only"
        yield Check("configuration", Status.OK, f"valid (read from: {read})")


def check_token(token: str | None) -> Check:
    """Is a token set, and does it look like one? The token itself is never shown."""
    if token is None:
        return Check(
            "token",
            Status.PROBLEM,
            f"{ENV_NAMES['token']} is not set (`tabula run` would open the local console)",
            "put the bot token from the Discord developer portal in DISCORD_TOKEN",
        )
    if TOKEN_SHAPE.fullmatch(token) is None:
        return Check(
            "token",
            Status.WARNING,
            f"set ({len(token)} characters) but not shaped like a Discord bot token",
            "copy it again from the developer portal (Bot → Reset Token)",
        )
    return Check("token", Status.OK, f"set ({len(token)} characters, shaped like a bot token)")


def check_user() -> Iterator[Check]:
    """Running as root makes the permission checks below meaningless for the service user."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        yield Check(
            "user",
            Status.WARNING,
            "running as root: the write checks pass for root even where the bot's own user "
            "would be refused",
            "run the doctor as the service's user, e.g. `sudo -u tabula tabula doctor`",
        )


def check_database(
    path: Path, *, quick: bool = False, suspension_days: int = DEFAULT_SUSPENSION_DAYS
) -> Iterator[Check]:
    """The file and its folder, integrity, schema version, journal mode, free space, and
    what the database holds: announcements, suspended servers (aborted after
    `suspension_days`)."""
    problem = database_location_problem(path)
    if problem is not None:
        yield Check(
            "database folder",
            Status.PROBLEM,
            problem,
            "the folder must be writable by the bot's user: SQLite keeps -wal and -shm "
            "files beside the database",
        )
    else:
        yield Check("database folder", Status.OK, f"{existing_folder(path)} is writable")
    yield from _check_disk(path)
    if not path.exists():
        yield Check("database", Status.OK, f"{path} does not exist yet: created at first start")
        return
    if path.is_dir():
        return
    if path.stat().st_size == 0:
        detail = f"{path} is an empty file (0 bytes): the bot refuses to start on it"
        yield Check("database", Status.PROBLEM, detail, EMPTY_HINT)
        return
    check = "quick_check" if quick else "integrity_check"
    try:
        info = inspect_database(path, check=check)
    except NotADatabaseError as error:
        yield Check("database", Status.PROBLEM, str(error), RESTORE_HINT)
        return
    except MaintenanceError as error:
        read = yield from _check_without_writing(path, check, error)
        if read is not None:
            yield from _check_contents(read, check, suspension_days, journal=False)
        return
    yield Check("database", Status.OK, f"{path} ({human_size(info.size)})")
    yield from _check_contents(info, check, suspension_days)


def _check_without_writing(
    path: Path, check: str, error: MaintenanceError
) -> Generator[Check, None, DatabaseInfo | None]:
    """SQLite could not open the database as the bot does: say why, and check what can
    be read without writing anything. Returns what was read, or None."""
    reason = read_only_reason(path) or f"SQLite cannot open it ({error.__cause__ or error})"
    try:
        info = inspect_database(path, check=check, read_only=True)
    except NotADatabaseError as second:
        yield Check("database", Status.PROBLEM, str(second), RESTORE_HINT)
        return None
    except MaintenanceError as second:
        detail = f"{path} could not be checked: {reason}; read without writing: {second}"
        yield Check("database", Status.PROBLEM, detail, ACCESS_HINT)
        return None
    wal = companions(path)[0]
    unread = ", except its -wal file" if wal.is_file() and wal.stat().st_size else ""
    detail = f"{path} cannot be written: {reason}; checked without writing{unread}"
    yield Check("database", Status.PROBLEM, detail, ACCESS_HINT)
    return info


def _check_contents(
    info: DatabaseInfo, check: str, suspension_days: int, *, journal: bool = True
) -> Iterator[Check]:
    """Integrity, schema version, announcements, suspended servers and (unless read
    without writing, when SQLite does not tell it) journal mode of a database that could
    be read."""
    if info.intact:
        yield Check("integrity", Status.OK, f"PRAGMA {check}: ok")
    else:
        findings = "; ".join(info.integrity[:3])
        yield Check(
            "integrity",
            Status.PROBLEM,
            f"PRAGMA {check} found damage: {findings}",
            RESTORE_HINT,
        )
    yield _check_schema(info.schema_version)
    if info.outbox is not None:
        yield check_outbox(info.outbox)
    if info.suspended is not None:
        yield check_suspensions(info.suspended, suspension_days)
    if not journal:
        return
    if info.journal_mode.lower() == "wal":
        yield Check("journal mode", Status.OK, "wal")
    else:
        yield Check(
            "journal mode",
            Status.WARNING,
            f"{info.journal_mode}, not wal",
            "Tabula switches the database to WAL when it starts",
        )


def check_outbox(health: OutboxHealth, now: datetime | None = None) -> Check:
    """Announcements given up on (parked), or waiting long (is the bot running?)."""
    now = now or datetime.now(UTC)
    if health.parked:
        reasons = "; ".join(health.reasons)
        return Check(
            "announcements",
            Status.WARNING,
            f"{health.parked} could not be delivered and were parked (latest: {reasons})",
            "usually permissions or a deleted channel; the players were told by direct "
            "message, and /board shows a game again",
        )
    oldest = health.oldest_pending
    if oldest is not None and now - oldest > STUCK:
        waiting = format_span(now - oldest, 2)
        return Check(
            "announcements",
            Status.WARNING,
            f"{health.pending} waiting to be posted, the oldest for {waiting}",
            "they are posted while the bot runs: start it (or see its log for Discord errors)",
        )
    return Check("announcements", Status.OK, f"{health.pending} waiting, none parked")


SHOWN_SUSPENSIONS = 5
"""Suspended servers named one by one; more are counted."""


def check_suspensions(
    suspended: tuple[SuspendedServer, ...], suspension_days: int, now: datetime | None = None
) -> Check:
    """Servers that removed Tabula (and games left without a channel): since when, how
    many games wait there, and when they will be aborted."""
    if not suspended:
        return Check("suspended servers", Status.OK, "none")
    now = now or datetime.now(UTC)
    period = timedelta(days=suspension_days)
    parts = []
    for entry in suspended[:SHOWN_SUSPENSIONS]:
        since = f"since {entry.since:%Y-%m-%d %H:%M} UTC ({format_span(now - entry.since, 2)})"
        aborted = f"aborted after {entry.since + period:%Y-%m-%d}"
        if entry.game_id is None:
            games = "1 game" if entry.games == 1 else f"{entry.games} games"
            parts.append(f"server {entry.guild_id} {since}, {games} in progress, {aborted}")
        else:
            parts.append(
                f"game #{entry.game_id} of server {entry.guild_id} (its channel was deleted) "
                f"{since}, {aborted}"
            )
    more = len(suspended) - SHOWN_SUSPENSIONS
    if more > 0:
        parts.append(f"and {more} more")
    return Check(
        "suspended servers",
        Status.WARNING,
        "; ".join(parts),
        "Tabula was removed from these servers (or a game's channel was deleted with no game "
        "channel to move it to): their games wait with their clocks stopped. They go on when "
        "Tabula is invited back (or a moderator names a game channel with /config "
        "add_channel), and are aborted unrated after TABULA_SUSPENSION_DAYS days",
    )


def check_postgres(url: str, suspension_days: int = DEFAULT_SUSPENSION_DAYS) -> Iterator[Check]:
    """A PostgreSQL database: reachable, its schema version, its announcements and its
    suspended servers."""
    where = display_location(url)
    try:
        version, health, suspended = asyncio.run(_postgres_state(url))
    except (OSError, asyncpg.PostgresError) as error:
        yield Check(
            "database",
            Status.PROBLEM,
            f"cannot reach {where}: {error}",
            "check that the server runs, the URL (user, host, port, database) and its "
            "authentication (pg_hba.conf)",
        )
        return
    yield Check("database", Status.OK, f"{where} (PostgreSQL)")
    yield _check_schema(version, len(postgres_migrations()))
    if health is not None:
        yield check_outbox(health)
    if suspended is not None:
        yield check_suspensions(suspended, suspension_days)


async def _postgres_state(
    url: str,
) -> tuple[int, OutboxHealth | None, tuple[SuspendedServer, ...] | None]:
    """The schema version, the outbox's health and the suspensions, once they exist."""
    connection = await asyncpg.connect(url, timeout=10)
    try:
        if not await connection.fetchval("SELECT to_regclass('tabula_schema') IS NOT NULL"):
            return 0, None, None
        version = int(
            await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM tabula_schema")
        )
        if not await connection.fetchval("SELECT to_regclass('announcements') IS NOT NULL"):
            return version, None, None
        counts, reasons = [
            [tuple(row) for row in await connection.fetch(query)] for query in OUTBOX_QUERIES
        ]
        health = outbox_health(counts, reasons)
        if not await connection.fetchval("SELECT to_regclass('suspensions') IS NOT NULL"):
            return version, health, None
        rows = [tuple(row) for row in await connection.fetch(SUSPENSIONS_QUERY)]
        return version, health, suspended_servers(rows)
    finally:
        await connection.close()


def _check_schema(version: int, latest: int | None = None) -> Check:
    latest = latest_schema() if latest is None else latest
    if version == latest:
        return Check("migrations", Status.OK, f"schema version {version}, the latest")
    if version < latest:
        return Check(
            "migrations",
            Status.WARNING,
            f"schema version {version}; {latest - version} migration(s) to apply",
            "they are applied when the bot starts; take a backup first",
        )
    return Check(
        "migrations",
        Status.PROBLEM,
        f"schema version {version} is newer than this version of Tabula knows ({latest})",
        "upgrade Tabula to the version that wrote this database, or restore a backup",
    )


def low_disk_note(path: Path) -> str:
    """ "; only 10.0 MiB free in data: free some space first" when the disk holding the
    database is nearly full (a full disk makes SQLite fail in many ways); else ""."""
    folder = existing_folder(path)
    if not folder.is_dir():
        return ""
    free = shutil.disk_usage(folder).free
    if free >= LOW_DISK:
        return ""
    return f"; only {human_size(free)} free in {folder}: free some space first"


def _check_disk(path: Path) -> Iterator[Check]:
    folder = existing_folder(path)
    if not folder.is_dir():
        return
    free = shutil.disk_usage(folder).free
    detail = f"{human_size(free)} free in {folder}"
    if free < LOW_DISK:
        yield Check("disk space", Status.PROBLEM, detail, "free some space: writes will fail")
    elif free < SMALL_DISK:
        yield Check("disk space", Status.WARNING, detail, "the database will need room to grow")
    else:
        yield Check("disk space", Status.OK, detail)


def check_fonts() -> Check:
    """Whether the fallback fonts for names in other scripts and emoji are installed."""
    warning = missing_fonts_warning()
    if warning is None:
        found = " and ".join(family.name for family in FALLBACK_FAMILIES)
        return Check("fonts", Status.OK, f"{found} found")
    names, _, hint = warning.partition(", so ")
    return Check("fonts", Status.WARNING, names, hint)


def run_checks(report: ConfigReport, *, quick: bool = False) -> list[Check]:
    """Every check, in the order they are printed."""
    checks = list(check_configuration(report))
    checks.append(check_token(report.settings.token))
    checks += check_user()
    checks.append(check_fonts())
    database = report.settings.database
    days = report.settings.suspension_days
    if isinstance(database, Path):
        checks += check_database(database, quick=quick, suspension_days=days)
    else:
        checks += check_postgres(database, days)
    return checks


def format_report(checks: list[Check]) -> str:
    """One line per check, hints indented below, and a last line with the verdict."""
    width = max(len(check.name) for check in checks)
    lines = []
    for check in checks:
        lines.append(f"{check.status.value:<8} {check.name:<{width}}  {check.detail}")
        if check.hint and check.status is not Status.OK:
            lines.append(f"{'':<8} {'':<{width}}  → {check.hint}")
    problems = sum(check.status is Status.PROBLEM for check in checks)
    warnings = sum(check.status is Status.WARNING for check in checks)
    if problems:
        lines.append(f"{problems} problem(s), {warnings} warning(s).")
    elif warnings:
        lines.append(f"No problems; {warnings} warning(s).")
    else:
        lines.append("All checks passed.")
    return "\n".join(lines)
