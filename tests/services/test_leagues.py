"""LeagueService: leagues driven through the services, season after season."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from bot.competition.leagues import Move
from bot.competition.records import Result
from bot.services.announcing.announcements import Kind
from bot.services.competition.tournaments import Member
from bot.services.errors import InvalidInputError, InvalidStateError, NotAllowedError
from bot.services.games.players import Player
from bot.services.views.leagues import LeagueView
from bot.storage.leagues import LeagueStatus, SeasonStatus
from bot.storage.repository import GameStatus
from bot.texts.leagues import divisions_message, history_message, standings_message
from tests.services.conftest import CAROL, CHANNEL, GUILD, ROBOT, Env, play_any

PLAYERS = [Player(100 + number, f"p{number}") for number in range(1, 14)]
ORGANISER = Member(CAROL, can_manage=True)
HOUR = timedelta(hours=1)


async def create(env: Env, players: int, **options: object) -> LeagueView:
    """The organiser creates a Groups league of one-game pairs in divisions of exactly
    six; the first `players` players join."""
    settings: dict[str, object] = {"smallest": 6, "largest": 6, "entry_window": "1h"}
    settings.update(options)
    view = await env.services.leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        member=ORGANISER,
        game="groups",
        season="30d",
        **settings,  # type: ignore[arg-type]
    )
    for player in PLAYERS[:players]:
        view = await env.services.leagues.join(GUILD, view.id, player)
    return view


def kinds(env: Env) -> list[str]:
    """The league announcements delivered so far, by kind."""
    return [news.kind for news in env.notifier.league_posts]


async def play_out(env: Env, view: LeagueView, *, skip: frozenset[int] = frozenset()) -> None:
    """Finish every game in progress: the player higher on the ladder wins (after a first
    move each, so the game counts), except games of players in `skip`."""
    view = await env.services.leagues.view(view.id)
    position = {p.user_id: p.position for p in view.placements}
    for game in view.games:
        if game.result is not None or game.game_id is None:
            continue
        if skip & {game.first_id, game.second_id}:
            continue
        record = await env.repo.get_game(game.game_id)
        assert record is not None
        if record.status is not GameStatus.ACTIVE:
            continue
        await play_any(env, game.game_id)
        loser = max((game.first_id, game.second_id), key=lambda user: position[user])
        await env.services.games.resign(game.game_id, loser)
    await env.services.background.settle()


async def test_a_league_through_two_seasons_with_a_withdrawal_and_a_restart(
    env: Env, no_logged_errors: None
) -> None:
    """Twelve players: two divisions of six by rating (here, in order of entry); one
    leaves mid-season and their games are forfeited; the bot restarts in the middle; at
    the end the top two of division 2 go up and the bottom two of division 1 go down; the
    second season starts by itself with a newcomer and the promoted players on top."""
    view = await create(env, 12)
    assert view.record.status is LeagueStatus.OPEN and len(view.members) == 12
    await env.services.scheduler.tick()
    assert (await env.services.leagues.view(view.id)).season is None  # entries still open

    env.clock.advance(HOUR)
    await env.services.scheduler.tick()
    await env.services.background.settle()
    view = await env.services.leagues.view(view.id)
    assert view.record.status is LeagueStatus.RUNNING and view.record.season == 1
    assert [[p.user_id for p in view.division(d)] for d in (1, 2)] == [
        [p.id for p in PLAYERS[:6]],
        [p.id for p in PLAYERS[6:12]],
    ]
    assert len(view.games) == 30 and all(g.game_id is not None for g in view.games)
    assert kinds(env) == [Kind.LEAGUE_SEASON_STARTED]
    starts = [notice.view.id for notice in env.notifier.starts]
    assert Counter(starts) == Counter(g.game_id for g in view.games)  # each once

    # p12 leaves with every game unplayed: five forfeits, one announcement.
    leaver = PLAYERS[11]
    departure = await env.services.leagues.leave(GUILD, view.id, leaver.id)
    assert len(departure.forfeited) == 5 and len(departure.aborted) == 5
    for game in departure.forfeited:
        winner = game.second_id if game.first_id == leaver.id else game.first_id
        assert game.pairing.winner() == winner
        assert game.result in (Result.FIRST_WINS_BY_FORFEIT, Result.SECOND_WINS_BY_FORFEIT)
    assert kinds(env) == [Kind.LEAGUE_SEASON_STARTED, Kind.LEAGUE_WITHDRAWAL]
    assert len(env.notifier.league_posts[-1].aborted) == 5
    for gone in departure.aborted:  # the game's own record says what the league says
        record = await env.repo.get_game(gone.id)
        assert record is not None and record.status is GameStatus.FINISHED
        assert record.winner == 1 - record.players.index(leaver.id) and not record.rated
        assert record.result_reason == (
            f"{leaver.name} left {view.record.name}; a forfeit, no rating changes"
        )
    with pytest.raises(InvalidStateError):
        await env.services.leagues.leave(GUILD, view.id, leaver.id)

    # Division 1 plays now; division 2 after a restart.
    await play_out(env, view, skip=frozenset(p.id for p in PLAYERS[6:12]))
    restarted = await env.restart()
    try:
        assert await restarted.repo.leagues_needing_work(env.clock.now()) == []
        view = await restarted.services.leagues.view(view.id)
        assert view.record.status is LeagueStatus.RUNNING
        await play_out(restarted, view)
        view = await restarted.services.leagues.view(view.id, season=1)
        assert view.season is not None and view.season.status is SeasonStatus.FINISHED
        assert [news.kind for news in restarted.notifier.league_posts] == [
            Kind.LEAGUE_SEASON_FINISHED
        ]
        moved = {p.user_id: p.move for p in view.placements}
        ids = [p.id for p in PLAYERS]
        assert [moved[i] for i in ids[:6]] == [Move.STAY] * 4 + [Move.DOWN] * 2
        assert [moved[i] for i in ids[6:12]] == [Move.UP] * 2 + [Move.STAY] * 4
        leaver_place = view.placement(leaver.id)
        assert leaver_place is not None and leaver_place.place == 6 and leaver_place.withdrawn
        table = standings_message(view).text()
        assert "final standings" in table and "↑ up" in table and "↓ down" in table

        # The next season takes entries; a newcomer joins; it starts by itself.
        league = await restarted.services.leagues.view(view.id)
        assert league.record.status is LeagueStatus.OPEN and league.record.season == 1
        assert leaver.id not in {m.user_id for m in league.members}
        await restarted.services.leagues.join(GUILD, view.id, PLAYERS[12])
        restarted.clock.advance(HOUR)
        await restarted.services.scheduler.tick()
        await restarted.services.background.settle()
        second = await restarted.services.leagues.view(view.id)
        assert second.record.season == 2 and second.record.status is LeagueStatus.RUNNING
        top = {p.user_id for p in second.division(1)}
        assert top == set(ids[:4]) | set(ids[6:8])
        bottom = [p.user_id for p in second.division(2)]
        assert set(bottom) == set(ids[4:6]) | set(ids[8:11]) | {PLAYERS[12].id}
        assert [news.kind for news in restarted.notifier.league_posts][-1] == (
            Kind.LEAGUE_SEASON_STARTED
        )
        assert "Division 2" in divisions_message(second).text()

        # The season's time runs out with games unplayed: they score nothing.
        restarted.clock.advance(timedelta(days=31))
        await restarted.services.scheduler.tick()
        await restarted.services.background.settle()
        over = await restarted.services.leagues.view(view.id, season=2)
        assert over.season is not None and over.season.status is SeasonStatus.FINISHED
        assert {g.result for g in over.games} == {Result.DOUBLE_FORFEIT}
        for game in over.games:
            assert game.game_id is not None
            record = await restarted.repo.get_game(game.game_id)
            assert record is not None and record.status is GameStatus.ABORTED
        history = await restarted.services.leagues.history(GUILD, view.id)
        assert [s.season.number for s in history.seasons] == [1, 2]
        assert "Season 1" in history_message(history).text()
        assert [n.kind for n in restarted.notifier.league_posts].count(
            Kind.LEAGUE_SEASON_FINISHED
        ) == 2
    finally:
        await restarted.repo.close()


class _Crash(Exception):
    """The process dies here."""


async def _crash(*_args: object, **_kwargs: object) -> None:
    raise _Crash


async def _leaver_games(
    env: Env, league_id: int, leaver: int
) -> list[tuple[Result | None, GameStatus]]:
    """(league result, game state) of each of the leaver's games."""
    view = await env.services.leagues.view(league_id)
    found = []
    for game in view.games:
        if leaver in (game.first_id, game.second_id):
            assert game.game_id is not None
            record = await env.repo.get_game(game.game_id)
            assert record is not None
            found.append((game.result, record.status))
    return found


async def test_a_crash_after_the_withdrawal_is_stored_ends_the_games_on_restart(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after a leaving player's withdrawal and forfeits are stored, but
    before their games in progress are ended: after the restart the scheduler ends them
    as forfeits, the league's forfeits stand (wins for the opponents) and the withdrawal
    is announced once."""
    view = await create(env, 6)
    env.clock.advance(HOUR)
    await env.services.scheduler.tick()
    await env.services.background.settle()
    leaver = PLAYERS[5].id
    monkeypatch.setattr(env.services.games, "forfeit", _crash)
    with pytest.raises(_Crash):
        await env.services.leagues.leave(GUILD, view.id, leaver)
    restarted = await env.restart()
    try:
        assert await restarted.repo.leagues_needing_work(env.clock.now()) == [view.id]
        await restarted.services.scheduler.tick()
        await restarted.services.background.settle()
        await restarted.services.dispatcher.drain()
        games = await _leaver_games(restarted, view.id, leaver)
        assert len(games) == 5
        assert {result for result, _ in games} <= {
            Result.FIRST_WINS_BY_FORFEIT,
            Result.SECOND_WINS_BY_FORFEIT,
        }
        assert {status for _, status in games} == {GameStatus.FINISHED}  # won by forfeit
        posted = kinds(env) + [news.kind for news in restarted.notifier.league_posts]
        assert posted.count(Kind.LEAGUE_WITHDRAWAL) == 1
        assert await restarted.repo.leagues_needing_work(env.clock.now()) == []
        with pytest.raises(InvalidStateError):
            await restarted.services.leagues.leave(GUILD, view.id, leaver)
    finally:
        await restarted.repo.close()


async def test_a_crash_while_storing_the_withdrawal_leaves_the_games_untouched(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies while a leaving player's withdrawal is being stored: nothing was
    stopped, so after the restart their games are still in progress (no result for
    anyone, where aborting them first would have scored them as double forfeits), and
    leaving again forfeits all five."""
    view = await create(env, 6)
    env.clock.advance(HOUR)
    await env.services.scheduler.tick()
    await env.services.background.settle()
    leaver = PLAYERS[5].id
    monkeypatch.setattr(env.repo, "withdraw_from_season", _crash)
    with pytest.raises(_Crash):
        await env.services.leagues.leave(GUILD, view.id, leaver)
    restarted = await env.restart()
    try:
        await restarted.services.scheduler.tick()
        await restarted.services.background.settle()
        assert await _leaver_games(restarted, view.id, leaver) == [(None, GameStatus.ACTIVE)] * 5
        departure = await restarted.services.leagues.leave(GUILD, view.id, leaver)
        assert len(departure.forfeited) == 5 and len(departure.aborted) == 5
        games = await _leaver_games(restarted, view.id, leaver)
        assert {status for _, status in games} == {GameStatus.FINISHED}  # won by forfeit
        assert None not in {result for result, _ in games}
        assert Result.DOUBLE_FORFEIT not in {result for result, _ in games}
    finally:
        await restarted.repo.close()


async def test_two_games_per_pair_meet_once_with_each_colour(env: Env) -> None:
    """With two games a pair, every ordered pair of a division plays once."""
    view = await create(env, 6, games_per_pair=2)
    env.clock.advance(HOUR)
    await env.services.leagues.advance(view.id)
    view = await env.services.leagues.view(view.id)
    ordered = Counter((g.first_id, g.second_id) for g in view.games)
    assert len(ordered) == 30 and set(ordered.values()) == {1}


async def test_too_few_players_put_the_season_off(env: Env) -> None:
    """A season with one player waits another entry window, and says so once."""
    view = await create(env, 1)
    env.clock.advance(HOUR)
    await env.services.scheduler.tick()
    view = await env.services.leagues.view(view.id)
    assert view.record.status is LeagueStatus.OPEN and view.season is None
    assert kinds(env) == [Kind.LEAGUE_POSTPONED]
    await env.services.scheduler.tick()
    assert kinds(env) == [Kind.LEAGUE_POSTPONED]
    await env.services.leagues.join(GUILD, view.id, PLAYERS[1])
    env.clock.advance(HOUR)
    await env.services.scheduler.tick()
    view = await env.services.leagues.view(view.id)
    assert view.record.season == 1 and view.division_count == 1 and len(view.games) == 1


async def test_who_may_create_join_and_cancel(env: Env) -> None:
    """Only organisers create and cancel; bots cannot join; joining twice is refused;
    cancelling aborts the games in progress."""
    with pytest.raises(NotAllowedError):
        await env.services.leagues.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            member=Member(PLAYERS[0]),
            game="groups",
            season="30d",
        )
    view = await create(env, 6)
    with pytest.raises(NotAllowedError):
        await env.services.leagues.join(GUILD, view.id, ROBOT)
    with pytest.raises(InvalidStateError):
        await env.services.leagues.join(GUILD, view.id, PLAYERS[0])
    env.clock.advance(HOUR)
    await env.services.scheduler.tick()
    with pytest.raises(NotAllowedError):
        await env.services.leagues.cancel(GUILD, view.id, Member(PLAYERS[0]))
    cancelled = await env.services.leagues.cancel(GUILD, view.id, ORGANISER)
    assert cancelled.record.status is LeagueStatus.CANCELLED
    for game in cancelled.games:
        assert game.game_id is not None
        record = await env.repo.get_game(game.game_id)
        assert record is not None and record.status is GameStatus.ABORTED
    assert kinds(env)[-1] == Kind.LEAGUE_CANCELLED


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"season": "1h"}, "A season lasts"),
        ({"season": "soon"}, "not a duration"),
        ({"games_per_pair": 3}, "Each pair plays"),
        ({"smallest": 4}, "Divisions take 6 to 10"),
        ({"smallest": 9, "largest": 7}, "Divisions take 6 to 10"),
        ({"entry_window": "90d"}, "entry window"),
        ({"name": "x" * 61}, "at most 60"),
    ],
)
async def test_bad_league_settings_are_refused(
    env: Env, options: dict[str, object], message: str
) -> None:
    """Each bad setting gets its own clear refusal and stores nothing."""
    settings: dict[str, object] = {"season": "30d"} | options
    with pytest.raises(InvalidInputError, match=message):
        await env.services.leagues.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            member=ORGANISER,
            game="groups",
            **settings,  # type: ignore[arg-type]
        )
    assert await env.repo.list_leagues(GUILD, tuple(LeagueStatus)) == []
