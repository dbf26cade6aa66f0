"""Swiss pairings: the Dutch system's priorities on exact cases, and against brute force."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.bench.simulation import play_out
from bot.competition import round_robin
from bot.competition.colours import (
    FIRST,
    SECOND,
    Preference,
    Strength,
    colour_difference,
    preference,
    seat_histories,
)
from bot.competition.records import Pairing, Result
from bot.competition.scoring import SWISS_BYE_POINTS, records
from bot.competition.swiss import Scales, pair_round, seats
from bot.competition.swiss_players import Float, entries_for, float_history
from bot.competition.tournament import Format, Tournament

W, L, D = Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW


def boards(pairings: tuple[Pairing, ...]) -> list[tuple[int, int | None]]:
    """(first, second) per board, the bye as (player, None)."""
    return [(p.first, p.second) for p in pairings]


def finish(pairings: tuple[Pairing, ...], result: Result) -> list[Pairing]:
    """Every game of a round ended with `result`; byes as they are."""
    return [p if p.is_bye else p.with_result(result) for p in pairings]


# --- round one (C.04.1 and the Dutch system's first round) --------------------------


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    """Eight players: 1 v 5, 2 v 6, 3 v 7, 4 v 8; the higher seat's pairing number
    decides its seat: odd numbers take the first seat (the initial colour), even ones the
    second."""
    assert boards(pair_round(range(1, 9), [], 1)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_one_bye_goes_to_the_lowest_seed() -> None:
    """Seven players: the seventh seed sits out with the bye, listed last."""
    assert boards(pair_round(range(1, 8), [], 1)) == [(1, 4), (5, 2), (3, 6), (7, None)]


# --- reference tournaments ------------------------------------------------------------


def test_eight_players_where_black_won_round_one_pair_winners_with_winners() -> None:
    """The four second seats win round one: round two pairs them with each other
    (2 v 5, 4 v 7 on one point; 1 v 6, 3 v 8 on none), and whatever happens in round
    two, the players on two points meet in round three, the last, so that nobody
    finishes 3-0 beside the winner. When 5 and 7 lead, both had the second seat twice:
    the top scorers' exception lets them meet (5 takes the first seat, 7 a third second
    seat running)."""
    players = range(1, 9)
    first = pair_round(players, [], 1)
    history = finish(first, L)
    second = pair_round(players, history, 2)
    assert boards(second) == [(2, 5), (4, 7), (6, 1), (8, 3)]
    winners = {p.second for p in first}
    assert all({p.first, p.second} <= winners for p in second[:2])
    for outcomes in ((W, W, W, W), (L, L, L, L), (W, L, D, W), (D, D, L, W)):
        played = history + [p.with_result(r) for p, r in zip(second, outcomes, strict=True)]
        third = pair_round(players, played, 3, last_round=3)
        if outcomes == (L, L, L, L):
            assert boards(third)[0] == (5, 7)
        table = records(list(players), played, bye_points=SWISS_BYE_POINTS)
        unbeaten = {p for p, r in table.items() if r.points == 2}
        for pairing in third:
            if set(pairing.players) & unbeaten:
                assert set(pairing.players) <= unbeaten or len(unbeaten) == 1, boards(third)
        for result in (W, L):
            final = records(list(players), played + finish(third, result), bye_points=1.0)
            assert sum(1 for r in final.values() if r.points == 3) <= 1


def test_eight_players_where_black_won_round_one_play_out_to_one_winner() -> None:
    """The same event where the first seat wins rounds two and three: 2 v 4 meet in
    round three with two points each, and a single player finishes on 3."""
    players = range(1, 9)
    history = finish(pair_round(players, [], 1), L)
    history += finish(pair_round(players, history, 2), W)
    third = pair_round(players, history, 3, last_round=3)
    assert boards(third) == [(4, 2), (5, 8), (7, 6), (1, 3)]
    final = records(list(players), history + finish(third, W), bye_points=1.0)
    assert [p for p, r in final.items() if r.points == 3] == [4]


def test_four_players_pair_the_winners_in_round_two() -> None:
    """Four players, the second seats win round one: they meet in round two."""
    first = pair_round([1, 2, 3, 4], [], 1)
    assert boards(first) == [(1, 3), (4, 2)]
    second = pair_round([1, 2, 3, 4], finish(first, L), 2)
    assert boards(second) == [(2, 3), (4, 1)]


# --- scores before colours -----------------------------------------------------------


def test_round_two_pairs_score_groups_then_floats_to_the_nearest_score() -> None:
    """Round one: 1-5 1-0, 6-2 0-1, 3-7 ½-½, 8-4 0-1. Groups: {1, 2, 4} on 1, {3, 7} on
    ½, {5, 6, 8} on 0. 1 v 2 (2 is due the first seat); 4 floats down to the highest of
    the ½ group, 3 (4 first); 7 floats down to 6 (7 is due the first seat, as 5 is, so
    not 5), leaving 5 v 8."""
    history = [Pairing(1, 1, 5, W), Pairing(1, 6, 2, L), Pairing(1, 3, 7, D), Pairing(1, 8, 4, L)]
    assert boards(pair_round(range(1, 9), history, 2)) == [(2, 1), (4, 3), (7, 6), (5, 8)]


def test_players_on_the_same_score_meet_although_both_want_the_same_seat() -> None:
    """Round one: 1 and 2 (both in the second seat of their game) won. Colours alone
    would pair each winner with a loser; the score groups come first: 1 v 2. Of two
    players due the same seat, the higher-ranked gets it (1 first, and 4 first against
    3)."""
    history = [Pairing(1, 3, 1, L), Pairing(1, 4, 2, L)]
    assert boards(pair_round([1, 2, 3, 4], history, 2)) == [(1, 2), (4, 3)]


def test_a_floater_goes_to_the_nearest_score() -> None:
    """Scores 2, 1, 1, 0 for 1, 2, 4, 3 (won and lost by forfeit against players who
    have left, so nobody has a colour yet). Either way one player floats out of each
    group; 1 v 2 and 4 v 3 have score differences 1 and 1, 1 v 3 and 2 v 4 would have 2
    and 0: the largest difference decides (FIDE's PSD), and the floater meets the
    highest of the group below."""
    wins, loses = Result.FIRST_WINS_BY_FORFEIT, Result.SECOND_WINS_BY_FORFEIT
    history = [
        Pairing(1, 1, 5, wins),
        Pairing(1, 2, 6, wins),
        Pairing(1, 3, 7, loses),
        Pairing(1, 4, 8, wins),
        Pairing(2, 1, 6, wins),
        Pairing(2, 2, 7, loses),
        Pairing(2, 3, 8, loses),
        Pairing(2, 4, 5, loses),
    ]
    third = pair_round(range(1, 9), history, 3, withdrawn={5, 6, 7, 8})
    assert boards(third) == [(1, 2), (3, 4)]


def test_nobody_floats_down_twice_running_when_avoidable() -> None:
    """Round one: 1 and 2 win, 4 v 7 is drawn, 3 has the bye (a downfloat). Of the
    group {1, 2, 3}, the lowest, 3, would float down again; 2 floats instead (to 7, who
    is due the other seat), and 1 meets 3."""
    history = [Pairing(1, 1, 5, W), Pairing(1, 6, 2, L), Pairing(1, 7, 4, D), Pairing(1, 3)]
    assert float_history(range(1, 8), history) == {3: {1: Float.DOWN}}
    assert boards(pair_round(range(1, 8), history, 2)) == [(3, 1), (2, 7), (4, 6), (5, None)]


# --- absolute criteria ---------------------------------------------------------------


def test_forced_rematch_when_nothing_else_is_left() -> None:
    """Two players must meet again in round two: a rematch with colours reversed."""
    history = [Pairing(1, 1, 2, D)]
    assert boards(pair_round([1, 2], history, 2)) == [(2, 1)]


def test_two_players_who_must_both_take_the_same_seat_do_not_meet() -> None:
    """1 and 2 lead with two wins, both from the second seat twice: both must take the
    first seat next (a third second seat running is not allowed), so each meets a
    player on one point instead."""
    history = [
        Pairing(1, 3, 1, L),
        Pairing(1, 4, 2, L),
        Pairing(1, 5, 6, W),
        Pairing(2, 5, 1, L),
        Pairing(2, 6, 2, L),
        Pairing(2, 3, 4, D),
    ]
    third = pair_round(range(1, 7), history, 3)
    pairs = {frozenset(p.players) for p in third}
    assert frozenset((1, 2)) not in pairs
    for pairing in third:
        if set(pairing.players) & {1, 2}:
            assert pairing.first in (1, 2)


def test_no_second_bye_and_a_forfeit_win_counts_as_one() -> None:
    """Three players: 3 had the bye and 1 won by forfeit; 2, although ranked below both,
    gets the bye."""
    history = [
        Pairing(1, 1, 2, Result.FIRST_WINS_BY_FORFEIT),
        Pairing(1, 3),
    ]
    third = pair_round([1, 2, 3], history, 2)
    assert third[-1].is_bye and third[-1].first == 2


def test_second_bye_only_when_everyone_has_had_one() -> None:
    """Of three players, the one who has had no bye gets it, though ranked first."""
    history = [Pairing(1, 1, 2, W), Pairing(1, 3), Pairing(2, 3, 1, L), Pairing(2, 2)]
    assert boards(pair_round([1, 2, 3], history, 3)) == [(2, 3), (1, None)]


def test_withdrawn_players_are_not_paired() -> None:
    """A withdrawn player gets neither a game nor the bye."""
    pairings = pair_round(range(1, 6), [], 1, withdrawn={5})
    assert sorted(p for pairing in pairings for p in pairing.players) == [1, 2, 3, 4]


def test_bad_histories_are_refused() -> None:
    """Unfinished games, rounds out of order and too few players are errors."""
    with pytest.raises(ValueError, match="must be finished"):
        pair_round([1, 2, 3, 4], [Pairing(1, 1, 2)], 2)
    with pytest.raises(ValueError, match="must come after"):
        pair_round([1, 2], [Pairing(2, 1, 2, W)], 2)
    with pytest.raises(ValueError, match="at least two active players"):
        pair_round([1, 2], [], 1, withdrawn={2})


# --- colours (the Dutch system's definitions and allocation rules) -------------------


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        ((), Preference(None, Strength.NONE)),
        ((FIRST, SECOND), Preference(FIRST, Strength.MILD)),
        ((SECOND, FIRST), Preference(SECOND, Strength.MILD)),
        ((FIRST,), Preference(SECOND, Strength.STRONG)),
        ((SECOND, FIRST, SECOND), Preference(FIRST, Strength.STRONG)),
        ((FIRST, FIRST), Preference(SECOND, Strength.ABSOLUTE)),
        ((SECOND, FIRST, FIRST), Preference(SECOND, Strength.ABSOLUTE)),
        ((FIRST, SECOND, SECOND), Preference(FIRST, Strength.ABSOLUTE)),
        ((FIRST, FIRST, SECOND, FIRST), Preference(SECOND, Strength.ABSOLUTE)),
    ],
)
def test_colour_preferences_follow_the_dutch_definitions(
    history: tuple[int, ...], expected: Preference
) -> None:
    """Absolute: difference beyond one or the same seat twice running; strong: a
    difference of one; mild: level, the seat opposite the last; none before a game."""
    assert preference(history) == expected


def test_the_stronger_preference_is_granted() -> None:
    """1 (one game, in the first seat: strong for the second) meets 2 (level, last in the
    first seat: mild for the second): 1 takes the second seat."""
    history = [Pairing(1, 1, 3, W), Pairing(1, 4, 2, L), Pairing(2, 2, 4, W), Pairing(2, 5, 6, D)]
    entries = {e.player: e for e in entries_for([1, 2, 3, 4, 5, 6], tuple(history), 3, set())}
    assert entries[1].preference == Preference(SECOND, Strength.STRONG)
    assert entries[2].preference == Preference(SECOND, Strength.MILD)
    first, second = seats(entries[1], entries[2])
    assert (first.player, second.player) == (2, 1)


def test_equal_preferences_alternate_from_the_last_game_in_which_seats_differed() -> None:
    """1 (second, first, second) and 2 (second, bye, second, first) both have a strong
    preference for the first seat. Unplayed rounds are left out of a colour history, as
    the rules' example "BWW-B counts as -BWWB" says, so 2's is second, second, first; the
    latest game in which their seats differed is the last one, in which 2 had the first
    seat: now 1 takes it, although 2 ranks higher."""
    history = [
        Pairing(1, 3, 1, D),
        Pairing(1, 4, 2, D),
        Pairing(2, 1, 5, D),
        Pairing(2, 2),
        Pairing(3, 6, 1, D),
        Pairing(3, 5, 2, D),
        Pairing(4, 2, 3, D),
    ]
    entries = {e.player: e for e in entries_for(range(1, 7), tuple(history), 5, set())}
    assert entries[1].seats == (SECOND, FIRST, SECOND)
    assert entries[2].seats == (SECOND, SECOND, FIRST)
    assert entries[1].preference == entries[2].preference == Preference(FIRST, Strength.STRONG)
    assert entries[2].rank < entries[1].rank
    first, second = seats(entries[2], entries[1])
    assert (first.player, second.player) == (1, 2)


def test_identical_histories_give_the_higher_ranked_player_their_preference() -> None:
    """Same seats in every game: the higher-ranked player gets their due seat."""
    history = [Pairing(1, 1, 3, W), Pairing(1, 2, 4, W)]
    entries = {e.player: e for e in entries_for([1, 2, 3, 4], tuple(history), 2, set())}
    first, second = seats(entries[2], entries[1])
    assert (first.player, second.player) == (2, 1)


def test_score_differences_compare_largest_first_as_in_the_rules_example() -> None:
    """The rules' PSD example: [2, 1½, ½] is worse than [2, 1, 1] (the second largest
    difference decides), however the smaller ones add up."""
    scales = Scales(levels=6, base=4, differences=[0, 1, 2, 3, 4], order_base=1)

    def psd(*points: float) -> int:
        return sum(scales.difference(round(2 * p)) for p in points)

    assert psd(2.0, 1.0, 1.0) < psd(2.0, 1.5, 0.5)
    assert psd(1.5, 0.5, 0.5) < psd(2.0, 0.0, 0.0) < psd(2.0, 0.5, 0.0)


# --- float history -------------------------------------------------------------------


def test_floats_are_recorded_against_the_score_before_the_round() -> None:
    """Round two: 1 (one point) meets 3 (½): 1 floats down, 3 up; 4 (½) meets 2 (none):
    4 floats down, 2 up; 5's bye and 6's forfeit win are downfloats too."""
    history = [
        Pairing(1, 1, 2, W),
        Pairing(1, 3, 4, D),
        Pairing(1, 5),
        Pairing(2, 1, 3, D),
        Pairing(2, 2, 4, D),
        Pairing(2, 6, 5, Result.FIRST_WINS_BY_FORFEIT),
    ]
    floats = float_history([1, 2, 3, 4, 5, 6], history)
    assert floats == {
        5: {1: Float.DOWN},
        1: {2: Float.DOWN},
        3: {2: Float.UP},
        2: {2: Float.UP},
        4: {2: Float.DOWN},
        6: {2: Float.DOWN},
    }


def test_pairing_is_deterministic() -> None:
    """The same history, in any order, gives the same pairings."""
    rng = random.Random(4)
    tournament = play_out(
        Tournament(Format.SWISS, tuple(range(1, 20)), rounds=5), rng, withdraw_rate=0.05
    )
    history = [p for p in tournament.pairings if p.round < 5]
    shuffled = history[:]
    rng.shuffle(shuffled)
    players = tournament.players
    expected = pair_round(players, history, 5, withdrawn=tournament.withdrawn)
    assert pair_round(players, shuffled, 5, withdrawn=tournament.withdrawn) == expected


# --- properties, checked by an independent brute force ------------------------------


class RoundFacts:
    """What the rules say about one round, computed independently of the pairer."""

    def __init__(self, tournament: Tournament) -> None:
        history = tournament.pairings
        self.active = list(tournament.active_players)
        table = records(tournament.players, history, bye_points=SWISS_BYE_POINTS)
        self.half = {p: round(2 * table[p].points) for p in self.active}
        self.free = {
            p: sum(
                1
                for e in table[p].encounters
                if e.opponent is None or (not e.played and e.points == 1)
            )
            for p in self.active
        }
        self.met = Counter(frozenset(p.players) for p in history if p.second is not None)
        self.seats = {p: seat_histories(history).get(p, []) for p in self.active}
        self.levels = sorted(set(self.half.values()), reverse=True)
        self.lowest = min(self.half.values())
        last = tournament.current_round + 1 == tournament.rounds
        self.leaders = {p for p in self.active if last and self.half[p] > tournament.current_round}

    def broken(self, player: int, seat: int) -> bool:
        """True when `seat` breaks the absolute colour limits for `player`."""
        after = [*self.seats[player], seat]
        return abs(colour_difference(after)) > 2 or (len(after) >= 3 and len(set(after[-3:])) == 1)

    def breaks(self, first: int, second: int) -> int:
        """Absolute colour breaks with these seats (none in a top scorer's last game)."""
        if {first, second} & self.leaders:
            return 0
        return self.broken(first, 0) + self.broken(second, 1)

    def level(self, player: int | None) -> int:
        """The score group's index from the top; the bye one below the lowest."""
        return len(self.levels) if player is None else self.levels.index(self.half[player])

    def cost(self, pairs: list[tuple[int, int | None]], *, best_seats: bool) -> tuple[object, ...]:
        """(rematches, second byes, colour breaks, score-group boundaries crossed, the
        same per boundary from the top, score differences largest first) of a round."""
        rematches = second_byes = breaks = 0
        cuts = [0] * len(self.levels)
        differences = []
        for first, second in pairs:
            if second is None:
                second_byes += self.free[first]
                differences.append(self.half[first] - self.lowest + 2)
            else:
                rematches += self.met[frozenset((first, second))]
                if best_seats:
                    breaks += min(self.breaks(first, second), self.breaks(second, first))
                else:
                    breaks += self.breaks(first, second)
                differences.append(abs(self.half[first] - self.half[second]))
            upper, lower = sorted((self.level(first), self.level(second)))
            for cut in range(upper, lower):
                cuts[cut] += 1
        differences.sort(reverse=True)
        return rematches, second_byes, breaks, sum(cuts), cuts, differences

    def all_pairings(self) -> Iterator[list[tuple[int, int | None]]]:
        """Every way to pair the active players, with the bye when the field is odd."""
        nodes: list[int | None] = list(self.active)
        if len(nodes) % 2:
            nodes.append(None)

        def pairings(rest: list[int | None]) -> Iterator[list[tuple[int, int | None]]]:
            if not rest:
                yield []
                return
            head, tail = rest[0], rest[1:]
            for index, partner in enumerate(tail):
                if head is None or partner is None:
                    player = head if head is not None else partner
                    assert player is not None
                    pair: tuple[int, int | None] = (player, None)
                else:
                    pair = (head, partner)
                for others in pairings(tail[:index] + tail[index + 1 :]):
                    yield [pair, *others]

        yield from pairings(nodes)


def check_round(tournament: Tournament, made: tuple[Pairing, ...]) -> None:
    """Every active player once; no pairing of the round breaks fewer absolute criteria
    (rematches, second byes, colour limits); and where they can all be kept, the bye goes
    to the lowest score that any such pairing gives it to (C4 with C2). The Dutch system
    pairs bracket by bracket from the top, so it does not minimise the floats of the
    whole round; its own choices are checked against the rules' worked cases in
    test_dutch.py."""
    facts = RoundFacts(tournament)
    placed = [player for pairing in made for player in pairing.players]
    assert sorted(placed) == sorted(facts.active), "every active player exactly once"
    assert sum(1 for p in made if p.is_bye) == len(facts.active) % 2
    costs = [(facts.cost(pairs, best_seats=True), pairs) for pairs in facts.all_pairings()]
    best = min(cost[:3] for cost, _ in costs)
    chosen = facts.cost([(p.first, p.second) for p in made], best_seats=False)
    assert chosen[:3] == best
    if best == (0, 0, 0) and len(facts.active) % 2:
        lowest = min(
            facts.half[first]
            for cost, pairs in costs
            if cost[:3] == best
            for first, second in pairs
            if second is None
        )
        assert [facts.half[p.first] for p in made if p.is_bye] == [lowest]


@settings(max_examples=60, deadline=None)
@given(
    field=st.integers(2, 9),
    seed=st.integers(0, 2**32),
    draw_rate=st.sampled_from([0.0, 0.3]),
    withdraw_rate=st.sampled_from([0.0, 0.1]),
)
def test_small_swiss_rounds_are_optimal_by_brute_force(
    field: int, seed: int, draw_rate: float, withdraw_rate: float
) -> None:
    """On small fields every round is the best of all possible pairings for the
    absolute criteria, then the floats (in all, then per boundary from the top), then
    the score differences, largest first."""
    tournament = Tournament(
        Format.SWISS, tuple(range(1, field + 1)), rounds=round_robin.rounds_per_cycle(field)
    )
    play_out(
        tournament,
        random.Random(seed),
        draw_rate=draw_rate,
        withdraw_rate=withdraw_rate,
        check=check_round,
    )


@settings(max_examples=25, deadline=None)
@given(field=st.integers(10, 40), seed=st.integers(0, 2**32))
def test_larger_swiss_tournaments_keep_the_absolute_criteria(field: int, seed: int) -> None:
    """Fields of 10–40 over ⌈log₂ N⌉ + 1 rounds: no rematch, no second bye, no colour
    difference beyond two and no third seat running, except in the last round for a top
    scorer or their opponent."""
    rounds = field.bit_length() + 1
    finished = play_out(
        Tournament(Format.SWISS, tuple(range(100, 100 + field)), rounds=rounds),
        random.Random(seed),
        draw_rate=0.2,
    )
    played = [p for p in finished.pairings if not p.is_bye]
    assert max(Counter(frozenset(p.players) for p in played).values()) == 1
    assert max(Counter(p.first for p in finished.pairings if p.is_bye).values(), default=0) <= 1
    before_last = [p for p in finished.pairings if p.round < rounds]
    table = records(finished.players, before_last, bye_points=SWISS_BYE_POINTS)
    leaders = {p for p, record in table.items() if record.points > (rounds - 1) / 2}
    exempt = {
        player
        for p in finished.round_pairings(rounds)
        if set(p.players) & leaders
        for player in p.players
    }
    for player, history in seat_histories(finished.pairings).items():
        checked = history[:-1] if player in exempt else history
        for end in range(1, len(checked) + 1):
            assert abs(colour_difference(checked[:end])) <= 2
            assert end < 3 or len(set(checked[end - 3 : end])) == 2
