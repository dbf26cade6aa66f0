"""Game records: histories of finished games, and games imported from record files."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.storage.database import Row
from bot.storage.records import HistoryQuery, ImportMark
from bot.storage.repository import FinishedGame, GameRecord, MoveRecord
from bot.storage.sql.base import SqlBase
from bot.storage.sql.games import insert_game, write_game
from bot.storage.sql.rows import (
    GAME_COLUMNS,
    GAME_UPDATE_COLUMNS,
    MOVE_COLUMNS,
    game_from,
    game_update_values,
    move_values,
    options_json,
    required_time,
)

_GAME_COLUMNS_OF_G = ", ".join(f"g.{column.strip()}" for column in GAME_COLUMNS.split(","))


def _history_arms(query: HistoryQuery, columns: str) -> tuple[str, list[Any]]:
    """A player's finished games matching `query` as a UNION ALL of two index lookups
    (one per seat), each in its index's order; with its parameters.

    `(player0_id = ? OR player1_id = ?)` cannot use an index lookup: SQLite scans and
    sorts, so the cost grows with every game the server ever finished. Each half here
    reads only the player's own games, newest first, from `games_finished_player0/1`.
    """
    extra = []
    params: list[Any] = []
    if query.guild_id is not None:
        extra.append("guild_id = ?")
        params.append(query.guild_id)
    if query.with_user is not None:
        extra.append("(player0_id = ? OR player1_id = ?)")
        params += [query.with_user, query.with_user]
    if query.game is not None:
        extra.append("game = ?")
        params.append(query.game)
    filters = "".join(f" AND {condition}" for condition in extra)
    user = query.user_id
    sql = (
        f"SELECT {columns} FROM games WHERE status = 'finished' AND player0_id = ?{filters} "
        "UNION ALL "
        f"SELECT {columns} FROM games WHERE status = 'finished' AND player1_id = ? "
        f"AND (player0_id IS NULL OR player0_id != ?){filters}"
    )
    return sql, [user, *params, user, user, *params]


def _page_of_history(query: HistoryQuery, limit: int, offset: int) -> tuple[str, list[Any]]:
    """The ids of one page of `query`'s games as a subquery named `p`, with its
    parameters: the two index lookups merged in their order, then cut."""
    arms, params = _history_arms(query, "id, finished_at")
    sql = f"({arms} ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?) AS p"
    return sql, [*params, limit, offset]


_NEVER = datetime.min.replace(tzinfo=UTC)


def _newest_first(rows: Sequence[Row]) -> list[FinishedGame]:
    """The games of a page's rows, the most recently finished first (the join does not
    keep the page's order; sorting its few rows here spares the database a sort)."""
    games = [FinishedGame(game_from(row), row["imported"] is not None) for row in rows]
    return sorted(
        games,
        key=lambda f: (
            f.record.finished_at is not None,
            f.record.finished_at or _NEVER,
            f.record.id,
        ),
        reverse=True,
    )


class RecordQueries(SqlBase):
    """Finished games by player, the newest game of a thread, imported games."""

    async def finished_games(
        self, query: HistoryQuery, *, limit: int, offset: int = 0
    ) -> list[FinishedGame]:
        """Finished games matching `query`, the most recently finished first (one
        statement: the page's ids from the index lookups, joined to their rows)."""
        page, params = _page_of_history(query, limit, offset)
        rows = await self._db.fetch_all(
            f"SELECT {_GAME_COLUMNS_OF_G}, i.game_id AS imported FROM {page} "
            "JOIN games g ON g.id = p.id LEFT JOIN imported_games i ON i.game_id = g.id",
            params,
        )
        return _newest_first(rows)

    async def count_finished_games(self, query: HistoryQuery) -> int:
        """How many finished games match `query`."""
        arms, params = _history_arms(query, "id")
        row = await self._db.fetch_one(f"SELECT COUNT(*) FROM ({arms}) AS mine", params)
        return 0 if row is None else int(row[0])

    async def history_page(
        self, query: HistoryQuery, *, limit: int, offset: int = 0
    ) -> tuple[int, list[FinishedGame]]:
        """How many finished games match `query`, and `limit` of them from `offset`, the
        most recently finished first: one statement, so one trip to the database (on a
        busy machine each trip is a wait for the other side to be scheduled)."""
        arms, count_params = _history_arms(query, "id")
        page, page_params = _page_of_history(query, limit, offset)
        rows = await self._db.fetch_all(
            f"SELECT t.total, {_GAME_COLUMNS_OF_G}, i.game_id AS imported "
            f"FROM (SELECT COUNT(*) AS total FROM ({arms}) AS mine) AS t "
            f"LEFT JOIN {page} ON 1 = 1 "
            "LEFT JOIN games g ON g.id = p.id LEFT JOIN imported_games i ON i.game_id = g.id",
            [*count_params, *page_params],
        )
        total = int(rows[0]["total"]) if rows else 0
        return total, _newest_first([row for row in rows if row["id"] is not None])

    async def store_finished_games(
        self, games: Sequence[GameRecord], moves: Sequence[MoveRecord] = ()
    ) -> None:
        """Store many finished games in one transaction, and `moves` after them (which name
        their games by id: the caller knows the ids only when filling an empty database):
        for filling a database to measure it (`tabula bench history`)."""
        columns = ("game", "options", "guild_id", "channel_id", "created_at", *GAME_UPDATE_COLUMNS)
        marks = ", ".join("?" for _ in columns)
        async with self._transaction() as db:
            await db.execute_many(
                f"INSERT INTO games ({', '.join(columns)}) VALUES ({marks})",
                [
                    (
                        game.game,
                        options_json(game.options),
                        game.guild_id,
                        game.channel_id,
                        game.created_at,
                        *game_update_values(game),
                    )
                    for game in games
                ],
            )
            if moves:
                await db.execute_many(
                    f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                    [move_values(move) for move in moves],
                )

    async def latest_game_at(self, location: int) -> GameRecord | None:
        """The newest game played in this thread or channel, whatever its status."""
        row = await self._db.fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE thread_id = ? OR (thread_id IS NULL AND channel_id = ?) "
            "ORDER BY id DESC LIMIT 1",
            (location, location),
        )
        return None if row is None else game_from(row)

    async def store_imported_game(
        self, game: GameRecord, moves: Sequence[MoveRecord], mark: ImportMark
    ) -> GameRecord:
        """In one transaction, store a whole imported game: its row (with its result),
        its moves (their game id is replaced) and its import mark."""
        async with self._transaction() as db:
            game_id = await insert_game(db, game)
            stored = await write_game(db, game.evolve(id=game_id, version=0))
            await db.execute_many(
                f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                [move_values(MoveRecord(game_id, *_move_fields(move))) for move in moves],
            )
            await db.execute(
                "INSERT INTO imported_games (game_id, rated, event, round, imported_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, mark.rated, mark.event, mark.round, mark.imported_at),
            )
        return stored

    async def import_mark(self, game_id: int) -> ImportMark | None:
        """How the game was imported; None for a game played here."""
        row = await self._db.fetch_one(
            "SELECT game_id, rated, event, round, imported_at FROM imported_games "
            "WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        return ImportMark(
            row["game_id"],
            bool(row["rated"]),
            row["event"],
            row["round"],
            required_time(row["imported_at"]),
        )


def _move_fields(move: MoveRecord) -> tuple[int, int, int | None, str, Any]:
    return move.ply, move.seat, move.user_id, move.notation, move.played_at
