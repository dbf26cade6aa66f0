"""Clocks, reminders, vacations, the bot's downtime and digests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.storage.database import Dialect, UniqueViolation
from bot.storage.repository import ClockTurn, GameClock, Outage, UserSettings, Vacation
from bot.storage.sql.base import SqlBase
from bot.storage.sql.rows import (
    CLOCK_TURN_COLUMNS,
    USER_COLUMNS,
    VACATION_COLUMNS,
    clock_turn_from,
    clock_turn_values,
    outage_from,
    parse_time,
    seconds,
    user_settings_from,
    vacation_from,
)


class ClockQueries(SqlBase):
    """Game clocks, reminders sent, vacations, outages, the heartbeat and digests."""

    async def get_clock(self, game_id: int) -> GameClock | None:
        """The game's clock, or None when it has none (yet)."""
        row = await self._db.fetch_one(
            "SELECT c.game_id, c.turn, c.synced_ply, c.deadline, c.remind_at, c.stopped_at, "
            "t.seat, t.start_ply, t.started_at, t.bank0_s, t.bank1_s "
            "FROM game_clocks c JOIN clock_turns t ON t.game_id = c.game_id AND t.turn = c.turn "
            "WHERE c.game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        return GameClock(
            current=clock_turn_from(row),
            synced_ply=row["synced_ply"],
            deadline=parse_time(row["deadline"]),
            remind_at=parse_time(row["remind_at"]),
            stopped_at=parse_time(row["stopped_at"]),
        )

    async def clock_turns(self, game_id: int) -> list[ClockTurn]:
        """Every turn of the game's clock, oldest first."""
        rows = await self._db.fetch_all(
            f"SELECT {CLOCK_TURN_COLUMNS} FROM clock_turns WHERE game_id = ? ORDER BY turn",
            (game_id,),
        )
        return [clock_turn_from(row) for row in rows]

    async def save_clock(
        self, clock: GameClock, new_turns: Sequence[ClockTurn], now: datetime
    ) -> bool:
        """In one transaction, add `new_turns` and store `clock` (compare-and-set)."""
        expected = new_turns[0].turn - 1 if new_turns else clock.current.turn
        try:
            async with self._transaction() as db:
                row = await db.fetch_one(
                    "SELECT turn FROM game_clocks WHERE game_id = ?", (clock.game_id,)
                )
                stored = 0 if row is None else row["turn"]
                if stored != expected:
                    return False
                await db.execute_many(
                    f"INSERT INTO clock_turns ({CLOCK_TURN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [clock_turn_values(turn) for turn in new_turns],
                )
                await db.execute(
                    "INSERT INTO game_clocks (game_id, turn, synced_ply, deadline, remind_at, "
                    "stopped_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET "
                    "turn = excluded.turn, synced_ply = excluded.synced_ply, "
                    "deadline = excluded.deadline, remind_at = excluded.remind_at, "
                    "stopped_at = excluded.stopped_at, updated_at = excluded.updated_at",
                    (
                        clock.game_id,
                        clock.current.turn,
                        clock.synced_ply,
                        clock.deadline,
                        clock.remind_at,
                        clock.stopped_at,
                        now,
                    ),
                )
        except UniqueViolation as exc:
            if exc.table == "clock_turns":
                return False
            raise
        return True

    async def set_clock_schedule(
        self, game_id: int, turn: int, deadline: datetime | None, remind_at: datetime | None
    ) -> bool:
        """Store the deadline and next reminder of the game's clock, if still at `turn`."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE game_clocks SET deadline = ?, remind_at = ? "
                "WHERE game_id = ? AND turn = ? AND stopped_at IS NULL",
                (deadline, remind_at, game_id, turn),
            )
        return changed == 1

    async def due_clocks(self, now: datetime) -> list[int]:
        """Games whose clock deadline has come, soonest first."""
        rows = await self._db.fetch_all(
            "SELECT game_id FROM game_clocks WHERE deadline IS NOT NULL AND deadline <= ? "
            "ORDER BY deadline",
            (now,),
        )
        return [row["game_id"] for row in rows]

    async def due_reminders(self, now: datetime) -> list[int]:
        """Games whose next reminder has come, soonest first."""
        rows = await self._db.fetch_all(
            "SELECT game_id FROM game_clocks WHERE remind_at IS NOT NULL AND remind_at <= ? "
            "ORDER BY remind_at",
            (now,),
        )
        return [row["game_id"] for row in rows]

    async def clocks_to_sync(self) -> list[int]:
        """Games whose clock is missing or behind (see the interface)."""
        rows = await self._db.fetch_all(
            "SELECT g.id FROM games g LEFT JOIN game_clocks c ON c.game_id = g.id "
            "WHERE g.status = 'active' AND g.time_control != 'none' "
            "AND (c.game_id IS NULL OR c.synced_ply != g.ply) "
            "UNION SELECT c.game_id FROM game_clocks c JOIN games g ON g.id = c.game_id "
            "WHERE c.deadline IS NOT NULL AND g.status != 'active' ORDER BY 1"
        )
        return [row[0] for row in rows]

    async def running_clocks(self) -> list[int]:
        """Games whose clock runs (only a running clock has a deadline)."""
        rows = await self._db.fetch_all(
            "SELECT game_id FROM game_clocks WHERE deadline IS NOT NULL ORDER BY game_id"
        )
        return [row["game_id"] for row in rows]

    async def claim_reminder(
        self, game_id: int, turn: int, offset: timedelta, now: datetime
    ) -> bool:
        """Mark the reminder sent; False when it was claimed before."""
        async with self._transaction() as db:
            changed = await db.execute(
                "INSERT INTO sent_reminders (game_id, turn, offset_s, sent_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, turn, seconds(offset), now),
            )
        return changed == 1

    async def sent_reminders(self, game_id: int, turn: int) -> frozenset[timedelta]:
        """The offsets of the reminders sent in this turn."""
        rows = await self._db.fetch_all(
            "SELECT offset_s FROM sent_reminders WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
        return frozenset(timedelta(seconds=row["offset_s"]) for row in rows)

    # --- vacations and downtime ---

    async def vacations(self, user_id: int, since: datetime) -> list[Vacation]:
        """The user's vacations that end after `since` (or are open), oldest first."""
        rows = await self._db.fetch_all(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE user_id = ? "
            "AND (ended_at IS NULL OR (ends_at > ? AND ended_at > ?)) ORDER BY started_at",
            (user_id, since, since),
        )
        return [vacation_from(row) for row in rows]

    async def open_vacation(self, user_id: int) -> Vacation | None:
        """The user's vacation not closed yet, if any."""
        row = await self._db.fetch_one(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE user_id = ? AND ended_at IS NULL",
            (user_id,),
        )
        return None if row is None else vacation_from(row)

    async def start_vacation(
        self, user_id: int, started_at: datetime, ends_at: datetime
    ) -> Vacation | None:
        """Store a new vacation; None when the user already has an open one."""
        try:
            async with self._transaction() as db:
                vacation_id = await db.insert(
                    "INSERT INTO vacations (user_id, started_at, ends_at) VALUES (?, ?, ?)",
                    (user_id, started_at, ends_at),
                )
        except UniqueViolation as exc:
            if exc.table == "vacations":
                return None
            raise
        return Vacation(vacation_id, user_id, started_at, ends_at)

    async def end_vacation(self, vacation_id: int, ended_at: datetime) -> Vacation | None:
        """Close an open vacation at `ended_at`; None when it was closed already."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE vacations SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                (ended_at, vacation_id),
            )
            if changed != 1:
                return None
            row = await db.fetch_one(
                f"SELECT {VACATION_COLUMNS} FROM vacations WHERE id = ?", (vacation_id,)
            )
        assert row is not None
        return vacation_from(row)

    async def due_vacations(self, now: datetime) -> list[Vacation]:
        """Open vacations whose planned end has come."""
        rows = await self._db.fetch_all(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE ended_at IS NULL AND ends_at <= ? "
            "ORDER BY ends_at",
            (now,),
        )
        return [vacation_from(row) for row in rows]

    async def outages(self, since: datetime) -> list[Outage]:
        """The bot's downtimes that end after `since`, oldest first."""
        rows = await self._db.fetch_all(
            "SELECT started_at, ended_at FROM outages WHERE ended_at > ? ORDER BY started_at",
            (since,),
        )
        return [outage_from(row) for row in rows]

    async def record_outage(self, outage: Outage) -> None:
        """Remember a time the bot was down."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO outages (started_at, ended_at) VALUES (?, ?)",
                (outage.started_at, outage.ended_at),
            )

    async def beat(self, now: datetime) -> datetime | None:
        """Record that the scheduler runs at `now`; return the previous heartbeat."""
        # Several processes beat: the row is locked until this one's beat is stored, so
        # the next reads it (not the value before), and a downtime is found once.
        lock = " FOR UPDATE" if self.dialect is Dialect.POSTGRESQL else ""
        async with self._transaction() as db:
            row = await db.fetch_one(f"SELECT alive_at FROM heartbeat WHERE id = 1{lock}")
            await db.execute(
                "INSERT INTO heartbeat (id, alive_at) VALUES (1, ?) "
                "ON CONFLICT (id) DO UPDATE SET alive_at = excluded.alive_at",
                (now,),
            )
        return None if row is None else parse_time(row["alive_at"])

    # --- notifications ---

    async def digest_candidates(self) -> list[tuple[UserSettings, datetime | None]]:
        """Users with the digest on and some game waiting for them, with their last digest."""
        rows = await self._db.fetch_all(
            # One lookup per seat: an OR of the two seats made SQLite walk every game in
            # progress for each user.
            f"SELECT {USER_COLUMNS}, digest_sent_at FROM user_settings u WHERE u.digest AND ("
            "EXISTS (SELECT 1 FROM games g WHERE g.status = 'active' "
            "AND g.player0_id = u.user_id AND g.to_move = 0) "
            "OR EXISTS (SELECT 1 FROM games g WHERE g.status = 'active' "
            "AND g.player1_id = u.user_id AND g.to_move = 1)) ORDER BY user_id"
        )
        return [(user_settings_from(row), parse_time(row["digest_sent_at"])) for row in rows]

    async def claim_digest(self, user_id: int, previous: datetime | None, now: datetime) -> bool:
        """Set the user's last digest to `now` if it still is `previous` (compare-and-set)."""
        same = "digest_sent_at IS NULL" if previous is None else "digest_sent_at = ?"
        params = (now, user_id) if previous is None else (now, user_id, previous)
        async with self._transaction() as db:
            changed = await db.execute(
                f"UPDATE user_settings SET digest_sent_at = ? WHERE user_id = ? AND {same}",
                params,
            )
        return changed == 1
