"""Start-up does not read the whole database file once it is large: the header and the
schema are checked, the full check is `tabula doctor`'s."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot import doctor
from bot.storage import maintenance
from tests.storage.test_maintenance import database_with_moves

PAGE = 4096


def flip_bit(path: Path, page: int, offset: int) -> None:
    """Flip the lowest bit of one byte of a database page (pages count from 1)."""
    data = bytearray(path.read_bytes())
    data[(page - 1) * PAGE + offset] ^= 1
    path.write_bytes(bytes(data))


async def test_a_large_file_is_not_read_whole_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above the limit no quick_check runs at start (damage deep in the file is not met);
    `tabula doctor` still finds it."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path, games=20, moves=10)
    flip_bit(path, page=2, offset=3)  # a page's cell count: only a check of that page sees it
    assert doctor.database_file_problem(path) is not None  # small: checked whole
    checks: list[str] = []
    original = maintenance._findings

    def spy(connection: sqlite3.Connection, check: str) -> tuple[str, ...]:
        checks.append(check)
        return original(connection, check)

    monkeypatch.setattr(maintenance, "_findings", spy)
    monkeypatch.setattr(maintenance, "STARTUP_CHECK_LIMIT", path.stat().st_size - 1)
    checks.clear()
    assert doctor.database_file_problem(path) is None
    assert checks == []
    found = [c for c in doctor.check_database(path) if c.status is doctor.Status.PROBLEM]
    assert checks == ["integrity_check"]
    assert found and "page 2" in " ".join(c.detail for c in found)


async def test_a_file_cut_short_is_refused_without_reading_it(tmp_path: Path) -> None:
    """The header says how many pages there are: a truncated copy is refused at once."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path, games=20, moves=10)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 // PAGE * PAGE])
    problem = doctor.database_file_problem(path)
    assert problem is not None and "the file is cut short" in problem


def test_a_header_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    """Not SQLite's magic string, or an impossible page size."""
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"x" * 200)
    assert maintenance.header_problem(path) == "file is not a database"
    header = bytearray(b"SQLite format 3\x00" + bytes(84))
    header[16:18] = (1000).to_bytes(2, "big")
    path.write_bytes(bytes(header))
    assert "page size is impossible" in str(maintenance.header_problem(path))
