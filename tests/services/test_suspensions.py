"""Suspensions through the services, with the manual clock: a server that removed Tabula,
a game left without a channel, their return, their running out, and one notice per game
for posts a locked thread refuses."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.competition.records import Result
from bot.services.announcing.outbox import DeliveryRefused, NowhereToPost, Refusal
from bot.services.servers.suspensions import SuspendedError
from bot.storage.competition import TournamentStatus
from bot.storage.leagues import LeagueStatus
from bot.storage.repository import AnnouncementStatus, GameStatus
from bot.storage.suspensions import SuspensionOutcome, SuspensionReason
from tests.databases import Backend
from tests.services.conftest import ALICE, BOB, GUILD, Env, play_any, status
from tests.services.test_computer import GatedRunner, World, asked
from tests.services.test_leagues import create as create_league
from tests.services.test_tournaments import create as create_tournament
from tests.services.test_tournaments import games_in_progress
from tests.services.test_tournaments import start as start_tournament

H = timedelta(hours=1)
D = timedelta(days=1)
MISSING_ACCESS = DeliveryRefused(
    "Discord refused to let me post (Missing Access)", Refusal.NO_ACCESS
)


async def tick(env: Env) -> None:
    """Every scheduled job once, as the scheduler does."""
    await env.services.scheduler.tick()


async def pending(env: Env, game_id: int) -> list[str]:
    """The kinds of the game's announcements still waiting."""
    rows = await env.repo.list_announcements(status=AnnouncementStatus.PENDING, game_id=game_id)
    return [row.kind for row in rows]


async def removed_while_posting(env: Env, game_id: int) -> None:
    """Discord answers 403 Missing Access for the game's posts, and the server is no
    longer among the bot's servers: Tabula was removed from it."""
    env.notifier.gone.add(GUILD)
    env.notifier.refuse[game_id] = MISSING_ACCESS


def invited_back(env: Env, game_id: int) -> None:
    env.notifier.gone.discard(GUILD)
    env.notifier.refuse.pop(game_id, None)


async def test_a_removed_server_stops_its_clocks_and_goes_on_with_the_time_they_had(
    env: Env,
) -> None:
    """A post refused with Missing Access in a server the bot is no longer in suspends
    that server: the post waits (not given up, nobody told it failed), no reminder and
    no loss on time come however long it lasts, nobody may move. Invited back, the
    waiting post is delivered once, the game says it goes on, and the clock has what it
    had: the reminder and the loss on time come as late as they would have."""
    view = await env.start(time_control="1d")
    game = view.id
    env.clock.advance(10 * H)
    await removed_while_posting(env, game)
    await play_any(env, game)  # Alice's move is stored; its board cannot be posted
    suspension = await env.repo.suspension_of(GUILD, game)
    assert suspension is not None and suspension.reason is SuspensionReason.REMOVED
    assert suspension.game_id is None  # the whole server
    assert await pending(env, game) == ["move"]
    assert env.notifier.moves == [] and env.notifier.undelivered_dms == []
    told = {(n.user_id, n.reason, n.aborted) for n in env.notifier.suspension_dms}
    assert told == {
        (ALICE.id, SuspensionReason.REMOVED, False),
        (BOB.id, SuspensionReason.REMOVED, False),
    }
    assert env.notifier.suspension_dms[0].until == suspension.started_at + 30 * D

    for _ in range(10):
        env.clock.advance(D)
        await tick(env)
    assert env.notifier.reminders == [] and env.notifier.timeouts == []
    held = await status(env, view)
    assert held.suspended is not None and held.deadline is None and not held.stopped
    assert held.left[1] == D  # Bob's whole day, untouched
    with pytest.raises(SuspendedError, match="Tabula was removed from its server"):
        await play_any(env, game)
    assert await pending(env, game) == ["move"]  # still waiting, never parked
    assert env.notifier.refused == 1  # and not tried again while suspended

    invited_back(env, game)
    resumed = await env.services.suspensions.resume_server(GUILD)
    assert [record.id for record in resumed] == [game]
    assert len(env.notifier.moves) == 1  # the held board, once
    assert [n.view.id for n in env.notifier.resumed] == [game]
    assert env.notifier.resumed[0].lasted == 10 * D
    after = await status(env, view)
    assert after.suspended is None and after.left[1] == D
    assert after.deadline == env.clock.now() + D
    ended = (await env.repo.suspensions(GUILD, suspension.started_at))[0]
    assert ended.outcome is SuspensionOutcome.RESUMED and ended.games == 1

    env.clock.advance(23 * H)
    await tick(env)
    assert [r.user_id for r in env.notifier.reminders] == [BOB.id]
    env.clock.advance(H)
    await tick(env)
    assert [t.view.id for t in env.notifier.timeouts] == [game]
    assert await pending(env, game) == []


async def test_suspended_games_are_aborted_unrated_after_the_period(env: Env) -> None:
    """After 30 days away: the server's tournament is cancelled (its games aborted), its
    other games aborted, nobody's rating changes, what waited to be posted there is given
    up with the reason, the players are told (if Discord lets a direct message through),
    and the suspension records how it ended."""
    rated = await env.start(time_control="3d")
    await env.repo.update_game((await env.repo.get_game(rated.id)).evolve(rated=True))  # type: ignore[union-attr]
    await play_any(env, rated.id)
    tournament = await start_tournament(env, await create_tournament(env, "swiss", 4))
    games = [game.id for _, game in await games_in_progress(env, tournament)]
    await removed_while_posting(env, rated.id)
    await play_any(env, rated.id)
    assert await env.repo.suspension_of(GUILD, None) is not None
    env.clock.advance(29 * D)
    await tick(env)
    assert (await env.repo.get_game(rated.id)).status is GameStatus.ACTIVE  # type: ignore[union-attr]

    env.clock.advance(D)
    await tick(env)
    for game_id in [rated.id, *games]:
        record = await env.repo.get_game(game_id)
        assert record is not None and record.status is GameStatus.ABORTED, game_id
        assert await env.repo.rating_changes(game_id) == []
    assert await env.repo.get_rating(ALICE.id, "groups") is None
    cancelled = await env.services.tournaments.view(tournament.id)
    assert cancelled.record.status is TournamentStatus.CANCELLED
    (ended,) = await env.repo.suspensions(GUILD, rated.record.created_at)
    assert ended.outcome is SuspensionOutcome.ABORTED and ended.games == 1 + len(games)
    assert await pending(env, rated.id) == []
    parked = await env.repo.list_announcements(status=AnnouncementStatus.PARKED)
    assert any(row.game_id == rated.id and "not invited back within 30d" in (row.error or "")
               for row in parked)  # fmt: skip
    aborted = [n for n in env.notifier.suspension_dms if n.aborted]
    assert {n.user_id for n in aborted} >= {ALICE.id, BOB.id}
    assert await env.repo.open_suspensions() == []
    invited_back(env, rated.id)
    assert await env.services.suspensions.resume_server(GUILD) == []  # nothing left to resume


async def test_a_league_season_is_put_off_by_the_suspension(env: Env) -> None:
    """A running season ends as much later as the server was suspended, and nothing of
    the league moves meanwhile."""
    view = await create_league(env, 6)
    env.clock.advance(2 * H)
    await tick(env)
    league = await env.services.leagues.view(view.id)
    assert league.record.status is LeagueStatus.RUNNING and league.record.ends_at is not None
    ends = league.record.ends_at
    game = next(g.game_id for g in league.games if g.game_id is not None)
    await removed_while_posting(env, game)
    await play_any(env, game)
    assert await env.repo.suspension_of(GUILD, None) is not None
    env.clock.advance(40 * D)  # past the season's end, but 30 days is not over yet...
    env.services.suspensions.period = 60 * D
    await tick(env)
    assert (await env.services.leagues.view(view.id)).record.status is LeagueStatus.RUNNING
    invited_back(env, game)
    await env.services.suspensions.resume_server(GUILD)
    league = await env.services.leagues.view(view.id)
    assert league.record.ends_at == ends + 40 * D
    assert league.season is not None and league.season.ends_at == ends + 40 * D
    await tick(env)
    assert (await env.services.leagues.view(view.id)).season.status.value == "running"  # type: ignore[union-attr]


async def test_a_game_with_nowhere_to_go_is_suspended_alone_until_a_channel_is_named(
    env: Env,
) -> None:
    """Its channel deleted and no game channel named: that game alone is suspended (the
    server's other games go on), its players told plainly why and what a moderator can
    do; naming a game channel lets it go on, the waiting post first."""
    view = await env.start(time_control="1d")
    other = await env.start()
    env.notifier.refuse[view.id] = NowhereToPost("cannot post game: its channel was deleted")
    await play_any(env, view.id)
    suspension = await env.repo.suspension_of(GUILD, view.id)
    assert suspension is not None and suspension.game_id == view.id
    assert suspension.reason is SuspensionReason.NO_CHANNEL
    assert await env.repo.suspension_of(GUILD, other.id) is None
    (told,) = {n.reason for n in env.notifier.suspension_dms}
    assert told is SuspensionReason.NO_CHANNEL
    assert env.notifier.undelivered_dms == []
    with pytest.raises(SuspendedError, match="/config add_channel"):
        await play_any(env, view.id)
    await play_any(env, other.id)
    assert [m.view.id for m in env.notifier.moves] == [other.id]
    env.clock.advance(5 * D)
    await tick(env)
    assert env.notifier.timeouts == []

    env.notifier.refuse.clear()
    resumed = await env.services.suspensions.resume_without_channel(GUILD)
    assert [record.id for record in resumed] == [view.id]
    assert [m.view.id for m in env.notifier.moves] == [other.id, view.id]
    assert [n.view.id for n in env.notifier.resumed] == [view.id]
    assert (await status(env, view)).left[1] == D


async def test_a_tournament_game_without_a_channel_is_aborted_as_a_double_forfeit(
    env: Env,
) -> None:
    """A suspended tournament game that runs out is aborted, and the tournament scores it
    as it scores any game aborted outside it: nobody wins."""
    tournament = await start_tournament(env, await create_tournament(env, "swiss", 4))
    (pairing, game), *_ = await games_in_progress(env, tournament)
    env.notifier.refuse[game.id] = NowhereToPost("nowhere")
    await play_any(env, game.id)
    env.clock.advance(30 * D)
    await tick(env)
    await env.services.background.settle()
    await tick(env)
    record = await env.repo.get_game(game.id)
    assert record is not None and record.status is GameStatus.ABORTED
    scored = next(p for p in (await env.services.tournaments.view(tournament.id)).pairings
                  if p.id == pairing.id)  # fmt: skip
    assert scored.result is Result.DOUBLE_FORFEIT


async def test_a_locked_thread_brings_one_notice_per_game_not_one_per_post(env: Env) -> None:
    """Posts refused for good (a locked thread) are given up; the players get one direct
    message for the first, none for the next ones; after a post gets through, the next
    refusal is told again."""
    view = await env.start()
    env.notifier.refuse[view.id] = DeliveryRefused("Thread is locked", Refusal.CLOSED)
    for _ in range(3):
        await play_any(env, view.id)
    assert len(await env.repo.list_announcements(status=AnnouncementStatus.PARKED)) == 3
    assert sorted(n.user_id for n in env.notifier.undelivered_dms) == [ALICE.id, BOB.id]
    assert env.notifier.undelivered_dms[0].kind == Refusal.CLOSED
    env.notifier.refuse.clear()
    await play_any(env, view.id)
    env.notifier.refuse[view.id] = DeliveryRefused("Thread is locked", Refusal.CLOSED)
    await play_any(env, view.id)
    await play_any(env, view.id)
    assert len(env.notifier.undelivered_dms) == 4


@pytest.fixture
async def gated(backend: Backend) -> AsyncIterator[World]:
    opened = await World(backend, GatedRunner()).open()
    yield opened
    opened.runner.gate.set()  # type: ignore[attr-defined]
    await opened.close()


async def test_the_computer_waits_while_its_server_is_suspended(gated: World) -> None:
    """The computer does not move in a suspended game (its thinking started before is
    dropped), and moves once the game goes on."""
    services, notifier = gated.services, gated.notifier
    game = await gated.start(colour="black")  # the computer opens
    await asked(gated, 1)
    notifier.gone.add(GUILD)
    await services.suspensions.suspend_server(GUILD)
    gated.runner.gate.set()  # type: ignore[attr-defined]
    await services.computer.idle()
    record = await services.games.record(game)
    assert record.ply == 0  # its move was refused: the game is suspended
    notifier.gone.clear()
    await services.suspensions.resume_server(GUILD)
    await services.computer.idle()
    assert (await services.games.record(game)).ply >= 1
    assert [n.view.id for n in notifier.resumed] == [game]


async def test_a_deleted_place_announces_each_game_played_there(env: Env) -> None:
    """A deleted channel announces the games played in it and in its threads; a deleted
    thread, its own game; other games are left alone."""
    in_thread = await env.start()
    moved = await env.services.games.set_thread(in_thread.id, 700)
    in_channel = await env.start()
    elsewhere = await env.start()
    await env.services.games.move_to(elsewhere.id, 800, None)
    assert moved.location == 700
    found = await env.services.games.place_deleted(GUILD, 700)
    assert [record.id for record in found] == [in_thread.id]
    found = await env.services.games.place_deleted(GUILD, in_channel.record.channel_id)
    assert [record.id for record in found] == [in_thread.id, in_channel.id]
    assert env.notifier.places_deleted == [
        (in_thread.id, 700),
        (in_thread.id, in_channel.record.channel_id),
        (in_channel.id, in_channel.record.channel_id),
    ]
    assert await env.services.games.place_deleted(GUILD + 1, 700) == []


async def test_channels_gone_with_the_server_suspend_the_server_not_the_game(env: Env) -> None:
    """A server deleted while the bot was away shows as its channels gone: when the bot
    no longer has the server, it is the server that is suspended (the bot was removed),
    not the game for want of a channel."""
    view = await env.start()
    env.notifier.gone.add(GUILD)
    env.notifier.refuse[view.id] = NowhereToPost("cannot post game: its channel was deleted")
    await play_any(env, view.id)
    suspension = await env.repo.suspension_of(GUILD, view.id)
    assert suspension is not None and suspension.game_id is None
    assert suspension.reason is SuspensionReason.REMOVED


async def test_the_threads_kept_open_leave_out_suspended_games(env: Env) -> None:
    """The threads kept from archiving are those of games that are not suspended (the
    bot cannot reach the others, or they have no thread any more)."""
    games = env.services.games
    one, two = await env.start(), await env.start()
    await games.set_thread(one.id, 701)
    await games.set_thread(two.id, 702)
    assert sorted(await games.active_threads()) == [701, 702]
    await env.services.suspensions.suspend_game(two.id)
    assert await games.active_threads() == [701]
    await env.services.suspensions.suspend_server(GUILD)
    assert await games.active_threads() == []


async def test_the_web_page_does_not_run_a_suspended_clock(env: Env) -> None:
    """The game page counts the running clock down in the browser: a suspended game's
    clock is shown standing, with the time it had."""
    from bot.web.snapshot import game_snapshot

    view = await env.start(time_control="1d")
    env.clock.advance(3 * H)
    record = await env.services.games.record(view.id)
    assert (await game_snapshot(env.services, record, 0))["clocks"]["running"] == 0
    await env.services.suspensions.suspend_server(GUILD)
    env.clock.advance(5 * H)
    clocks = (await game_snapshot(env.services, record, 0))["clocks"]
    assert clocks["running"] is None and clocks["left"][0] == 21 * 3600
