"""What kind of trouble a database error is: full, busy, read-only, damaged, failing.

The services and front ends speak to players and operators in these terms; which
exception a database library raises for each is known here only.
"""

from __future__ import annotations

import enum
import sqlite3


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


def classify(error: BaseException) -> Failure | None:
    """The kind of failure `error` is; None for anything else (a bug, a refusal)."""
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
