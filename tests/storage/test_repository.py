"""The repository on both backends: records round-trip, the unique (game, ply) rule,
compare-and-set game writes, the announcement outbox."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage.postgres import PostgresRepository
from bot.storage.postgres import migrations as postgres_migrations
from bot.storage.repository import (
    Announcement,
    AnnouncementStatus,
    ChallengeStatus,
    DuplicateMoveError,
    GameStatus,
    GuildSettings,
    LockKind,
    MoveRecord,
    NewAnnouncement,
    NewChallenge,
    NewGame,
    Offer,
    ShardFilter,
    Snapshot,
    StaleGameError,
    UserSettings,
)
from bot.storage.sql import SqlRepository
from tests.databases import POSTGRES_URL, Backend, needs_postgres
from tests.waiting import PATIENCE

NOW = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)


def new_game(**changes: object) -> NewGame:
    values: dict[str, object] = {
        "game": "groups",
        "options": {"start": "standard"},
        "guild_id": 1,
        "channel_id": 10,
        "players": (100, 200),
        "names": ("alice", "bob"),
        "created_at": NOW,
    }
    values.update(changes)
    return NewGame(**values)  # type: ignore[arg-type]


def new_challenge(**changes: object) -> NewChallenge:
    values: dict[str, object] = {
        "guild_id": 1,
        "channel_id": 10,
        "challenger_id": 100,
        "challenger_name": "alice",
        "opponent_id": 200,
        "opponent_name": "bob",
        "game": "groups",
        "options": {"start": "drop"},
        "challenger_seat": None,
        "created_at": NOW,
        "expires_at": NOW + timedelta(hours=1),
    }
    values.update(changes)
    return NewChallenge(**values)  # type: ignore[arg-type]


async def test_game_round_trip_and_update(repo: SqlRepository) -> None:
    """A created game reads back equal; updates of changeable fields are stored."""
    created = await repo.create_game(new_game(ai_levels=(None, "hard"), players=(100, None)))
    assert created.id > 0
    assert created.players == (100, None)
    assert created.ai_levels == (None, "hard")
    assert created.status is GameStatus.ACTIVE
    assert await repo.get_game(created.id) == created
    changed = created.evolve(
        thread_id=55,
        draw_offer=Offer(seat=1, ply=0, open=True),
        undo_request=Offer(seat=0, ply=0, open=False),
        status=GameStatus.FINISHED,
        winner=0,
        result_reason="bob resigned",
        finished_at=NOW,
        updated_at=NOW,
    )
    stored = await repo.update_game(changed)
    assert stored == changed.evolve(version=1)
    assert await repo.get_game(created.id) == stored
    assert await repo.get_game(created.id + 100) is None


async def test_moves_are_unique_per_ply(repo: SqlRepository) -> None:
    """A second live move at the same ply is refused and nothing of it is stored."""
    game = await repo.create_game(new_game())
    first = MoveRecord(game.id, 1, 0, 100, "d3-e2", NOW)
    after = await repo.record_move(first, game.evolve(ply=1, to_move=1))
    with pytest.raises(DuplicateMoveError):
        await repo.record_move(
            MoveRecord(game.id, 1, 0, 100, "c4-c3", NOW), after.evolve(ply=1, to_move=0)
        )
    assert await repo.list_moves(game.id) == [first]
    stored = await repo.get_game(game.id)
    assert stored is not None and stored.ply == 1 and stored.to_move == 1


async def test_undone_moves_stay_in_the_log_but_not_live(repo: SqlRepository) -> None:
    """Undo marks moves undone; the same ply can then be played again."""
    game = await repo.create_game(new_game())
    moves = [MoveRecord(game.id, ply, (ply - 1) % 2, 100, f"m{ply}", NOW) for ply in (1, 2, 3)]
    for move in moves:
        game = await repo.record_move(
            move, game.evolve(ply=move.ply), Snapshot(move.ply, f"s{move.ply}")
        )
    game = await repo.undo_moves(game.evolve(ply=1), 2, NOW)
    assert await repo.list_moves(game.id) == moves[:1]
    assert await repo.get_snapshot(game.id) is None  # the snapshot at ply 3 was taken back
    again = MoveRecord(game.id, 2, 1, 200, "other", NOW)
    await repo.record_move(again, game.evolve(ply=2))
    assert await repo.list_moves(game.id, after_ply=1) == [again]


async def test_snapshot_kept_when_before_the_undo(repo: SqlRepository) -> None:
    """A snapshot older than the first move taken back survives the undo."""
    game = await repo.create_game(new_game())
    game = await repo.record_move(MoveRecord(game.id, 1, 0, 1, "a", NOW), game, Snapshot(1, "s1"))
    game = await repo.record_move(MoveRecord(game.id, 2, 1, 2, "b", NOW), game)
    await repo.undo_moves(game.evolve(ply=1), 2, NOW)
    assert await repo.get_snapshot(game.id) == Snapshot(1, "s1")


async def test_challenge_lifecycle_queries(repo: SqlRepository) -> None:
    """Open challenges are found by user, channel and expiry; closing is compare-and-set."""
    direct = await repo.create_challenge(new_challenge())
    public = await repo.create_challenge(
        new_challenge(opponent_id=None, opponent_name=None, expires_at=NOW + timedelta(minutes=5))
    )
    assert await repo.get_challenge(direct.id) == direct
    assert [c.id for c in await repo.open_challenges(user_id=200)] == [direct.id]
    assert [c.id for c in await repo.open_challenges(channel_id=10)] == [public.id, direct.id]
    assert [c.id for c in await repo.due_challenges(NOW + timedelta(minutes=5))] == [public.id]
    await repo.set_challenge_message(direct.id, 999)
    closed = await repo.close_challenge(direct.id, ChallengeStatus.DECLINED, NOW)
    assert closed is not None and closed.status is ChallengeStatus.DECLINED
    assert closed.message_id == 999 and closed.closed_at == NOW
    assert await repo.close_challenge(direct.id, ChallengeStatus.CANCELLED, NOW) is None


async def test_accept_challenge_creates_the_game_once(repo: SqlRepository) -> None:
    """Accepting is atomic: the second accept gets None and creates no game."""
    challenge = await repo.create_challenge(new_challenge())
    accepted = await repo.accept_challenge(challenge.id, new_game(challenge_id=challenge.id))
    assert accepted is not None
    closed, game = accepted
    assert closed.status is ChallengeStatus.ACCEPTED and closed.game_id == game.id
    assert game.challenge_id == challenge.id
    assert await repo.accept_challenge(challenge.id, new_game()) is None
    assert len(await repo.active_games(user_id=100)) == 1


async def test_active_games_by_user_and_location(repo: SqlRepository) -> None:
    """Games are found by player and by the thread (or channel when threadless)."""
    in_thread = await repo.create_game(new_game())
    await repo.update_game(in_thread.evolve(thread_id=77))
    in_channel = await repo.create_game(new_game(players=(300, 200), names=("carol", "bob")))
    finished = await repo.create_game(new_game())
    await repo.update_game(finished.evolve(status=GameStatus.FINISHED))
    assert [g.id for g in await repo.active_games(user_id=200)] == [in_thread.id, in_channel.id]
    assert [g.id for g in await repo.active_games(location=77)] == [in_thread.id]
    assert [g.id for g in await repo.active_games(location=10)] == [in_channel.id]
    assert [g.id for g in await repo.active_games(user_id=300, location=10)] == [in_channel.id]


async def test_guild_and_user_settings(repo: SqlRepository) -> None:
    """Settings default when unsaved and read back as saved."""
    assert await repo.get_guild_settings(5) == GuildSettings(guild_id=5)
    saved = GuildSettings(
        guild_id=5,
        game_channels=frozenset({1, 2}),
        threads=False,
        challenge_expiry=timedelta(minutes=10),
        default_time_control="3d",
    )
    await repo.save_guild_settings(saved, NOW)
    assert await repo.get_guild_settings(5) == saved
    await repo.save_guild_settings(GuildSettings(guild_id=5, game_channels=frozenset({3})), NOW)
    assert (await repo.get_guild_settings(5)).game_channels == frozenset({3})
    assert await repo.get_user_settings(7) == UserSettings(user_id=7)
    await repo.save_user_settings(UserSettings(user_id=7, dm_on_turn=True), NOW)
    assert await repo.get_user_settings(7) == UserSettings(user_id=7, dm_on_turn=True)


async def test_game_writes_are_compare_and_set(repo: SqlRepository) -> None:
    """A write based on an old version is refused and changes nothing, also with a move."""
    game = await repo.create_game(new_game())
    assert game.version == 0
    newer = await repo.update_game(game.evolve(draw_offer=Offer(0, 0, True)))
    assert newer.version == 1
    with pytest.raises(StaleGameError):
        await repo.update_game(game.evolve(thread_id=5))
    with pytest.raises(StaleGameError):
        await repo.record_move(MoveRecord(game.id, 1, 0, 100, "a", NOW), game.evolve(ply=1))
    assert await repo.list_moves(game.id) == []
    assert await repo.get_game(game.id) == newer
    with pytest.raises(StaleGameError):
        await repo.undo_moves(game, 1, NOW)
    moved = await repo.record_move(MoveRecord(game.id, 1, 0, 100, "a", NOW), newer.evolve(ply=1))
    assert moved.version == 2 and moved.ply == 1


async def test_atomic_groups_writes_and_rolls_back_together(repo: SqlRepository) -> None:
    """Writes inside `atomic()` are stored together or not at all; reads inside see them."""
    game = await repo.create_game(new_game())

    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with repo.atomic():
            await repo.record_move(MoveRecord(game.id, 1, 0, 100, "a", NOW), game.evolve(ply=1))
            await repo.add_announcements([announcement(game.id)], NOW)
            seen = await repo.get_game(game.id)
            assert seen is not None and seen.ply == 1  # the transaction sees its own writes
            raise Boom
    assert await repo.list_moves(game.id) == []
    assert await repo.list_announcements() == []
    async with repo.atomic():
        await repo.record_move(MoveRecord(game.id, 1, 0, 100, "a", NOW), game.evolve(ply=1))
        await repo.add_announcements([announcement(game.id)], NOW)
    assert len(await repo.list_moves(game.id)) == 1
    assert len(await repo.list_announcements()) == 1


async def test_a_failed_write_inside_atomic_leaves_the_rest(repo: SqlRepository) -> None:
    """A refused write (a savepoint) inside a transaction does not spoil the transaction."""
    game = await repo.create_game(new_game())
    async with repo.atomic():
        with pytest.raises(StaleGameError):
            await repo.update_game(game.evolve(version=7))
        await repo.update_game(game.evolve(thread_id=9))
    stored = await repo.get_game(game.id)
    assert stored is not None and stored.thread_id == 9


def announcement(
    game_id: int, stream: str | None = None, guild_id: int | None = 1
) -> NewAnnouncement:
    return NewAnnouncement(
        kind="move",
        stream=stream or f"game:{game_id}",
        data={"ply": 1},
        guild_id=guild_id,
        game_id=game_id,
    )


async def test_announcements_go_out_in_order_per_stream(repo: SqlRepository) -> None:
    """Only the first pending announcement of a stream is claimed; a claim is exclusive."""
    first, second = await repo.add_announcements([announcement(1), announcement(1)], NOW)
    other = (await repo.add_announcements([announcement(2)], NOW))[0]
    lease = NOW + timedelta(minutes=1)
    claimed = await repo.claim_announcements(NOW, "a", lease)
    assert [a.id for a in claimed] == [first.id, other.id]
    assert all(a.attempts == 1 and a.claimed_by == "a" for a in claimed)
    assert await repo.claim_announcements(NOW, "b", lease) == []  # held, and second waits
    assert await repo.deliver_announcement(first.id, 555, NOW)
    assert not await repo.deliver_announcement(first.id, 556, NOW)  # once
    claimed = await repo.claim_announcements(NOW, "b", lease)
    assert [a.id for a in claimed] == [second.id]
    delivered = await repo.get_announcement(first.id)
    assert delivered is not None and delivered.status is AnnouncementStatus.DELIVERED
    assert delivered.message_id == 555 and delivered.finished_at == NOW


async def test_retry_park_and_release(repo: SqlRepository) -> None:
    """A retried announcement waits for its time; parked ones stop blocking their stream."""
    first, second = await repo.add_announcements([announcement(1), announcement(1)], NOW)
    lease = NOW + timedelta(minutes=1)
    await repo.claim_announcements(NOW, "a", lease)
    later = NOW + timedelta(seconds=30)
    await repo.retry_announcement(first.id, later, "HTTP 503")
    assert await repo.claim_announcements(NOW, "a", lease) == []
    retried = await repo.claim_announcements(later, "a", later + timedelta(minutes=1))
    assert [a.id for a in retried] == [first.id] and retried[0].attempts == 2
    assert retried[0].error == "HTTP 503"
    assert await repo.park_announcement(first.id, "403 Missing Access", later)
    parked = await repo.list_announcements(status=AnnouncementStatus.PARKED)
    assert [(a.id, a.error) for a in parked] == [(first.id, "403 Missing Access")]
    claimed = await repo.claim_announcements(later, "b/1", later + timedelta(minutes=1))
    assert [a.id for a in claimed] == [second.id]
    assert await repo.release_announcements("b", "b/2", later) == 1  # an earlier run's
    again = await repo.claim_announcements(later, "b/2", later + timedelta(minutes=1))
    assert [a.id for a in again] == [second.id]
    assert await repo.release_announcements("b", "b/2", later) == 0  # this run's own
    counts = await repo.count_announcements()
    assert counts[AnnouncementStatus.PARKED] == 1 and counts[AnnouncementStatus.PENDING] == 1


async def test_a_held_announcement_waits_until_released_or_its_lease_ends(
    repo: SqlRepository,
) -> None:
    """An announcement held for an interaction is claimed by nobody, its holder included,
    until it is given back (or its lease ends); then by exactly one claimant."""
    lease = NOW + timedelta(seconds=30)
    (held,) = await repo.add_announcements(
        [announcement(1)], NOW, claimed_by="reply", lease_until=lease
    )
    assert await repo.claim_announcements(NOW, "dispatcher", NOW + timedelta(minutes=1)) == []
    assert await repo.claim_announcement(held.id, NOW, "reply", lease) is None
    await repo.retry_announcement(held.id, NOW, "the interaction's answer failed")
    taken = await repo.claim_announcement(held.id, NOW, "reply", NOW + timedelta(hours=1))
    assert taken is not None and taken.id == held.id
    assert await repo.claim_announcement(held.id, NOW, "reply", NOW) is None  # once
    (other,) = await repo.add_announcements(
        [announcement(2)], NOW, claimed_by="reply", lease_until=lease
    )
    after = await repo.claim_announcements(lease, "dispatcher", lease + timedelta(minutes=1))
    assert [a.id for a in after] == [other.id]  # the lease ended


async def test_announcements_are_claimed_by_the_shard_of_their_server(repo: SqlRepository) -> None:
    """Discord's formula picks the shard: (guild_id >> 22) % shard count; DMs go to 0."""
    guild_on_1 = (1 << 22) * 3  # shard 1 of 2
    guild_on_0 = (1 << 22) * 4  # shard 0 of 2
    on_1, on_0, dm = await repo.add_announcements(
        [
            announcement(1, guild_id=guild_on_1),
            announcement(2, guild_id=guild_on_0),
            announcement(3, stream="user:5", guild_id=None),
        ],
        NOW,
    )
    lease = NOW + timedelta(minutes=1)
    second = await repo.claim_announcements(NOW, "b", lease, shards=ShardFilter(2, frozenset({1})))
    assert [a.id for a in second] == [on_1.id]
    first = await repo.claim_announcements(NOW, "a", lease, shards=ShardFilter(2, frozenset({0})))
    assert [a.id for a in first] == [on_0.id, dm.id]


async def test_an_announcement_one_process_claims_is_not_claimed_again(backend: Backend) -> None:
    """One process claims an announcement while another asks for that one at once (a
    reply delivering it): the second waits for the first's claim, then does not get it."""
    first = await backend.open()
    second = await backend.open()
    (row,) = await first.add_announcements(
        [NewAnnouncement("start", "game:1", {"x": 1}, guild_id=1, game_id=1)], NOW
    )
    lease = NOW + timedelta(minutes=2)
    claimed = asyncio.Event()
    finish = asyncio.Event()

    async def hold() -> list[Announcement]:
        async with first.atomic():
            rows = await first.claim_announcements(NOW, "a", lease)
            claimed.set()
            await finish.wait()
        return rows

    holding = asyncio.create_task(hold())
    await claimed.wait()
    other = asyncio.create_task(second.claim_announcement(row.id, NOW, "b", lease))
    await asyncio.sleep(0.2)  # the second claim is waiting for the first's transaction
    finish.set()
    assert [r.id for r in await holding] == [row.id]
    assert await other is None
    stored = await first.get_announcement(row.id)
    assert stored is not None and stored.claimed_by == "a" and stored.attempts == 1


@needs_postgres
async def test_locks_are_per_schema(postgres_backend: Backend) -> None:
    """A game's lock is held across connections to the same tables (another process), and
    not across schemas (another bot, a test or a benchmark in the same database)."""
    first = await postgres_backend.open()
    same = await postgres_backend.open()
    other = Backend("postgres", postgres_backend.path, f"{postgres_backend.schema}_x")
    elsewhere = await other.open()
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with first.atomic():
            await first.lock(LockKind.GAME, 7)
            holding.set()
            await release.wait()

    async def take(repository: SqlRepository) -> None:
        async with repository.atomic():
            await repository.lock(LockKind.GAME, 7)

    try:
        held = asyncio.create_task(hold())
        await holding.wait()
        await asyncio.wait_for(take(elsewhere), PATIENCE)  # another schema: not held there
        waiting = asyncio.create_task(take(same))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # the same tables: waits for the holder
        release.set()
        await held
        await asyncio.wait_for(waiting, PATIENCE)
    finally:
        release.set()
        await other.cleanup()


async def test_processes_starting_at_once_migrate_a_schema_once(tmp_path: Path) -> None:
    """Three processes opening a new schema together apply each migration exactly once;
    a bot in another schema of the server migrates its own at the same time."""
    if POSTGRES_URL is None:
        pytest.skip("needs PostgreSQL")
    same = Backend("postgres", tmp_path / "unused", f"test_{uuid.uuid4().hex[:16]}")
    other = Backend("postgres", tmp_path / "unused", f"test_{uuid.uuid4().hex[:16]}")
    try:
        opened = await asyncio.gather(same.open(), same.open(), same.open(), other.open())
        for repository in opened:
            assert isinstance(repository, PostgresRepository)
            assert await repository.schema_version() == len(postgres_migrations())
        versions = await opened[0].database.fetch_all("SELECT version FROM tabula_schema")
        assert sorted(row[0] for row in versions) == [n for n, _, _ in postgres_migrations()]
    finally:
        await same.cleanup()
        await other.cleanup()
