"""The console when the database fails: the player reads what was not stored and why."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.services.clock import ManualClock
from tests.console.test_console import open_session
from tests.services.test_not_stored import INJECTED, failing


@INJECTED
async def test_a_move_the_database_refuses(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    sqlite_says: str,
    told: str,
) -> None:
    """Told to the mover, logged as an error with SQLite's error in the traceback."""
    session = await open_session(tmp_path / "c.sqlite3", ManualClock())
    try:
        await session.run("alice> /play groups @bob colour=white\nbob> /accept\n")
        error = sqlite3.OperationalError(sqlite_says)
        monkeypatch.setattr(session.repo, "record_move", failing(error))
        printed = await session.run("alice> /move d3-e2\n")
        assert await session.repo.list_moves(1) == []
    finally:
        await session.repo.close()
    assert printed == f"alice> /move d3-e2\n(to alice) {told}\n"
    (logged,) = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert logged.getMessage() == "console command '/move d3-e2' failed"
    assert logged.exc_info is not None
    assert getattr(logged.exc_info[1], "__cause__", None) is error
