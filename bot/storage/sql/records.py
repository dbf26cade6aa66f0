"""Game records: histories of finished games, and games imported from record files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.records import HistoryQuery, ImportMark
from bot.storage.repository import FinishedGame, GameRecord, MoveRecord
from bot.storage.sql.base import SqlBase
from bot.storage.sql.games import insert_game, write_game
from bot.storage.sql.rows import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    game_from,
    move_values,
    required_time,
)

_GAME_COLUMNS_OF_G = ", ".join(f"g.{column.strip()}" for column in GAME_COLUMNS.split(","))


def _history_filter(query: HistoryQuery) -> tuple[str, list[Any]]:
    """The WHERE clause (on `games g`) and its parameters for a history."""
    conditions = ["g.status = 'finished'", "(g.player0_id = ? OR g.player1_id = ?)"]
    params: list[Any] = [query.user_id, query.user_id]
    if query.guild_id is not None:
        conditions.append("g.guild_id = ?")
        params.append(query.guild_id)
    if query.with_user is not None:
        conditions.append("(g.player0_id = ? OR g.player1_id = ?)")
        params += [query.with_user, query.with_user]
    if query.game is not None:
        conditions.append("g.game = ?")
        params.append(query.game)
    return " AND ".join(conditions), params


class RecordQueries(SqlBase):
    """Finished games by player, the newest game of a thread, imported games."""

    async def finished_games(
        self, query: HistoryQuery, *, limit: int, offset: int = 0
    ) -> list[FinishedGame]:
        """Finished games matching `query`, the most recently finished first."""
        where, params = _history_filter(query)
        rows = await self._db.fetch_all(
            f"SELECT {_GAME_COLUMNS_OF_G}, i.game_id AS imported FROM games g "
            f"LEFT JOIN imported_games i ON i.game_id = g.id WHERE {where} "
            "ORDER BY g.finished_at DESC, g.id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [FinishedGame(game_from(row), row["imported"] is not None) for row in rows]

    async def count_finished_games(self, query: HistoryQuery) -> int:
        """How many finished games match `query`."""
        where, params = _history_filter(query)
        row = await self._db.fetch_one(f"SELECT COUNT(*) FROM games g WHERE {where}", params)
        return 0 if row is None else int(row[0])

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
