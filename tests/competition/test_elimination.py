"""Single elimination: seeding, byes, winners advancing, drawn games, withdrawals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.bench.simulation import play_out
from bot.competition import elimination
from bot.competition.elimination import MAX_GAMES, bracket_order, bracket_size, rounds_of
from bot.competition.records import Entrant, Pairing, Result
from bot.competition.tournament import Format, Tournament

W, L, D = Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW


def test_bracket_order_is_standard_seeding() -> None:
    """1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight; the same pattern doubled for sixteen."""
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_top_seeds_are_spread_across_the_bracket(size: int) -> None:
    """The top 2^k seeds each sit in a different block of size/2^k places."""
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    blocks = 2
    while blocks <= size:
        width = size // blocks
        block_of = {seed: index // width for index, seed in enumerate(order)}
        assert len({block_of[seed] for seed in range(1, blocks + 1)}) == blocks
        blocks *= 2


def test_five_players_byes_go_to_the_top_three_seeds() -> None:
    """Five players in an eight-place bracket: seeds 1–3 have byes, 4 plays 5."""
    pairings = elimination.round_pairings([11, 12, 13, 14, 15], [], 1)
    assert [(p.first, p.second) for p in pairings] == [
        (11, None),
        (15, 14),
        (12, None),
        (13, None),
    ]


def test_winners_of_neighbouring_matches_meet() -> None:
    """Round two pairs the winners of matches one and two, and of three and four."""
    players = list(range(1, 9))
    first = [
        Pairing(1, 1, 8, W),
        Pairing(1, 5, 4, W),
        Pairing(1, 2, 7, L),
        Pairing(1, 6, 3, W),
    ]
    second = elimination.round_pairings(players, first, 2)
    assert [set(p.players) for p in second] == [{1, 5}, {7, 6}]
    # 1 had the first seat, 5 too: equal histories, so the slot decides (top first).
    assert (second[0].first, second[0].second) == (1, 5)
    # 7 had the second seat and 6 the first: 7 is owed the first seat.
    assert (second[1].first, second[1].second) == (7, 6)


def test_a_drawn_game_is_replayed_with_seats_reversed_then_the_better_seed_wins() -> None:
    """Draw, replay reversed; a second draw sends the better seed through."""
    players = [1, 2]
    drawn = [Pairing(1, 1, 2, D)]
    assert elimination.replays(players, drawn) == (Pairing(1, 2, 1),)
    twice = [*drawn, Pairing(1, 2, 1, D)]
    assert elimination.replays(players, twice) == ()
    (final,) = rounds_of(players, twice)[0]
    assert final.decided and final.winner == 1 and len(final.games) == MAX_GAMES
    decided = [*drawn, Pairing(1, 2, 1, W)]
    assert rounds_of(players, decided)[0][0].winner == 2


def test_a_withdrawn_winner_leaves_a_bye() -> None:
    """Who withdraws after winning leaves the next opponent a bye."""
    players = [1, 2, 3, 4]
    first = [Pairing(1, 1, 4, W), Pairing(1, 3, 2, W)]
    second = elimination.round_pairings(players, first, 2, withdrawn={3})
    assert second == (Pairing(2, 1),)


def test_bad_requests_are_refused() -> None:
    """Too few players, pairing a round twice or too early are errors."""
    with pytest.raises(ValueError, match="at least two players"):
        bracket_size(1)
    first = elimination.round_pairings([1, 2, 3, 4], [], 1)
    with pytest.raises(ValueError, match="paired already"):
        elimination.round_pairings([1, 2, 3, 4], first, 1)
    with pytest.raises(ValueError, match="must be decided first"):
        elimination.round_pairings([1, 2, 3, 4], first, 2)


@pytest.mark.parametrize("field", range(2, 34))
def test_favourites_always_winning_gives_the_seeded_final(field: int) -> None:
    """When the better seed wins every game: semi-finalists 1–4, final 1 v 2, 1 wins."""
    players = list(range(1, field + 1))
    # Entrants join in shuffled order; seeding by rating puts player k at seed k.
    entrants = [Entrant(p, 2000 - p) for p in random.Random(field).sample(players, field)]
    tournament = Tournament.start(Format.SINGLE_ELIMINATION, entrants)
    assert tournament.players == tuple(players)
    while not tournament.is_finished:
        tournament = tournament.with_pairings(tournament.advance())
        for game in tournament.unfinished():
            assert game.second is not None
            tournament = tournament.with_result(game, W if game.first < game.second else L)
    bracket = rounds_of(players, tournament.pairings)
    final = bracket[-1]
    assert len(final) == 1 and {final[0].top, final[0].bottom} == {1, 2}
    if field >= 4:
        semi_finalists = {side for match in bracket[-2] for side in (match.top, match.bottom)}
        assert semi_finalists == {1, 2, 3, 4}
    standings = tournament.standings()
    assert standings[0].player == 1 and standings[0].note == "winner"
    assert standings[1].player == 2 and standings[1].note == "final"


def check_round(tournament: Tournament, made: tuple[Pairing, ...]) -> None:
    """Every property of a new elimination round or of its replays."""
    players = tournament.players
    active = set(tournament.active_players)
    number = made[0].round
    assert all(p.round == number for p in made)
    assert all(player in active for p in made for player in p.players)
    if number == tournament.current_round:  # replays of drawn games
        for replay in made:
            games = [
                p
                for p in tournament.round_pairings(number)
                if set(p.players) == set(replay.players)
            ]
            assert games[-1].result is Result.DRAW
            assert (replay.first, replay.second) == (games[-1].second, games[-1].first)
            assert len(games) < MAX_GAMES
        return
    if number == 1:
        byes = [p.first for p in made if p.is_bye]
        expected = bracket_size(len(players)) - len(players)
        assert sorted(byes) == sorted(players[:expected])
        return
    previous = rounds_of(players, tournament.pairings, withdrawn=tournament.withdrawn)[-1]
    winners = [m.winner if m.winner in active else None for m in previous]
    expected_sides = [
        {side for side in pair if side is not None}
        for pair in zip(winners[::2], winners[1::2], strict=True)
    ]
    made_sides = [set(p.players) for p in made]
    assert made_sides == [sides for sides in expected_sides if sides]


@settings(max_examples=60, deadline=None)
@given(
    field=st.integers(2, 33),
    seed=st.integers(0, 2**32),
    draw_rate=st.sampled_from([0.0, 0.4]),
    withdraw_rate=st.sampled_from([0.0, 0.05]),
)
def test_random_brackets_play_to_a_single_winner(
    field: int, seed: int, draw_rate: float, withdraw_rate: float
) -> None:
    """Random results, draws and withdrawals: valid rounds, at most one champion."""
    players = tuple(range(10, 10 + field))
    tournament = Tournament(
        Format.SINGLE_ELIMINATION, players, rounds=elimination.round_count(field)
    )
    done = play_out(
        tournament,
        random.Random(seed),
        draw_rate=draw_rate,
        withdraw_rate=withdraw_rate,
        check=check_round,
    )
    standings = done.standings()
    winners = [s for s in standings if s.note == "winner"]
    assert len(winners) <= 1
    if not done.withdrawn:
        assert len(winners) == 1 and standings[0] == winners[0]
        champion = winners[0].player
        # The champion won every match: present in every round, never out.
        for matches in rounds_of(players, done.pairings):
            assert any(m.winner == champion for m in matches)
