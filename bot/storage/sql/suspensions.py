"""Suspensions: servers that removed Tabula, games left without a channel."""

from __future__ import annotations

from datetime import datetime

from bot.storage.database import Row
from bot.storage.sql.base import SqlBase
from bot.storage.sql.rows import parse_time, required_time
from bot.storage.suspensions import Suspension, SuspensionOutcome, SuspensionReason

_COLUMNS = "id, guild_id, game_id, reason, started_at, ended_at, outcome, games"

HELD = (
    "NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.ended_at IS NULL "
    "AND s.guild_id = a.guild_id AND (s.game_id IS NULL OR s.game_id = a.game_id))"
)
"""SQL true for an announcement (`a`) no open suspension holds: only those are delivered.
Direct messages (no server) are never held."""


def _suspension(row: Row) -> Suspension:
    outcome = row["outcome"]
    return Suspension(
        id=row["id"],
        guild_id=row["guild_id"],
        game_id=row["game_id"],
        reason=SuspensionReason(row["reason"]),
        started_at=required_time(row["started_at"]),
        ended_at=parse_time(row["ended_at"]),
        outcome=None if outcome is None else SuspensionOutcome(outcome),
        games=row["games"],
    )


class SuspensionQueries(SqlBase):
    """Opening, reading and ending suspensions; the announcements they held."""

    async def suspend(
        self, guild_id: int, game_id: int | None, reason: SuspensionReason, now: datetime
    ) -> Suspension | None:
        """Open a suspension of the server (or of one game); None when one is open already."""
        async with self._transaction() as db:
            row = await db.fetch_one(
                "INSERT INTO suspensions (guild_id, game_id, reason, started_at) "
                f"VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING {_COLUMNS}",
                (guild_id, game_id, reason.value, now),
            )
        return None if row is None else _suspension(row)

    async def end_suspension(
        self, suspension_id: int, outcome: SuspensionOutcome, now: datetime, games: int
    ) -> Suspension | None:
        """Close an open suspension, keeping how it ended and how many games it held;
        None when it was closed already (another process got there first)."""
        async with self._transaction() as db:
            row = await db.fetch_one(
                "UPDATE suspensions SET ended_at = ?, outcome = ?, games = ? "
                f"WHERE id = ? AND ended_at IS NULL RETURNING {_COLUMNS}",
                (now, outcome.value, games, suspension_id),
            )
        return None if row is None else _suspension(row)

    async def open_suspensions(self, guild_id: int | None = None) -> list[Suspension]:
        """The suspensions that hold now (of one server, if given), oldest first."""
        if guild_id is None:
            rows = await self._db.fetch_all(
                f"SELECT {_COLUMNS} FROM suspensions WHERE ended_at IS NULL ORDER BY id"
            )
        else:
            rows = await self._db.fetch_all(
                f"SELECT {_COLUMNS} FROM suspensions WHERE ended_at IS NULL AND guild_id = ? "
                "ORDER BY id",
                (guild_id,),
            )
        return [_suspension(row) for row in rows]

    async def suspension_of(self, guild_id: int, game_id: int | None) -> Suspension | None:
        """The open suspension holding game `game_id` of server `guild_id` (the server's
        own first); with `game_id` None, only the server's."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM suspensions WHERE ended_at IS NULL AND guild_id = ? "
            "AND (game_id IS NULL OR game_id = ?) ORDER BY game_id IS NOT NULL, id LIMIT 1",
            (guild_id, game_id),
        )
        return None if row is None else _suspension(row)

    async def suspensions(self, guild_id: int, since: datetime) -> list[Suspension]:
        """The server's suspensions (its own and its games') still open or ended after
        `since`, oldest first: the times its clocks stood still."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM suspensions WHERE guild_id = ? "
            "AND (ended_at IS NULL OR ended_at > ?) ORDER BY started_at, id",
            (guild_id, since),
        )
        return [_suspension(row) for row in rows]

    async def park_held_announcements(
        self, guild_id: int, game_id: int | None, reason: str, now: datetime
    ) -> int:
        """Give up on the pending announcements for the server (or for one game of it)
        with `reason`; how many."""
        game = "" if game_id is None else " AND game_id = ?"
        params = (reason[:500], now, guild_id) if game_id is None else (
            reason[:500], now, guild_id, game_id
        )  # fmt: skip
        async with self._transaction() as db:
            return await db.execute(
                "UPDATE announcements SET status = 'parked', error = ?, finished_at = ?, "
                "claimed_by = NULL, reply = NULL "
                f"WHERE status = 'pending' AND guild_id = ?{game}",
                params,
            )
