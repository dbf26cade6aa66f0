"""Suspensions on both backends: one open per server or game, ending once, the
announcements they hold back, the pauses clocks read, and a game moved to a new channel."""

from __future__ import annotations

from datetime import timedelta

from bot.storage.leagues import LeagueStatus, NewLeague, SeasonRecord
from bot.storage.repository import AnnouncementStatus, NewAnnouncement
from bot.storage.sql import SqlRepository
from bot.storage.suspensions import SuspensionOutcome, SuspensionReason
from tests.storage.test_repository import NOW, new_game

REMOVED, NO_CHANNEL = SuspensionReason.REMOVED, SuspensionReason.NO_CHANNEL


def game_row(game_id: int, guild_id: int | None = 1, kind: str = "move") -> NewAnnouncement:
    return NewAnnouncement(kind, f"game:{game_id}", {"n": 1}, guild_id=guild_id, game_id=game_id)


async def test_one_open_suspension_per_server_and_per_game(repo: SqlRepository) -> None:
    """A second suspension of the same server (or game) is refused while the first holds;
    a server's and one of its games' can both be open; ending is once only."""
    game = await repo.create_game(new_game(guild_id=1))
    first = await repo.suspend(1, None, REMOVED, NOW)
    assert first is not None and first.is_open and first.game_id is None
    assert first.started_at == NOW and first.reason is REMOVED
    assert await repo.suspend(1, None, REMOVED, NOW + timedelta(seconds=1)) is None
    alone = await repo.suspend(1, game.id, NO_CHANNEL, NOW)
    assert alone is not None and alone.game_id == game.id
    assert await repo.suspend(1, game.id, NO_CHANNEL, NOW) is None
    assert await repo.suspend(2, None, REMOVED, NOW) is not None
    assert [s.id for s in await repo.open_suspensions(1)] == [first.id, alone.id]
    assert len(await repo.open_suspensions()) == 3
    assert await repo.suspension_of(1, game.id) == first  # the server's own first
    assert await repo.suspension_of(1, None) == first

    later = NOW + timedelta(days=2)
    ended = await repo.end_suspension(first.id, SuspensionOutcome.RESUMED, later, games=4)
    assert ended is not None and not ended.is_open
    assert ended.ended_at == later and ended.outcome is SuspensionOutcome.RESUMED
    assert ended.games == 4
    assert await repo.end_suspension(first.id, SuspensionOutcome.ABORTED, later, 0) is None
    assert await repo.suspension_of(1, game.id) == alone
    assert await repo.suspension_of(1, None) is None
    assert await repo.suspend(1, None, REMOVED, later) is not None  # a new one may open


async def test_suspensions_since_give_the_clocks_their_pauses(repo: SqlRepository) -> None:
    """A server's suspensions still open or ended after a moment, oldest first."""
    old = await repo.suspend(1, None, REMOVED, NOW)
    assert old is not None
    await repo.end_suspension(old.id, SuspensionOutcome.RESUMED, NOW + timedelta(hours=1), 1)
    recent = await repo.suspend(1, None, REMOVED, NOW + timedelta(hours=5))
    await repo.suspend(2, None, REMOVED, NOW)
    assert recent is not None
    assert [s.id for s in await repo.suspensions(1, NOW)] == [old.id, recent.id]
    assert [s.id for s in await repo.suspensions(1, NOW + timedelta(hours=2))] == [recent.id]


async def test_held_announcements_wait_for_the_end_of_the_suspension(
    repo: SqlRepository,
) -> None:
    """Neither the dispatcher's claim nor a claim of one announcement takes what a
    suspension holds (the server's, or one game's); direct messages go on; once the
    suspension ends, what it held is delivered."""
    one = await repo.create_game(new_game(guild_id=1))
    two = await repo.create_game(new_game(guild_id=1))
    other = await repo.create_game(new_game(guild_id=2))
    dm = NewAnnouncement("turn_dm", "user:100", {"user": 100})
    rows = await repo.add_announcements(
        [game_row(one.id), game_row(two.id), game_row(other.id, 2), dm], NOW
    )
    alone = await repo.suspend(1, one.id, NO_CHANNEL, NOW)
    assert alone is not None
    claimed = await repo.claim_announcements(NOW, "me/1", NOW + timedelta(hours=1))
    assert {a.id for a in claimed} == {rows[1].id, rows[2].id, rows[3].id}
    assert await repo.claim_announcement(rows[0].id, NOW, "me/1", NOW) is None
    server = await repo.suspend(2, None, REMOVED, NOW)
    assert server is not None
    more = await repo.add_announcements([game_row(other.id, 2, "offer"), game_row(two.id)], NOW)
    later = NOW + timedelta(minutes=5)
    claimed = await repo.claim_announcements(later, "me/1", later + timedelta(minutes=1))
    assert [a.id for a in claimed] == []  # game two's first row is still out (leased)
    await repo.deliver_announcement(rows[1].id, 7, later)
    claimed = await repo.claim_announcements(later, "me/1", later + timedelta(minutes=1))
    assert [a.id for a in claimed] == [more[1].id]
    await repo.end_suspension(alone.id, SuspensionOutcome.RESUMED, later, 1)
    taken = await repo.claim_announcement(rows[0].id, later, "me/1", later)
    assert taken is not None and taken.id == rows[0].id


async def test_a_servers_pending_announcements_are_parked_at_once(repo: SqlRepository) -> None:
    """Giving up on a server's (or one game's) pending announcements keeps the reason."""
    one = await repo.create_game(new_game(guild_id=1))
    two = await repo.create_game(new_game(guild_id=1))
    rows = await repo.add_announcements(
        [game_row(one.id), game_row(two.id), game_row(two.id, 2)], NOW
    )
    assert await repo.park_held_announcements(1, one.id, "its channel is gone", NOW) == 1
    assert await repo.park_held_announcements(1, None, "Tabula was removed", NOW) == 1
    stored = [await repo.get_announcement(row.id) for row in rows]
    assert [a.status if a else None for a in stored] == [
        AnnouncementStatus.PARKED,
        AnnouncementStatus.PARKED,
        AnnouncementStatus.PENDING,
    ]
    assert stored[1] is not None and stored[1].error == "Tabula was removed"


async def test_a_games_pending_announcements_of_one_kind_are_superseded(
    repo: SqlRepository,
) -> None:
    """Only the game's pending rows of that kind end, delivered without a message."""
    one = await repo.create_game(new_game(guild_id=1))
    two = await repo.create_game(new_game(guild_id=1))
    rows = await repo.add_announcements(
        [
            game_row(one.id, kind="place_deleted"),
            game_row(one.id, kind="move"),
            game_row(one.id, kind="place_deleted"),
            game_row(two.id, kind="place_deleted"),
        ],
        NOW,
    )
    assert await repo.deliver_announcement(rows[0].id, 77, NOW)
    later = NOW + timedelta(hours=1)
    assert await repo.supersede_announcements(one.id, "place_deleted", later) == 1
    stored = [await repo.get_announcement(row.id) for row in rows]
    assert [a.status if a else None for a in stored] == [
        AnnouncementStatus.DELIVERED,
        AnnouncementStatus.PENDING,
        AnnouncementStatus.DELIVERED,
        AnnouncementStatus.PENDING,
    ]
    assert stored[0] is not None and stored[0].message_id == 77  # delivered before: kept
    assert stored[2] is not None and stored[2].message_id is None


async def test_the_last_outcome_of_a_games_announcements(repo: SqlRepository) -> None:
    """How the game's latest finished announcement before another ended."""
    game = await repo.create_game(new_game())
    a, b, c = await repo.add_announcements([game_row(game.id)] * 3, NOW)
    assert await repo.last_outcome(game.id, c.id) is None
    await repo.park_announcement(a.id, "locked", NOW)
    assert await repo.last_outcome(game.id, c.id) is AnnouncementStatus.PARKED
    await repo.deliver_announcement(b.id, 5, NOW)
    assert await repo.last_outcome(game.id, c.id) is AnnouncementStatus.DELIVERED
    assert await repo.last_outcome(game.id, b.id) is AnnouncementStatus.PARKED


async def test_a_game_moves_to_another_channel_and_a_servers_games_are_found(
    repo: SqlRepository,
) -> None:
    """A game's channel is stored with its thread (its old channel was deleted); a
    server's games in progress are listed."""
    game = await repo.create_game(new_game(guild_id=1, channel_id=10))
    await repo.create_game(new_game(guild_id=2))
    moved = await repo.update_game(game.evolve(channel_id=20, thread_id=21))
    assert (await repo.get_game(game.id)) == moved
    assert moved.channel_id == 20 and moved.location == 21
    assert [g.id for g in await repo.active_games(guild_id=1)] == [game.id]
    assert [g.id for g in await repo.active_games(location=21, guild_id=1)] == [game.id]


async def test_a_seasons_end_is_moved(repo: SqlRepository) -> None:
    """A running season's end can be put off (its server was suspended)."""
    league = await repo.create_league(
        NewLeague(
            guild_id=1, channel_id=10, name="L", organiser_id=100, organiser_name="alice",
            game="groups", options={}, time_control="3d", rated=True, games_per_pair=1,
            smallest=2, largest=8, season_length=timedelta(days=30),
            entry_window=timedelta(days=3), created_at=NOW, starts_at=NOW,
        )
    )  # fmt: skip
    season = SeasonRecord(league.id, 1, NOW, NOW + timedelta(days=30))
    running = league.evolve(status=LeagueStatus.RUNNING, season=1, ends_at=season.ends_at)
    await repo.start_season(running, season, (), ())
    later = season.ends_at + timedelta(days=3)
    await repo.set_season_end(league.id, 1, later)
    (stored,) = await repo.list_seasons(league.id)
    assert stored.ends_at == later
