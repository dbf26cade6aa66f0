"""Conditional moves: each player's trees of queued replies, and the notes kept for them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.storage.conditionals import StoredNote, StoredTree
from bot.storage.database import Row
from bot.storage.sql.base import SqlBase
from bot.storage.sql.rows import required_time

_TREE_COLUMNS = "t.game_id, t.user_id, t.ply, t.tree, t.created_at"
_CURRENT = (
    "t.ply = (SELECT MAX(u.ply) FROM conditional_trees u "
    "WHERE u.game_id = t.game_id AND u.user_id = t.user_id)"
)
"""A player's current tree in a game is their row with the highest ply."""


def _tree(row: Row) -> StoredTree:
    return StoredTree(
        row["game_id"], row["user_id"], row["ply"], row["tree"], required_time(row["created_at"])
    )


def _note(row: Row) -> StoredNote:
    return StoredNote(
        row["id"],
        row["user_id"],
        row["game_id"],
        json.loads(row["data"]),
        required_time(row["created_at"]),
    )


class ConditionalQueries(SqlBase):
    """Trees of conditional moves, and notes about them waiting for a player's command."""

    async def conditional_tree(self, game_id: int, user_id: int) -> StoredTree | None:
        """The player's current tree in the game (their row with the highest ply)."""
        row = await self._db.fetch_one(
            f"SELECT {_TREE_COLUMNS} FROM conditional_trees t "
            f"WHERE t.game_id = ? AND t.user_id = ? AND {_CURRENT}",
            (game_id, user_id),
        )
        return None if row is None else _tree(row)

    async def conditional_trees(self, user_id: int) -> list[StoredTree]:
        """The player's current tree in each of their active games, by game."""
        rows = await self._db.fetch_all(
            f"SELECT {_TREE_COLUMNS} FROM conditional_trees t "
            "JOIN games g ON g.id = t.game_id "
            f"WHERE t.user_id = ? AND g.status = 'active' AND {_CURRENT} ORDER BY t.game_id",
            (user_id,),
        )
        return [_tree(row) for row in rows]

    async def save_conditional_tree(self, tree: StoredTree) -> None:
        """Store the player's tree as applying from `tree.ply`, in place of their rows at
        that ply and later."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM conditional_trees WHERE game_id = ? AND user_id = ? AND ply >= ?",
                (tree.game_id, tree.user_id, tree.ply),
            )
            await db.execute(
                "INSERT INTO conditional_trees (game_id, user_id, ply, tree, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (tree.game_id, tree.user_id, tree.ply, tree.tree, tree.created_at),
            )

    async def drop_conditional_trees(
        self, game_id: int, user_id: int | None = None, *, after_ply: int | None = None
    ) -> int:
        """Delete the game's trees (of one player, or of both), or only those applying
        from after `after_ply`; how many rows."""
        conditions, params = ["game_id = ?"], [game_id]
        if user_id is not None:
            conditions.append("user_id = ?")
            params.append(user_id)
        if after_ply is not None:
            conditions.append("ply > ?")
            params.append(after_ply)
        async with self._transaction() as db:
            return await db.execute(
                f"DELETE FROM conditional_trees WHERE {' AND '.join(conditions)}", params
            )

    async def add_conditional_note(
        self, user_id: int, game_id: int, data: Mapping[str, Any], now: datetime
    ) -> int:
        """Keep a note for the player's next command; its id."""
        async with self._transaction() as db:
            return await db.insert(
                "INSERT INTO conditional_notes (user_id, game_id, data, created_at) "
                "VALUES (?, ?, ?, ?)",
                (user_id, game_id, json.dumps(dict(data), sort_keys=True), now),
            )

    async def take_conditional_notes(self, user_id: int, now: datetime) -> list[StoredNote]:
        """The player's notes not shown yet, oldest first, each marked shown; a note
        another caller took at the same moment is left to that one."""
        rows = await self._db.fetch_all(
            "SELECT id, user_id, game_id, data, created_at FROM conditional_notes "
            "WHERE user_id = ? AND shown_at IS NULL ORDER BY id",
            (user_id,),
        )
        taken = []
        for row in rows:
            async with self._transaction() as db:
                changed = await db.execute(
                    "UPDATE conditional_notes SET shown_at = ? WHERE id = ? AND shown_at IS NULL",
                    (now, row["id"]),
                )
            if changed == 1:
                taken.append(_note(row))
        return taken

    async def return_conditional_notes(self, note_ids: Sequence[int]) -> None:
        """Mark notes not shown again (showing them failed): the next command shows them."""
        async with self._transaction() as db:
            await db.execute_many(
                "UPDATE conditional_notes SET shown_at = NULL WHERE id = ?",
                [(note_id,) for note_id in note_ids],
            )
