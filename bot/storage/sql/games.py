"""Challenges, games, the move log and settings."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime, timedelta
from typing import Any

from bot.storage.database import Connection, UniqueViolation
from bot.storage.repository import (
    ChallengeRecord,
    ChallengeStatus,
    DuplicateMoveError,
    GameRecord,
    GuildSettings,
    MoveRecord,
    NewChallenge,
    NewGame,
    Snapshot,
    StaleGameError,
    UserSettings,
)
from bot.storage.sql.base import SqlBase
from bot.storage.sql.rows import (
    CHALLENGE_COLUMNS,
    GAME_COLUMNS,
    GAME_UPDATE_COLUMNS,
    MOVE_COLUMNS,
    USER_COLUMNS,
    challenge_from,
    game_from,
    game_update_values,
    move_from,
    move_values,
    options_json,
    seconds,
    user_settings_from,
)

_UPDATE_GAME = (
    f"UPDATE games SET channel_id = ?, {', '.join(f'{name} = ?' for name in GAME_UPDATE_COLUMNS)}, "
    "version = version + 1 WHERE id = ? AND version = ?"
)
"""A game's changeable fields, and its channel (a game moves when its channel is deleted)."""


async def write_game(db: Connection, game: GameRecord) -> GameRecord:
    """Store the game row if it is still at `game.version`; the record as stored.

    Raises `StaleGameError` when another writer changed the row since it was read."""
    values = (game.channel_id, *game_update_values(game), game.id, game.version)
    changed = await db.execute(_UPDATE_GAME, values)
    if changed != 1:
        raise StaleGameError(f"game {game.id} changed since version {game.version} was read")
    return game.evolve(version=game.version + 1)


async def insert_game(db: Connection, game: NewGame) -> int:
    """Insert a new game row; its id."""
    return await db.insert(
        "INSERT INTO games (game, options, guild_id, channel_id, challenge_id, player0_id, "
        "player1_id, player0_name, player1_name, player0_ai, player1_ai, rated, "
        "time_control, tournament_id, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.game,
            options_json(game.options),
            game.guild_id,
            game.channel_id,
            game.challenge_id,
            game.players[0],
            game.players[1],
            game.names[0],
            game.names[1],
            game.ai_levels[0],
            game.ai_levels[1],
            game.rated,
            game.time_control,
            game.tournament_id,
            game.created_at,
            game.created_at,
        ),
    )


class GameQueries(SqlBase):
    """Challenges, games, moves and settings."""

    # --- challenges ---

    async def create_challenge(self, challenge: NewChallenge) -> ChallengeRecord:
        """Store a new open challenge."""
        async with self._transaction() as db:
            challenge_id = await db.insert(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, "
                "opponent_id, opponent_name, game, options, challenger_seat, rated, time_control, "
                "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    challenge.guild_id,
                    challenge.channel_id,
                    challenge.challenger_id,
                    challenge.challenger_name,
                    challenge.opponent_id,
                    challenge.opponent_name,
                    challenge.game,
                    options_json(challenge.options),
                    challenge.challenger_seat,
                    challenge.rated,
                    challenge.time_control,
                    challenge.created_at,
                    challenge.expires_at,
                ),
            )
        values = {f.name: getattr(challenge, f.name) for f in fields(challenge)}
        return ChallengeRecord(**values, id=challenge_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        """The challenge with this id."""
        row = await self._db.fetch_one(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return None if row is None else challenge_from(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, now: datetime
    ) -> ChallengeRecord | None:
        """Move an open challenge to `status`; None when it was no longer open."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE challenges SET status = ?, closed_at = ? WHERE id = ? AND status = 'open'",
                (status.value, now, challenge_id),
            )
            if changed != 1:
                return None
            return await self.get_challenge(challenge_id)

    async def accept_challenge(
        self, challenge_id: int, game: NewGame
    ) -> tuple[ChallengeRecord, GameRecord] | None:
        """Atomically mark an open challenge accepted and create its game."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE challenges SET status = 'accepted', closed_at = ? "
                "WHERE id = ? AND status = 'open'",
                (game.created_at, challenge_id),
            )
            if changed != 1:
                return None
            game_id = await insert_game(db, game)
            await db.execute(
                "UPDATE challenges SET game_id = ? WHERE id = ?", (game_id, challenge_id)
            )
            challenge = await self.get_challenge(challenge_id)
            record = await self.get_game(game_id)
        assert challenge is not None and record is not None
        return challenge, record

    async def create_game(self, game: NewGame) -> GameRecord:
        """Store a game that no challenge started (tournaments, computer games)."""
        async with self._transaction() as db:
            game_id = await insert_game(db, game)
            record = await self.get_game(game_id)
        assert record is not None
        return record

    async def open_challenges(
        self, *, user_id: int | None = None, channel_id: int | None = None
    ) -> list[ChallengeRecord]:
        """Open challenges involving `user_id` and/or made in `channel_id`, newest first."""
        conditions = ["status = 'open'"]
        params: list[Any] = []
        if channel_id is not None:
            conditions.append("channel_id = ?")
            params.append(channel_id)
        where = " AND ".join(conditions)
        if user_id is None:
            sql = f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE {where} ORDER BY id DESC"
        else:
            # One index lookup per side (an OR of the two cannot use one).
            sql = (
                f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE challenger_id = ? AND {where} "
                f"UNION ALL SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE opponent_id = ? "
                f"AND challenger_id != ? AND {where} ORDER BY id DESC"
            )
            params = [user_id, *params, user_id, user_id, *params]
        rows = await self._db.fetch_all(sql, params)
        return [challenge_from(row) for row in rows]

    async def due_challenges(self, now: datetime) -> list[ChallengeRecord]:
        """Open challenges whose expiry time has come."""
        rows = await self._db.fetch_all(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges "
            "WHERE status = 'open' AND expires_at <= ? ORDER BY expires_at",
            (now,),
        )
        return [challenge_from(row) for row in rows]

    # --- games ---

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id."""
        row = await self._db.fetch_one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else game_from(row)

    async def update_game(self, game: GameRecord) -> GameRecord:
        """Store the game row's changeable fields if it is still at `game.version`."""
        async with self._transaction() as db:
            return await write_game(db, game)

    async def record_move(
        self, move: MoveRecord, game: GameRecord, snapshot: Snapshot | None = None
    ) -> GameRecord:
        """In one transaction, append `move` and store `game` (and a snapshot if given)."""
        try:
            async with self._transaction() as db:
                await db.execute(
                    f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                    move_values(move),
                )
                stored = await write_game(db, game)
                if snapshot is not None:
                    await db.execute(
                        "UPDATE games SET snapshot = ?, snapshot_ply = ? WHERE id = ?",
                        (snapshot.encoded, snapshot.ply, game.id),
                    )
        except UniqueViolation as exc:
            if exc.table == "moves":
                raise DuplicateMoveError(f"game {move.game_id} already has ply {move.ply}") from exc
            raise
        return stored

    async def undo_moves(self, game: GameRecord, from_ply: int, now: datetime) -> GameRecord:
        """In one transaction, mark moves from `from_ply` on undone and store `game`."""
        async with self._transaction() as db:
            stored = await write_game(db, game)
            await db.execute(
                "UPDATE moves SET undone_at = ? "
                "WHERE game_id = ? AND ply >= ? AND undone_at IS NULL",
                (now, game.id, from_ply),
            )
            await db.execute(
                "UPDATE games SET snapshot = NULL, snapshot_ply = NULL "
                "WHERE id = ? AND snapshot_ply >= ?",
                (game.id, from_ply),
            )
        return stored

    async def list_moves(self, game_id: int, after_ply: int = 0) -> list[MoveRecord]:
        """The game's live moves with ply > `after_ply`, in order."""
        rows = await self._db.fetch_all(
            f"SELECT {MOVE_COLUMNS} FROM moves "
            "WHERE game_id = ? AND ply > ? AND undone_at IS NULL ORDER BY ply",
            (game_id, after_ply),
        )
        return [move_from(row) for row in rows]

    async def game_ids(self) -> list[int]:
        """Every game's id, in order."""
        rows = await self._db.fetch_all("SELECT id FROM games ORDER BY id")
        return [row["id"] for row in rows]

    async def get_snapshot(self, game_id: int) -> Snapshot | None:
        """The game's stored snapshot."""
        row = await self._db.fetch_one(
            "SELECT snapshot, snapshot_ply FROM games WHERE id = ? AND snapshot IS NOT NULL",
            (game_id,),
        )
        return None if row is None else Snapshot(ply=row["snapshot_ply"], encoded=row["snapshot"])

    async def active_games(
        self,
        *,
        user_id: int | None = None,
        location: int | None = None,
        guild_id: int | None = None,
    ) -> list[GameRecord]:
        """Active games of `user_id` and/or played or started in `location` and/or of the
        server `guild_id`, oldest first."""
        conditions = ["status = 'active'"]
        params: list[Any] = []
        if location is not None:
            conditions.append("(thread_id = ? OR (thread_id IS NULL AND channel_id = ?))")
            params += [location, location]
        if guild_id is not None:
            conditions.append("guild_id = ?")
            params.append(guild_id)
        where = " AND ".join(conditions)
        if user_id is None:
            sql = f"SELECT {GAME_COLUMNS} FROM games WHERE {where} ORDER BY id"
        else:
            # One index lookup per seat (an OR of the two cannot use one).
            sql = (
                f"SELECT {GAME_COLUMNS} FROM games WHERE player0_id = ? AND {where} UNION ALL "
                f"SELECT {GAME_COLUMNS} FROM games WHERE player1_id = ? "
                f"AND (player0_id IS NULL OR player0_id != ?) AND {where} ORDER BY id"
            )
            params = [user_id, *params, user_id, user_id, *params]
        rows = await self._db.fetch_all(sql, params)
        return [game_from(row) for row in rows]

    # --- settings ---

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults when none were saved)."""
        row = await self._db.fetch_one(
            "SELECT threads, challenge_expiry_s, default_time_control, organiser_role_id, web "
            "FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        channels = await self._db.fetch_all(
            "SELECT channel_id FROM guild_game_channels WHERE guild_id = ?", (guild_id,)
        )
        game_channels = frozenset(r["channel_id"] for r in channels)
        if row is None:
            return GuildSettings(guild_id=guild_id, game_channels=game_channels)
        return GuildSettings(
            guild_id=guild_id,
            game_channels=game_channels,
            threads=bool(row["threads"]),
            challenge_expiry=timedelta(seconds=row["challenge_expiry_s"]),
            default_time_control=row["default_time_control"],
            organiser_role=row["organiser_role_id"],
            web=row["web"],
        )

    async def web_secret(self, candidate: str, now: datetime) -> str:
        """The key signing the web pages' links and cookies (`candidate` if none yet)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO web_keys (id, secret, created_at) VALUES (1, ?, ?) "
                "ON CONFLICT (id) DO NOTHING",
                (candidate, now),
            )
            row = await db.fetch_one("SELECT secret FROM web_keys WHERE id = 1")
        assert row is not None
        return str(row["secret"])

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> None:
        """Store a server's settings."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, threads, challenge_expiry_s, "
                "default_time_control, organiser_role_id, web, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads, "
                "challenge_expiry_s = excluded.challenge_expiry_s, "
                "default_time_control = excluded.default_time_control, "
                "organiser_role_id = excluded.organiser_role_id, web = excluded.web, "
                "updated_at = excluded.updated_at",
                (
                    settings.guild_id,
                    settings.threads,
                    seconds(settings.challenge_expiry),
                    settings.default_time_control,
                    settings.organiser_role,
                    settings.web,
                    now,
                ),
            )
            await db.execute(
                "DELETE FROM guild_game_channels WHERE guild_id = ?", (settings.guild_id,)
            )
            await db.execute_many(
                "INSERT INTO guild_game_channels (guild_id, channel_id) VALUES (?, ?)",
                [(settings.guild_id, channel) for channel in sorted(settings.game_channels)],
            )

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (defaults when none were saved)."""
        row = await self._db.fetch_one(
            f"SELECT {USER_COLUMNS} FROM user_settings WHERE user_id = ?", (user_id,)
        )
        return UserSettings(user_id=user_id) if row is None else user_settings_from(row)

    async def save_user_settings(self, settings: UserSettings, now: datetime) -> None:
        """Store a user's settings."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, dm_on_turn, reminders, digest, "
                "digest_period_s, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_on_turn = excluded.dm_on_turn, "
                "reminders = excluded.reminders, digest = excluded.digest, "
                "digest_period_s = excluded.digest_period_s, updated_at = excluded.updated_at",
                (
                    settings.user_id,
                    settings.dm_on_turn,
                    ",".join(str(seconds(offset)) for offset in settings.reminders),
                    settings.digest,
                    seconds(settings.digest_period),
                    now,
                ),
            )
