"""TournamentService: whole tournaments of each format driven through the services."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from datetime import timedelta

import pytest

from bot.boards import render_board, status_line
from bot.competition.colours import colour_difference, seat_histories
from bot.competition.glicko2 import Rating
from bot.competition.records import Result
from bot.competition.tournament import Format
from bot.services.background import Background
from bot.services.competition.tournaments import Member
from bot.services.container import Services
from bot.services.errors import InvalidInputError, InvalidStateError, NotAllowedError, NotFoundError
from bot.services.games.players import Player
from bot.services.views.tournaments import TournamentView
from bot.storage.competition import PairingRecord, PlayerRating, TournamentStatus
from bot.storage.repository import GameRecord, GameStatus
from bot.texts.games import result_text
from bot.texts.tournaments import (
    pairings_message,
    round_started_message,
    seed_advance_text,
    standings_message,
)
from tests.services.conftest import CAROL, CHANNEL, GUILD, ROBOT, Env, play_any

PLAYERS = [Player(100 + number, f"p{number}") for number in range(1, 9)]
P1, P2, P3, P4, P5 = PLAYERS[:5]
ORGANISER = Member(CAROL, can_manage=True)

Decide = Callable[[PairingRecord], int | None]
"""The seat that wins a game (None for a draw)."""


def first_wins(pairing: PairingRecord) -> int | None:
    """The first seat wins."""
    return 0


def better_seed_wins(view: TournamentView) -> Decide:
    """The better-seeded player wins."""
    seed = {e.user_id: e.seed or 0 for e in view.entrants}

    def decide(pairing: PairingRecord) -> int | None:
        assert pairing.second_id is not None
        return 0 if seed[pairing.first_id] < seed[pairing.second_id] else 1

    return decide


async def create(env: Env, format: str, players: int, **options: object) -> TournamentView:
    """The organiser creates a Groups tournament; the first `players` players join."""
    view = await env.services.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        member=ORGANISER,
        game="groups",
        format=format,
        **options,  # type: ignore[arg-type]
    )
    for player in PLAYERS[:players]:
        view = await env.services.tournaments.join(GUILD, view.id, player)
    return view


async def start(env: Env, view: TournamentView) -> TournamentView:
    """The organiser starts the tournament; round one is paired in the background."""
    await env.services.tournaments.start(GUILD, view.id, ORGANISER)
    await env.services.background.settle()
    return await env.services.tournaments.view(view.id)


async def games_in_progress(
    env: Env, view: TournamentView
) -> list[tuple[PairingRecord, GameRecord]]:
    """The tournament's games being played, with their records."""
    found = []
    for pairing in (await env.services.tournaments.view(view.id)).pairings:
        if pairing.game_id is not None and pairing.result is None:
            game = await env.repo.get_game(pairing.game_id)
            assert game is not None
            found.append((pairing, game))
    return found


async def end_game(env: Env, game: GameRecord, winner: int | None) -> None:
    """End a game after a first move (a game without one is not rated): the loser
    resigns, or a draw is offered and accepted."""
    games = env.services.games
    await play_any(env, game.id)
    first, second = game.players
    assert first is not None and second is not None
    if winner is None:
        await games.offer_draw(game.id, first)
        await games.answer_draw(game.id, second, accept=True)
    else:
        await games.resign(game.id, (first, second)[1 - winner])


async def play_round(env: Env, view: TournamentView, decide: Decide) -> TournamentView:
    """Finish every game in progress as `decide` says; wait for what follows."""
    in_progress = await games_in_progress(env, view)
    assert in_progress, "no game to play"
    for pairing, game in in_progress:
        await end_game(env, game, decide(pairing))
    await env.services.background.settle()
    return await env.services.tournaments.view(view.id)


def check_pairings(view: TournamentView, *, rematches: bool) -> None:
    """Byes at most once each, colour differences within two and never a third seat
    running (the Swiss limits), and (unless allowed) no rematch."""
    played = [p for p in view.pairings if p.second_id is not None]
    byes = Counter(p.first_id for p in view.pairings if p.second_id is None)
    assert all(count <= 1 for count in byes.values()), byes
    meetings = Counter(frozenset((p.first_id, p.second_id)) for p in played)
    if not rematches:
        assert all(count == 1 for count in meetings.values()), meetings
    state = view.state
    assert state is not None
    for player, seats in seat_histories(state.pairings).items():
        for end in range(1, len(seats) + 1):
            assert abs(colour_difference(seats[:end])) <= 2, (player, seats)
            assert end < 3 or len(set(seats[end - 3 : end])) == 2, (player, seats)


async def test_a_round_robin_runs_to_its_final_standings(env: Env) -> None:
    """Four players, three rounds started one after another by the results alone."""
    view = await start(env, await create(env, "round robin", 4))
    assert view.record.status is TournamentStatus.RUNNING and view.record.rounds == 3
    assert [e.seed for e in view.entrants] == [1, 2, 3, 4]
    assert env.notifier.rounds == [(view.id, 1)]
    started = env.notifier.game_starts
    assert len(started) == 2
    for _, pairing, game in started:
        record = game.record
        assert record.tournament_id == view.id and record.rated
        assert record.players == (pairing.first_id, pairing.second_id)
        assert record.channel_id == CHANNEL and record.guild_id == GUILD
    decide = better_seed_wins(view)
    for number in (1, 2, 3):
        assert view.current_round == number
        view = await play_round(env, view, decide)
    assert env.notifier.rounds == [(view.id, 1), (view.id, 2), (view.id, 3)]
    assert view.record.status is TournamentStatus.FINISHED
    assert [t.id for t in env.notifier.tournaments_finished] == [view.id]
    state = view.state
    assert state is not None
    assert state.standings_table(view.names) == "\n".join(
        [
            "#  Player  Pts  W  D  L  SB",
            "1  p1        3  3  0  0   3",
            "2  p2        2  2  0  1   1",
            "3  p3        1  1  0  2   0",
            "4  p4        0  0  0  3   0",
        ]
    )
    check_pairings(view, rematches=False)
    winner = await env.repo.get_rating(P1.id, "groups")
    assert winner is not None and winner.games == 3 and winner.wins == 3


async def test_a_swiss_survives_a_restart_and_a_result_stored_while_down(env: Env) -> None:
    """Five players, three rounds: a bye each round, no rematch, colours within one."""
    view = await start(env, await create(env, "swiss", 5, rounds=3))
    assert view.record.rounds == 3
    first_round = view.round_pairings(1)
    assert [p.second_id is None for p in first_round] == [False, False, True]
    assert first_round[-1].first_id == P5.id  # the lowest seed has the bye
    view = await play_round(env, view, first_wins)
    assert view.current_round == 2 and len(await games_in_progress(env, view)) == 2
    (_, one), (_, other) = await games_in_progress(env, view)
    await end_game(env, one, 1)
    await env.services.background.settle()
    # The bot stops; while it is down the other game ends without its hooks running.
    await env.repo.update_game(
        other.evolve(
            status=GameStatus.FINISHED, winner=0, result_reason="time", finished_at=env.clock.now()
        )
    )
    restarted = await env.restart()
    try:
        assert await restarted.repo.tournaments_needing_work() == [view.id]
        await restarted.services.scheduler.tick()
        view = await restarted.services.tournaments.view(view.id)
        assert view.current_round == 3
        assert restarted.notifier.rounds == [(view.id, 3)]
        assert len(restarted.notifier.game_starts) == 2
        assert await restarted.repo.tournaments_needing_work() == []
        view = await play_round(restarted, view, first_wins)
        assert view.record.status is TournamentStatus.FINISHED
        assert len(restarted.notifier.tournaments_finished) == 1
        check_pairings(view, rematches=False)
        standings = view.state.standings() if view.state else ()
        assert len(standings) == 5 and standings[0].tiebreaks  # Buchholz and others
        table = view.state.standings_table(view.names) if view.state else ""
        assert table.splitlines()[0].split() == [
            "#", "Player", "Pts", "W", "D", "L", "Bye", "Bh", "Bh-1", "SB"
        ]  # fmt: skip
    finally:
        await restarted.repo.close()


async def test_an_elimination_is_seeded_by_rating_and_replays_draws(env: Env) -> None:
    """Byes go to the top seeds; a drawn game is replayed with colours reversed."""
    stored = [
        PlayerRating(
            player.id,
            "groups",
            player.name,
            Rating(rating, 80.0),
            games=20,
            last_rated_at=env.clock.now(),
        )
        for player, rating in zip(PLAYERS[:5], (1500, 1600, 1700, 1800, 1900), strict=True)
    ]
    await env.repo.record_ratings([], stored)
    view = await start(env, await create(env, "knockout", 5))
    assert [e.user_id for e in view.entrants] == [P5.id, P4.id, P3.id, P2.id, P1.id]
    assert view.record.rounds == 3
    first = view.round_pairings(1)
    byes = sorted(p.first_id for p in first if p.second_id is None)
    assert byes == sorted([P5.id, P4.id, P3.id])
    [game] = [p for p in first if p.second_id is not None]
    assert {game.first_id, game.second_id} == {P2.id, P1.id}
    view = await play_round(env, view, lambda pairing: None)  # a draw
    replay = view.round_pairings(1)[-1]
    assert (replay.first_id, replay.second_id) == (game.second_id, game.first_id)
    assert replay.game_id is not None and replay.game_id != game.game_id
    assert env.notifier.rounds == [(view.id, 1)]  # a replay is no new round
    decide = better_seed_wins(view)
    while view.record.status is TournamentStatus.RUNNING:
        view = await play_round(env, view, decide)
    assert view.state is not None
    standings = view.state.standings()
    assert standings[0].player == P5.id
    assert len(env.notifier.tournaments_finished) == 1


async def test_a_withdrawal_and_a_timeout_in_a_round_robin(env: Env) -> None:
    """A timeout is a loss; a withdrawal resigns a game begun and forfeits the rest."""
    view = await start(env, await create(env, "round robin", 4))
    in_progress = await games_in_progress(env, view)
    by_player = {p: game for pairing, game in in_progress for p in game.players}
    p1_game = by_player[P1.id]
    other = next(game for _, game in in_progress if game.id != p1_game.id)
    # p1's game has begun: one move by the first seat.
    await env.services.games.play(p1_game.id, p1_game.players[0] or 0, "d3-e2")
    # The other game ends on time, through the same finish path the clocks use.
    await env.services.games.finish(other.id, 1, "White ran out of time")
    withdrawal = await env.services.tournaments.withdraw(GUILD, view.id, Member(P1))
    await env.services.background.settle()
    assert [g.id for g in withdrawal.resigned] == [p1_game.id] and not withdrawal.aborted
    assert withdrawal.resigned[0].record.result_reason == "p1 withdrew from the tournament"
    assert len(withdrawal.resigned[0].rating_changes) == 2  # resigned, so rated
    view = await env.services.tournaments.view(view.id)
    results = {p.game_id: p.result for p in view.round_pairings(1)}
    assert results[other.id] is Result.SECOND_WINS
    assert results[p1_game.id] is Result.from_winner(1 - p1_game.seat_of(P1.id))  # type: ignore[operator]
    # Rounds 2 and 3: p1's pairing is a forfeit without a game.
    for number in (2, 3):
        assert view.current_round == number
        forfeits = [p for p in view.round_pairings(number) if P1.id in (p.first_id, p.second_id)]
        assert len(forfeits) == 1 and forfeits[0].game_id is None
        assert forfeits[0].result is not None and forfeits[0].result.is_forfeit
        view = await play_round(env, view, first_wins)
    assert view.record.status is TournamentStatus.FINISHED
    assert view.state is not None
    [p1_line] = [s for s in view.state.standings() if s.player == P1.id]
    assert p1_line.withdrawn and p1_line.points == 0 and p1_line.losses == 3
    rated_games = await env.repo.get_rating(P1.id, "groups")
    assert rated_games is not None and rated_games.games == 1  # forfeits are not rated
    with pytest.raises(InvalidStateError, match="is over"):
        await env.services.tournaments.withdraw(GUILD, view.id, Member(P2))


async def test_a_forfeit_whose_pairing_was_not_stored_is_scored_as_one(env: Env) -> None:
    """After a crash between forfeiting the game and storing the withdrawal's results, the
    tournament scores the game as the forfeit it was, not as a win played."""
    view = await start(env, await create(env, "swiss", 4, rounds=2))
    [game] = [g for _, g in await games_in_progress(env, view) if P2.id in g.players]
    stayed = 1 - game.seat_of(P2.id)  # type: ignore[operator]
    await env.services.games.forfeit(game.id, stayed, "p2 withdrew from the tournament")
    await env.repo.withdraw_entrant(view.id, P2.id, env.clock.now(), [])
    view = await env.services.tournaments.advance(view.id)
    stored = view.pairing_of_game(game.id)
    assert stored is not None and stored.result is not None
    assert stored.result.is_forfeit and stored.result.winner_seat == stayed


async def test_withdrawing_before_the_first_move_forfeits_the_game(env: Env) -> None:
    """A game nobody moved in is won by the opponent by forfeit, unrated: the game's own
    record, its result line and its picture say so as the pairing does."""
    view = await start(env, await create(env, "swiss", 4, rounds=2))
    withdrawal = await env.services.tournaments.withdraw(GUILD, view.id, Member(P2))
    await env.services.background.settle()
    [aborted] = withdrawal.aborted
    game = await env.services.games.view(aborted.id)
    stayed = 1 - game.record.seat_of(P2.id)  # type: ignore[operator]
    assert (game.record.status, game.record.winner) == (GameStatus.FINISHED, stayed)
    assert not game.record.rated
    winner = game.record.names[stayed]
    reason = "p2 withdrew from the tournament; a forfeit, no rating changes"
    assert result_text(game) == f"**{winner} wins** with {game.colour(stayed)} ({reason})."
    assert status_line(game) == f"{winner} wins: {reason}"
    picture = render_board(game)
    assert picture.description is not None and f"{winner} wins: {reason}." in picture.description
    assert [g.id for g in env.notifier.aborted] == [aborted.id]
    view = await env.services.tournaments.view(view.id)
    pairing = view.pairing_of_game(aborted.id)
    assert pairing is not None and pairing.result is not None and pairing.result.is_forfeit
    assert pairing.result.winner_seat == stayed
    export = await env.services.records.export_of(game.record)
    for file in export.files:  # the forfeit's record reads back as the game it was
        imported = await env.services.records.import_file(file.content)
        assert (imported.record.winner, imported.record.result_reason) == (stayed, reason)
    assert await env.repo.rating_changes(aborted.id) == []
    view = await play_round(env, view, first_wins)
    assert view.current_round == 2
    assert all(P2.id not in (p.first_id, p.second_id) for p in view.round_pairings(2))
    with pytest.raises(InvalidStateError, match="already withdrawn"):
        await env.services.tournaments.withdraw(GUILD, view.id, Member(P2))


async def test_cancelling_aborts_games_and_pairs_nothing_more(env: Env) -> None:
    """Cancel: games in progress aborted without ratings, no standings posted."""
    view = await start(env, await create(env, "round robin", 4))
    with pytest.raises(NotAllowedError, match="Only carol"):
        await env.services.tournaments.cancel(GUILD, view.id, Member(P1))
    cancellation = await env.services.tournaments.cancel(GUILD, view.id, ORGANISER)
    assert cancellation.tournament.record.status is TournamentStatus.CANCELLED
    assert len(cancellation.aborted) == 2
    assert {g.id for g in env.notifier.aborted} == {g.id for g in cancellation.aborted}
    await env.services.scheduler.tick()
    assert env.notifier.rounds == [(view.id, 1)] and env.notifier.tournaments_finished == []
    for game in cancellation.aborted:
        assert (await env.services.games.record(game.id)).status is GameStatus.ABORTED
    with pytest.raises(NotFoundError):
        await env.services.tournaments.join(GUILD, None, P5)


async def test_double_round_robin_meets_twice_with_colours_reversed(env: Env) -> None:
    """Three players: six rounds, each resting twice, each pair once per seat order."""
    view = await start(env, await create(env, "double round robin", 3))
    assert view.record.rounds == 6
    while view.record.status is TournamentStatus.RUNNING:
        view = await play_round(env, view, first_wins)
    games = [(p.first_id, p.second_id) for p in view.pairings]
    assert len(games) == 6 and len(set(games)) == 6
    assert {frozenset(g) for g in games} == {
        frozenset((P1.id, P2.id)), frozenset((P1.id, P3.id)), frozenset((P2.id, P3.id))
    }  # fmt: skip
    check_pairings(view, rematches=True)


async def test_who_may_create_start_and_join(env: Env) -> None:
    """Organiser rights, the organiser role, and refusals of bad entries."""
    tournaments = env.services.tournaments
    member = Member(P1, roles=frozenset({77}))
    with pytest.raises(NotAllowedError, match="Manage Server permission or the organiser role"):
        await tournaments.create(
            guild_id=GUILD, channel_id=CHANNEL, member=member, game="groups", format="swiss"
        )
    await env.services.settings.update(GUILD, can_manage=True, organiser_role=77)
    view = await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, member=member, game="hexade", format="swiss",
        options={"size": 6}, name="  Spring   Swiss ", max_players=3, time_control="3d",
    )  # fmt: skip
    assert view.record.name == "Spring Swiss" and view.record.options["size"] == 6
    assert view.record.time_control == "3d" and view.record.rated
    await tournaments.join(GUILD, None, P1)
    with pytest.raises(InvalidStateError, match="already entered"):
        await tournaments.join(GUILD, view.id, P1)
    with pytest.raises(NotAllowedError, match="Bots"):
        await tournaments.join(GUILD, view.id, ROBOT)
    with pytest.raises(InvalidStateError, match="needs at least 2 players"):
        await tournaments.start(GUILD, view.id, member)
    await tournaments.join(GUILD, view.id, P2)
    await tournaments.join(GUILD, view.id, P3)
    with pytest.raises(InvalidStateError, match="full"):
        await tournaments.join(GUILD, view.id, P4)
    await tournaments.leave(GUILD, None, P3.id)
    with pytest.raises(NotAllowedError, match="Only p1"):
        await tournaments.start(GUILD, view.id, Member(P2))
    await tournaments.start(GUILD, view.id, member)  # the creator, by the role
    await env.services.background.settle()
    with pytest.raises(InvalidStateError, match="withdraw"):
        await tournaments.leave(GUILD, view.id, P2.id)
    with pytest.raises(NotFoundError, match="taking entries"):
        await tournaments.join(GUILD, None, P4)
    with pytest.raises(NotFoundError, match="no tournament #"):
        await tournaments.view(view.id + 50)
    with pytest.raises(NotFoundError, match="on this server"):
        await tournaments.find(GUILD + 1, view.id, None)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"format": "ladder"},
            "not a tournament format: choose round-robin, double-round-robin, swiss, knockout.",
        ),
        ({"format": "round robin", "rounds": 3}, "rounds are chosen for a Swiss only"),
        ({"format": "swiss", "rounds": 0}, "1 to 30 rounds"),
        ({"format": "swiss", "max_players": 200}, "2 to 128 players"),
        ({"format": "swiss", "entry_window": "10s"}, "between 1m and 30d"),
        ({"format": "swiss", "time_control": "soon"}, "not a duration"),
        ({"format": "swiss", "name": "x" * 61}, "at most 60 characters"),
    ],
)
async def test_bad_tournament_settings_are_refused(env: Env, options, message) -> None:
    """Each bad setting gets its own message and creates nothing."""
    with pytest.raises(InvalidInputError, match=message):
        await env.services.tournaments.create(
            guild_id=GUILD, channel_id=CHANNEL, member=ORGANISER, game="groups", **options
        )
    assert await env.services.tournaments.listed(GUILD) == []


async def test_entry_windows_start_or_cancel_by_themselves(env: Env) -> None:
    """When entries close: enough players start it; too few cancel it, announced."""
    full = await create(env, "swiss", 3, entry_window="1h")
    lonely = await create(env, "round robin", 1, entry_window="2h")
    assert len(await env.services.tournaments.listed(GUILD)) == 2
    env.clock.advance(timedelta(hours=1))
    with pytest.raises(InvalidStateError, match="closed"):
        await env.services.tournaments.join(GUILD, full.id, P5)
    await env.services.scheduler.tick()
    running = await env.services.tournaments.view(full.id)
    assert running.record.status is TournamentStatus.RUNNING
    assert env.notifier.rounds == [(full.id, 1)] and len(env.notifier.game_starts) == 1
    env.clock.advance(timedelta(hours=1))
    await env.services.scheduler.tick()
    cancelled = await env.services.tournaments.view(lonely.id)
    assert cancelled.record.status is TournamentStatus.CANCELLED
    [(_, reason)] = env.notifier.cancelled
    assert reason == "entries closed with 1 player; at least 2 are needed"


async def test_several_tournaments_need_a_number(env: Env) -> None:
    """Without a number the only candidate is meant; with several, the message lists them."""
    first = await create(env, "swiss", 0)
    await env.services.tournaments.join(GUILD, None, P1)
    second = await create(env, "swiss", 0)
    with pytest.raises(NotFoundError, match=f"#{second.id} .*#{first.id} "):
        await env.services.tournaments.join(GUILD, None, P2)
    found = await env.services.tournaments.find(GUILD, None, P1.id)
    assert found.id == first.id  # the one p1 entered


@pytest.mark.parametrize("typed", ["knockout", "single-elimination", "Single elimination"])
async def test_the_knockout_goes_by_either_name(env: Env, typed: str) -> None:
    """ "knockout" is the name shown everywhere; the older name is still understood."""
    view = await create(env, typed, 0)
    assert view.record.format is Format.SINGLE_ELIMINATION
    assert view.record.name == "Groups Knockout" and Format.SINGLE_ELIMINATION.label == "Knockout"


async def test_shown_tournaments_prefer_the_running_one(env: Env) -> None:
    """Standings, pairings and info without a number: the running tournament, though a
    newer one was cancelled and another takes entries; then the one taking entries; then
    the latest finished before a newer cancelled one; the cancelled one says so."""
    tournaments = env.services.tournaments
    running = await start(env, await create(env, "swiss", 4))
    cancelled = await create(env, "swiss", 2)
    await tournaments.cancel(GUILD, cancelled.id, ORGANISER)
    taking = await create(env, "round robin", 0)
    assert (await tournaments.find_shown(GUILD, None, P1.id)).id == running.id
    assert (await tournaments.find_shown(GUILD, cancelled.id)).id == cancelled.id
    await tournaments.cancel(GUILD, running.id, ORGANISER)
    assert (await tournaments.find_shown(GUILD, None)).id == taking.id
    await tournaments.cancel(GUILD, taking.id, ORGANISER)
    shown = await tournaments.find_shown(GUILD, None)
    assert shown.id == taking.id  # the latest of the cancelled ones
    assert (
        standings_message(shown).head
        == f"**{shown.record.name}** (#{shown.id}) was cancelled before it started."
    )
    stopped = await tournaments.view(running.id)
    assert standings_message(stopped).head.endswith(
        "was cancelled after 0 of 2 rounds: the standings then"
    )
    assert pairings_message(stopped).head.endswith("round 1 of 2 (the tournament was cancelled)")
    finished = await start(env, await create(env, "round robin", 2))
    await play_round(env, finished, first_wins)
    newest = await create(env, "swiss", 0)
    await tournaments.cancel(GUILD, newest.id, ORGANISER)
    assert (await tournaments.find_shown(GUILD, None)).id == finished.id


async def test_a_knockout_match_drawn_twice_before_any_move(env: Env) -> None:
    """Both games of a match agreed drawn at move 0: the draws count, neither is rated,
    and the better seed goes through, announced once with the reason."""
    view = await start(env, await create(env, "knockout", 2))
    games = env.services.games
    for _ in range(2):
        [(_, game)] = await games_in_progress(env, view)
        first, second = game.players
        assert first is not None and second is not None
        await games.offer_draw(game.id, first)
        drawn = await games.answer_draw(game.id, second, accept=True)
        assert not drawn.view.record.rated and not drawn.view.rating_changes
        assert drawn.view.record.result_reason == "draw agreed before any move: not rated"
        await env.services.background.settle()
        view = await env.services.tournaments.view(view.id)
    assert [p.result for p in view.pairings] == [Result.DRAW, Result.DRAW]
    assert await env.repo.get_rating(P1.id, "groups") is None
    [(tournament_id, decided)] = env.notifier.seed_decisions
    assert tournament_id == view.id and decided.id == view.pairings[-1].id
    assert seed_advance_text(view, decided) == (
        f"**Groups Knockout** (#{view.id}) · the final: p1 and p2 drew both games, so p1 "
        "wins the final as the better seed (seed 1 against seed 2)."
    )
    assert view.record.status is TournamentStatus.FINISHED
    assert view.state is not None and view.state.standings()[0].player == P1.id


async def test_a_knockout_announces_byes_and_leaves_out_the_knocked_out(env: Env) -> None:
    """Three players: the top seed's bye is said in round one; in the final, the player
    knocked out is not \"not playing this round\"."""
    view = await start(env, await create(env, "knockout", 3))
    message = round_started_message(view, 1)
    assert "p1 has a bye: they go through to the final without playing." in message.tail
    view = await play_round(env, view, better_seed_wins(view))
    final = pairings_message(view, 2)
    assert "Not playing" not in final.text()
    assert [sorted(line.split()[1:3]) for line in final.table.splitlines()[1:]] == [["p1", "p2"]]


async def test_a_large_round_says_it_is_being_set_up(env: Env) -> None:
    """A round of more games than a channel takes at once says its threads come a few at a
    time; a small round does not."""
    small = round_started_message(await start(env, await create(env, "swiss", 8)), 1)
    assert "Each game has its own thread" in small.tail
    assert "being set up" not in small.tail
    view = await create(env, "swiss", 8)
    for number in range(9, 11):
        view = await env.services.tournaments.join(
            GUILD, view.id, Player(100 + number, f"p{number}")
        )
    large = round_started_message(await start(env, view), 1)
    assert "The round is being set up: its 5 games get their threads a few at a time" in (
        large.tail
    )


async def test_games_ending_together_pair_the_next_round_once(env: Env) -> None:
    """The last games of a round ending at the same moment start one next round."""
    view = await start(env, await create(env, "round robin", 4))
    in_progress = await games_in_progress(env, view)
    await asyncio.gather(*(end_game(env, game, 0) for _, game in in_progress))
    await asyncio.gather(
        env.services.background.settle(),
        env.services.scheduler.tick(),
        env.services.tournaments.advance(view.id),
    )
    view = await env.services.tournaments.view(view.id)
    assert [p.round for p in view.pairings] == [1, 1, 2, 2]
    assert env.notifier.rounds == [(view.id, 1), (view.id, 2)]
    assert len(env.notifier.game_starts) == 4


@pytest.mark.parametrize(("field", "seed"), [(6, 1), (7, 2), (8, 3)])
async def test_random_swiss_tournaments_keep_the_pairing_rules(env: Env, field, seed) -> None:
    """Random results, draws and a withdrawal: no rematch, one bye each, colours within 1."""
    rng = random.Random(seed)
    view = await start(env, await create(env, "swiss", field, rounds=4))
    leaver = rng.choice(PLAYERS[:field])
    left = False
    while view.record.status is TournamentStatus.RUNNING:
        if view.current_round == 2 and not left:
            left = True
            await env.services.tournaments.withdraw(GUILD, view.id, Member(leaver))
            await env.services.background.settle()
            view = await env.services.tournaments.view(view.id)
        view = await play_round(env, view, lambda _: rng.choice([0, 1, None]))
        check_pairings(view, rematches=False)
    assert view.record.status is TournamentStatus.FINISHED
    assert view.current_round == 4
    assert all(leaver.id not in p.pairing.players for p in view.pairings if p.round > 2)


async def test_results_arriving_together_share_one_advance(env: Env) -> None:
    """Results recorded while an advance waits are handled by that one advance."""
    services = Services.build(
        env.repo, env.clock, env.notifier, background=Background(deferred=True)
    )
    view = await services.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, member=ORGANISER, game="groups", format="swiss"
    )
    for player in PLAYERS[:6]:
        await services.tournaments.join(GUILD, view.id, player)
    await services.tournaments.start(GUILD, view.id, ORGANISER)
    await services.background.settle()
    in_progress = await games_in_progress(env, view)
    assert len(in_progress) == 3
    for _, game in in_progress:
        loser = game.players[1]
        assert loser is not None
        await services.games.resign(game.id, loser)
    assert services.background.pending == 1
    await services.background.settle()
    view = await services.tournaments.view(view.id)
    assert view.current_round == 2 and len(view.round_pairings(2)) == 3


async def test_a_loss_on_time_ends_a_round_through_the_clocks(env: Env) -> None:
    """With a 1-day clock, the clocks' timeout ends the game; the next round follows. A
    loss on time counts as a loss, and is rated once the loser has moved (not before)."""
    view = await start(env, await create(env, "round robin", 3, time_control="1d"))
    [(pairing, game)] = await games_in_progress(env, view)
    assert game.time_control == "1d"
    for _ in range(2):  # both players move once
        await play_any(env, game.id)
    env.clock.advance(timedelta(days=1, minutes=1))
    await env.services.scheduler.tick()
    await env.services.background.settle()
    ended = await env.services.games.record(game.id)
    assert ended.status is GameStatus.FINISHED and ended.winner == 1
    assert ended.result_reason == f"{ended.names[0]} ran out of time"
    view = await env.services.tournaments.view(view.id)
    assert view.round_pairings(1)[0].result is Result.SECOND_WINS
    assert view.current_round == 2 and env.notifier.rounds[-1] == (view.id, 2)
    assert len(await env.repo.rating_changes(game.id)) == 2  # a loss on time is rated
    assert pairing.game_id == game.id
    [(_, no_show)] = await games_in_progress(env, view)
    env.clock.advance(timedelta(days=1, minutes=1))  # nobody moves in round 2
    await env.services.scheduler.tick()
    await env.services.background.settle()
    ended = await env.services.games.record(no_show.id)
    assert ended.winner == 1 and not ended.rated
    assert ended.result_reason == f"{ended.names[0]} ran out of time without moving: not rated"
    view = await env.services.tournaments.view(view.id)
    assert view.round_pairings(2)[0].result is Result.SECOND_WINS  # still a loss
    assert await env.repo.rating_changes(no_show.id) == []


async def test_the_list_shows_ended_tournaments_after_going_ones_in_pages(env: Env) -> None:
    """/tournament list: going tournaments first, then cancelled and finished ones, the
    most recently ended first, 15 to a page; a page past the end says how many there are."""
    tournaments = env.services.tournaments
    made = [await create(env, "swiss", 0, name=f"T{n}") for n in range(17)]
    for view in made[:3]:
        env.clock.advance(timedelta(minutes=1))
        await tournaments.cancel(GUILD, view.id, ORGANISER)
    first = await tournaments.listing(GUILD)
    assert (first.page, first.pages, first.total, len(first.records)) == (1, 2, 17, 15)
    second = await tournaments.listing(GUILD, 2)
    shown = [r.name for r in first.records + second.records]
    going = [f"T{n}" for n in range(16, 2, -1)]
    assert shown == [*going, "T2", "T1", "T0"]
    assert [r.status for r in second.records] == [TournamentStatus.CANCELLED] * 2
    with pytest.raises(InvalidInputError, match="There is no page 3: the list has 2 pages"):
        await tournaments.listing(GUILD, 3)
