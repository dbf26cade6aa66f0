"""Two bot processes over one database (two service containers, each with its own
connections, as two processes have): every background job and every shared step is done
once, on both backends. Each test runs the same work in both at the same moment."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

from bot.services.announcing.announcements import Kind
from bot.services.views.tournaments import TournamentView
from bot.storage.competition import TournamentStatus
from bot.storage.repository import GameStatus, ShardFilter
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Env, play_any
from tests.services.test_tournaments import ORGANISER, P1, create, start

H = timedelta(hours=1)
D = timedelta(days=1)


async def announced(env: Env) -> Counter[str]:
    """How many announcements of each kind were stored (whoever delivered them)."""
    return Counter(a.kind for a in await env.repo.list_announcements())


async def both(env: Env, other: Env, job: str) -> None:
    """Run the scheduler job `job` of both processes at once."""
    await asyncio.gather(env.services.scheduler.job(job)(), other.services.scheduler.job(job)())
    await asyncio.gather(env.services.background.settle(), other.services.background.settle())


async def round_one_played(env: Env) -> TournamentView:
    """A round robin of four players whose first round has ended (the second player of
    each game resigned)."""
    view = await start(env, await create(env, "round robin", 4))
    for pairing in view.pairings:
        assert pairing.game_id is not None and pairing.second_id is not None
        await env.services.games.resign(pairing.game_id, pairing.second_id)
    return view


async def test_a_lost_game_on_time_is_ended_once(env: Env) -> None:
    """Both processes find the deadline passed: one result, one announcement of it."""
    view = await env.start(time_control="1d")
    other = await env.restart()
    env.clock.advance(D + H)
    await both(env, other, "time out games")
    record = await env.services.games.record(view.id)
    assert record.status is GameStatus.FINISHED and record.winner == 1
    assert (await announced(env))[Kind.TIMEOUT] == 1
    assert len(env.notifier.timeouts) + len(other.notifier.timeouts) == 1
    assert len(await env.repo.rating_changes(view.id)) == 0  # alice never moved: unrated


async def test_a_challenge_expires_once(env: Env) -> None:
    """Both processes expire the challenge: its message is edited once."""
    await env.services.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, game="groups"
    )
    other = await env.restart()
    env.clock.advance(2 * H)
    await both(env, other, "expire challenges")
    assert (await announced(env))[Kind.CHALLENGE_EXPIRED] == 1
    assert len(env.notifier.expired) + len(other.notifier.expired) == 1


async def test_a_vacation_ends_once(env: Env) -> None:
    """Both processes end the vacation at its end: the player is told once."""
    await env.services.notifications.update(ALICE.id, digest=True)
    await env.start(time_control="3d")
    await env.services.vacations.start(ALICE.id, "2d")
    other = await env.restart()
    env.clock.advance(2 * D)
    await both(env, other, "end vacations")
    assert (await announced(env))[Kind.VACATION_DM] == 1
    assert (await announced(env))[Kind.VACATION] == 2  # away, then back
    assert await env.repo.open_vacation(ALICE.id) is None


async def test_a_missed_rating_is_stored_once(env: Env) -> None:
    """A rated game whose rating was lost (a crash): both processes rate it; once counts."""
    view = await env.start()
    await play_any(env, view.id)
    env.services.games.finish_hooks.clear()  # the crash: the result stored, the rating not
    await env.services.games.resign(view.id, BOB.id)
    assert await env.repo.rating_changes(view.id) == []
    other = await env.restart()
    await both(env, other, "rate missed games")
    changes = await env.repo.rating_changes(view.id)
    assert [c.user_id for c in changes] == [ALICE.id, BOB.id]
    rating = await env.repo.get_rating(ALICE.id, "groups")
    assert rating is not None and rating.games == 1 and rating.wins == 1


async def test_a_players_games_ending_at_once_in_two_processes_both_count(env: Env) -> None:
    """Alice's games against Bob and Carol end at the same moment, in two processes: her
    rating counts both, the second change starting from the first one's result."""
    first = await env.start()
    other = await env.restart()
    challenge = await other.services.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=CAROL, game="groups"
    )
    second = (await other.services.challenges.accept(challenge.id, CAROL, guild_id=GUILD)).view
    await play_any(env, first.id)  # games without any move are not rated
    await play_any(other, second.id)
    await asyncio.gather(
        env.services.games.resign(first.id, BOB.id),
        other.services.games.resign(second.id, CAROL.id),
    )
    rating = await env.repo.get_rating(ALICE.id, "groups")
    assert rating is not None and (rating.games, rating.wins) == (2, 2)
    mine = [
        change
        for game in (first.id, second.id)
        for change in await env.repo.rating_changes(game)
        if change.user_id == ALICE.id
    ]
    earlier, later = sorted(mine, key=lambda c: c.before.rating)
    assert later.before.rating == earlier.after.rating
    assert rating.rating.rating == later.after.rating


async def test_clocks_pause_once_for_a_downtime_both_processes_find(env: Env) -> None:
    """Both processes start after an hour's silence: one downtime is recorded."""
    await env.start(time_control="3d")
    await env.services.scheduler.tick()
    env.clock.advance(H)
    first = await env.restart()
    second = await env.restart()
    await both(first, second, "catch up clocks")
    outages = await env.repo.outages(env.clock.now() - D)
    assert len(outages) == 1 and outages[0].ended_at - outages[0].started_at == H


async def test_a_tournament_starts_and_announces_each_step_once(env: Env) -> None:
    """Its entries close: both processes start it and advance it at once. It starts once,
    round 1 is paired and announced once, and each game is made and announced once."""
    view = await create(env, "round robin", 4, entry_window="1h")
    other = await env.restart()
    env.clock.advance(H)
    await asyncio.gather(
        env.services.tournaments.start_due(),
        other.services.tournaments.start_due(),
        env.services.tournaments.advance_all(),
        other.services.tournaments.advance_all(),
    )
    await both(env, other, "advance tournaments")
    found = await env.services.tournaments.view(view.id)
    assert found.record.status is TournamentStatus.RUNNING
    assert [p.round for p in found.pairings] == [1, 1]
    assert all(p.game_id is not None and p.announced for p in found.pairings)
    counts = await announced(env)
    assert (counts[Kind.ROUND], counts[Kind.START]) == (1, 2)
    assert len(await env.repo.active_games()) == 2


async def test_too_few_players_cancel_a_tournament_once(env: Env) -> None:
    """Both processes close the entries of a tournament with one player: one cancellation."""
    view = await create(env, "swiss", 1, entry_window="1h")
    other = await env.restart()
    env.clock.advance(H)
    await both(env, other, "start tournaments")
    assert (await env.services.tournaments.view(view.id)).record.status is (
        TournamentStatus.CANCELLED
    )
    assert (await announced(env))[Kind.TOURNAMENT_CANCELLED] == 1


async def test_a_tournament_finishes_once(env: Env) -> None:
    """The last game ends in one process while the other advances: finished once."""
    view = await start(env, await create(env, "swiss", 2, rounds=1))
    other = await env.restart()
    (pairing,) = view.pairings
    assert pairing.game_id is not None
    await asyncio.gather(
        env.services.games.resign(pairing.game_id, pairing.first_id),
        other.services.tournaments.advance_all(),
    )
    await both(env, other, "advance tournaments")
    found = await env.services.tournaments.view(view.id)
    assert found.record.status is TournamentStatus.FINISHED
    assert (await announced(env))[Kind.TOURNAMENT_FINISHED] == 1


async def test_a_cancellation_stands_while_another_process_advances(env: Env) -> None:
    """An organiser cancels in one process while the other pairs the next round: the
    tournament stays cancelled and no game of it is left in progress."""
    view = await round_one_played(env)
    other = await env.restart()
    await asyncio.gather(
        env.services.tournaments.cancel(GUILD, view.id, ORGANISER),
        other.services.tournaments.advance_all(),
        other.services.tournaments.advance_all(),
    )
    await both(env, other, "advance tournaments")
    found = await env.services.tournaments.view(view.id)
    assert found.record.status is TournamentStatus.CANCELLED
    tournament_games = [g for g in await env.repo.active_games() if g.tournament_id == view.id]
    assert tournament_games == []


async def test_a_withdrawal_stands_while_another_process_pairs(env: Env) -> None:
    """A player withdraws in one process while the other pairs round 2: they are not in a
    game of round 2, and their round-2 pairing is a forfeit."""
    view = await round_one_played(env)
    other = await env.restart()
    await asyncio.gather(
        env.services.tournaments.withdraw(GUILD, view.id, ORGANISER, P1.id),
        other.services.tournaments.advance_all(),
    )
    await both(env, other, "advance tournaments")
    found = await env.services.tournaments.view(view.id)
    mine = [p for p in found.pairings if P1.id in (p.first_id, p.second_id) and p.round > 1]
    assert mine and all(p.result is not None for p in mine)
    assert not [g for g in await env.repo.active_games() if P1.id in g.players]


async def test_each_process_resumes_the_computer_in_its_own_servers(env: Env) -> None:
    """After a restart, the computer thinks only in the games of the process's servers."""
    on_zero, on_one = (1 << 22) * 4, (1 << 22) * 3  # shards 0 and 1 of 2
    games = []
    for guild in (on_zero, on_one):
        view = await env.services.computer.start(
            guild_id=guild, channel_id=CHANNEL, player=ALICE, game="groups", colour="black"
        )
        games.append(view.id)
    first = await env.restart()
    second = await env.restart()
    first.services.computer.shards = ShardFilter(2, frozenset({0}))
    second.services.computer.shards = ShardFilter(2, frozenset({1}))
    try:
        assert await first.services.computer.resume() == 1
        assert await second.services.computer.resume() == 1
        assert first.services.computer.thinking(games[0])
        assert second.services.computer.thinking(games[1])
        assert not first.services.computer.thinking(games[1])
    finally:
        for each in (first, second):
            await each.services.computer.close()
        await env.services.computer.close()


async def test_a_process_keeps_the_threads_of_its_own_servers(env: Env) -> None:
    """The thread keeper of a process looks only at the games of its servers."""
    on_zero, on_one = (1 << 22) * 4, (1 << 22) * 3
    threads = {}
    for guild, thread in ((on_zero, 7001), (on_one, 7002)):
        challenge = await env.services.challenges.create(
            guild_id=guild, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, game="groups"
        )
        view = (await env.services.challenges.accept(challenge.id, BOB, guild_id=guild)).view
        await env.services.games.set_thread(view.id, thread)
        threads[guild] = thread
    games = env.services.games
    assert sorted(await games.active_threads()) == [7001, 7002]
    assert await games.active_threads(ShardFilter(2, frozenset({0}))) == [7001]
    assert await games.active_threads(ShardFilter(2, frozenset({1}))) == [7002]


def test_shards_cover_servers_by_discords_formula() -> None:
    """(guild_id >> 22) % count; direct messages belong to shard 0."""
    zero, one = ShardFilter(2, frozenset({0})), ShardFilter(2, frozenset({1}))
    guild = 81384788765712384  # on shard 7 of 17, Discord's own example
    assert ShardFilter(17, frozenset({7})).covers(guild)
    assert not ShardFilter(17, frozenset({6})).covers(guild)
    assert zero.covers(None) and not one.covers(None)
    assert one.covers((1 << 22) * 3) and zero.covers((1 << 22) * 4)
