"""`SqlRepository`: every query of the bot, written once for SQLite and PostgreSQL.

Each module holds the queries of one area; the repository is all of them over one
`bot.storage.database.Database`. `bot.storage.sqlite` and `bot.storage.postgres` open it
on their database.
"""

from __future__ import annotations

from bot.storage.sql.clocks import ClockQueries
from bot.storage.sql.competition import CompetitionQueries
from bot.storage.sql.conditionals import ConditionalQueries
from bot.storage.sql.games import GameQueries
from bot.storage.sql.leagues import LeagueQueries
from bot.storage.sql.outbox import OutboxQueries
from bot.storage.sql.records import RecordQueries
from bot.storage.sql.suspensions import SuspensionQueries


class SqlRepository(
    GameQueries,
    CompetitionQueries,
    ClockQueries,
    OutboxQueries,
    RecordQueries,
    ConditionalQueries,
    LeagueQueries,
    SuspensionQueries,
):
    """The `Repository` over a SQL database."""

    async def optimize(self) -> None:
        """Nothing by default: PostgreSQL's autovacuum keeps the statistics current."""

    async def close(self) -> None:
        """Close the database."""
        await self._db.close()


__all__ = ["SqlRepository"]
