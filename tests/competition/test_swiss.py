"""Swiss pairings: exact small cases, and properties checked against brute force."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.competition import round_robin
from bot.competition.colours import colour_difference, seat_histories
from bot.competition.records import Pairing, Result
from bot.competition.scoring import SWISS_BYE_POINTS, records
from bot.competition.swiss import pair_round
from bot.competition.tournament import Format, Tournament
from tests.competition.simulation import play_out

W, L, D = Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW


def boards(pairings: tuple[Pairing, ...]) -> list[tuple[int, int | None]]:
    """(first, second) per board, the bye as (player, None)."""
    return [(p.first, p.second) for p in pairings]


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    """Eight players: 1 v 5, 2 v 6, 3 v 7, 4 v 8, seats alternating from board one."""
    assert boards(pair_round(range(1, 9), [], 1)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_one_bye_goes_to_the_lowest_seed() -> None:
    """Seven players: the seventh seed sits out with the bye, listed last."""
    assert boards(pair_round(range(1, 8), [], 1)) == [(1, 4), (5, 2), (3, 6), (7, None)]


def test_round_two_pairs_score_groups_and_balances_colours() -> None:
    """Score groups pair top against bottom, floaters keep colours within one.

    Round one: 1-5 1-0, 6-2 0-1, 3-7 ½-½, 8-4 0-1. Groups: {1, 2, 4} on 1, {3, 7} on ½,
    {5, 6, 8} on 0. Seats owed: 1, 3, 6, 8 had the first seat and owe a second; 2, 4,
    5, 7 are owed a first. 1 v 2 (2 first); 4 floats down to 3 (4 first); 7 floats
    down to 6 (7 first), leaving 5 v 8 (5 first). 7 v 5 or 1 v 4 + 2 v 3 would pair
    two players owed the same seat or break the top-versus-bottom order.
    """
    history = [
        Pairing(1, 1, 5, W),
        Pairing(1, 6, 2, L),
        Pairing(1, 3, 7, D),
        Pairing(1, 8, 4, L),
    ]
    round_two = boards(pair_round(range(1, 9), history, 2))
    assert round_two == [(2, 1), (4, 3), (7, 6), (5, 8)]


def test_forced_rematch_when_nothing_else_is_left() -> None:
    """Two players must meet again in round two: a rematch with colours reversed."""
    history = [Pairing(1, 1, 2, D)]
    assert boards(pair_round([1, 2], history, 2)) == [(2, 1)]


def test_withdrawn_players_are_not_paired() -> None:
    """A withdrawn player gets neither a game nor the bye."""
    pairings = pair_round(range(1, 6), [], 1, withdrawn={5})
    assert sorted(p for pairing in pairings for p in pairing.players) == [1, 2, 3, 4]


def test_second_bye_only_when_everyone_has_had_one() -> None:
    """Of three players, the one who has had no bye gets it, though ranked first.

    Player 1 leads with two wins but is the only one without a bye; 2 (second seat in
    round one) is owed the first seat against 3.
    """
    history = [
        Pairing(1, 1, 2, W),
        Pairing(1, 3),
        Pairing(2, 3, 1, L),
        Pairing(2, 2),
    ]
    assert boards(pair_round([1, 2, 3], history, 3)) == [(2, 3), (1, None)]


def test_bad_histories_are_refused() -> None:
    """Unfinished games, rounds out of order and too few players are errors."""
    with pytest.raises(ValueError, match="must be finished"):
        pair_round([1, 2, 3, 4], [Pairing(1, 1, 2)], 2)
    with pytest.raises(ValueError, match="must come after"):
        pair_round([1, 2], [Pairing(2, 1, 2, W)], 2)
    with pytest.raises(ValueError, match="at least two active players"):
        pair_round([1, 2], [], 1, withdrawn={2})


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


# --- properties -------------------------------------------------------------------


class RoundFacts:
    """What the rules say about one round, computed independently of the pairer."""

    def __init__(self, tournament: Tournament) -> None:
        history = tournament.pairings
        self.active = list(tournament.active_players)
        table = records(tournament.players, history, bye_points=SWISS_BYE_POINTS)
        self.points = {p: table[p].points for p in self.active}
        self.byes = {p: table[p].byes for p in self.active}
        self.met = Counter(frozenset(p.players) for p in history if p.second is not None)
        seats = seat_histories(history)
        self.difference = {p: colour_difference(seats.get(p, [])) for p in self.active}
        seed = {player: index for index, player in enumerate(tournament.players)}
        ranked = sorted(self.active, key=lambda p: (-self.points[p], seed[p]))
        fewest = min(self.byes.values())
        eligible = [p for p in ranked if self.byes[p] == fewest]
        self.bye_rank = {p: below for below, p in enumerate(reversed(eligible))}

    def colour_ok(self, one: int, other: int) -> bool:
        """True when some seat order keeps both colour differences within one."""
        a, b = self.difference[one], self.difference[other]
        return any(abs(a + s) <= 1 and abs(b - s) <= 1 for s in (1, -1))

    def excess(self, first: int, second: int) -> int:
        """How far beyond one the colour differences go with these seats."""
        return max(0, abs(self.difference[first] + 1) - 1) + max(
            0, abs(self.difference[second] - 1) - 1
        )

    def perfect_matching_exists(self, allowed, *, balanced_bye: bool = False) -> bool:
        """Whether the active players (and the bye) can all be paired on allowed edges.

        With `balanced_bye`, the bye only goes to a player whose colours are within one
        (a bye leaves them as they are).
        """
        graph: nx.Graph[int | str] = nx.Graph()
        nodes: list[int | str] = list(self.active)
        if len(self.active) % 2:
            nodes.append("bye")
        graph.add_nodes_from(nodes)
        for i, one in enumerate(self.active):
            for other in self.active[i + 1 :]:
                if allowed(one, other):
                    graph.add_edge(one, other)
            bye_allowed = not balanced_bye or abs(self.difference[one]) <= 1
            if "bye" in nodes and one in self.bye_rank and bye_allowed:
                graph.add_edge(one, "bye")
        return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)

    def cost(self, pairs: list[tuple[int, int | None]], *, best_seats: bool) -> tuple[int, ...]:
        """(rematches, colour excess, bye rank, score-gap²) of a set of pairs."""
        rematches = excess = bye = gaps = 0
        for first, second in pairs:
            if second is None:
                bye = self.bye_rank[first]
                excess += max(0, abs(self.difference[first]) - 1)
                continue
            rematches += self.met[frozenset((first, second))]
            if best_seats:
                excess += min(self.excess(first, second), self.excess(second, first))
            else:
                excess += self.excess(first, second)
            gaps += round(2 * (self.points[first] - self.points[second])) ** 2
        return rematches, excess, bye, gaps

    def all_pairings(self) -> Iterator[list[tuple[int, int | None]]]:
        """Every way to pair the active players, the bye only to eligible players."""
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
                    if player not in self.bye_rank:
                        continue
                    pair: tuple[int, int | None] = (player, None)
                else:
                    pair = (head, partner)
                for others in pairings(tail[:index] + tail[index + 1 :]):
                    yield [pair, *others]

        yield from pairings(nodes)


def check_round(tournament: Tournament, made: tuple[Pairing, ...]) -> None:
    """Every property of a freshly paired Swiss round."""
    facts = RoundFacts(tournament)
    placed = [player for pairing in made for player in pairing.players]
    assert sorted(placed) == sorted(facts.active), "every active player exactly once"
    byes = [pairing.first for pairing in made if pairing.is_bye]
    assert len(byes) == len(facts.active) % 2
    assert all(facts.bye_rank.get(player) is not None for player in byes), "bye to fewest-byes"
    rematches = sum(facts.met[frozenset(p.players)] for p in made if not p.is_bye)
    balanced_pairing_exists = facts.perfect_matching_exists(
        lambda a, b: not facts.met[frozenset((a, b))] and facts.colour_ok(a, b),
        balanced_bye=True,
    )
    if balanced_pairing_exists or facts.perfect_matching_exists(
        lambda a, b: not facts.met[frozenset((a, b))]
    ):
        assert rematches == 0, "a rematch that could have been avoided"
    if balanced_pairing_exists:
        after = dict(facts.difference)
        for pairing in made:
            if pairing.second is not None:
                after[pairing.first] += 1
                after[pairing.second] -= 1
        assert all(abs(value) <= 1 for value in after.values()), "colours beyond one"


def check_round_against_brute_force(tournament: Tournament, made: tuple[Pairing, ...]) -> None:
    """The round is lexicographically best: rematches, colours, bye, score groups."""
    check_round(tournament, made)
    facts = RoundFacts(tournament)
    best = min(facts.cost(pairs, best_seats=True) for pairs in facts.all_pairings())
    chosen = facts.cost([(p.first, p.second) for p in made], best_seats=False)
    assert chosen == best


@settings(max_examples=40, deadline=None)
@given(
    field=st.integers(2, 33),
    rounds=st.integers(1, 9),
    seed=st.integers(0, 2**32),
    draw_rate=st.sampled_from([0.0, 0.3]),
    withdraw_rate=st.sampled_from([0.0, 0.0, 0.04]),
)
def test_random_swiss_tournaments_keep_every_rule(
    field: int, rounds: int, seed: int, draw_rate: float, withdraw_rate: float
) -> None:
    """Fields of 2–33, random results with draws and withdrawals: each round is valid."""
    tournament = Tournament(
        Format.SWISS,
        tuple(range(100, 100 + field)),
        rounds=min(rounds, round_robin.rounds_per_cycle(field)),
    )
    rng = random.Random(seed)
    finished = play_out(
        tournament, rng, draw_rate=draw_rate, withdraw_rate=withdraw_rate, check=check_round
    )
    if not finished.withdrawn:
        byes = Counter(p.first for p in finished.pairings if p.is_bye)
        assert max(byes.values(), default=0) <= 1, "a player with two byes"


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
    """On small fields every round matches the best of all possible pairings."""
    tournament = Tournament(
        Format.SWISS, tuple(range(1, field + 1)), rounds=round_robin.rounds_per_cycle(field)
    )
    play_out(
        tournament,
        random.Random(seed),
        draw_rate=draw_rate,
        withdraw_rate=withdraw_rate,
        check=check_round_against_brute_force,
    )
