"""Whole tournaments of every format, driven as the services will, through restarts."""

from __future__ import annotations

import random
from collections import Counter
from typing import TypedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.bench.simulation import play_out
from bot.competition.records import Entrant, Pairing, Result
from bot.competition.tournament import Format, Tournament, round_count

W, L, D = Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW


class Stored(TypedDict):
    """A tournament as the service would keep it: strings, ints and lists."""

    format: str
    players: list[int]
    rounds: int
    withdrawn: list[int]
    pairings: list[tuple[int, int, int | None, str | None]]


def stored(tournament: Tournament) -> Stored:
    """The tournament's storable form."""
    return {
        "format": tournament.format.value,
        "players": list(tournament.players),
        "rounds": tournament.rounds,
        "withdrawn": sorted(tournament.withdrawn),
        "pairings": [
            (p.round, p.first, p.second, None if p.result is None else p.result.value)
            for p in tournament.pairings
        ],
    }


def restored(rows: Stored) -> Tournament:
    """The tournament rebuilt from what `stored` kept, as after a restart."""
    return Tournament(
        Format(rows["format"]),
        tuple(rows["players"]),
        rows["rounds"],
        tuple(
            Pairing(number, first, second, None if value is None else Result(value))
            for number, first, second, value in rows["pairings"]
        ),
        frozenset(rows["withdrawn"]),
    )


def check_restart(tournament: Tournament, made: tuple[Pairing, ...]) -> None:
    """A tournament rebuilt from storage is equal and would pair the same games."""
    again = restored(stored(tournament))
    assert again == tournament
    assert again.advance() == made


@pytest.mark.parametrize("format", list(Format))
@pytest.mark.parametrize("field", [2, 3, 5, 8])
def test_full_tournament_of_each_format(format: Format, field: int) -> None:
    """Random results with draws, checked through restarts, to the final standings."""
    entrants = [Entrant(100 + i, 1500 + 37 * ((i * 5) % 7)) for i in range(field)]
    tournament = Tournament.start(format, entrants, swiss_rounds=3)
    done = play_out(tournament, random.Random(field), draw_rate=0.3, check=check_restart)
    assert done.is_finished and done.advance() == ()
    assert not done.unfinished()
    assert done.current_round == done.rounds
    standings = done.standings()
    assert sorted(s.player for s in standings) == sorted(done.players)
    assert standings[0].rank == 1
    games = [p for p in done.pairings if not p.is_bye]
    if format.is_round_robin:
        cycles = 2 if format is Format.DOUBLE_ROUND_ROBIN else 1
        assert Counter(frozenset(p.players) for p in games) == Counter(
            {frozenset((a, b)): cycles for a in done.players for b in done.players if a < b}
        )
    if format is not Format.SINGLE_ELIMINATION:
        points = [s.points for s in standings]
        assert points == sorted(points, reverse=True)
        assert sum(points) == len(games) + sum(s.byes for s in standings)
    else:
        assert [s.note for s in standings].count("winner") == 1


@settings(max_examples=30, deadline=None)
@given(
    format=st.sampled_from(list(Format)),
    field=st.integers(2, 12),
    seed=st.integers(0, 2**32),
    withdraw_rate=st.sampled_from([0.05, 0.2]),
)
def test_tournaments_with_withdrawals_finish(
    format: Format, field: int, seed: int, withdraw_rate: float
) -> None:
    """Withdrawals at any time: the tournament still pairs to its end, through restarts."""
    tournament = Tournament(format, tuple(range(1, field + 1)), round_count(format, field, 4))

    def check(before: Tournament, made: tuple[Pairing, ...]) -> None:
        check_restart(before, made)
        for pairing in made:
            if any(player in before.withdrawn for player in pairing.players):
                # Only a round robin schedules them, and then as a forfeit.
                assert format.is_round_robin
                assert pairing.result is not None and pairing.result.is_forfeit

    done = play_out(tournament, random.Random(seed), withdraw_rate=withdraw_rate, check=check)
    assert done.is_finished and not done.unfinished()


def test_round_robin_withdrawal_forfeits_the_remaining_games() -> None:
    """A player who leaves a round robin loses every game still to come by forfeit."""
    tournament = Tournament(Format.ROUND_ROBIN, (1, 2, 3, 4), rounds=3)
    tournament = tournament.with_pairings(tournament.advance())
    first, _ = tournament.unfinished()
    tournament = tournament.with_result(first, W).withdraw(3)
    assert tournament.round_pairings(1)[1].result is Result.FIRST_WINS_BY_FORFEIT
    round_two = tournament.advance()
    forfeits = {p.result for p in round_two if 3 in p.players}
    assert forfeits in ({Result.FIRST_WINS_BY_FORFEIT}, {Result.SECOND_WINS_BY_FORFEIT})
    assert next(p for p in round_two if 3 not in p.players).result is None
    standings = tournament.with_pairings(round_two).standings()
    assert next(s for s in standings if s.player == 3).withdrawn


def test_start_seeds_by_rating_then_joining_order() -> None:
    """Highest rating first; equal ratings keep the order in which players joined."""
    entrants = [Entrant(5, 1500), Entrant(6, 1700), Entrant(7, 1500), Entrant(8, 1600)]
    tournament = Tournament.start(Format.ROUND_ROBIN, entrants)
    assert tournament.players == (6, 8, 5, 7)
    assert tournament.rounds == 3 and tournament.current_round == 0


@pytest.mark.parametrize(
    ("format", "field", "asked", "rounds"),
    [
        (Format.SWISS, 4, 10, 3),
        (Format.SWISS, 5, 10, 5),
        (Format.SWISS, 20, 5, 5),
        (Format.SINGLE_ELIMINATION, 9, None, 4),
        (Format.DOUBLE_ROUND_ROBIN, 5, None, 10),
    ],
)
def test_round_count(format: Format, field: int, asked: int | None, rounds: int) -> None:
    """Swiss plays what was asked up to a round robin's length; others by the field."""
    assert round_count(format, field, asked) == rounds


def test_advance_waits_for_unfinished_games() -> None:
    """Nothing new is paired while the round is being played; then the next round."""
    tournament = Tournament(Format.SWISS, (1, 2, 3, 4), rounds=2)
    tournament = tournament.with_pairings(tournament.advance())
    assert tournament.advance() == ()
    for game in tournament.unfinished():
        tournament = tournament.with_result(game, D)
    assert [p.round for p in tournament.advance()] == [2, 2]


def test_resting_players_of_an_odd_round_robin() -> None:
    """In a round robin of three, one active player rests each round."""
    tournament = Tournament(Format.ROUND_ROBIN, (1, 2, 3), rounds=3)
    tournament = tournament.with_pairings(tournament.advance())
    assert len(tournament.resting(1)) == 1


def test_swiss_ends_early_when_one_player_is_left() -> None:
    """With fewer than two active players a Swiss has nothing more to pair."""
    tournament = Tournament(Format.SWISS, (1, 2, 3), rounds=3)
    tournament = tournament.with_pairings(tournament.advance())
    (game,) = tournament.unfinished()
    tournament = tournament.with_result(game, W)
    others = [p for p in (1, 2, 3) if p not in game.players or p == game.second]
    for player in others:
        tournament = tournament.withdraw(player)
    assert tournament.is_finished and tournament.advance() == ()


def test_bad_operations_are_refused() -> None:
    """Clear errors for impossible tournaments and operations."""
    with pytest.raises(ValueError, match="only once"):
        Tournament(Format.SWISS, (1, 1), rounds=1)
    with pytest.raises(ValueError, match="at least 2 players"):
        Tournament.start(Format.ROUND_ROBIN, [Entrant(1, 1500)])
    with pytest.raises(ValueError, match="number of rounds"):
        round_count(Format.SWISS, 6)
    with pytest.raises(ValueError, match="stranger"):
        Tournament(Format.SWISS, (1, 2), rounds=1, pairings=(Pairing(1, 1, 3),))
    tournament = Tournament(Format.SWISS, (1, 2), rounds=1)
    with pytest.raises(ValueError, match="not being played"):
        tournament.with_result(Pairing(1, 1, 2), W)
    with pytest.raises(ValueError, match="only entrants"):
        tournament.withdraw(9)
    with pytest.raises(ValueError, match="withdrawn already"):
        tournament.withdraw(1).withdraw(1)


def test_tables_of_a_tournament() -> None:
    """The tournament's tables show the format's columns and points before the round."""
    tournament = Tournament(Format.SWISS, (1, 2, 3), rounds=2)
    tournament = tournament.with_pairings(tournament.advance())
    (game,) = tournament.unfinished()
    tournament = tournament.with_result(game, W)
    tournament = tournament.with_pairings(tournament.advance())
    names = {1: "Ann", 2: "Ben", 3: "Cat"}
    assert tournament.standings_table(names).splitlines()[0].split() == [
        "#",
        "Player",
        "Pts",
        "W",
        "D",
        "L",
        "Bye",
        "Bh",
        "Bh-1",
        "SB",
    ]
    lines = tournament.pairings_table(2, names, seats=("White", "Black")).splitlines()
    assert lines[0].split() == ["White", "Black"]
    assert all("(" in line for line in lines[1:]), "points before the round on every line"


def favourites_win(tournament: Tournament) -> Tournament:
    """Every unfinished game won by the better seed (the smaller id here)."""
    for game in tournament.unfinished():
        assert game.second is not None
        tournament = tournament.with_result(game, W if game.first < game.second else L)
    return tournament


def test_elimination_ends_when_every_survivor_has_withdrawn() -> None:
    """Both semi-final winners leave: nothing is left to pair and nobody wins."""
    tournament = Tournament(Format.SINGLE_ELIMINATION, (1, 2, 3, 4), rounds=2)
    tournament = tournament.with_pairings(tournament.advance())
    tournament = favourites_win(tournament)
    tournament = tournament.withdraw(1).withdraw(2)
    assert tournament.is_finished and tournament.advance() == ()
    assert all(s.note != "winner" for s in tournament.standings())


def test_elimination_lone_survivor_walks_to_the_title() -> None:
    """The only finalist left gets a bye in the final and wins the tournament."""
    tournament = Tournament(Format.SINGLE_ELIMINATION, (1, 2, 3, 4), rounds=2)
    tournament = tournament.with_pairings(tournament.advance())
    tournament = favourites_win(tournament)
    tournament = tournament.withdraw(2)
    final = tournament.advance()
    assert final == (Pairing(2, 1),)
    tournament = tournament.with_pairings(final)
    assert tournament.is_finished
    assert tournament.standings()[0].player == 1 and tournament.standings()[0].note == "winner"
