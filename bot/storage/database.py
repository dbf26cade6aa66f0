"""The port the SQL repository runs on: a database with transactions, in one dialect.

`bot.storage.sql` writes every query once, with `?` placeholders, and runs it through a
`Database`: `bot.storage.sqlite` (aiosqlite) or `bot.storage.postgres` (asyncpg). Values
go in as Python values (datetimes, bools, ints, strings) and each database converts them
as it needs. Rows come back indexable by column name and by position.

Transactions nest: `transaction()` inside another one on the same task becomes a
savepoint of it, and every query on that task joins the open transaction. So a service
can write several things atomically (`async with repository.atomic(): ...`) with the
repository's ordinary methods.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.storage.changes import GameChanges

C = TypeVar("C")


class Row(Protocol):
    """A result row: `row["column"]`, or `row[0]` by position."""

    def __getitem__(self, key: str | int, /) -> Any:
        """The value of a column."""
        ...


Params = Sequence[Any]


class Dialect(enum.StrEnum):
    """The SQL a database speaks, where the two differ."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


class UniqueViolation(Exception):
    """A write broke a unique constraint of `table` (another writer got there first)."""

    def __init__(self, table: str, message: str) -> None:
        super().__init__(message)
        self.table = table


class DatabaseBusyError(Exception):
    """The database stayed locked by another writer for longer than the wait allows."""


class Connection(Protocol):
    """One open transaction's connection."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for each set of parameters."""

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT and return the new row's `id`."""
        ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""
        ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""
        ...


@dataclass
class OpenTransaction(Generic[C]):
    """The transaction a task has open on connection `C`, which its nested transactions
    join (as savepoints)."""

    connection: C
    task: asyncio.Task[Any] | None
    open: bool = True
    savepoints: int = 0
    """Savepoints open inside it (they are named by their depth)."""

    def joinable(self) -> bool:
        """True for the task that opened it, while it is open (tasks it started copy the
        context variable, but must not use the transaction)."""
        return self.open and self.task is asyncio.current_task()


class Database(Protocol):
    """A database the SQL repository runs on."""

    dialect: Dialect
    changes: GameChanges
    """Told of the games each commit changed, once `watch_games` was called."""

    async def watch_games(self) -> None:
        """Start publishing in `changes` the games that commits change (any process's)."""

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A transaction: committed when the block ends, rolled back if it raises.

        Inside another transaction of the same task it is a savepoint of that one, and
        until the block ends every query of the task runs in it.
        """
        ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Read the first row (in the task's open transaction, if any)."""
        ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Read every row (in the task's open transaction, if any)."""
        ...

    async def lock(self, key: int) -> None:
        """Inside a transaction: hold the lock named `key` until it ends, across every
        process using the database (SQLite's write lock already covers the whole file)."""

    async def close(self) -> None:
        """Close every connection."""
