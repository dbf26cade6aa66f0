"""Leagues: division sizes, the ladder, promotion and relegation, standings."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.competition.leagues import (
    MAX_DIVISION,
    MIN_DIVISION,
    Move,
    by_rating,
    check_bounds,
    division_games,
    division_sizes,
    final_order,
    moves,
    next_ladder,
    outcomes,
    place_newcomers,
    split,
    standings,
)
from bot.competition.records import Result


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (0, ()),
        (2, (2,)),
        (5, (5,)),
        (6, (6,)),
        (10, (10,)),
        (11, (11,)),  # no split keeps 6-10: one division of 11
        (12, (6, 6)),
        (13, (7, 6)),
        (20, (10, 10)),
        (21, (7, 7, 7)),
        (31, (8, 8, 8, 7)),
    ],
)
def test_division_sizes(players: int, sizes: tuple[int, ...]) -> None:
    """As few divisions as the bounds allow, as even as can be, the larger on top."""
    assert division_sizes(players) == sizes


def test_narrow_bounds() -> None:
    """Divisions of exactly 6: 13 players can only be split 7 and 6."""
    assert division_sizes(18, 6, 6) == (6, 6, 6)
    assert division_sizes(13, 6, 6) == (7, 6)
    assert division_sizes(16, 6, 8) == (8, 8)


def test_bad_bounds_are_refused() -> None:
    """Bounds outside 6-10, or upside down, are refused."""
    for smallest, largest in ((5, 8), (6, 11), (9, 8)):
        with pytest.raises(ValueError):
            check_bounds(smallest, largest)
    check_bounds(6, 10)


bounds = st.tuples(
    st.integers(MIN_DIVISION, MAX_DIVISION), st.integers(MIN_DIVISION, MAX_DIVISION)
).map(sorted)


@given(st.integers(0, 400), bounds)
def test_everyone_is_placed_once_within_bounds_when_possible(
    players: int, limits: list[int]
) -> None:
    """Every player lands in exactly one division; sizes keep the bounds whenever some
    split can, and differ by at most one."""
    smallest, largest = limits
    ladder = list(range(1000, 1000 + players))
    divisions = split(ladder, smallest, largest)
    placed = [player for division in divisions for player in division]
    assert placed == ladder
    sizes = [len(division) for division in divisions]
    if players:
        assert max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes, reverse=True)
    possible = any(smallest * k <= players <= largest * k for k in range(1, players + 1))
    if possible:
        assert all(smallest <= size <= largest for size in sizes)
    elif players >= smallest:
        assert all(size >= smallest for size in sizes)
    else:
        assert len(divisions) <= 1


def test_first_ladder_is_by_rating() -> None:
    """Best rating first; equal ratings keep the order given."""
    assert by_rating([1, 2, 3, 4], {1: 1500, 2: 1700, 3: 1500, 4: 1600}) == (2, 4, 1, 3)


def test_top_two_go_up_and_bottom_two_go_down() -> None:
    """Two divisions of six: the bottom two of the first swap with the top two of the
    second; the top division's winners and the last division's losers stay."""
    top = (1, 2, 3, 4, 5, 6)
    low = (11, 12, 13, 14, 15, 16)
    went = moves([top, low])
    assert [went[p] for p in top] == [Move.STAY] * 4 + [Move.DOWN] * 2
    assert [went[p] for p in low] == [Move.UP] * 2 + [Move.STAY] * 4
    ladder = next_ladder([top, low], set(top + low), (), {})
    assert ladder == (1, 2, 3, 4, 11, 12, 5, 6, 13, 14, 15, 16)
    assert split(ladder, 6, 6) == ((1, 2, 3, 4, 11, 12), (5, 6, 13, 14, 15, 16))


def test_middle_division_moves_both_ways() -> None:
    """Three divisions: the middle one sends two up and two down and takes four in."""
    finals = [tuple(range(1, 7)), tuple(range(11, 17)), tuple(range(21, 27))]
    ladder = next_ladder(finals, {p for d in finals for p in d}, (), {})
    first, second, third = split(ladder, 6, 6)
    assert set(first) == {1, 2, 3, 4, 11, 12}
    assert set(second) == {5, 6, 13, 14, 21, 22}
    assert set(third) == {15, 16, 23, 24, 25, 26}
    assert [o.move for o in outcomes(finals) if o.division == 2] == [
        Move.UP,
        Move.UP,
        Move.STAY,
        Move.STAY,
        Move.DOWN,
        Move.DOWN,
    ]


def test_one_division_moves_nobody() -> None:
    """A league of one division promotes and relegates nobody."""
    assert set(moves([(1, 2, 3, 4, 5, 6, 7)]).values()) == {Move.STAY}


def test_newcomers_are_placed_by_rating_and_leavers_left_out() -> None:
    """A newcomer joins the division where their rating ranks among the returning
    players, at its end; a player who does not return is left out."""
    rating = {1: 1900, 2: 1800, 3: 1700, 4: 1600, 9: 1850, 8: 1000, 7: 1650}
    assert place_newcomers([(1, 2), (3, 4)], [8, 9, 7], rating) == ((1, 2, 9), (3, 4, 7, 8))
    assert next_ladder([(1, 2, 3, 4)], {1, 3, 4}, [9], rating) == (1, 3, 4, 9)


def test_a_newcomer_does_not_push_a_promoted_player_back() -> None:
    """Divisions of six: a strong newcomer joins the top division's block at its end, so
    cutting it again sends the newcomer, not a promoted player, down."""
    top, low = (1, 2, 3, 4, 5, 6), (11, 12, 13, 14, 15, 16)
    rating = dict.fromkeys(top + low, 1500.0) | {99: 2500.0}
    ladder = next_ladder([top, low], set(top + low) - {16}, [99], rating)
    assert ladder == (1, 2, 3, 4, 11, 12, 99, 5, 6, 13, 14, 15)
    assert split(ladder, 6, 6) == ((1, 2, 3, 4, 11, 12), (99, 5, 6, 13, 14, 15))


@given(
    st.lists(st.integers(1, 60), min_size=0, max_size=40, unique=True),
    st.lists(st.integers(61, 120), min_size=0, max_size=20, unique=True),
    st.data(),
)
def test_the_next_ladder_places_every_returning_player_and_newcomer_once(
    previous: list[int], newcomers: list[int], data: st.DataObject
) -> None:
    """Whatever the previous season, the next ladder holds exactly the returning players
    and the newcomers, and a promoted player stands above everyone relegated past them."""
    rating = {p: data.draw(st.floats(800, 2400)) for p in previous + newcomers}
    finals = split(previous)
    returning = (
        set(data.draw(st.lists(st.sampled_from(previous), unique=True))) if previous else set()
    )
    ladder = next_ladder(finals, returning, newcomers, rating)
    assert Counter(ladder) == Counter(list(returning) + newcomers)
    went = moves(finals)
    position = {player: index for index, player in enumerate(ladder)}
    for upper, lower in itertools.pairwise(finals):
        for up in (p for p in lower if went[p] is Move.UP and p in returning):
            for down in (p for p in upper if went[p] is Move.DOWN and p in returning):
                assert position[up] < position[down]


def test_games_of_a_division() -> None:
    """Each pair meets once; with two games, once with each colour."""
    players = (1, 2, 3, 4, 5, 6, 7)
    once = division_games(players, 1)
    assert len(once) == 21
    assert Counter(frozenset(p.players) for p in once) == Counter(
        {frozenset((a, b)): 1 for a in players for b in players if a < b}
    )
    twice = division_games(players, 2)
    assert Counter((p.first, p.second) for p in twice) == Counter(
        {(a, b): 1 for a in players for b in players if a != b}
    )
    with pytest.raises(ValueError):
        division_games(players, 3)


def test_withdrawn_players_finish_last() -> None:
    """A withdrawn player is last in the final order however many points they made."""
    games = division_games((1, 2, 3, 4), 1)
    played = [
        g.with_result(Result.FIRST_WINS if g.first == 1 else Result.SECOND_WINS)
        if 1 in g.players
        else g.with_result(Result.DRAW)
        for g in games
    ]
    table = standings((1, 2, 3, 4), played, withdrawn={1})
    assert table[0].player == 1 and table[0].points == 3
    assert final_order(table)[-1] == 1
