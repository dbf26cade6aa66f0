"""What kind of trouble a database error is: full, busy, read-only, damaged, failing.

The services and front ends speak to players and operators in these terms; which
exception a database library raises for each is known here only.
"""

from __future__ import annotations

import enum
import sqlite3

import asyncpg


class Failure(enum.Enum):
    """A database error the operator (not the code) has to deal with."""

    FULL = "full"
    """The disk (or the database's size limit) is full."""
    BUSY = "busy"
    """Another connection held the database longer than the wait allows."""
    READ_ONLY = "read-only"
    """The file, its folder or the file system cannot be written."""
    DAMAGED = "damaged"
    """Not a database, or a database whose pages are corrupt."""
    DISK = "disk"
    """The operating system failed to read or write the file."""
    UNREACHABLE = "unreachable"
    """The database server (PostgreSQL) could not be reached, dropped the connection, or
    is shutting down or starting up."""


_BY_CODE = {
    sqlite3.SQLITE_FULL: Failure.FULL,
    sqlite3.SQLITE_BUSY: Failure.BUSY,
    sqlite3.SQLITE_LOCKED: Failure.BUSY,
    sqlite3.SQLITE_READONLY: Failure.READ_ONLY,
    sqlite3.SQLITE_CORRUPT: Failure.DAMAGED,
    sqlite3.SQLITE_NOTADB: Failure.DAMAGED,
    sqlite3.SQLITE_IOERR: Failure.DISK,
}

# SQLite's own texts for those codes, for errors that carry no code (raised by hand).
_BY_TEXT = (
    ("database or disk is full", Failure.FULL),
    ("database is locked", Failure.BUSY),
    ("database table is locked", Failure.BUSY),
    ("attempt to write a readonly database", Failure.READ_ONLY),
    ("database disk image is malformed", Failure.DAMAGED),
    ("file is not a database", Failure.DAMAGED),
    ("disk i/o error", Failure.DISK),
)


_BY_SQLSTATE = {
    "53100": Failure.FULL,  # disk_full
    "53200": Failure.FULL,  # out_of_memory
    "55P03": Failure.BUSY,  # lock_not_available
    "57014": Failure.BUSY,  # query_canceled (a statement or lock timeout)
    "40P01": Failure.BUSY,  # deadlock_detected
    "25006": Failure.READ_ONLY,  # read_only_sql_transaction (a standby)
    "XX001": Failure.DAMAGED,  # data_corrupted
    "XX002": Failure.DAMAGED,  # index_corrupted
    "58030": Failure.DISK,  # io_error
    # The server is shutting down, crashed, or is still starting (a restart): like a
    # dropped connection, the next attempt a moment later reaches it again.
    "57P01": Failure.UNREACHABLE,  # admin_shutdown
    "57P02": Failure.UNREACHABLE,  # crash_shutdown
    "57P03": Failure.UNREACHABLE,  # cannot_connect_now
}
"""PostgreSQL's error codes (SQLSTATE) for the same kinds of trouble."""


def classify(error: BaseException) -> Failure | None:
    """The kind of failure `error` is; None for anything else (a bug, a refusal)."""
    if isinstance(error, asyncpg.PostgresError):
        state = getattr(error, "sqlstate", None)
        if isinstance(state, str) and state.startswith("08"):  # connection exceptions
            return Failure.UNREACHABLE
        return _BY_SQLSTATE.get(state) if isinstance(state, str) else None
    if isinstance(error, asyncpg.InterfaceError | ConnectionError):
        return Failure.UNREACHABLE
    if not isinstance(error, sqlite3.Error):
        return None
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        found = _BY_CODE.get(code & 0xFF)  # the primary code of an extended one
        if found is not None:
            return found
    text = str(error).lower()
    for words, failure in _BY_TEXT:
        if words in text:
            return failure
    return None
