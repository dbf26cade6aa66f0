"""A move the database fails to store: refused with what happened, in a player's words."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from bot.services.errors import NotStoredError, storage_failure_message
from bot.storage.failures import Failure
from tests.services.conftest import ALICE, Env

FULL = (
    "Your move was not stored: the bot's disk is full. Please tell the server's moderators; "
    "try again later."
)
BUSY = "Your move was not stored: the database is busy. Try again in a moment."
INJECTED = pytest.mark.parametrize(
    ("sqlite_says", "told"),
    [("database or disk is full", FULL), ("database is locked", BUSY)],
)
"""Each front end's test runs with these two errors injected: what SQLite says, what the
player is told."""


def failing(error: Exception) -> Callable[..., Awaitable[None]]:
    """A repository method that fails with `error`, as SQLite would."""

    async def fail(*args: object, **kwargs: object) -> None:
        raise error

    return fail


@pytest.mark.parametrize(
    ("sqlite_says", "failure", "told"),
    [
        ("database or disk is full", Failure.FULL, FULL),
        ("database is locked", Failure.BUSY, BUSY),
    ],
)
async def test_a_move_the_database_refuses_is_not_stored_and_says_why(
    env: Env, monkeypatch: pytest.MonkeyPatch, sqlite_says: str, failure: Failure, told: str
) -> None:
    """The move is refused with the reason, nothing is stored, and once the database
    takes writes again the same move is played normally."""
    view = await env.start()
    record_move = env.repo.record_move
    error = sqlite3.OperationalError(sqlite_says)
    monkeypatch.setattr(env.repo, "record_move", failing(error))
    with pytest.raises(NotStoredError) as raised:
        await env.services.games.play(view.id, ALICE.id, "d3-e2")
    assert str(raised.value) == told
    assert raised.value.failure is failure
    assert raised.value.__cause__ is error  # the log's traceback shows SQLite's error
    assert await env.repo.list_moves(view.id) == []
    assert (await env.services.games.record(view.id)).ply == 0
    monkeypatch.setattr(env.repo, "record_move", record_move)
    result = await env.services.games.play(view.id, ALICE.id, "d3-e2")
    assert result.move.ply == 1
    assert [n.move.ply for n in env.notifier.moves] == [1]  # announced once, when stored


async def test_other_errors_pass_through(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug stays a bug: no "not stored" text that would hide it."""
    view = await env.start()
    monkeypatch.setattr(env.repo, "record_move", failing(RuntimeError("bug")))
    with pytest.raises(RuntimeError, match="bug"):
        await env.services.games.play(view.id, ALICE.id, "d3-e2")


def test_messages_for_failures_outside_a_move() -> None:
    """A database failure anywhere else is told without claiming more than is known."""
    assert storage_failure_message(sqlite3.OperationalError("database is locked")) == (
        "That could not be stored: the database is busy. Try again in a moment."
    )
    assert storage_failure_message(sqlite3.OperationalError("disk I/O error")) == (
        "That could not be stored: the bot's disk failed to read or write. Please tell the "
        "server's moderators; try again later."
    )
    assert storage_failure_message(NotStoredError("move", Failure.FULL)) == FULL
    assert storage_failure_message(RuntimeError("database or disk is full")) is None


def test_a_postgresql_restart_is_told_as_try_again() -> None:
    """A server shutting down or starting up is a moment's wait, not a crash."""
    for error in (
        asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator"),
        asyncpg.exceptions.CrashShutdownError("terminating connection due to crash"),
        asyncpg.exceptions.CannotConnectNowError("the database system is starting up"),
    ):
        message = storage_failure_message(error)
        assert message is not None and "Try again in a moment" in message, error
