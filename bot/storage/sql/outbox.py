"""The announcement outbox: what the players must be told, until they have been."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage.database import Dialect, Row
from bot.storage.repository import (
    Announcement,
    AnnouncementStatus,
    NewAnnouncement,
    ShardFilter,
)
from bot.storage.sql.base import SqlBase
from bot.storage.sql.rows import parse_time
from bot.storage.sql.suspensions import HELD

_COLUMNS = (
    "id, stream, kind, guild_id, game_id, data, reply, after_id, status, attempts, "
    "available_at, claimed_by, created_at, attempted_at, finished_at, message_id, error"
)

_FIRST_OF_STREAM = (
    "NOT EXISTS (SELECT 1 FROM announcements b "
    "WHERE b.stream = a.stream AND b.status = 'pending' AND b.id < a.id) "
    "AND (a.after_id IS NULL OR NOT EXISTS (SELECT 1 FROM announcements c "
    "WHERE c.id = a.after_id AND c.status = 'pending'))"
)
"""Only the oldest pending announcement of a stream may go out, and only once the one it
waits for (`after_id`) is out."""

_DELIVERABLE = f"{_FIRST_OF_STREAM} AND {HELD}"
"""First of its stream, and not held by a suspension of its server or game."""


def _announcement(row: Row) -> Announcement:
    reply = row["reply"]
    return Announcement(
        id=row["id"],
        stream=row["stream"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        game_id=row["game_id"],
        data=json.loads(row["data"]),
        reply=None if reply is None else json.loads(reply),
        after=row["after_id"],
        status=AnnouncementStatus(row["status"]),
        attempts=row["attempts"],
        available_at=parse_time(row["available_at"]),
        claimed_by=row["claimed_by"],
        created_at=parse_time(row["created_at"]),
        attempted_at=parse_time(row["attempted_at"]),
        finished_at=parse_time(row["finished_at"]),
        message_id=row["message_id"],
        error=row["error"],
    )


def _shard_condition(shards: ShardFilter | None) -> tuple[str, list[Any]]:
    """SQL restricting announcements to the servers of some shards (Discord's formula:
    shard = (guild_id >> 22) % shard count); direct messages to shard 0's process."""
    if shards is None:
        return "", []
    ids = sorted(shards.ids)
    marks = ", ".join("?" for _ in ids)
    guilds = f"(a.guild_id IS NOT NULL AND (a.guild_id / 4194304) % ? IN ({marks}))"
    if shards.direct_messages:
        return f" AND (a.guild_id IS NULL OR {guilds})", [shards.count, *ids]
    return f" AND {guilds}", [shards.count, *ids]


class OutboxQueries(SqlBase):
    """Storing, claiming and settling announcements."""

    async def add_announcements(
        self,
        announcements: Sequence[NewAnnouncement],
        now: datetime,
        *,
        claimed_by: str | None = None,
        lease_until: datetime | None = None,
    ) -> list[Announcement]:
        """Store announcements, held by `claimed_by` until `lease_until` if given."""
        available = lease_until if claimed_by is not None and lease_until is not None else now
        stored = []
        async with self._transaction() as db:
            for item in announcements:
                announcement_id = await db.insert(
                    "INSERT INTO announcements (stream, kind, guild_id, game_id, data, reply, "
                    "after_id, available_at, claimed_by, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        item.stream,
                        item.kind,
                        item.guild_id,
                        item.game_id,
                        json.dumps(dict(item.data), sort_keys=True),
                        None if item.reply is None else json.dumps(dict(item.reply)),
                        item.after,
                        available,
                        claimed_by,
                        now,
                    ),
                )
                stored.append(
                    Announcement(
                        kind=item.kind,
                        stream=item.stream,
                        data=item.data,
                        guild_id=item.guild_id,
                        game_id=item.game_id,
                        reply=item.reply,
                        after=item.after,
                        id=announcement_id,
                        available_at=available,
                        claimed_by=claimed_by,
                        created_at=now,
                    )
                )
        return stored

    async def claim_announcements(
        self,
        now: datetime,
        owner: str,
        lease_until: datetime,
        *,
        limit: int = 20,
        shards: ShardFilter | None = None,
    ) -> list[Announcement]:
        """Take the first available announcement of each stream (see the interface)."""
        condition, params = _shard_condition(shards)
        lock = " FOR UPDATE SKIP LOCKED" if self.dialect is Dialect.POSTGRESQL else ""
        async with self._transaction() as db:
            rows = await db.fetch_all(
                f"UPDATE announcements SET available_at = ?, claimed_by = ?, "
                "attempts = attempts + 1, attempted_at = ? WHERE id IN ("
                "SELECT a.id FROM announcements a WHERE a.status = 'pending' "
                f"AND a.available_at <= ?{condition} AND {_DELIVERABLE} "
                f"ORDER BY a.id LIMIT ?{lock}) RETURNING {_COLUMNS}",
                (lease_until, owner, now, now, *params, limit),
            )
        return sorted((_announcement(row) for row in rows), key=lambda a: a.id)

    async def claim_announcement(
        self, announcement_id: int, now: datetime, owner: str, lease_until: datetime
    ) -> Announcement | None:
        """Take one announcement now (see the interface)."""
        # FOR UPDATE: a claim by another deliverer in progress is waited for, and the row
        # is checked again as that one left it (a plain subquery would still see it free).
        lock = " FOR UPDATE" if self.dialect is Dialect.POSTGRESQL else ""
        async with self._transaction() as db:
            row = await db.fetch_one(
                "UPDATE announcements SET available_at = ?, claimed_by = ?, "
                "attempts = attempts + 1, attempted_at = ? "
                "WHERE id IN (SELECT a.id FROM announcements a WHERE a.id = ? "
                "AND a.status = 'pending' AND a.available_at <= ? "
                f"AND {_DELIVERABLE}{lock}) RETURNING {_COLUMNS}",
                (lease_until, owner, now, announcement_id, now),
            )
        return None if row is None else _announcement(row)

    async def deliver_announcement(
        self, announcement_id: int, message_id: int | None, now: datetime
    ) -> bool:
        """Mark a pending announcement delivered."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE announcements SET status = 'delivered', message_id = ?, finished_at = ?, "
                "claimed_by = NULL, reply = NULL "
                "WHERE id = ? AND status = 'pending'",
                (message_id, now, announcement_id),
            )
        return changed == 1

    async def supersede_announcements(self, game_id: int, kind: str, now: datetime) -> int:
        """Mark a game's pending announcements of one kind delivered, without a message."""
        async with self._transaction() as db:
            return await db.execute(
                "UPDATE announcements SET status = 'delivered', message_id = NULL, "
                "finished_at = ?, claimed_by = NULL, reply = NULL "
                "WHERE game_id = ? AND kind = ? AND status = 'pending'",
                (now, game_id, kind),
            )

    async def retry_announcement(
        self, announcement_id: int, available_at: datetime, error: str, *, failed: bool = True
    ) -> None:
        """Give a pending announcement back for a later attempt."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE announcements SET available_at = ?, claimed_by = NULL, error = ?, "
                "attempts = attempts - ? WHERE id = ? AND status = 'pending'",
                (available_at, error[:500], 0 if failed else 1, announcement_id),
            )

    async def park_announcement(self, announcement_id: int, reason: str, now: datetime) -> bool:
        """Give up on a pending announcement, keeping the reason."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE announcements SET status = 'parked', error = ?, finished_at = ?, "
                "claimed_by = NULL, reply = NULL WHERE id = ? AND status = 'pending'",
                (reason[:500], now, announcement_id),
            )
        return changed == 1

    async def release_announcements(self, name: str, current: str, now: datetime) -> int:
        """Make what earlier runs of `name` held available again."""
        prefix = f"{name}/"
        async with self._transaction() as db:
            return await db.execute(
                "UPDATE announcements SET available_at = ?, claimed_by = NULL "
                "WHERE status = 'pending' AND substr(claimed_by, 1, ?) = ? AND claimed_by != ?",
                (now, len(prefix), prefix, current),
            )

    async def get_announcement(self, announcement_id: int) -> Announcement | None:
        """The announcement with this id."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM announcements WHERE id = ?", (announcement_id,)
        )
        return None if row is None else _announcement(row)

    async def list_announcements(
        self,
        *,
        status: AnnouncementStatus | None = None,
        game_id: int | None = None,
        limit: int | None = None,
    ) -> list[Announcement]:
        """Announcements, oldest first."""
        conditions = ["1 = 1"]
        params: list[Any] = []
        if status is not None:
            conditions.append("status = ?")
            params.append(status.value)
        if game_id is not None:
            conditions.append("game_id = ?")
            params.append(game_id)
        sql = f"SELECT {_COLUMNS} FROM announcements WHERE {' AND '.join(conditions)} ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_announcement(row) for row in await self._db.fetch_all(sql, params)]

    async def count_announcements(self) -> dict[AnnouncementStatus, int]:
        """How many announcements are in each status."""
        rows = await self._db.fetch_all(
            "SELECT status, COUNT(*) AS n FROM announcements GROUP BY status"
        )
        counts = dict.fromkeys(AnnouncementStatus, 0)
        for row in rows:
            counts[AnnouncementStatus(row["status"])] = row["n"]
        return counts

    async def message_announcements(self, game_id: int, message_id: int) -> list[Announcement]:
        """The game's announcements that message `message_id` delivered, oldest first."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM announcements WHERE game_id = ? AND message_id = ? "
            "ORDER BY id",
            (game_id, message_id),
        )
        return [_announcement(row) for row in rows]

    async def last_outcome(self, game_id: int, before_id: int) -> AnnouncementStatus | None:
        """How the game's latest announcement before `before_id` that is no longer
        pending ended; None when there is none."""
        row = await self._db.fetch_one(
            "SELECT status FROM announcements WHERE game_id = ? AND id < ? "
            "AND status != 'pending' ORDER BY id DESC LIMIT 1",
            (game_id, before_id),
        )
        return None if row is None else AnnouncementStatus(row["status"])
