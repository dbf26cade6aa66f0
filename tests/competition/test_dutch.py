"""The Dutch system's own decisions (FIDE C.04.3, 2026), one criterion at a time, on
hand-made brackets: each case is small enough to check by hand, and built so that the
criterion named decides between candidates equal on every criterion before it."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from bot.bench.simulation import play_out
from bot.competition import dutch
from bot.competition.colours import FIRST, SECOND, preference
from bot.competition.dutch import exchanges, pair_dutch
from bot.competition.dutch_colours import allocate
from bot.competition.dutch_search import Steps, assignments
from bot.competition.records import Pairing, Result
from bot.competition.swiss import pair_round
from bot.competition.swiss_players import Entry, Float
from bot.competition.tournament import Format, Tournament

DOWN, UP = Float.DOWN, Float.UP
W, B = FIRST, SECOND


def field(*players: tuple[int, float, tuple[int, ...]], **extra: dict[int, object]) -> list[Entry]:
    """Entries in pairing order from (player, points, seats); `extra` sets fields by player:
    floats={3: (DOWN, None)}, byes={5: 1}, top={1: True}, unplayed={2: 1}."""
    entries = []
    groups: dict[int, int] = {}
    for _, points, _ in players:
        groups[round(points * 2)] = groups.get(round(points * 2), 0) + 1
    seen: dict[int, int] = {}
    for rank, (player, points, seats) in enumerate(players):
        half = round(points * 2)
        floats = extra.get("floats", {}).get(player, (None, None))
        entries.append(
            Entry(
                player=player,
                rank=rank,
                pairing_number=player,
                half_points=half,
                level=sorted(groups, reverse=True).index(half),
                group_position=seen.get(half, 0),
                group_size=groups[half],
                seats=seats,
                preference=preference(seats),
                scored_without_playing=int(extra.get("byes", {}).get(player, 0)),  # type: ignore[call-overload]
                floats=floats,  # type: ignore[arg-type]
                top_scorer=bool(extra.get("top", {}).get(player, False)),
                unplayed=int(extra.get("unplayed", {}).get(player, 0)),  # type: ignore[call-overload]
            )
        )
        seen[half] = seen.get(half, 0) + 1
    return entries


def met(*pairs: tuple[int, int]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(pair) for pair in pairs)


def pairs_of(
    entries: list[Entry], history: Iterable[tuple[int, int]] = ()
) -> tuple[set[tuple[int, int]], int | None]:
    """(pairs as (higher-ranked, lower-ranked), the bye) of the Dutch pairing."""
    found = pair_dutch(entries, met(*history))
    assert found is not None
    made, bye = found
    return {(a.player, b.player) for a, b in made}, (bye.player if bye else None)


def test_exchanges_come_in_the_prescribed_order() -> None:
    """S1 = BSNs 1-2, S2 = 3-4 (positions from 0): fewest players exchanged; then the
    smallest difference of BSN sums; then the highest BSN leaving S1; then the lowest
    entering it."""
    assert list(exchanges(2, 2)) == [
        ((), ()),
        ((1,), (2,)),
        ((1,), (3,)),
        ((0,), (2,)),
        ((0,), (3,)),
        ((0, 1), (2, 3)),
    ]


def test_transpositions_of_s2_in_lexicographic_order() -> None:
    """Six players on one score, 1 has met 4: S1 = 1 2 3 against S2 = 4 5 6 fails, and the
    first transposition of S2 that works is 5 4 6: 1-5, 2-4, 3-6 (not 1-6 2-4 3-5, as
    good on every criterion but later in the order)."""
    entries = field(*((p, 1.0, ()) for p in range(1, 7)))
    assert pairs_of(entries, [(1, 4)]) == ({(1, 5), (2, 4), (3, 6)}, None)


def test_exchange_when_no_transposition_works() -> None:
    """1 has met 4, 5 and 6: no transposition pairs 1 in S2, so an exchange follows, and
    the first in order swaps BSN 3 and 4: S1 = 1 2 4, S2 = 3 5 6, giving 1-3, 2-5, 4-6."""
    entries = field(*((p, 1.0, ()) for p in range(1, 7)))
    assert pairs_of(entries, [(1, 4), (1, 5), (1, 6)]) == ({(1, 3), (2, 5), (4, 6)}, None)


def test_colour_preferences_come_before_float_history() -> None:
    """Residents 1, 2, 3 on one point, 4 on none. 1 and 3 are due the first seat, 2 the
    second; 3 floated down last round; 1 has met 4, so 1 cannot float. Pairing 1-3 and
    floating 2 would spare 3 a second downfloat (C14), but leaves 1 or 3 without their
    colour (C12, which comes first): the Dutch system pairs 1-2 and floats 3 to 4."""
    entries = field(
        (1, 1.0, (SECOND,)),
        (2, 1.0, (FIRST,)),
        (3, 1.0, (SECOND,)),
        (4, 0.0, (FIRST,)),
        floats={3: (DOWN, None)},
    )
    assert pairs_of(entries, [(1, 4)]) == ({(1, 2), (3, 4)}, None)


def test_float_history_decides_when_colours_tie() -> None:
    """The same bracket where 1 may float: pairing 2-3 and floating 1 meets every colour
    preference and repeats no float, so the Dutch system takes it over 1-2 (an exchange
    beats a transposition when it is better on a criterion)."""
    entries = field(
        (1, 1.0, (SECOND,)),
        (2, 1.0, (FIRST,)),
        (3, 1.0, (SECOND,)),
        (4, 0.0, (FIRST,)),
        floats={3: (DOWN, None)},
    )
    assert pairs_of(entries) == ({(2, 3), (1, 4)}, None)


def test_bye_goes_to_the_lowest_eligible_score() -> None:
    """Five players: 4 and 5 are lowest, but 5 has had a bye: the bye goes to 4, and 3
    (moved down) meets 5."""
    entries = field(
        (1, 1.0, (FIRST,)),
        (2, 1.0, (SECOND,)),
        (3, 0.5, (FIRST,)),
        (4, 0.0, (SECOND,)),
        (5, 0.0, ()),
        byes={5: 1},
    )
    assert pairs_of(entries) == ({(1, 2), (3, 5)}, 4)


def test_bye_never_goes_to_the_leader_while_a_lower_score_can_take_it() -> None:
    """Everyone below the leader has had a bye but 4 on one point, whose only possible
    opponents are the others: the bye goes to 4, not to the leader 1 (C4 with C2)."""
    entries = field(
        (1, 3.0, (FIRST, SECOND, FIRST)),
        (2, 2.0, (SECOND, FIRST)),
        (3, 2.0, (FIRST, SECOND)),
        (4, 1.0, (SECOND, FIRST, SECOND)),
        (5, 1.0, (FIRST, SECOND)),
        byes={2: 1, 3: 1, 5: 1},
    )
    assert pairs_of(entries)[1] == 4


def test_top_scorers_meet_in_the_last_round_despite_absolute_preferences() -> None:
    """1 and 2 lead and both had the second seat twice running: two such players may not
    meet (C3) unless they are top scorers in the last round. As top scorers they meet,
    and the higher-ranked 1 gets the first seat."""
    seats = (FIRST, SECOND, SECOND)
    ordinary = field(
        (1, 3.0, seats),
        (2, 3.0, seats),
        (3, 1.0, (FIRST, SECOND, FIRST)),
        (4, 0.0, (SECOND, FIRST, FIRST)),
    )
    assert (1, 2) not in pairs_of(ordinary)[0]
    top = field(
        (1, 3.0, seats),
        (2, 3.0, seats),
        (3, 1.0, (FIRST, SECOND, FIRST)),
        (4, 0.0, (SECOND, FIRST, FIRST)),
        top={1: True, 2: True},
    )
    assert (1, 2) in pairs_of(top)[0]
    one, two = top[0], top[1]
    assert allocate(one, two) == (one, two)


def test_colour_allocation_rules_in_order() -> None:
    """Both preferences granted; else the stronger (strong over mild, absolute over
    strong); else alternate from the latest round the two differed; else the higher
    player's preference; else the higher player's pairing number (odd: first seat)."""
    a, b = field((1, 1.0, (SECOND,)), (2, 1.0, (FIRST,)))
    assert allocate(a, b) == (a, b)
    mild, strong = field((1, 1.0, (FIRST, SECOND)), (2, 1.0, (SECOND, FIRST, SECOND)))
    assert preference(mild.seats).seat == preference(strong.seats).seat == FIRST
    assert allocate(mild, strong) == (strong, mild)
    strong, absolute = field((1, 1.0, (SECOND,)), (2, 1.0, (FIRST, SECOND, SECOND)))
    assert allocate(strong, absolute) == (absolute, strong)
    x, y = field((1, 1.0, (SECOND, FIRST, SECOND, FIRST)), (2, 1.0, (FIRST, SECOND, SECOND, FIRST)))
    # Both mildly due the second seat; they last differed in their second games, when 1
    # had the first seat and 2 the second: now 1 takes the second seat, 2 the first.
    assert allocate(x, y) == (y, x)
    # Seats alike all along: the higher-ranked player's preference (the second seat).
    x, y = field((1, 1.0, (SECOND, FIRST)), (2, 1.0, (SECOND, FIRST)))
    assert allocate(x, y) == (y, x)
    odd, even = field((1, 0.0, ()), (2, 0.0, ()))
    assert allocate(odd, even) == (odd, even)
    even, odd = field((2, 0.0, ()), (3, 0.0, ()))
    assert allocate(even, odd) == (odd, even)


# --- each quality criterion deciding (C5-C21, the 2026 numbering) ----------------------


def test_c5_the_bye_goes_to_the_lowest_score_even_if_a_higher_bracket_must_float() -> None:
    """Round 2 of five: 1 beat 4, 2 and 5 drew, 3 had the bye. Pairing the leaders 1-3
    would leave 2 and 5 (who met) for 4 and the bye on a half point; the bye can go to 4
    on no point, so both leaders float (C5 comes before C6). Then 1 meets 5 rather than 2
    (both had white and want black: C12)."""
    history = [
        Pairing(1, 1, 4, Result.FIRST_WINS),
        Pairing(1, 2, 5, Result.DRAW),
        Pairing(1, 3),
    ]
    made = pair_round((1, 2, 3, 4, 5), history, 2, last_round=4)
    assert [(p.first, p.second) for p in made] == [(5, 1), (3, 2), (4, None)]


def test_c6_more_pairs_come_before_the_rules_order() -> None:
    """1-4 on one point, 2 and 4 have met: the first transposition (1-3, 2-4) would float
    2 and 4; 1-4, 2-3 pairs everyone, so it is taken."""
    entries = field(*((p, 1.0, ()) for p in range(1, 5)), (5, 0.0, ()), (6, 0.0, ()))
    assert pairs_of(entries, [(2, 4)]) == ({(1, 4), (2, 3), (5, 6)}, None)


def test_c7_the_lowest_scores_float() -> None:
    """1 (two points) can only meet 4; 2 and 3 have met. Pairing 1-4 floats 2 and 3
    (scores 1 and 1); leaving 1 in Limbo and pairing 2-4 floats 1 and 3 (scores 2 and 1):
    as many floaters, but higher scores (C7). So 1-4, and 2, 3 meet the bottom group."""
    entries = field(
        (1, 2.0, ()),
        (2, 1.0, ()),
        (3, 1.0, ()),
        (4, 1.0, ()),
        (5, 0.0, ()),
        (6, 0.0, ()),
    )
    assert pairs_of(entries, [(1, 2), (1, 3), (2, 3)]) == ({(1, 4), (2, 5), (3, 6)}, None)


def test_c8_the_floater_is_the_one_the_next_bracket_can_pair() -> None:
    """1, 2, 3 on two points, one must float to 4 and 5 (who met). 3 has met both, so
    floating 3 (the first candidate, 1-2) would leave the next bracket unpaired; floating
    2 lets it pair 2-4 (C8). So 1-3, then 2-4, and 5 floats to the bottom group."""
    entries = field(
        (1, 2.0, ()),
        (2, 2.0, ()),
        (3, 2.0, ()),
        (4, 1.0, ()),
        (5, 1.0, ()),
        (6, 0.0, ()),
        (7, 0.0, ()),
        (8, 0.0, ()),
    )
    history = [(4, 5), (3, 4), (3, 5)]
    assert pairs_of(entries, history) == ({(1, 3), (2, 4), (5, 6), (7, 8)}, None)


def test_c9_the_bye_goes_to_the_player_with_fewest_unplayed_games() -> None:
    """Three players on no point; 3 missed a round. The first candidate, 1-2, would give 3
    the bye; C9 gives it to a player who played every round: 1-3, and 2 has the bye."""
    entries = field((1, 0.0, ()), (2, 0.0, ()), (3, 0.0, ()), unplayed={3: 1})
    assert pairs_of(entries) == ({(1, 3)}, 2)


def test_c10_topscorers_beyond_a_colour_difference_of_two() -> None:
    """Last round, four topscorers: 1 and 3 have had white twice more than black, so
    both must have black; 2 and 4 mildly want black. The first candidate, 1-3 and 2-4,
    gives 3 white a third time more than black (C10); 1-4 and 2-3 misses as many colour
    preferences (C12) but breaks no limit, so it is taken."""
    twice = (W, W, B, W)
    level = (B, W, B, W)
    entries = field(
        (1, 3.0, twice),
        (2, 3.0, level),
        (3, 3.0, twice),
        (4, 3.0, level),
        top={1: True, 2: True, 3: True, 4: True},
    )
    assert pairs_of(entries) == ({(1, 4), (2, 3)}, None)


def test_c11_topscorers_with_one_colour_three_times_running() -> None:
    """Last round, four topscorers: 1 and 3 had black twice running (so must have
    white), 2 and 4 mildly want white. 1-3 gives 3 black a third time running (C11);
    1-4 and 2-3 misses as many preferences but breaks no run, so it is taken."""
    running = (W, W, B, B)
    level = (W, B, W, B)
    entries = field(
        (1, 3.0, running),
        (2, 3.0, level),
        (3, 3.0, running),
        (4, 3.0, level),
        top={1: True, 2: True, 3: True, 4: True},
    )
    assert pairs_of(entries) == ({(1, 4), (2, 3)}, None)


def test_c12_colour_preferences() -> None:
    """Mild preferences: 1 and 3 want white, 2 and 4 black. 1-3, 2-4 (the first
    candidate) misses two; 1-4, 2-3 none."""
    entries = field((1, 1.0, (W, B)), (2, 1.0, (B, W)), (3, 1.0, (W, B)), (4, 1.0, (B, W)))
    assert pairs_of(entries) == ({(1, 4), (2, 3)}, None)


def test_c13_strong_colour_preferences() -> None:
    """All want white, 1 and 3 strongly (a game more with black), 2 and 4 mildly. Either
    way two players miss their colour (C12), but 1-3 makes a strong preference one of
    them (C13): 1-4 and 2-3 leave only mild ones unmet."""
    strong = (B, W, B)
    mild = (W, B, W, B)
    entries = field((1, 1.0, strong), (2, 1.0, mild), (3, 1.0, strong), (4, 1.0, mild))
    assert pairs_of(entries) == ({(1, 4), (2, 3)}, None)


@pytest.mark.parametrize("ago", [0, 1])
def test_c14_and_c16_a_resident_who_floated_down_does_not_again(ago: int) -> None:
    """1, 2, 3 on one point; one floats to 4, 5, 6. 3 floated down last round (C14; two
    rounds ago, C16), so 2 floats instead: 1-3, then 2-4 and 5-6."""
    floats = (DOWN, None) if ago == 0 else (None, DOWN)
    entries = field(
        *((p, 1.0, ()) for p in (1, 2, 3)),
        *((p, 0.0, ()) for p in (4, 5, 6)),
        floats={3: floats},
    )
    assert pairs_of(entries) == ({(1, 3), (2, 4), (5, 6)}, None)


@pytest.mark.parametrize("ago", [0, 1])
def test_c15_and_c17_an_mdp_does_not_meet_a_player_who_floated_up(ago: int) -> None:
    """1 moves down to 2, 3, 4. 2 floated up last round (C15; two rounds ago, C17), so 1
    meets 3 rather than 2."""
    floats = (UP, None) if ago == 0 else (None, UP)
    entries = field((1, 2.0, ()), *((p, 1.0, ()) for p in (2, 3, 4)), floats={2: floats})
    assert pairs_of(entries) == ({(1, 3), (2, 4)}, None)


@pytest.mark.parametrize("ago", [0, 1])
def test_c18_and_c20_an_mdp_who_floated_down_is_paired_first(ago: int) -> None:
    """1 and 2 (two points, they met) both move down to 3; one of them floats on to 4. 2
    floated down last round (C18; two rounds ago, C20), so 2 meets 3 and 1 floats on,
    although the MDP set {1} comes first in the rules' order."""
    floats = (DOWN, None) if ago == 0 else (None, DOWN)
    entries = field((1, 2.0, ()), (2, 2.0, ()), (3, 1.0, ()), (4, 0.0, ()), floats={2: floats})
    assert pairs_of(entries, [(1, 2)]) == ({(2, 3), (1, 4)}, None)


@pytest.mark.parametrize("ago", [0, 1])
def test_c19_and_c21_the_smaller_score_difference_meets_the_upfloater(ago: int) -> None:
    """1 (three points) and 2 (two, they met) move down to 3 and 4 on one point; 3
    floated up last round (C19; two rounds ago, C21). Either way one MDP meets 3 (C15
    ties); 2 does, with the smaller score difference."""
    floats = (UP, None) if ago == 0 else (None, UP)
    entries = field((1, 3.0, ()), (2, 2.0, ()), (3, 1.0, ()), (4, 1.0, ()), floats={3: floats})
    assert pairs_of(entries, [(1, 2)]) == ({(1, 4), (2, 3)}, None)


# --- moved-down players and Limbo ------------------------------------------------------


def test_mdps_beyond_the_residents_wait_in_limbo() -> None:
    """1, 2, 3 (two points, all met) move down to 4 and 5: the first MDP set in BSN
    order is paired ({1, 2}), 3 waits in Limbo and floats on to 6."""
    entries = field(*((p, 2.0, ()) for p in (1, 2, 3)), (4, 1.0, ()), (5, 1.0, ()), (6, 0.0, ()))
    met_before = [(1, 2), (1, 3), (2, 3)]
    assert pairs_of(entries, met_before) == ({(1, 4), (2, 5), (3, 6)}, None)
    # 1 has met both residents: the set {2, 3} is paired and 1 floats on.
    assert pairs_of(entries, [*met_before, (1, 4), (1, 5)]) == (
        {(2, 4), (3, 5), (1, 6)},
        None,
    )


# --- the rules' own examples --------------------------------------------------------


def _position(
    order: list[tuple[tuple[int, ...], tuple[int, ...]]], out: set[int], into: set[int]
) -> int:
    """Where the exchange of these BSNs (out of S1, into it) comes in `order`."""
    wanted = (tuple(sorted(b - 1 for b in out)), tuple(sorted(b - 1 for b in into)))
    return order.index(wanted)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (({4}, {6}), ({5}, {8})),
        (({3, 4}, {6, 8}), ({4, 5}, {8, 9})),
        (({2, 5}, {6, 7}), ({3, 4}, {6, 7})),
        (({1, 4, 5}, {6, 7, 8}), ({2, 3, 5}, {6, 7, 8})),
        (({4, 5}, {6, 9}), ({4, 5}, {7, 8})),
        (({3, 4, 5}, {6, 7, 10}), ({3, 4, 5}, {6, 8, 9})),
    ],
)
def test_exchanges_in_the_rules_examples_order(
    first: tuple[set[int], set[int]], then: tuple[set[int], set[int]]
) -> None:
    """The rules' examples in a bracket of ten (S1 = BSNs 1-5): 6↔4 before 8↔5 (the
    smaller difference of BSN sums); 8+6↔4+3 before 9+8↔5+4; 5 and 2 out before 4 and
    3, and 5, 4, 1 before 5, 3, 2 (the highest differing BSN out of S1); 6 and 9 in
    before 7 and 8, and 6, 7, 10 before 6, 8, 9 (the lowest differing BSN into S1)."""
    order = list(exchanges(5, 5))
    assert _position(order, *first) < _position(order, *then)


def _transpositions(s1: int, s2: int) -> int:
    """How many transpositions of S2 give S1's players different opponents."""
    players = field(*((p, 0.0, ()) for p in range(1, s1 + s2 + 1)))
    walked = assignments(
        players[:s1],
        players[s1:],
        cost=lambda _i, _j: 0,
        floor=lambda _i, _left, _counts: 0,
        offered=[(0, 0, 0, 0)] * s2,
        ceiling=0,
        steps=Steps(10**6),
    )
    return sum(1 for _ in walked)


def test_transposition_counts_as_in_the_rules() -> None:
    """An 11-player homogeneous bracket has 720 transpositions (S1 of 5 against S2 of 6);
    one with two MDPs has 72 (the MDPs against the 9 residents)."""
    assert _transpositions(5, 6) == 720
    assert _transpositions(2, 9) == 72


# --- two independent ways to the rules' choice -----------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(7, 1), (10, 2), (13, 3)])
def test_the_search_and_the_weighted_matching_choose_alike(
    players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every bracket of some random tournaments (draws, withdrawals, rounds up to the
    last possible), paired both ways: the search through every candidate in the rules'
    order for its first best, and the weighted matching with the rules' order as its
    lowest digits (`dutch_optimum`). Both must make the same pairs and floaters."""
    compared = []
    plain = dutch._Bracket.pair

    def pair(bracket: dutch._Bracket) -> tuple[dutch.Pairs, list[Entry]] | None:
        searched = bracket._best_by_search()
        if bracket.complete:
            chosen = bracket._choose()
            found = None if searched is None else (searched[0], searched[1])
            compared.append(chosen)
            assert _named(found) == _named(chosen)
        return plain(bracket)

    monkeypatch.setattr(dutch._Bracket, "pair", pair)
    monkeypatch.setattr(dutch, "QUICK_STEPS", 200_000)
    rng = random.Random(seed)
    for _ in range(3):
        tournament = Tournament(Format.SWISS, tuple(range(1, players + 1)), rounds=players - 1)
        play_out(tournament, rng, draw_rate=0.3, withdraw_rate=0.05)
    assert len(compared) > 20


def _named(
    found: tuple[list[tuple[Entry, Entry]], list[Entry]] | None,
) -> tuple[list[tuple[int, int]], list[int]] | None:
    if found is None:
        return None
    pairs, floaters = found
    return sorted((a.player, b.player) for a, b in pairs), sorted(e.player for e in floaters)


def test_a_bracket_of_a_thousand_needs_no_deep_recursion() -> None:
    """Round one of 1,000 players is one bracket with S1 of 500: paired with the
    interpreter allowed only a little more stack than the test itself uses."""
    import inspect
    import sys

    players = tuple(range(1, 1001))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 100)
    try:
        made = pair_round(players, [], 1)
    finally:
        sys.setrecursionlimit(limit)
    assert len(made) == 500
    assert (made[0].first, made[0].second) == (1, 501)


def test_a_large_bracket_where_the_first_good_transposition_is_deep() -> None:
    """Seventeen players on one point after round one: eight had black (and want
    white), seven had white, 31 and 33 won by forfeit (no colour, a downfloat). One
    floats to 34. Every colour preference can be met, and not by floating 31 or 33
    (C14); the first transposition that does so, S1's players each taking the first
    S2 player left who wants the other colour (or none), is 2-26, 3-25, 4-28, 5-27,
    8-30, 17-31, 22-29, 23-33, floating 32."""
    black = {2, 4, 8, 17, 23, 25, 27, 29}
    white = {3, 5, 22, 26, 28, 30, 32}
    order = [2, 3, 4, 5, 8, 17, 22, 23, 25, 26, 27, 28, 29, 30, 31, 32, 33]
    entries = field(
        *((p, 1.0, (B,) if p in black else (W,) if p in white else ()) for p in order),
        (34, 0.0, (W,)),
        floats={31: (DOWN, None), 33: (DOWN, None)},
    )
    expected = {(2, 26), (3, 25), (4, 28), (5, 27), (8, 30), (17, 31), (22, 29), (23, 33)}
    assert pairs_of(entries) == (expected | {(32, 34)}, None)
