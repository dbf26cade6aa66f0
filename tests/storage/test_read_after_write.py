"""Reads on the reading connection always see writes committed before them."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.repository import NewGame
from bot.storage.sqlite import SqliteRepository

NOW = datetime(2025, 1, 1, tzinfo=UTC)


async def test_a_read_sees_the_write_before_it_while_others_read(tmp_path: Path) -> None:
    """Other coroutines reading at the same time must not hand a read an old snapshot.

    A statement left open on the shared reading connection keeps its read transaction,
    and reads interleaved with it would see the database as it was when it began.
    """
    repo = await SqliteRepository.open(tmp_path / "r.sqlite3", synchronous="NORMAL")
    game = await repo.create_game(NewGame("groups", {}, 1, 1, (1, 2), ("a", "b"), NOW))
    done = False

    async def keep_reading() -> None:
        while not done:
            await repo.get_game(game.id)

    readers = [asyncio.create_task(keep_reading()) for _ in range(3)]
    stale = []
    try:
        for ply in range(1, 150):
            game = await repo.update_game(game.evolve(ply=ply))
            seen = await repo.get_game(game.id)
            assert seen is not None
            if seen.ply != ply:
                stale.append((ply, seen.ply))
    finally:
        done = True
        await asyncio.gather(*readers)
        await repo.close()
    assert stale == []
