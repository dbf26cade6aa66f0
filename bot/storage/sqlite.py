"""`SqliteRepository`: the repository on SQLite (aiosqlite). The only module with SQL."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.competition.glicko2 import Rating
from bot.competition.records import Pairing, Result
from bot.competition.tournament import Format
from bot.storage.competition import (
    EntrantRecord,
    NewTournament,
    PairingRecord,
    PlayerRating,
    RatingChange,
    TournamentRecord,
    TournamentStatus,
)
from bot.storage.repository import (
    DEFAULT_CHALLENGE_EXPIRY,
    ChallengeRecord,
    ChallengeStatus,
    ClockTurn,
    DuplicateMoveError,
    GameClock,
    GameRecord,
    GameStatus,
    GuildSettings,
    MoveRecord,
    NewChallenge,
    NewGame,
    Offer,
    Outage,
    Snapshot,
    UserSettings,
    Vacation,
)
from rules import OptionValue

log = logging.getLogger(__name__)

MEMORY = ":memory:"
"""Pass as the path for a private in-memory database (tests)."""


class SchemaTooNewError(Exception):
    """The database was migrated by a newer version of Tabula than this one."""


def migrations() -> list[tuple[int, str, str]]:
    """Every migration as (number, file name, SQL), in order."""
    found = []
    for entry in resources.files("bot.storage.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    found.sort()
    check_numbering([number for number, _, _ in found])
    return found


def check_numbering(numbers: list[int]) -> None:
    """Refuse migrations that are not numbered 1, 2, 3, ... (a gap or a duplicate)."""
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise RuntimeError(
            f"migrations must be numbered 0001, 0002, ... once each, without gaps: {numbers}"
        )


async def _connect(path: Path | str, *pragmas: str) -> aiosqlite.Connection:
    """A connection with `pragmas` set; closed again if any of them fails.

    aiosqlite runs each connection in its own non-daemon thread: a connection left open
    after a failure would keep the process from ever exiting.
    """
    connection = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        connection.row_factory = sqlite3.Row
        for pragma in ("PRAGMA busy_timeout = 5000", *pragmas):
            await connection.execute(pragma)
    except BaseException:
        await connection.close()
        raise
    return connection


def _time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _parse_time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _options(text: str) -> dict[str, OptionValue]:
    loaded: dict[str, OptionValue] = json.loads(text)
    return loaded


_CHALLENGE_COLUMNS = (
    "id, guild_id, channel_id, message_id, challenger_id, challenger_name, opponent_id, "
    "opponent_name, game, options, challenger_seat, rated, time_control, status, created_at, "
    "expires_at, closed_at, game_id"
)

_GAME_COLUMNS = (
    "id, game, options, guild_id, channel_id, thread_id, challenge_id, player0_id, player1_id, "
    "player0_name, player1_name, player0_ai, player1_ai, status, ply, to_move, winner, "
    "result_reason, draw_offer_seat, draw_offer_ply, draw_offer_open, undo_seat, undo_ply, "
    "undo_open, rated, time_control, tournament_id, created_at, updated_at, finished_at"
)


def _challenge(row: sqlite3.Row) -> ChallengeRecord:
    created = _parse_time(row["created_at"])
    expires = _parse_time(row["expires_at"])
    assert created is not None and expires is not None
    return ChallengeRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        challenger_id=row["challenger_id"],
        challenger_name=row["challenger_name"],
        opponent_id=row["opponent_id"],
        opponent_name=row["opponent_name"],
        game=row["game"],
        options=_options(row["options"]),
        challenger_seat=row["challenger_seat"],
        rated=bool(row["rated"]),
        time_control=row["time_control"],
        status=ChallengeStatus(row["status"]),
        created_at=created,
        expires_at=expires,
        closed_at=_parse_time(row["closed_at"]),
        game_id=row["game_id"],
    )


def _offer(seat: int | None, ply: int | None, is_open: int) -> Offer | None:
    if seat is None or ply is None:
        return None
    return Offer(seat=seat, ply=ply, open=bool(is_open))


def _game(row: sqlite3.Row) -> GameRecord:
    created = _parse_time(row["created_at"])
    assert created is not None
    return GameRecord(
        id=row["id"],
        game=row["game"],
        options=_options(row["options"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        challenge_id=row["challenge_id"],
        players=(row["player0_id"], row["player1_id"]),
        names=(row["player0_name"], row["player1_name"]),
        ai_levels=(row["player0_ai"], row["player1_ai"]),
        status=GameStatus(row["status"]),
        ply=row["ply"],
        to_move=row["to_move"],
        winner=row["winner"],
        result_reason=row["result_reason"],
        draw_offer=_offer(row["draw_offer_seat"], row["draw_offer_ply"], row["draw_offer_open"]),
        undo_request=_offer(row["undo_seat"], row["undo_ply"], row["undo_open"]),
        rated=bool(row["rated"]),
        time_control=row["time_control"],
        tournament_id=row["tournament_id"],
        created_at=created,
        updated_at=_parse_time(row["updated_at"]),
        finished_at=_parse_time(row["finished_at"]),
    )


def _move(row: sqlite3.Row) -> MoveRecord:
    played = _parse_time(row["played_at"])
    assert played is not None
    return MoveRecord(
        game_id=row["game_id"],
        ply=row["ply"],
        seat=row["seat"],
        user_id=row["user_id"],
        notation=row["notation"],
        played_at=played,
    )


def _seconds(delta: timedelta) -> int:
    return int(delta.total_seconds())


_USER_COLUMNS = "user_id, dm_on_turn, reminders, digest, digest_period_s"


def _user_settings(row: sqlite3.Row) -> UserSettings:
    reminders = tuple(
        timedelta(seconds=int(part)) for part in row["reminders"].split(",") if part.strip()
    )
    return UserSettings(
        user_id=row["user_id"],
        dm_on_turn=bool(row["dm_on_turn"]),
        reminders=reminders,
        digest=bool(row["digest"]),
        digest_period=timedelta(seconds=row["digest_period_s"]),
    )


def _clock_turn(row: sqlite3.Row) -> ClockTurn:
    started = _parse_time(row["started_at"])
    assert started is not None
    banks = None
    if row["bank0_s"] is not None and row["bank1_s"] is not None:
        banks = (timedelta(seconds=row["bank0_s"]), timedelta(seconds=row["bank1_s"]))
    return ClockTurn(
        game_id=row["game_id"],
        turn=row["turn"],
        seat=row["seat"],
        start_ply=row["start_ply"],
        started_at=started,
        banks=banks,
    )


def _clock_turn_values(turn: ClockTurn) -> tuple[Any, ...]:
    banks = turn.banks
    return (
        turn.game_id,
        turn.turn,
        turn.seat,
        turn.start_ply,
        _time(turn.started_at),
        None if banks is None else banks[0].total_seconds(),
        None if banks is None else banks[1].total_seconds(),
    )


_VACATION_COLUMNS = "id, user_id, started_at, ends_at, ended_at"


def _vacation(row: sqlite3.Row) -> Vacation:
    started = _parse_time(row["started_at"])
    ends = _parse_time(row["ends_at"])
    assert started is not None and ends is not None
    return Vacation(row["id"], row["user_id"], started, ends, _parse_time(row["ended_at"]))


def _outage(row: sqlite3.Row) -> Outage:
    started = _parse_time(row["started_at"])
    ended = _parse_time(row["ended_at"])
    assert started is not None and ended is not None
    return Outage(started, ended)


def _offer_values(offer: Offer | None) -> tuple[int | None, int | None, int]:
    if offer is None:
        return None, None, 0
    return offer.seat, offer.ply, int(offer.open)


def _game_update_values(game: GameRecord) -> dict[str, Any]:
    draw_seat, draw_ply, draw_open = _offer_values(game.draw_offer)
    undo_seat, undo_ply, undo_open = _offer_values(game.undo_request)
    return {
        "id": game.id,
        "thread_id": game.thread_id,
        "player0_id": game.players[0],
        "player1_id": game.players[1],
        "player0_name": game.names[0],
        "player1_name": game.names[1],
        "status": game.status.value,
        "ply": game.ply,
        "to_move": game.to_move,
        "winner": game.winner,
        "result_reason": game.result_reason,
        "draw_offer_seat": draw_seat,
        "draw_offer_ply": draw_ply,
        "draw_offer_open": draw_open,
        "undo_seat": undo_seat,
        "undo_ply": undo_ply,
        "undo_open": undo_open,
        "rated": int(game.rated),
        "time_control": game.time_control,
        "tournament_id": game.tournament_id,
        "updated_at": _time(game.updated_at),
        "finished_at": _time(game.finished_at),
    }


_UPDATE_GAME = "UPDATE games SET {} WHERE id = :id".format(
    ", ".join(
        f"{name} = :{name}"
        for name in (
            "thread_id", "player0_id", "player1_id", "player0_name", "player1_name", "status",
            "ply", "to_move", "winner", "result_reason", "draw_offer_seat", "draw_offer_ply",
            "draw_offer_open", "undo_seat", "undo_ply", "undo_open", "rated", "time_control",
            "tournament_id", "updated_at", "finished_at",
        )
    )
)  # fmt: skip


_RATING_COLUMNS = (
    "user_id, game, name, rating, deviation, volatility, games, wins, draws, losses, last_rated_at"
)

_CHANGE_COLUMNS = (
    "game_id, user_id, seat, name, game, guild_id, score, rating_before, deviation_before, "
    "volatility_before, rating_after, deviation_after, volatility_after, rated_at"
)

_TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, name, organiser_id, organiser_name, game, options, format, "
    "swiss_rounds, rounds, time_control, rated, max_players, status, entry_closes_at, "
    "announced_round, created_at, started_at, finished_at, updated_at, message_id"
)

_PAIRING_COLUMNS = "id, tournament_id, round, first_id, second_id, result, game_id, announced"

_NEEDING_WORK = """
SELECT t.id FROM tournaments t WHERE t.status = 'running' AND (
    -- every game has a result: pair the next round, or finish
    NOT EXISTS (SELECT 1 FROM tournament_pairings p WHERE p.tournament_id = t.id
                AND p.second_id IS NOT NULL AND p.result IS NULL)
    -- a game to make or announce
    OR EXISTS (SELECT 1 FROM tournament_pairings p WHERE p.tournament_id = t.id
               AND p.second_id IS NOT NULL AND p.result IS NULL
               AND (p.game_id IS NULL OR p.announced = 0))
    -- a game that ended without its result reaching the tournament
    OR EXISTS (SELECT 1 FROM tournament_pairings p JOIN games g ON g.id = p.game_id
               WHERE p.tournament_id = t.id AND p.result IS NULL AND g.status != 'active')
    -- a round paired but not announced
    OR t.announced_round < (SELECT COALESCE(MAX(p.round), 0) FROM tournament_pairings p
                            WHERE p.tournament_id = t.id)
) ORDER BY t.id
"""


def _rating_of(row: sqlite3.Row, suffix: str = "") -> Rating:
    return Rating(row[f"rating{suffix}"], row[f"deviation{suffix}"], row[f"volatility{suffix}"])


def _rating(row: sqlite3.Row) -> PlayerRating:
    return PlayerRating(
        user_id=row["user_id"],
        game=row["game"],
        name=row["name"],
        rating=_rating_of(row),
        games=row["games"],
        wins=row["wins"],
        draws=row["draws"],
        losses=row["losses"],
        last_rated_at=_parse_time(row["last_rated_at"]),
    )


def _rating_values(rating: PlayerRating) -> tuple[Any, ...]:
    value = rating.rating
    return (
        rating.user_id,
        rating.game,
        rating.name,
        value.rating,
        value.deviation,
        value.volatility,
        rating.games,
        rating.wins,
        rating.draws,
        rating.losses,
        _time(rating.last_rated_at),
    )


def _rating_change(row: sqlite3.Row) -> RatingChange:
    rated = _parse_time(row["rated_at"])
    assert rated is not None
    return RatingChange(
        game_id=row["game_id"],
        user_id=row["user_id"],
        seat=row["seat"],
        name=row["name"],
        game=row["game"],
        guild_id=row["guild_id"],
        score=row["score"],
        before=_rating_of(row, "_before"),
        after=_rating_of(row, "_after"),
        rated_at=rated,
    )


def _rating_change_values(change: RatingChange) -> tuple[Any, ...]:
    return (
        change.game_id,
        change.user_id,
        change.seat,
        change.name,
        change.game,
        change.guild_id,
        change.score,
        change.before.rating,
        change.before.deviation,
        change.before.volatility,
        change.after.rating,
        change.after.deviation,
        change.after.volatility,
        _time(change.rated_at),
    )


def _tournament(row: sqlite3.Row) -> TournamentRecord:
    created = _parse_time(row["created_at"])
    assert created is not None
    return TournamentRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        organiser_id=row["organiser_id"],
        organiser_name=row["organiser_name"],
        game=row["game"],
        options=_options(row["options"]),
        format=Format(row["format"]),
        swiss_rounds=row["swiss_rounds"],
        rounds=row["rounds"],
        time_control=row["time_control"],
        rated=bool(row["rated"]),
        max_players=row["max_players"],
        status=TournamentStatus(row["status"]),
        entry_closes_at=_parse_time(row["entry_closes_at"]),
        announced_round=row["announced_round"],
        created_at=created,
        started_at=_parse_time(row["started_at"]),
        finished_at=_parse_time(row["finished_at"]),
        updated_at=_parse_time(row["updated_at"]),
        message_id=row["message_id"],
    )


def _entrant(row: sqlite3.Row) -> EntrantRecord:
    joined = _parse_time(row["joined_at"])
    assert joined is not None
    return EntrantRecord(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        name=row["name"],
        joined_at=joined,
        seed=row["seed"],
        rating=row["rating"],
        withdrawn_at=_parse_time(row["withdrawn_at"]),
    )


def _pairing(row: sqlite3.Row) -> PairingRecord:
    return PairingRecord(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round=row["round"],
        first_id=row["first_id"],
        second_id=row["second_id"],
        result=None if row["result"] is None else Result(row["result"]),
        game_id=row["game_id"],
        announced=bool(row["announced"]),
    )


class SqliteRepository:
    """The repository on SQLite in WAL mode, with a writing and a reading connection.

    Writes run under one asyncio lock, those that belong together in one `BEGIN
    IMMEDIATE` transaction, so concurrent coroutines never interleave their statements.
    Reads use their own connection, which sees committed data only and never waits for
    a write (WAL readers do not block on the writer). Reads take turns on it: a statement
    still open there would hold its snapshot for the reads of other coroutines, which
    would then miss writes committed since. An in-memory database has a single
    connection, and reads then take the write lock too.
    """

    def __init__(
        self, connection: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._db = connection
        self._reader = reader
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, *, synchronous: str = "FULL") -> SqliteRepository:
        """Open (creating if needed) the database at `path` and apply pending migrations.

        `synchronous` is SQLite's durability setting: FULL survives power loss, NORMAL
        only process crashes.
        """
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        in_memory = str(path) == MEMORY
        if not in_memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await _connect(
            path,
            "PRAGMA journal_mode = WAL",
            f"PRAGMA synchronous = {synchronous.upper()}",
            "PRAGMA foreign_keys = ON",
        )
        repository = cls(connection)
        try:
            await repository.migrate()
            if not in_memory:
                repository._reader = await _connect(path, "PRAGMA query_only = ON")
        except BaseException:
            await repository.close()
            raise
        return repository

    async def close(self) -> None:
        """Close the connections once the transaction and read in progress (if any) end.

        Closing the last connection checkpoints the write-ahead log into the database
        file and removes the `-wal` and `-shm` files (a clean shutdown).
        """
        async with self._lock, self._read_lock:
            if self._reader is not None:
                await self._reader.close()
            await self._db.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied (`PRAGMA user_version`)."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def migrate(self) -> list[int]:
        """Apply the migrations not applied yet, each in its own transaction; return them."""
        applied = []
        async with self._lock:
            current = await self.schema_version()
            known = migrations()
            latest = len(known)
            if current > latest:
                raise SchemaTooNewError(
                    f"the database is at schema version {current}, newer than this version "
                    f"of Tabula knows ({latest}): upgrade Tabula, or restore a backup"
                )
            for number, name, sql in known:
                if number <= current:
                    continue
                log.info("applying database migration %s", name)
                try:
                    await self._db.executescript(
                        f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
                    )
                except sqlite3.Error:
                    if self._db.in_transaction:
                        await self._db.rollback()
                    raise
                applied.append(number)
        return applied

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.rollback()
                raise
            await self._db.commit()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        if self._reader is not None:
            async with self._read_lock:
                yield self._reader
            return
        # One shared connection: without the lock a read could see the uncommitted
        # writes of a transaction in progress.
        async with self._lock:
            yield self._db

    async def _one(self, sql: str, params: Iterable[Any] | Mapping[str, Any]) -> sqlite3.Row | None:
        async with self._reading() as db, db.execute(sql, params) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def _all(self, sql: str, params: Iterable[Any] | Mapping[str, Any]) -> list[sqlite3.Row]:
        async with self._reading() as db, db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    # --- challenges ---

    async def create_challenge(self, challenge: NewChallenge) -> ChallengeRecord:
        """Store a new open challenge."""
        async with self._transaction() as db:
            cursor = await db.execute(
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
                    json.dumps(dict(challenge.options), sort_keys=True),
                    challenge.challenger_seat,
                    int(challenge.rated),
                    challenge.time_control,
                    _time(challenge.created_at),
                    _time(challenge.expires_at),
                ),
            )
            challenge_id = cursor.lastrowid
        assert challenge_id is not None
        values = {f.name: getattr(challenge, f.name) for f in fields(challenge)}
        return ChallengeRecord(**values, id=challenge_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        """The challenge with this id."""
        row = await self._one(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return None if row is None else _challenge(row)

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
            cursor = await db.execute(
                "UPDATE challenges SET status = ?, closed_at = ? WHERE id = ? AND status = 'open'",
                (status.value, _time(now), challenge_id),
            )
            changed = cursor.rowcount
        if changed != 1:
            return None
        return await self.get_challenge(challenge_id)

    async def accept_challenge(
        self, challenge_id: int, game: NewGame
    ) -> tuple[ChallengeRecord, GameRecord] | None:
        """Atomically mark an open challenge accepted and create its game."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE challenges SET status = 'accepted', closed_at = ? "
                "WHERE id = ? AND status = 'open'",
                (_time(game.created_at), challenge_id),
            )
            if cursor.rowcount != 1:
                return None
            game_id = await self._insert_game(db, game)
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
            game_id = await self._insert_game(db, game)
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def _insert_game(self, db: aiosqlite.Connection, game: NewGame) -> int:
        cursor = await db.execute(
            "INSERT INTO games (game, options, guild_id, channel_id, challenge_id, player0_id, "
            "player1_id, player0_name, player1_name, player0_ai, player1_ai, rated, "
            "time_control, tournament_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.game,
                json.dumps(dict(game.options), sort_keys=True),
                game.guild_id,
                game.channel_id,
                game.challenge_id,
                game.players[0],
                game.players[1],
                game.names[0],
                game.names[1],
                game.ai_levels[0],
                game.ai_levels[1],
                int(game.rated),
                game.time_control,
                game.tournament_id,
                _time(game.created_at),
                _time(game.created_at),
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def open_challenges(
        self, *, user_id: int | None = None, channel_id: int | None = None
    ) -> list[ChallengeRecord]:
        """Open challenges involving `user_id` and/or made in `channel_id`, newest first."""
        conditions = ["status = 'open'"]
        params: list[Any] = []
        if user_id is not None:
            conditions.append("(challenger_id = ? OR opponent_id = ?)")
            params += [user_id, user_id]
        if channel_id is not None:
            conditions.append("channel_id = ?")
            params.append(channel_id)
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE {' AND '.join(conditions)} "
            "ORDER BY id DESC",
            params,
        )
        return [_challenge(row) for row in rows]

    async def due_challenges(self, now: datetime) -> list[ChallengeRecord]:
        """Open challenges whose expiry time has come."""
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges "
            "WHERE status = 'open' AND expires_at <= ? ORDER BY expires_at",
            (_time(now),),
        )
        return [_challenge(row) for row in rows]

    # --- games ---

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id."""
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def update_game(self, game: GameRecord) -> None:
        """Store the game row's changeable fields (not its moves)."""
        async with self._transaction() as db:
            await db.execute(_UPDATE_GAME, _game_update_values(game))

    async def record_move(
        self, move: MoveRecord, game: GameRecord, snapshot: Snapshot | None = None
    ) -> None:
        """In one transaction, append `move` and store `game` (and a snapshot if given)."""
        try:
            async with self._transaction() as db:
                await db.execute(
                    "INSERT INTO moves (game_id, ply, seat, user_id, notation, played_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        move.game_id,
                        move.ply,
                        move.seat,
                        move.user_id,
                        move.notation,
                        _time(move.played_at),
                    ),
                )
                await db.execute(_UPDATE_GAME, _game_update_values(game))
                if snapshot is not None:
                    await db.execute(
                        "UPDATE games SET snapshot = ?, snapshot_ply = ? WHERE id = ?",
                        (snapshot.encoded, snapshot.ply, game.id),
                    )
        except sqlite3.IntegrityError as exc:
            if "moves" in str(exc):
                raise DuplicateMoveError(f"game {move.game_id} already has ply {move.ply}") from exc
            raise

    async def undo_moves(self, game: GameRecord, from_ply: int, now: datetime) -> None:
        """In one transaction, mark moves from `from_ply` on undone and store `game`."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE moves SET undone_at = ? "
                "WHERE game_id = ? AND ply >= ? AND undone_at IS NULL",
                (_time(now), game.id, from_ply),
            )
            await db.execute(_UPDATE_GAME, _game_update_values(game))
            await db.execute(
                "UPDATE games SET snapshot = NULL, snapshot_ply = NULL "
                "WHERE id = ? AND snapshot_ply >= ?",
                (game.id, from_ply),
            )

    async def list_moves(self, game_id: int, after_ply: int = 0) -> list[MoveRecord]:
        """The game's live moves with ply > `after_ply`, in order."""
        rows = await self._all(
            "SELECT game_id, ply, seat, user_id, notation, played_at FROM moves "
            "WHERE game_id = ? AND ply > ? AND undone_at IS NULL ORDER BY ply",
            (game_id, after_ply),
        )
        return [_move(row) for row in rows]

    async def get_snapshot(self, game_id: int) -> Snapshot | None:
        """The game's stored snapshot."""
        row = await self._one(
            "SELECT snapshot, snapshot_ply FROM games WHERE id = ? AND snapshot IS NOT NULL",
            (game_id,),
        )
        return None if row is None else Snapshot(ply=row["snapshot_ply"], encoded=row["snapshot"])

    async def active_games(
        self, *, user_id: int | None = None, location: int | None = None
    ) -> list[GameRecord]:
        """Active games of `user_id` and/or played or started in `location`, oldest first."""
        conditions = ["status = 'active'"]
        params: list[Any] = []
        if user_id is not None:
            conditions.append("(player0_id = ? OR player1_id = ?)")
            params += [user_id, user_id]
        if location is not None:
            conditions.append("(thread_id = ? OR (thread_id IS NULL AND channel_id = ?))")
            params += [location, location]
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE {' AND '.join(conditions)} ORDER BY id",
            params,
        )
        return [_game(row) for row in rows]

    # --- settings ---

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults when none were saved)."""
        row = await self._one(
            "SELECT threads, challenge_expiry_s, default_time_control, organiser_role_id "
            "FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        channels = await self._all(
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
        )

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> None:
        """Store a server's settings."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, threads, challenge_expiry_s, "
                "default_time_control, organiser_role_id, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads, "
                "challenge_expiry_s = excluded.challenge_expiry_s, "
                "default_time_control = excluded.default_time_control, "
                "organiser_role_id = excluded.organiser_role_id, "
                "updated_at = excluded.updated_at",
                (
                    settings.guild_id,
                    int(settings.threads),
                    int(settings.challenge_expiry.total_seconds()),
                    settings.default_time_control,
                    settings.organiser_role,
                    _time(now),
                ),
            )
            await db.execute(
                "DELETE FROM guild_game_channels WHERE guild_id = ?", (settings.guild_id,)
            )
            await db.executemany(
                "INSERT INTO guild_game_channels (guild_id, channel_id) VALUES (?, ?)",
                [(settings.guild_id, channel) for channel in sorted(settings.game_channels)],
            )

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (defaults when none were saved)."""
        row = await self._one(
            f"SELECT {_USER_COLUMNS} FROM user_settings WHERE user_id = ?", (user_id,)
        )
        return UserSettings(user_id=user_id) if row is None else _user_settings(row)

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
                    int(settings.dm_on_turn),
                    ",".join(str(_seconds(offset)) for offset in settings.reminders),
                    int(settings.digest),
                    _seconds(settings.digest_period),
                    _time(now),
                ),
            )

    # --- ratings ---

    async def get_rating(self, user_id: int, game: str) -> PlayerRating | None:
        """A user's rating in a game; None before their first rated game."""
        row = await self._one(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE user_id = ? AND game = ?",
            (user_id, game),
        )
        return None if row is None else _rating(row)

    async def ratings_of(self, user_id: int) -> list[PlayerRating]:
        """A user's ratings in every game they have played rated, by game."""
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE user_id = ? ORDER BY game", (user_id,)
        )
        return [_rating(row) for row in rows]

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a game did to its players' ratings (empty while it is not rated), by seat."""
        rows = await self._all(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [_rating_change(row) for row in rows]

    async def record_ratings(
        self, changes: Sequence[RatingChange], ratings: Sequence[PlayerRating]
    ) -> bool:
        """In one transaction, store a game's rating changes and its players' new ratings."""
        try:
            async with self._transaction() as db:
                await db.executemany(
                    f"INSERT INTO rating_changes ({_CHANGE_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [_rating_change_values(change) for change in changes],
                )
                await db.executemany(
                    f"INSERT INTO ratings ({_RATING_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (user_id, game) DO UPDATE SET name = excluded.name, "
                    "rating = excluded.rating, deviation = excluded.deviation, "
                    "volatility = excluded.volatility, games = excluded.games, "
                    "wins = excluded.wins, draws = excluded.draws, losses = excluded.losses, "
                    "last_rated_at = excluded.last_rated_at",
                    [_rating_values(rating) for rating in ratings],
                )
        except sqlite3.IntegrityError as exc:
            if "rating_changes" in str(exc):
                return False
            raise
        return True

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int | None = None
    ) -> list[PlayerRating]:
        """Ratings in `game` of those who played it rated in this server, best first."""
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings r WHERE r.game = ? AND EXISTS ("
            "SELECT 1 FROM rating_changes c "
            "WHERE c.guild_id = ? AND c.game = r.game AND c.user_id = r.user_id) "
            "ORDER BY r.rating DESC, r.deviation, r.user_id LIMIT ?",
            (game, guild_id, -1 if limit is None else limit),
        )
        return [_rating(row) for row in rows]

    async def unrated_games(self, since: datetime) -> list[GameRecord]:
        """Rated games between two people, finished since `since`, not rated yet."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.rated = 1 AND g.status = 'finished' "
            "AND g.finished_at >= ? AND g.player0_id IS NOT NULL AND g.player1_id IS NOT NULL "
            "AND g.player0_ai IS NULL AND g.player1_ai IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id) "
            "ORDER BY g.finished_at, g.id",
            (_time(since),),
        )
        return [_game(row) for row in rows]

    # --- tournaments ---

    async def create_tournament(self, tournament: NewTournament) -> TournamentRecord:
        """Store a new tournament, open for entries."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO tournaments (guild_id, channel_id, name, organiser_id, "
                "organiser_name, game, options, format, swiss_rounds, time_control, rated, "
                "max_players, entry_closes_at, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament.guild_id,
                    tournament.channel_id,
                    tournament.name,
                    tournament.organiser_id,
                    tournament.organiser_name,
                    tournament.game,
                    json.dumps(dict(tournament.options), sort_keys=True),
                    tournament.format.value,
                    tournament.swiss_rounds,
                    tournament.time_control,
                    int(tournament.rated),
                    tournament.max_players,
                    _time(tournament.entry_closes_at),
                    _time(tournament.created_at),
                    _time(tournament.created_at),
                ),
            )
            tournament_id = cursor.lastrowid
        assert tournament_id is not None
        record = await self.get_tournament(tournament_id)
        assert record is not None
        return record

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """The tournament with this id."""
        row = await self._one(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return None if row is None else _tournament(row)

    async def update_tournament(self, tournament: TournamentRecord) -> None:
        """Store the tournament's changeable fields (status, rounds, times)."""
        async with self._transaction() as db:
            await self._update_tournament(db, tournament)

    @staticmethod
    async def _update_tournament(db: aiosqlite.Connection, tournament: TournamentRecord) -> None:
        await db.execute(
            "UPDATE tournaments SET status = ?, rounds = ?, announced_round = ?, "
            "started_at = ?, finished_at = ?, updated_at = ? WHERE id = ?",
            (
                tournament.status.value,
                tournament.rounds,
                tournament.announced_round,
                _time(tournament.started_at),
                _time(tournament.finished_at),
                _time(tournament.updated_at),
                tournament.id,
            ),
        )

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the message that announces the tournament (with its entry buttons)."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def list_tournaments(
        self, guild_id: int, statuses: Sequence[TournamentStatus]
    ) -> list[TournamentRecord]:
        """A server's tournaments in these states, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments "
            f"WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC",
            (guild_id, *(status.value for status in statuses)),
        )
        return [_tournament(row) for row in rows]

    async def due_tournaments(self, now: datetime) -> list[TournamentRecord]:
        """Open tournaments whose entry window has closed."""
        rows = await self._all(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments "
            "WHERE status = 'open' AND entry_closes_at <= ? ORDER BY entry_closes_at, id",
            (_time(now),),
        )
        return [_tournament(row) for row in rows]

    async def tournaments_needing_work(self) -> list[int]:
        """Running tournaments with a result to record, a round to pair or a game to start."""
        rows = await self._all(_NEEDING_WORK, ())
        return [row["id"] for row in rows]

    async def add_entrant(self, entrant: EntrantRecord) -> None:
        """Enter a player (the caller checked they are not entered yet)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) "
                "VALUES (?, ?, ?, ?)",
                (entrant.tournament_id, entrant.user_id, entrant.name, _time(entrant.joined_at)),
            )

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        """Take a player's entry back (before the start)."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )

    async def list_entrants(self, tournament_id: int) -> list[EntrantRecord]:
        """The entrants: by seed once seeded, before that in the order they joined."""
        rows = await self._all(
            "SELECT tournament_id, user_id, name, joined_at, seed, rating, withdrawn_at "
            "FROM tournament_entrants WHERE tournament_id = ? "
            "ORDER BY seed IS NULL, seed, joined_at, rowid",
            (tournament_id,),
        )
        return [_entrant(row) for row in rows]

    async def start_tournament(
        self, tournament: TournamentRecord, entrants: Sequence[EntrantRecord]
    ) -> None:
        """In one transaction, store the started tournament and its entrants' seeds."""
        async with self._transaction() as db:
            await self._update_tournament(db, tournament)
            await db.executemany(
                "UPDATE tournament_entrants SET seed = ?, rating = ? "
                "WHERE tournament_id = ? AND user_id = ?",
                [(e.seed, e.rating, e.tournament_id, e.user_id) for e in entrants],
            )

    async def withdraw_entrant(
        self, tournament_id: int, user_id: int, now: datetime, forfeits: Sequence[PairingRecord]
    ) -> None:
        """In one transaction, mark a player withdrawn and store the forfeits it causes."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournament_entrants SET withdrawn_at = ? "
                "WHERE tournament_id = ? AND user_id = ? AND withdrawn_at IS NULL",
                (_time(now), tournament_id, user_id),
            )
            await db.executemany(
                "UPDATE tournament_pairings SET result = ? WHERE id = ? AND result IS NULL",
                [(p.result.value, p.id) for p in forfeits if p.result is not None],
            )

    async def add_pairings(
        self, tournament_id: int, pairings: Sequence[Pairing]
    ) -> list[PairingRecord]:
        """Store new pairings (with their results, for forfeits) in one transaction."""
        ids = []
        async with self._transaction() as db:
            for pairing in pairings:
                cursor = await db.execute(
                    "INSERT INTO tournament_pairings "
                    "(tournament_id, round, first_id, second_id, result) VALUES (?, ?, ?, ?, ?)",
                    (
                        tournament_id,
                        pairing.round,
                        pairing.first,
                        pairing.second,
                        None if pairing.result is None else pairing.result.value,
                    ),
                )
                assert cursor.lastrowid is not None
                ids.append(cursor.lastrowid)
        return [
            PairingRecord(
                pairing_id, tournament_id, p.round, p.first, p.second, p.result, announced=False
            )
            for pairing_id, p in zip(ids, pairings, strict=True)
        ]

    async def list_pairings(self, tournament_id: int) -> list[PairingRecord]:
        """The tournament's pairings in the order they were made."""
        rows = await self._all(
            f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings "
            "WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
        return [_pairing(row) for row in rows]

    async def pairing_for_game(self, game_id: int) -> PairingRecord | None:
        """The pairing a tournament game was played for."""
        row = await self._one(
            f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE game_id = ?", (game_id,)
        )
        return None if row is None else _pairing(row)

    async def set_pairing_result(self, pairing_id: int, result: Result) -> bool:
        """Store a result for a pairing that has none; False when it had one already."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE tournament_pairings SET result = ? WHERE id = ? AND result IS NULL",
                (result.value, pairing_id),
            )
            return cursor.rowcount == 1

    async def create_pairing_game(self, pairing_id: int, game: NewGame) -> GameRecord | None:
        """Atomically create the game of a pairing that has none; None if it has one."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "SELECT game_id FROM tournament_pairings WHERE id = ?", (pairing_id,)
            )
            row = await cursor.fetchone()
            if row is None or row["game_id"] is not None:
                return None
            game_id = await self._insert_game(db, game)
            await db.execute(
                "UPDATE tournament_pairings SET game_id = ? WHERE id = ?", (game_id, pairing_id)
            )
        return await self.get_game(game_id)

    async def mark_pairing_announced(self, pairing_id: int) -> None:
        """Remember that the pairing's game was announced to its players."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournament_pairings SET announced = 1 WHERE id = ?", (pairing_id,)
            )

    # --- clocks ---

    async def get_clock(self, game_id: int) -> GameClock | None:
        """The game's clock, or None when it has none (yet)."""
        row = await self._one(
            "SELECT c.game_id, c.turn, c.synced_ply, c.deadline, c.remind_at, c.stopped_at, "
            "t.seat, t.start_ply, t.started_at, t.bank0_s, t.bank1_s "
            "FROM game_clocks c JOIN clock_turns t ON t.game_id = c.game_id AND t.turn = c.turn "
            "WHERE c.game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        return GameClock(
            current=_clock_turn(row),
            synced_ply=row["synced_ply"],
            deadline=_parse_time(row["deadline"]),
            remind_at=_parse_time(row["remind_at"]),
            stopped_at=_parse_time(row["stopped_at"]),
        )

    async def clock_turns(self, game_id: int) -> list[ClockTurn]:
        """Every turn of the game's clock, oldest first."""
        rows = await self._all(
            "SELECT game_id, turn, seat, start_ply, started_at, bank0_s, bank1_s "
            "FROM clock_turns WHERE game_id = ? ORDER BY turn",
            (game_id,),
        )
        return [_clock_turn(row) for row in rows]

    async def save_clock(
        self, clock: GameClock, new_turns: Sequence[ClockTurn], now: datetime
    ) -> bool:
        """In one transaction, add `new_turns` and store `clock` (compare-and-set)."""
        expected = new_turns[0].turn - 1 if new_turns else clock.current.turn
        values = {
            "game_id": clock.game_id,
            "turn": clock.current.turn,
            "synced_ply": clock.synced_ply,
            "deadline": _time(clock.deadline),
            "remind_at": _time(clock.remind_at),
            "stopped_at": _time(clock.stopped_at),
            "updated_at": _time(now),
            "expected": expected,
        }
        try:
            async with self._transaction() as db:
                async with db.execute(
                    "SELECT turn FROM game_clocks WHERE game_id = ?", (clock.game_id,)
                ) as cursor:
                    row = await cursor.fetchone()
                stored = 0 if row is None else row["turn"]
                if stored != expected:
                    return False
                await db.executemany(
                    "INSERT INTO clock_turns (game_id, turn, seat, start_ply, started_at, "
                    "bank0_s, bank1_s) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [_clock_turn_values(turn) for turn in new_turns],
                )
                await db.execute(
                    "INSERT INTO game_clocks (game_id, turn, synced_ply, deadline, remind_at, "
                    "stopped_at, updated_at) VALUES (:game_id, :turn, :synced_ply, :deadline, "
                    ":remind_at, :stopped_at, :updated_at) ON CONFLICT (game_id) DO UPDATE SET "
                    "turn = excluded.turn, synced_ply = excluded.synced_ply, "
                    "deadline = excluded.deadline, remind_at = excluded.remind_at, "
                    "stopped_at = excluded.stopped_at, updated_at = excluded.updated_at",
                    values,
                )
        except sqlite3.IntegrityError as exc:
            if "clock_turns" in str(exc):
                return False
            raise
        return True

    async def set_clock_schedule(
        self, game_id: int, turn: int, deadline: datetime | None, remind_at: datetime | None
    ) -> bool:
        """Store the deadline and next reminder of the game's clock, if still at `turn`."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE game_clocks SET deadline = ?, remind_at = ? "
                "WHERE game_id = ? AND turn = ? AND stopped_at IS NULL",
                (_time(deadline), _time(remind_at), game_id, turn),
            )
            return cursor.rowcount == 1

    async def due_clocks(self, now: datetime) -> list[int]:
        """Games whose clock deadline has come, soonest first."""
        rows = await self._all(
            "SELECT game_id FROM game_clocks WHERE deadline IS NOT NULL AND deadline <= ? "
            "ORDER BY deadline",
            (_time(now),),
        )
        return [row["game_id"] for row in rows]

    async def due_reminders(self, now: datetime) -> list[int]:
        """Games whose next reminder has come, soonest first."""
        rows = await self._all(
            "SELECT game_id FROM game_clocks WHERE remind_at IS NOT NULL AND remind_at <= ? "
            "ORDER BY remind_at",
            (_time(now),),
        )
        return [row["game_id"] for row in rows]

    async def clocks_to_sync(self) -> list[int]:
        """Games whose clock is missing or behind (see the interface)."""
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN game_clocks c ON c.game_id = g.id "
            "WHERE g.status = 'active' AND g.time_control != 'none' "
            "AND (c.game_id IS NULL OR c.synced_ply != g.ply) "
            "UNION SELECT c.game_id FROM game_clocks c JOIN games g ON g.id = c.game_id "
            "WHERE c.deadline IS NOT NULL AND g.status != 'active' ORDER BY 1",
            (),
        )
        return [row[0] for row in rows]

    async def running_clocks(self) -> list[int]:
        """Games whose clock runs (only a running clock has a deadline)."""
        rows = await self._all(
            "SELECT game_id FROM game_clocks WHERE deadline IS NOT NULL ORDER BY game_id", ()
        )
        return [row["game_id"] for row in rows]

    async def claim_reminder(
        self, game_id: int, turn: int, offset: timedelta, now: datetime
    ) -> bool:
        """Mark the reminder sent; False when it was claimed before."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT OR IGNORE INTO sent_reminders (game_id, turn, offset_s, sent_at) "
                "VALUES (?, ?, ?, ?)",
                (game_id, turn, _seconds(offset), _time(now)),
            )
            return cursor.rowcount == 1

    async def sent_reminders(self, game_id: int, turn: int) -> frozenset[timedelta]:
        """The offsets of the reminders sent in this turn."""
        rows = await self._all(
            "SELECT offset_s FROM sent_reminders WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
        return frozenset(timedelta(seconds=row["offset_s"]) for row in rows)

    # --- vacations and downtime ---

    async def vacations(self, user_id: int, since: datetime) -> list[Vacation]:
        """The user's vacations that end after `since` (or are open), oldest first."""
        rows = await self._all(
            f"SELECT {_VACATION_COLUMNS} FROM vacations WHERE user_id = ? "
            "AND (ended_at IS NULL OR (ends_at > ? AND ended_at > ?)) ORDER BY started_at",
            (user_id, _time(since), _time(since)),
        )
        return [_vacation(row) for row in rows]

    async def open_vacation(self, user_id: int) -> Vacation | None:
        """The user's vacation not closed yet, if any."""
        row = await self._one(
            f"SELECT {_VACATION_COLUMNS} FROM vacations WHERE user_id = ? AND ended_at IS NULL",
            (user_id,),
        )
        return None if row is None else _vacation(row)

    async def start_vacation(
        self, user_id: int, started_at: datetime, ends_at: datetime
    ) -> Vacation | None:
        """Store a new vacation; None when the user already has an open one."""
        try:
            async with self._transaction() as db:
                cursor = await db.execute(
                    "INSERT INTO vacations (user_id, started_at, ends_at) VALUES (?, ?, ?)",
                    (user_id, _time(started_at), _time(ends_at)),
                )
                vacation_id = cursor.lastrowid
        except sqlite3.IntegrityError as exc:
            if "vacations" in str(exc):
                return None
            raise
        assert vacation_id is not None
        return Vacation(vacation_id, user_id, started_at, ends_at)

    async def end_vacation(self, vacation_id: int, ended_at: datetime) -> Vacation | None:
        """Close an open vacation at `ended_at`; None when it was closed already."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE vacations SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                (_time(ended_at), vacation_id),
            )
            if cursor.rowcount != 1:
                return None
            async with db.execute(
                f"SELECT {_VACATION_COLUMNS} FROM vacations WHERE id = ?", (vacation_id,)
            ) as read:
                row = await read.fetchone()
        assert row is not None
        return _vacation(row)

    async def due_vacations(self, now: datetime) -> list[Vacation]:
        """Open vacations whose planned end has come."""
        rows = await self._all(
            f"SELECT {_VACATION_COLUMNS} FROM vacations WHERE ended_at IS NULL AND ends_at <= ? "
            "ORDER BY ends_at",
            (_time(now),),
        )
        return [_vacation(row) for row in rows]

    async def outages(self, since: datetime) -> list[Outage]:
        """The bot's downtimes that end after `since`, oldest first."""
        rows = await self._all(
            "SELECT started_at, ended_at FROM outages WHERE ended_at > ? ORDER BY started_at",
            (_time(since),),
        )
        return [_outage(row) for row in rows]

    async def record_outage(self, outage: Outage) -> None:
        """Remember a time the bot was down."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO outages (started_at, ended_at) VALUES (?, ?)",
                (_time(outage.started_at), _time(outage.ended_at)),
            )

    async def beat(self, now: datetime) -> datetime | None:
        """Record that the scheduler runs at `now`; return the previous heartbeat."""
        async with self._transaction() as db:
            async with db.execute("SELECT alive_at FROM heartbeat WHERE id = 1") as cursor:
                row = await cursor.fetchone()
            await db.execute(
                "INSERT INTO heartbeat (id, alive_at) VALUES (1, ?) "
                "ON CONFLICT (id) DO UPDATE SET alive_at = excluded.alive_at",
                (_time(now),),
            )
        return None if row is None else _parse_time(row["alive_at"])

    # --- notifications ---

    async def digest_candidates(self) -> list[tuple[UserSettings, datetime | None]]:
        """Users with the digest on and some game waiting for them, with their last digest."""
        rows = await self._all(
            f"SELECT {_USER_COLUMNS}, digest_sent_at FROM user_settings u WHERE digest = 1 "
            "AND EXISTS (SELECT 1 FROM games g WHERE g.status = 'active' AND "
            "((g.to_move = 0 AND g.player0_id = u.user_id) "
            " OR (g.to_move = 1 AND g.player1_id = u.user_id))) ORDER BY user_id",
            (),
        )
        return [(_user_settings(row), _parse_time(row["digest_sent_at"])) for row in rows]

    async def claim_digest(self, user_id: int, previous: datetime | None, now: datetime) -> bool:
        """Set the user's last digest to `now` if it still is `previous` (compare-and-set)."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE user_settings SET digest_sent_at = ? "
                "WHERE user_id = ? AND digest_sent_at IS ?",
                (_time(now), user_id, _time(previous)),
            )
            return cursor.rowcount == 1


__all__ = ["DEFAULT_CHALLENGE_EXPIRY", "MEMORY", "SqliteRepository", "migrations"]
