"""The bot on Discord when the database fails: the player is told what was not stored
and why, privately; the error is logged with its traceback; the bot carries on."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from tests.discord.test_e2e import challenge_and_accept, private_reply, running
from tests.fakediscord.fixtures import FakeClub
from tests.services.test_not_stored import INJECTED, failing


@INJECTED
async def test_a_move_the_database_refuses(
    fake_club: FakeClub,
    tmp_path: Path,
    *,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    sqlite_says: str,
    told: str,
) -> None:
    """/move is answered privately with the reason; once the database takes writes
    again, the same move is played."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        repository = bot.services.repository
        record_move = repository.record_move
        error = sqlite3.OperationalError(sqlite_says)
        monkeypatch.setattr(repository, "record_move", failing(error))
        text = await private_reply(fake, fake.slash(alice, thread, "move", {"notation": "d3-e2"}))
        assert text == told
        assert await repository.list_moves(1) == []
        monkeypatch.setattr(repository, "record_move", record_move)
        inter = await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        answer = (await inter.response()).message
        assert answer is not None and "Move 1: Alice played **d3-e2**." in answer.content
        assert bot.is_ready() and not bot.is_closed()
    logged = [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]
    assert len(logged) == 1
    assert logged[0].exc_info is not None
    assert getattr(logged[0].exc_info[1], "__cause__", None) is error


async def test_a_button_whose_write_fails(
    fake_club: FakeClub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offer draw while the database is locked: what is known is said, no more."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        board, _ = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        repository = bot.services.repository
        locked = failing(sqlite3.OperationalError("database is locked"))
        monkeypatch.setattr(repository, "update_game", locked)
        text = await private_reply(fake, fake.click(alice, board, label="Offer draw"))
        assert text == "That could not be stored: the database is busy. Try again in a moment."
        assert (await repository.get_game(1)).draw_offer is None  # type: ignore[union-attr]
