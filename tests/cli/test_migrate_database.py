"""`tabula migrate-database`: a populated community copied from SQLite into PostgreSQL and
back, every row of every table compared, ids kept, sequences reset, games replayed."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.services.clock import ManualClock
from bot.services.competition.tournaments import Member
from bot.services.container import Services
from bot.services.games.players import Player
from bot.storage.database import Dialect
from bot.storage.repository import NewGame
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SqliteRepository
from bot.storage.transfer import describe
from tests.databases import Backend
from tests.services.conftest import RecordingNotifier

GUILD, CHANNEL = 500, 600
ALICE, BOB, CAROL, DAVE = (
    Player(n, name) for n, name in enumerate(("alice", "bob", "carol", "dave"), 1)
)
H = timedelta(hours=1)


async def populate(repository: SqlRepository) -> None:
    """A small community: games with moves, undos, draws and clocks, ratings, a running
    tournament, a vacation, open and expired challenges, settings, an imported game and the
    announcements of all of it; and a downtime the clocks paused for."""
    clock = ManualClock(datetime(2025, 3, 1, 9, 30, 15, 123456, tzinfo=UTC))
    services = Services.build(
        repository, clock, RecordingNotifier(), rng=random.Random(3), deliver_inline=True
    )
    games = services.games

    async def start(first: Player, second: Player, **options: Any) -> int:
        challenge = await services.challenges.create(
            guild_id=GUILD, channel_id=CHANNEL, challenger=first, opponent=second,
            game="groups", colour="white", **options,
        )  # fmt: skip
        accepted = await services.challenges.accept(challenge.id, second, guild_id=GUILD)
        return accepted.view.id

    rng = random.Random(11)

    async def play(game_id: int, count: int) -> None:
        for _ in range(count):
            view = await games.view(game_id)
            assert view.record.is_active and view.to_move_id is not None
            moves = sorted(view.state.legal_notations())
            await games.play(game_id, view.to_move_id, rng.choice(moves))

    await services.settings.update(
        GUILD, can_manage=True, threads=False, challenge_expiry="30m", add_channel=CHANNEL
    )
    await services.notifications.update(BOB.id, turn_dms=True, reminders="2h,10m")
    undone = await start(ALICE, BOB, time_control="1d")
    await play(undone, 4)
    await games.request_undo(undone, ALICE.id)
    await games.answer_undo(undone, BOB.id, True)
    await play(undone, 30)  # past the snapshot every 25 moves
    drawn = await start(BOB, CAROL)
    await play(drawn, 3)
    await games.offer_draw(drawn, BOB.id)
    await games.answer_draw(drawn, CAROL.id, True)
    rated = await start(CAROL, ALICE, time_control="7d+1d max 10d")
    await play(rated, 5)
    await games.resign(rated, ALICE.id)
    waiting = await start(ALICE, DAVE)  # dave queues a reply to alice's first move
    state = (await games.view(waiting)).state
    first = sorted(state.legal_notations())[0]
    reply = sorted(state.play_text(first).legal_notations())[0]
    await services.conditionals.add(waiting, DAVE.id, f"{first} {reply}")
    await services.vacations.start(DAVE.id, "3d")
    view = await services.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, member=Member(CAROL, can_manage=True),
        game="groups", format="round robin",
    )  # fmt: skip
    for player in (DAVE, CAROL, ALICE, BOB):
        await services.tournaments.join(GUILD, view.id, player)
    await services.tournaments.start(GUILD, view.id, Member(CAROL, can_manage=True))
    await services.background.settle()
    await services.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=DAVE, opponent=None, game="hexade"
    )
    await services.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=BOB, opponent=ALICE, game="stones"
    )
    await services.scheduler.tick()
    clock.advance(H)
    await services.scheduler.tick()  # expires the challenges; reminders
    export = await services.records.export_of(await games.record(rated))
    text = export.file("text")
    assert text is not None
    await services.records.import_record(text.content, guild_id=GUILD)
    clock.advance(H)
    restarted = Services.build(repository, clock, RecordingNotifier(), deliver_inline=True)
    await restarted.scheduler.tick()  # a downtime of an hour since the last tick


async def contents(repository: SqlRepository) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (the columns both databases have, by name), as both mean them:
    times as datetimes (SQLite keeps ISO text), flags as 0 and 1."""
    found = {}
    for name, table in (await describe(repository)).items():
        columns = sorted(c for c in table.columns if c != "entry_order")
        rows = await repository.database.fetch_all(f"SELECT {', '.join(columns)} FROM {name}")
        found[name] = sorted((tuple(_plain(row[c]) for c in columns) for row in rows), key=repr)
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and len(value) >= 19 and value[10:11] == "T":
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value
    return value


async def sqlite_contents(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The contents of a SQLite file."""
    repository = await SqliteRepository.open(path)
    try:
        return await contents(repository)
    finally:
        await repository.close()


async def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """`tabula migrate-database ...` (in a thread: it runs its own event loop): the exit
    status and what it printed."""
    status = await asyncio.to_thread(main, ["migrate-database", *args])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


async def test_a_community_moves_to_postgresql_and_back(
    tmp_path: Path, postgres_backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite → PostgreSQL → SQLite: every row of every table arrives with its id; the
    entrants keep their order; new rows get new numbers; every game replays."""
    source = tmp_path / "community.sqlite3"
    repository = await SqliteRepository.open(source)
    await populate(repository)
    await repository.close()
    before = await sqlite_contents(source)
    filled = ("moves", "rating_changes", "tournament_pairings", "clock_turns", "vacations",
              "announcements", "imported_games", "outages", "guild_game_channels",
              "conditional_trees")  # fmt: skip
    assert [name for name in filled if not before[name]] == []
    url = postgres_backend.location

    status, out = await run(capsys, str(source), url)
    assert status == 0, out
    assert out.startswith(f"Copied {source} into postgresql://")
    assert "Rows copied: " in out and f"games {len(before['games'])}" in out
    assert "Identity sequences set past the highest ids: " in out and "games.id" in out
    assert f"Row counts agree in all {len(before)} tables." in out
    assert f"Replayed {len(before['games'])} games through the rules: every one agrees" in out

    postgres = await postgres_backend.open()
    assert postgres.dialect is Dialect.POSTGRESQL
    assert await contents(postgres) == before
    original = await SqliteRepository.open(source)
    try:  # the entrants keep the order they joined in (SQLite's rowid, PostgreSQL's column)
        entrants = [e.user_id for e in await original.list_entrants(1)]
        assert entrants == [e.user_id for e in await postgres.list_entrants(1)]
    finally:
        await original.close()
    highest = max(row[0] for row in await postgres.database.fetch_all("SELECT id FROM games"))
    created = await postgres.create_game(
        NewGame("groups", {"start": "standard"}, GUILD, CHANNEL, (1, 2), ("a", "b"),
                datetime(2025, 3, 2, tzinfo=UTC))
    )  # fmt: skip
    assert created.id == highest + 1

    back = tmp_path / "back.sqlite3"
    status, out = await run(capsys, url, str(back))
    assert status == 0, out
    assert "Identity sequences" not in out
    again = await sqlite_contents(back)
    games_back = again.pop("games")
    expected = dict(before)
    expected_games = expected.pop("games")
    assert again == expected
    assert len(games_back) == len(expected_games) + 1  # the game made in PostgreSQL


async def test_a_target_with_data_is_refused_unless_forced(
    tmp_path: Path, postgres_backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    """A target holding rows is not mixed into: refused, unless --force deletes them."""
    source = tmp_path / "community.sqlite3"
    repository = await SqliteRepository.open(source)
    await populate(repository)
    await repository.close()
    url = postgres_backend.location
    assert (await run(capsys, str(source), url))[0] == 0
    status, out = await run(capsys, str(source), url)
    assert status == 1
    assert out.startswith("tabula: cannot copy: the target already holds data (announcements ")
    assert "give --force to delete it first" in out
    status, out = await run(capsys, str(source), url, "--force")
    assert status == 0, out
    assert "Deleted first what the target held (--force): announcements " in out
    assert await contents(await postgres_backend.open()) == await sqlite_contents(source)


async def test_a_game_that_disagrees_with_its_moves_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game row one ply behind its moves is copied as it is, and reported: exit 1."""
    source = tmp_path / "community.sqlite3"
    repository = await SqliteRepository.open(source)
    await populate(repository)
    played = (await repository.list_moves(1))[-1].ply
    async with repository.database.transaction() as db:
        await db.execute("UPDATE games SET ply = ply - 1 WHERE id = 1")
    await repository.close()
    status, out = await run(capsys, str(source), str(tmp_path / "copy.sqlite3"))
    assert status == 1
    assert "Row counts agree in all" in out
    assert "Replayed 7 games: 1 disagree with their rows:" in out
    assert f"  game #1: the row says {played - 1} moves, the log holds {played}" in out


async def test_a_missing_source_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SQLite source that does not exist is not created empty and copied."""
    missing = tmp_path / "nowhere.sqlite3"
    assert await run(capsys, str(missing), str(tmp_path / "t.sqlite3")) == (
        1,
        f"tabula: there is no database at {missing}\n",
    )
    assert not missing.exists()
