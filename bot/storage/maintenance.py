"""Database upkeep for operators: inspection (`tabula doctor`) and online backups.

These run in their own process next to a running bot, over their own connection. They
never write to the live database: the backup reads one consistent snapshot (WAL lets the
bot keep committing meanwhile) and writes a separate file.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bot.storage.failures import Failure, classify
from bot.storage.sqlite import migrations


class MaintenanceError(Exception):
    """A database that cannot be inspected or backed up; the message says why in one line."""


class NotADatabaseError(MaintenanceError):
    """The file is not an SQLite database, or SQLite found it damaged while reading it."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path} is not a readable SQLite database: {reason}")
        self.reason = reason
        """SQLite's words, e.g. "file is not a database"."""


def latest_schema() -> int:
    """The schema version this code migrates databases to (the last migration's number)."""
    found = migrations()
    return found[-1][0] if found else 0


OUTBOX_QUERIES = (
    "SELECT status, count(*), min(created_at) FROM announcements GROUP BY status",
    "SELECT error FROM announcements WHERE status = 'parked' ORDER BY id DESC LIMIT 3",
)
"""How the doctor reads the announcement outbox (plain SQL, run by either backend)."""


@dataclass(frozen=True)
class OutboxHealth:
    """How the announcement outbox stands: what waits, and what was given up on."""

    pending: int = 0
    oldest_pending: datetime | None = None
    """When the oldest announcement still waiting was stored."""
    parked: int = 0
    reasons: tuple[str, ...] = ()
    """Why the latest parked ones were given up on (at most three)."""


def outbox_health(
    counts: list[tuple[str, int, object]], reasons: list[tuple[object]]
) -> OutboxHealth:
    """`OUTBOX_QUERIES`' results as an `OutboxHealth`."""
    by_status = {str(status): (int(n), oldest) for status, n, oldest in counts}
    pending, oldest = by_status.get("pending", (0, None))
    when = datetime.fromisoformat(oldest) if isinstance(oldest, str) else oldest
    return OutboxHealth(
        pending=pending,
        oldest_pending=when if isinstance(when, datetime) else None,
        parked=by_status.get("parked", (0, None))[0],
        reasons=tuple(str(row[0]) for row in reasons),
    )


SUSPENSIONS_QUERY = (
    "SELECT s.guild_id, s.game_id, s.reason, s.started_at, "
    "(SELECT count(*) FROM games g WHERE g.status = 'active' AND g.guild_id = s.guild_id "
    "AND (s.game_id IS NULL OR g.id = s.game_id)) "
    "FROM suspensions s WHERE s.ended_at IS NULL ORDER BY s.started_at, s.id"
)
"""How the doctor reads the suspensions holding now (plain SQL, run by either backend)."""


@dataclass(frozen=True)
class SuspendedServer:
    """A server that removed Tabula (or one of its games, left without a channel)."""

    guild_id: int
    game_id: int | None
    """The one game suspended; None: the whole server."""
    reason: str
    """`removed` or `no_channel`."""
    since: datetime
    games: int
    """Its games in progress."""


def suspended_servers(rows: list[tuple[Any, ...]]) -> tuple[SuspendedServer, ...]:
    """`SUSPENSIONS_QUERY`'s rows (times as SQLite's text or PostgreSQL's datetimes)."""
    found = []
    for guild_id, game_id, reason, started, games in rows:
        since = datetime.fromisoformat(started) if isinstance(started, str) else started
        game = None if game_id is None else int(game_id)
        found.append(SuspendedServer(int(guild_id), game, str(reason), since, int(games)))
    return tuple(found)


@dataclass(frozen=True)
class DatabaseInfo:
    """What `inspect_database` found."""

    path: Path
    size: int
    """Bytes in the database file and its write-ahead log."""
    schema_version: int
    """`PRAGMA user_version`: the last migration applied."""
    journal_mode: str
    integrity: tuple[str, ...]
    """`("ok",)` when intact; otherwise SQLite's findings (at most 20). Empty if not run."""
    tables: dict[str, int]
    """Rows per table."""
    outbox: OutboxHealth | None = None
    """The announcement outbox (None before its migration, or when not read)."""
    suspended: tuple[SuspendedServer, ...] | None = None
    """The suspensions holding now (None before their migration, or when not read)."""

    @property
    def intact(self) -> bool:
        """True when the integrity check ran and found nothing."""
        return self.integrity == ("ok",)


def database_size(path: Path) -> int:
    """Bytes in the database file and its `-wal` file (0 for what does not exist)."""
    return sum(
        candidate.stat().st_size
        for candidate in (path, path.with_name(path.name + "-wal"))
        if candidate.is_file()
    )


@contextlib.contextmanager
def _connect(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    """An existing database, opened without creating it.

    `read_only` reads the file as it is, writing nothing, not even the `-shm` index a WAL
    database needs: it opens where the file or its folder cannot be written, but does not
    see what the `-wal` file holds, and is only safe while nobody writes the database.
    """
    if not path.is_file():
        raise MaintenanceError(f"no database at {path}")
    mode = "mode=ro&immutable=1" if read_only else "mode=rw"
    try:
        connection = sqlite3.connect(f"file:{quote(str(path))}?{mode}", uri=True, timeout=10)
    except sqlite3.Error as error:
        raise MaintenanceError(f"cannot open {path}: {error}") from error
    try:
        yield connection
    finally:
        connection.close()


def _inspect(connection: sqlite3.Connection, path: Path, check: str | None) -> DatabaseInfo:
    """What one connection's database holds; `path` is where its file is.

    Rows are counted only when the check found nothing (or did not run): counting a
    damaged table could fail and hide the findings.
    """
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    journal = str(connection.execute("PRAGMA journal_mode").fetchone()[0])
    findings = () if check is None else _findings(connection, check)
    tables: dict[str, int] = {}
    if check is None or findings == ("ok",):
        names = [
            str(row[0])
            for row in connection.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        for name in names:
            tables[name] = int(connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0])
    outbox = None
    if "announcements" in tables:
        counts, reasons = (connection.execute(query).fetchall() for query in OUTBOX_QUERIES)
        outbox = outbox_health(counts, reasons)
    suspended = None
    if "suspensions" in tables:
        suspended = suspended_servers(connection.execute(SUSPENSIONS_QUERY).fetchall())
    return DatabaseInfo(
        path, database_size(path), version, journal, findings, tables, outbox, suspended
    )


def _findings(connection: sqlite3.Connection, check: str) -> tuple[str, ...]:
    """What `PRAGMA integrity_check` or `quick_check` reports (at most 20 lines)."""
    rows = connection.execute(f"PRAGMA {check}(20)").fetchall()
    lines = [line for row in rows for line in str(row[0]).splitlines()]
    return tuple(line for line in lines if not line.startswith("*** in database"))[:20]


def _reading_error(path: Path, error: sqlite3.Error) -> MaintenanceError:
    """A damaged file (`NotADatabaseError`), or one SQLite could not open or read."""
    if classify(error) is Failure.DAMAGED:
        return NotADatabaseError(path, str(error))
    return MaintenanceError(f"SQLite could not read {path}: {error}")


def inspect_database(
    path: Path, *, check: str | None = "integrity_check", read_only: bool = False
) -> DatabaseInfo:
    """Look at an existing database without changing it.

    `check` is `integrity_check` (reads every page), `quick_check` (faster, skips index
    contents) or None; `read_only` as for `_connect`. Raises `NotADatabaseError` if the
    file is not a database (or too damaged to read), `MaintenanceError` if it is missing
    or SQLite cannot open it (a permission or a read-only file system, say).
    """
    with _connect(path, read_only=read_only) as connection:
        try:
            return _inspect(connection, path, check)
        except sqlite3.DatabaseError as error:
            raise _reading_error(path, error) from error


STARTUP_CHECK_LIMIT = 32 * 1024**2
"""Start-up runs `PRAGMA quick_check` only on files up to this size (about 0.1 s); larger
ones get the checks that do not read the whole file, and `tabula doctor` the full one."""
_MAGIC = b"SQLite format 3\x00"


def header_problem(path: Path) -> str | None:
    """What is wrong with the database file's 100-byte header, read without SQLite: not
    a database, an impossible page size, or a file shorter than the header says (cut
    short by a full disk or a bad copy). None when it looks right."""
    with path.open("rb") as file:
        header = file.read(100)
    if len(header) < 100 or not header.startswith(_MAGIC):
        return "file is not a database"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return "file is not a database (its page size is impossible)"
    pages = int.from_bytes(header[28:32], "big")
    counter, valid_for = header[24:28], header[92:96]
    size = path.stat().st_size
    if counter == valid_for and pages * page_size > size:
        return (
            f"the file is cut short: {size} bytes where its header says "
            f"{pages} pages of {page_size} bytes"
        )
    return None


def startup_check(path: Path, *, limit: int | None = None) -> tuple[str, ...]:
    """What start-up checks of an existing database, without reading the whole file when
    it is large: `("ok",)` or what it found.

    The header (`header_problem`), then the schema (every table and index named in it);
    on a file up to `limit` bytes (default `STARTUP_CHECK_LIMIT`) also `PRAGMA
    quick_check`. Damage deep in a larger file is left to `tabula doctor` (and a query
    that meets it fails with "the database is damaged"). Raises like `inspect_database`.
    """
    limit = STARTUP_CHECK_LIMIT if limit is None else limit
    problem = header_problem(path)
    if problem is not None:
        raise NotADatabaseError(path, problem)
    with _connect(path) as connection:
        try:
            connection.execute("SELECT count(*) FROM sqlite_schema").fetchone()
            connection.execute("PRAGMA user_version").fetchone()
            if path.stat().st_size <= limit:
                return _findings(connection, "quick_check")
            return ("ok",)
        except sqlite3.DatabaseError as error:
            raise _reading_error(path, error) from error


def quick_check(path: Path) -> tuple[str, ...]:
    """`PRAGMA quick_check` on an existing database: `("ok",)` or what it found.

    Reads every page of the file but not the contents of indexes: a few milliseconds per
    10,000 moves. Raises like `inspect_database`.
    """
    with _connect(path) as connection:
        try:
            return _findings(connection, "quick_check")
        except sqlite3.DatabaseError as error:
            raise _reading_error(path, error) from error


def timestamp(now: datetime | None = None) -> str:
    """The time (default: now) in UTC for file names: `20250301-093000`."""
    return f"{(now or datetime.now(UTC)).astimezone(UTC):%Y%m%d-%H%M%S}"


def backup_name(now: datetime | None = None) -> str:
    """A file name for a backup taken now: `tabula-20250301-093000.sqlite3` (UTC)."""
    return f"tabula-{timestamp(now)}.sqlite3"


def backup_database(source: Path, target: Path, *, overwrite: bool = False) -> DatabaseInfo:
    """Copy the database at `source` to `target` with SQLite's online backup API.

    Safe while the bot runs: the copy is one snapshot of committed data (a single backup
    step under one read transaction; in WAL mode the bot's writes go on meanwhile). If
    `target` is a folder, the copy gets a timestamped name inside it. The copy is written
    to a temporary file, checked with `PRAGMA integrity_check`, switched to a plain
    rollback journal (one self-contained file), and only then renamed to `target`.
    Returns what the copy holds.
    """
    if target.is_dir():
        target = target / backup_name()
    if target.resolve() == source.resolve():
        raise MaintenanceError("the backup cannot replace the database itself")
    if target.exists() and not overwrite:
        raise MaintenanceError(f"{target} already exists (use --force to replace it)")
    if not target.parent.is_dir():
        raise MaintenanceError(f"the folder {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    try:
        with _connect(source) as connection:
            copy = sqlite3.connect(partial)
            try:
                connection.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
                info = _inspect(copy, partial, "integrity_check")
            finally:
                copy.close()
        if not info.intact:
            raise MaintenanceError(f"the copy failed its integrity check: {info.integrity[0]}")
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        partial.replace(target)
    except sqlite3.Error as error:
        raise MaintenanceError(f"the backup to {target} failed: {error}") from error
    except OSError as error:
        raise MaintenanceError(f"the backup to {target} failed: {error.strerror}") from error
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return replace(info, path=target, size=target.stat().st_size)


BACKUP_NAME = re.compile(r"tabula-\d{8}-\d{6}\.sqlite3")
"""The names `backup_name` gives; only such files are pruned."""


def prune_backups(folder: Path, keep: int) -> list[Path]:
    """Delete all but the `keep` newest timestamped backups in `folder`; return the deleted."""
    backups = sorted(path for path in folder.iterdir() if BACKUP_NAME.fullmatch(path.name))
    old = backups[: max(len(backups) - keep, 0)]
    for path in old:
        path.unlink()
    return old


def companions(path: Path) -> list[Path]:
    """The database's `-wal` and `-shm` files (whether they exist or not)."""
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def restore_database(backup: Path, database: Path, *, force: bool = False) -> Path | None:
    """Put the backup in the database's place; the bot must be stopped.

    The backup is checked first (integrity, a schema this code knows). A database in the
    way is not deleted: it and its `-wal`/`-shm` files are renamed with a `.replaced-…`
    suffix, whose path is returned. A `-wal` file means the bot is running or did not
    stop cleanly: refused unless `force`.
    """
    info = inspect_database(backup)
    if not info.intact:
        raise MaintenanceError(f"{backup} is damaged: {info.integrity[0]}")
    if info.schema_version > latest_schema():
        raise MaintenanceError(
            f"{backup} has schema version {info.schema_version}, newer than this version "
            f"of Tabula knows ({latest_schema()})"
        )
    wal = companions(database)[0]
    if wal.exists() and not force:
        raise MaintenanceError(
            f"{wal} exists: the bot is running, or did not stop cleanly. Stop it first "
            "(a clean stop removes that file); --force restores anyway"
        )
    if not database.parent.is_dir():
        raise MaintenanceError(f"the folder {database.parent} does not exist")
    partial = database.with_name(f".{database.name}.restoring")
    aside = None
    try:
        with _connect(backup) as source:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)
            finally:
                copy.close()
        if database.exists():
            aside = database.with_name(f"{database.name}.replaced-{timestamp()}")
            for path, moved in zip(
                [database, *companions(database)], [aside, *companions(aside)], strict=True
            ):
                if path.exists():
                    path.replace(moved)
        partial.replace(database)
    except (sqlite3.Error, OSError) as error:
        raise MaintenanceError(f"the restore to {database} failed: {error}") from error
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return aside
