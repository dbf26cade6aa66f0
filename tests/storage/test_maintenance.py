"""Inspection, online backup (while a writer commits), pruning and restore."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage.maintenance import (
    MaintenanceError,
    backup_database,
    backup_name,
    inspect_database,
    latest_schema,
    prune_backups,
    restore_database,
)
from bot.storage.repository import GameRecord, MoveRecord, NewGame
from bot.storage.sqlite import SchemaTooNewError, SqliteRepository
from tests.waiting import until

NOW = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)


def new_game(number: int) -> NewGame:
    """A Groups game between two users."""
    return NewGame(
        game="groups",
        options={"start": "standard"},
        guild_id=1,
        channel_id=10,
        players=(100 + number, 200 + number),
        names=(f"a{number}", f"b{number}"),
        created_at=NOW,
    )


async def play(repo: SqliteRepository, game: GameRecord) -> GameRecord:
    """Commit one more move to `game` (move and game row in one transaction)."""
    ply = game.ply + 1
    seat = (ply - 1) % 2
    moved = game.evolve(ply=ply, to_move=1 - seat)
    return await repo.record_move(
        MoveRecord(game.id, ply, seat, game.players[seat], f"m{ply}", NOW), moved
    )


async def database_with_moves(path: Path, games: int = 3, moves: int = 5) -> list[GameRecord]:
    """A database at `path` holding `games` games of `moves` moves each."""
    repo = await SqliteRepository.open(path, synchronous="NORMAL")
    records = []
    for number in range(games):
        game = await repo.create_game(new_game(number))
        for _ in range(moves):
            game = await play(repo, game)
        records.append(game)
    await repo.close()
    return records


async def consistent_moves(path: Path) -> int:
    """Open a copy, check every game's ply matches its moves exactly; the number of moves."""
    repo = await SqliteRepository.open(path)
    total = 0
    try:
        for game_id in range(1, 100):
            game = await repo.get_game(game_id)
            if game is None:
                break
            moves = await repo.list_moves(game_id)
            assert [move.ply for move in moves] == list(range(1, game.ply + 1))
            total += len(moves)
    finally:
        await repo.close()
    return total


async def test_inspect_a_healthy_database(tmp_path: Path) -> None:
    """Schema version, WAL, integrity ok, rows per table."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path, games=2, moves=3)
    info = inspect_database(path)
    assert info.intact
    assert info.schema_version == latest_schema() >= 1
    assert info.journal_mode == "wal"
    assert info.tables["games"] == 2 and info.tables["moves"] == 6
    assert info.size == path.stat().st_size


def test_inspect_refuses_what_is_not_a_database(tmp_path: Path) -> None:
    """A text file and a missing file: one-line errors."""
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(MaintenanceError, match="is not a readable SQLite database: file is not"):
        inspect_database(junk)
    with pytest.raises(MaintenanceError, match="no database at"):
        inspect_database(tmp_path / "missing.sqlite3")


async def test_inspect_finds_damaged_pages(tmp_path: Path) -> None:
    """Overwritten pages are reported by the integrity check, line by line."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path)
    damage(path)
    info = inspect_database(path)
    assert not info.intact
    assert any("page" in finding for finding in info.integrity)
    assert all("\n" not in finding for finding in info.integrity)
    assert info.tables == {}


def damage(path: Path) -> None:
    """Fill a database with a table and index, then overwrite two of its pages."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, value TEXT)")
    connection.execute("CREATE INDEX filler_value ON filler (value)")
    connection.executemany(
        "INSERT INTO filler (value) VALUES (?)", [(f"{'x' * 50}{i}",) for i in range(2000)]
    )
    connection.commit()
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    data = bytearray(path.read_bytes())
    size = 4096
    pages = len(data) // size
    for page in (pages - 4, pages - 3):
        data[page * size + 100 : page * size + 400] = b"\xff" * 300
    path.write_bytes(bytes(data))


async def test_backup_while_a_writer_commits(tmp_path: Path) -> None:
    """Moves committed during the backups never leave a copy half-written.

    A writer commits moves to three games without pause while backups run in a thread
    (five, or more until the writer committed during one); each copy passes the integrity
    check, and in each every game's ply equals its
    number of moves (the two are committed together), somewhere between what was committed
    before and after that backup.
    """
    source = tmp_path / "live.sqlite3"
    games = await database_with_moves(source, games=3, moves=200)
    repo = await SqliteRepository.open(source, synchronous="NORMAL")
    committed = sum(game.ply for game in games)
    stop = asyncio.Event()

    async def writer() -> None:
        nonlocal committed
        while not stop.is_set():
            for index, game in enumerate(games):
                games[index] = await play(repo, game)
                committed += 1

    async def next_commit() -> None:
        last = committed
        await until(lambda: committed > last, "the writer to commit a move")

    task = asyncio.create_task(writer())
    try:
        grew, number = 0, 0
        # At least five backups, and as many more (up to 50) as it takes for the writer
        # to commit during one of them, however the machine shares its time.
        while number < 5 or (grew == 0 and number < 50):
            await next_commit()
            before = committed
            info = await asyncio.to_thread(
                backup_database, source, tmp_path / f"copy{number}.sqlite3"
            )
            after = committed
            grew += after - before
            assert info.intact and info.journal_mode == "delete"
            copied = await consistent_moves(info.path)
            assert before <= copied <= after
            number += 1
    finally:
        stop.set()
        await task
        await repo.close()
    assert grew > 0, "the writer committed nothing while the backups ran"


async def test_backup_is_one_self_contained_file(tmp_path: Path) -> None:
    """No -wal or -shm next to the copy; the partial file is gone."""
    source = tmp_path / "t.sqlite3"
    await database_with_moves(source)
    target = tmp_path / "backups" / "b.sqlite3"
    target.parent.mkdir()
    backup_database(source, target)
    assert sorted(p.name for p in target.parent.iterdir()) == ["b.sqlite3"]
    assert await consistent_moves(target) == 15


async def test_backup_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    """An existing file stays as it was; with overwrite it is replaced."""
    source = tmp_path / "t.sqlite3"
    await database_with_moves(source)
    target = tmp_path / "b.sqlite3"
    target.write_bytes(b"precious")
    with pytest.raises(MaintenanceError, match=r"already exists \(use --force to replace it\)"):
        backup_database(source, target)
    assert target.read_bytes() == b"precious"
    backup_database(source, target, overwrite=True)
    assert inspect_database(target).intact


async def test_backup_into_a_folder_gets_a_timestamped_name(tmp_path: Path) -> None:
    """`tabula-YYYYMMDD-HHMMSS.sqlite3` in the folder."""
    source = tmp_path / "t.sqlite3"
    await database_with_moves(source)
    folder = tmp_path / "backups"
    folder.mkdir()
    info = backup_database(source, folder)
    assert info.path.parent == folder
    assert info.path.name.startswith("tabula-") and info.path.name.endswith(".sqlite3")


async def test_backup_refusals(tmp_path: Path) -> None:
    """No source, no target folder, the source itself, a damaged source: one line each."""
    source = tmp_path / "t.sqlite3"
    with pytest.raises(MaintenanceError, match="no database at"):
        backup_database(source, tmp_path / "b.sqlite3")
    await database_with_moves(source)
    with pytest.raises(MaintenanceError, match="does not exist"):
        backup_database(source, tmp_path / "nowhere" / "b.sqlite3")
    with pytest.raises(MaintenanceError, match="cannot replace the database itself"):
        backup_database(source, source, overwrite=True)
    damage(source)
    with pytest.raises(MaintenanceError):
        backup_database(source, tmp_path / "b.sqlite3")
    assert not (tmp_path / "b.sqlite3").exists()
    assert not (tmp_path / ".b.sqlite3.partial").exists()


def test_prune_keeps_the_newest_backups(tmp_path: Path) -> None:
    """Only timestamped copies are pruned, oldest first; other files are left alone."""
    names = [backup_name(datetime(2025, 3, day, tzinfo=UTC)) for day in (1, 2, 3, 4)]
    for name in [*names, "keep-me.sqlite3", "tabula.sqlite3"]:
        (tmp_path / name).write_bytes(b"x")
    removed = prune_backups(tmp_path, 2)
    assert [path.name for path in removed] == names[:2]
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == sorted([*names[2:], "keep-me.sqlite3", "tabula.sqlite3"])
    assert names[0] == "tabula-20250301-000000.sqlite3"


async def test_restore_replaces_the_database_and_keeps_the_old_one(tmp_path: Path) -> None:
    """The backup's moves are back; the database it replaced is kept beside it."""
    live = tmp_path / "tabula.sqlite3"
    await database_with_moves(live, games=1, moves=4)
    copy = backup_database(live, tmp_path / "copy.sqlite3").path
    repo = await SqliteRepository.open(live)
    game = await repo.get_game(1)
    assert game is not None
    await play(repo, game)
    await repo.close()
    aside = restore_database(copy, live)
    assert aside is not None and aside.name.startswith("tabula.sqlite3.replaced-")
    assert await consistent_moves(live) == 4
    assert await consistent_moves(aside) == 5


async def test_restore_refusals(tmp_path: Path) -> None:
    """A running (or crashed) bot's -wal, a damaged backup, a newer schema: refused."""
    live = tmp_path / "tabula.sqlite3"
    await database_with_moves(live, games=1, moves=2)
    copy = backup_database(live, tmp_path / "copy.sqlite3").path
    repo = await SqliteRepository.open(live)
    try:
        with pytest.raises(MaintenanceError, match="-wal exists: the bot is running"):
            restore_database(copy, live)
    finally:
        await repo.close()
    newer = tmp_path / "newer.sqlite3"
    newer.write_bytes(copy.read_bytes())
    with sqlite3.connect(newer) as connection:
        connection.execute(f"PRAGMA user_version = {latest_schema() + 1}")
    connection.close()
    with pytest.raises(MaintenanceError, match="newer than this version of Tabula knows"):
        restore_database(newer, live)
    damage(copy)
    with pytest.raises(MaintenanceError, match="is damaged"):
        restore_database(copy, live)
    assert await consistent_moves(live) == 2


async def test_opening_a_database_from_a_newer_tabula_is_refused(tmp_path: Path) -> None:
    """The repository will not run on a schema it does not know."""
    path = tmp_path / "t.sqlite3"
    await database_with_moves(path, games=1, moves=1)
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {latest_schema() + 1}")
    connection.close()
    with pytest.raises(SchemaTooNewError, match="newer than this version of Tabula knows"):
        await SqliteRepository.open(path)


async def test_closing_waits_for_the_transaction_in_progress(tmp_path: Path) -> None:
    """A shutdown's close() lets a move being stored commit, then leaves no -wal file."""
    path = tmp_path / "t.sqlite3"
    repo = await SqliteRepository.open(path)
    game = await repo.create_game(new_game(1))
    # Hold the move's transaction open at its commit until close() has been asked for, so
    # that close() meets a transaction in progress however fast the machine is.
    writer = repo._sqlite._db
    commit = writer.commit
    in_transaction, close_asked = asyncio.Event(), asyncio.Event()

    async def held_commit() -> None:
        in_transaction.set()
        await close_asked.wait()
        await commit()

    writer.commit = held_commit  # type: ignore[method-assign]
    storing = asyncio.create_task(play(repo, game))
    await in_transaction.wait()
    assert repo.writing()
    closing = asyncio.create_task(repo.close())
    close_asked.set()
    await closing
    await storing
    assert not path.with_name(path.name + "-wal").exists()
    assert await consistent_moves(path) == 1
