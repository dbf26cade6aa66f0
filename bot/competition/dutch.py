"""The FIDE Dutch system (C.04.3, the edition in force since February 2026), bracket by
bracket, each bracket's candidates tried in the order the rules prescribe.

Brackets are paired from the top score down. A bracket is the players moved down from
the bracket above (MDPs) followed by the residents of its scoregroup, in pairing order
(score, then pairing number); its bracket sequence numbers (BSNs) follow that order.

The criteria, in the rules' own numbering:

- absolute: C1 no two players meet twice; C2 no second pairing-allocated bye (PAB) for a
  player who had one or scored without playing more than a loss; C3 two players who are
  not top scorers and have the same absolute colour preference do not meet;
- completion, C4: the players left unpaired by a bracket must let every lower bracket be
  paired (and the PAB go to an eligible player);
- quality, each before the next: C5 as many pairs as possible; C6 the smallest pairing
  score differences (PSD: each pair's score difference, and for each player left unpaired
  the difference to one point below the bracket's lowest score, largest first); C7 and C8
  as many pairs, then the smallest PSD, in the next bracket; C9 the fewest unplayed
  games for the PAB's receiver; C10 and C11 the fewest top scorers (or their opponents)
  whose colour difference passes two, then who get one colour three times running; C12
  the fewest players who do not get their colour preference; C13 the fewest who do not
  get a strong (or absolute) one; C14 to C17 the fewest repeated downfloats and upfloats
  from the previous round, then from two rounds before; C18 to C21 the smallest score
  differences of those repeated floats, in the same order.

Candidates: in a homogeneous bracket (or the remainder of a heterogeneous one) S1 is
the first MaxPairs players and S2 the rest. S1's players are paired in order with S2 as
permuted by its transpositions (in lexicographic order of BSNs); when no transposition is
good enough, exchanges between S1 and S2 follow, fewest players first, then the smallest
difference between the BSN sums moved into S1 and out of it, then the highest different
BSN moved out of S1, then the lowest different BSN moved into it. In a heterogeneous
bracket, S1 holds the MDPs that can be paired (sets of them in BSN order, the rest in
Limbo), paired with the residents as transposed; the remainder is then paired as above.
Of all candidates the first with the best value on the criteria is taken, so where the
criteria tie, the rules' order decides.

Every criterion except C7, C8 and the completion test is a sum over the candidate's
pairs and unpaired players, so a search in the rules' order prunes every branch that
cannot beat the best candidate found so far and stops at the first candidate that
reaches a lower bound worked out before searching. A search that would go past
its share of `SEARCH_BUDGET` steps (the round's, shared by its brackets in turn) keeps
the best candidate found by then: that pairing is the best found, not necessarily the
rules' own.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import networkx as nx

from bot.competition.colours import FIRST, SECOND, Strength, breaks_limits
from bot.competition.dutch_colours import allocate
from bot.competition.records import PlayerId
from bot.competition.swiss_players import Entry, Float

SEARCH_BUDGET = 20_000
"""The search steps one round may take, shared by its brackets: each may use half of
what is left (at least `BRACKET_STEPS`), half of that for candidates as good as the
lower bound."""
BRACKET_STEPS = 1_000
EXCHANGE_LIMIT = 50_000
"""The most exchanges of one size worth listing in one bracket."""

Met = frozenset[frozenset[PlayerId]]
Vector = int
"""A candidate's values on the criteria as one number: each criterion a digit, C5 the
most significant, so that adding and comparing values is adding and comparing ints."""


def compatible(one: Entry, other: Entry, met: Met) -> bool:
    """C1 and C3: the two have not met, and are not two players (neither a top scorer)
    with the same absolute colour preference."""
    if frozenset((one.player, other.player)) in met:
        return False
    if one.top_scorer or other.top_scorer:
        return True
    mine, theirs = one.preference, other.preference
    return not (
        mine.strength is Strength.ABSOLUTE
        and theirs.strength is Strength.ABSOLUTE
        and mine.seat == theirs.seat
    )


def bye_eligible(entry: Entry, limit: int | None = None) -> bool:
    """C2: nobody gets a second PAB, nor one after scoring without playing; and (with
    C4) nobody scoring more than `limit` half points, the lowest score the PAB can go to
    with the round complete."""
    return entry.scored_without_playing == 0 and (limit is None or entry.half_points <= limit)


def bye_limit(players: Sequence[Entry], met: Met) -> int | None:
    """The lowest score whose players can take the PAB with everyone else paired (None
    for an even field, or when no pairing completes the round)."""
    if len(players) % 2 == 0:
        return None
    for score in sorted({entry.half_points for entry in players}):
        if completable(players, met, score):
            return score
    return None


def pair_dutch(
    entries: Sequence[Entry], met: Met
) -> tuple[list[tuple[Entry, Entry]], Entry | None] | None:
    """The round's pairs (higher-ranked player first) and the PAB's receiver, or None when
    no pairing keeps the absolute criteria."""
    players = list(entries)
    if not completable(players, met):
        return None
    limit = bye_limit(players, met)
    groups: list[list[Entry]] = []
    for entry in players:
        if groups and groups[-1][0].half_points == entry.half_points:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    pairs: list[tuple[Entry, Entry]] = []
    moved: list[Entry] = []
    left = SEARCH_BUDGET
    for index, group in enumerate(groups):
        lower = groups[index + 1 :]
        bracket = _Bracket(moved, group, lower, met, limit)
        bracket.budget = max(BRACKET_STEPS, left // 2) // 2
        found = bracket.pair()
        left -= bracket.used
        if found is None:
            return None
        made, moved = found
        pairs.extend(made)
    if len(moved) > 1:
        return None
    return pairs, (moved[0] if moved else None)


def completable(players: Sequence[Entry], met: Met, limit: int | None = None) -> bool:
    """C4: whether these players can all be paired, but for one eligible for the PAB."""
    if _greedy_completes(players, met, limit):
        return True
    graph: nx.Graph[object] = nx.Graph()
    nodes: list[object] = [entry.player for entry in players]
    if len(players) % 2:
        nodes.append("bye")
    graph.add_nodes_from(nodes)
    for i, one in enumerate(players):
        if len(players) % 2 and bye_eligible(one, limit):
            graph.add_edge(one.player, "bye")
        for other in players[i + 1 :]:
            if compatible(one, other, met):
                graph.add_edge(one.player, other.player)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def _greedy_completes(players: Sequence[Entry], met: Met, limit: int | None) -> bool:
    """A quick sufficient test: pairing greedily from the top leaves at most one eligible
    player."""
    left = list(players)
    unpaired: list[Entry] = []
    while left:
        one = left.pop(0)
        for index, other in enumerate(left):
            if compatible(one, other, met):
                del left[index]
                break
        else:
            unpaired.append(one)
    return len(unpaired) == len(players) % 2 and all(bye_eligible(e, limit) for e in unpaired)


def max_pairs(players: Sequence[Entry], met: Met) -> int:
    """The most pairs these players can make among themselves (C1 and C3 kept)."""
    greedy = _greedy_pairs(players, met)
    if greedy == len(players) // 2:
        return greedy
    graph: nx.Graph[PlayerId] = nx.Graph()
    graph.add_nodes_from(entry.player for entry in players)
    for i, one in enumerate(players):
        for other in players[i + 1 :]:
            if compatible(one, other, met):
                graph.add_edge(one.player, other.player)
    return len(nx.max_weight_matching(graph, maxcardinality=True))


def _greedy_pairs(players: Sequence[Entry], met: Met) -> int:
    """Pairs found by pairing each player with the first compatible one below."""
    left = list(players)
    pairs = 0
    while left:
        one = left.pop(0)
        for index, other in enumerate(left):
            if compatible(one, other, met):
                del left[index]
                pairs += 1
                break
    return pairs


def _bipartite_pairs(upper: Sequence[Entry], lower: Sequence[Entry], met: Met) -> int:
    """The most players of `upper` that can be paired with distinct players of `lower`."""
    partner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j, other in enumerate(lower):
            if j in seen or not compatible(upper[i], other, met):
                continue
            seen.add(j)
            if j not in partner or augment(partner[j], seen):
                partner[j] = i
                return True
        return False

    return sum(augment(i, set()) for i in range(len(upper)))


def exchanges(n1: int, n2: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Exchanges between S1 (positions 0..n1-1) and S2 (n1..n1+n2-1) in the rules' order:
    (positions moved out of S1, positions moved into it), no exchange first."""
    yield (), ()
    for size in range(1, min(n1, n2) + 1):
        if math.comb(n1, size) * math.comb(n2, size) > EXCHANGE_LIMIT:
            return
        options = [
            (out, into)
            for out in itertools.combinations(range(n1), size)
            for into in itertools.combinations(range(n1, n1 + n2), size)
        ]
        options.sort(
            key=lambda option: (
                sum(option[1]) - sum(option[0]),
                tuple(-bsn for bsn in reversed(option[0])),
                option[1],
            )
        )
        yield from options


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each criterion sits in a bracket's vector of values."""

    levels: dict[int, int]
    """Score differences (in half points) to their digit, the largest first."""
    next_levels: dict[int, int]

    @property
    def psd(self) -> int:
        return 1

    @property
    def c7(self) -> int:
        return self.psd + len(self.levels)

    @property
    def c8(self) -> int:
        return self.c7 + 1

    @property
    def c9(self) -> int:
        return self.c8 + len(self.next_levels)

    @property
    def c10(self) -> int:
        return self.c9 + 1

    @property
    def c18(self) -> int:
        return self.c10 + 8

    @property
    def size(self) -> int:
        return self.c18 + 4 * len(self.levels)


def _levels(differences: set[int]) -> dict[int, int]:
    """Score differences to digits, the largest difference the first digit."""
    return {difference: index for index, difference in enumerate(sorted(differences, reverse=True))}


@dataclass(frozen=True, slots=True)
class _Stage:
    """What stays fixed while S2 is transposed against one S1."""

    s1: list[Entry]
    limbo: list[Entry]
    """Players left unpaired whatever the transposition: MDPs in Limbo."""
    ahead: list[Vector]
    bound: Vector


class _Bracket:
    """One pairing bracket: its MDPs, residents, and the search for its pairing."""

    def __init__(
        self,
        moved: list[Entry],
        residents: list[Entry],
        lower: list[list[Entry]],
        met: Met,
        limit: int | None,
    ) -> None:
        self.limit = limit
        self.moved = moved
        self.residents = residents
        self.players = moved + residents
        self.rest = [entry for group in lower for entry in group]
        self.next_group = lower[0] if lower else None
        self.last = not lower
        self.met = met
        self.score = residents[0].half_points
        differences = {e.half_points - self.score for e in self.players}
        differences |= {d + 2 for d in differences}
        next_differences: set[int] = set()
        if self.next_group is not None:
            below = self.next_group[0].half_points
            next_differences = {e.half_points - below for e in self.players + self.next_group}
            next_differences |= {d + 2 for d in next_differences}
        self.layout = Layout(_levels(differences - {0}), _levels(next_differences - {0}))
        self.size = self.layout.size
        self.radix = 4 * (len(self.players) + len(self.rest) + 8) + max(
            (e.unplayed for e in self.players), default=0
        )
        self.zero: Vector = 0
        unit = [0] * self.size
        unit[self.layout.c10 + 2] = 1
        self.unmet_unit = self.encode(unit)
        unit[self.layout.c10 + 2], unit[self.layout.c10 + 3] = 0, 1
        self.strong_unit = self.encode(unit)
        self.resident_psd = self.encode(
            [int(i == self.layout.psd + self.layout.levels[2]) for i in range(self.size)]
        )
        self.pair_costs: dict[tuple[PlayerId, PlayerId], Vector] = {}
        self.terminals: dict[frozenset[PlayerId], Vector | None] = {}
        self.best: Vector | None = None
        self.best_pairs: list[tuple[Entry, Entry]] = []
        self.best_floaters: list[Entry] = []
        self.target: Vector = self.zero
        self.ceiling: Vector | None = None
        self.steps = 0
        self.used = 0
        self.budget = SEARCH_BUDGET // 2
        self.stop = False

    # --- the values of a candidate ---------------------------------------------------

    def pair_cost(self, higher: Entry, lower: Entry) -> Vector:
        """What pairing two players adds to the criteria (C6, C10-C21)."""
        key = (higher.player, lower.player)
        if key in self.pair_costs:
            return self.pair_costs[key]
        layout = self.layout
        values = [0] * layout.size
        difference = higher.half_points - lower.half_points
        if difference:
            values[layout.psd + layout.levels[difference]] += 1
        first, second = allocate(higher, lower)
        top = higher.top_scorer or lower.top_scorer
        for entry, seat in ((first, FIRST), (second, SECOND)):
            if top:
                wide, run = breaks_limits(entry.seats, seat)
                values[layout.c10] += wide
                values[layout.c10 + 1] += run
            wanted = entry.preference
            if wanted.seat is not None and wanted.seat != seat:
                values[layout.c10 + 2] += 1
                values[layout.c10 + 3] += wanted.strength >= Strength.STRONG
        if difference:
            digit = layout.levels[difference]
            repeats = (
                higher.floats[0] is Float.DOWN,
                lower.floats[0] is Float.UP,
                higher.floats[1] is Float.DOWN,
                lower.floats[1] is Float.UP,
            )
            for index, repeated in enumerate(repeats):
                if repeated:
                    values[layout.c10 + 4 + index] += 1
                    values[layout.c18 + index * len(layout.levels) + digit] += 1
        cost = self.encode(values)
        self.pair_costs[key] = cost
        return cost

    def floater_cost(self, entry: Entry) -> Vector:
        """What leaving a player unpaired adds to C14-C21 (C5 and C6 are counted when
        the number of pairs is chosen)."""
        layout = self.layout
        values = [0] * layout.size
        digit = layout.levels[entry.half_points - self.score + 2]
        for index, ago in ((0, 0), (2, 1)):
            if entry.floats[ago] is Float.DOWN:
                values[layout.c10 + 4 + index] += 1
                values[layout.c18 + index * len(layout.levels) + digit] += 1
        return self.encode(values)

    def floater_psd(self, entry: Entry) -> Vector:
        """C6 for a player left unpaired."""
        values = [0] * self.size
        values[self.layout.psd + self.layout.levels[entry.half_points - self.score + 2]] = 1
        return self.encode(values)

    def encode(self, values: list[int]) -> Vector:
        """The digits as one number, the first the most significant."""
        number = 0
        for value in values:
            number = number * self.radix + value
        return number

    def terminal(self, floaters: list[Entry]) -> Vector | None:
        """C4 for the players left unpaired (None when it fails), with C7, C8 and C9."""
        key = frozenset(entry.player for entry in floaters)
        if key in self.terminals:
            return self.terminals[key]
        layout = self.layout
        values = [0] * layout.size
        result: Vector | None
        if self.last:
            if len(floaters) > 1 or not all(bye_eligible(e, self.limit) for e in floaters):
                result = None
            else:
                if floaters:
                    values[layout.c9] = floaters[0].unplayed
                result = self.encode(values)
        elif not completable(floaters + self.rest, self.met, self.limit):
            result = None
        else:
            assert self.next_group is not None
            below = self.next_group[0].half_points
            following = floaters + self.next_group
            pairs = max_pairs(following, self.met)
            values[layout.c7] = len(following) - 2 * pairs
            paired_moved = _bipartite_pairs(floaters, self.next_group, self.met)
            for index, entry in enumerate(floaters):
                shift = 0 if index < paired_moved else 2
                values[layout.c8 + layout.next_levels[entry.half_points - below + shift]] += 1
            result = self.encode(values)
        self.terminals[key] = result
        return result

    def remainder_bound(self, players: list[Entry], pairs: int, floaters: int) -> Vector:
        """What a remainder of `players` making `pairs` pairs (the bracket leaving
        `floaters` unpaired) adds at least to C7, C8, C12 and C13."""
        layout = self.layout
        values = [0] * layout.size
        if self.next_group is not None:
            values[layout.c7] = (len(self.next_group) + floaters) % 2
            if floaters:
                below = self.next_group[0].half_points
                values[layout.c8 + layout.next_levels[self.score - below]] += floaters
        spare = len(players) - 2 * pairs
        for strong, digit in ((False, 2), (True, 3)):
            for seat in (FIRST, SECOND):
                wanting = sum(
                    1
                    for e in players
                    if e.preference.seat == seat
                    and (not strong or e.preference.strength >= Strength.STRONG)
                )
                values[layout.c10 + digit] += max(0, wanting - spare - pairs)
        return self.encode(values)

    def lower_bound(self, pairs: int) -> Vector:
        """A value no candidate with `pairs` pairs can beat: MDPs paired at their own
        score difference, unavoidable unmet colour preferences and repeated downfloats."""
        layout = self.layout
        values = [0] * layout.size
        floaters = len(self.players) - 2 * pairs
        values[0] = floaters
        for entry in self.moved:
            difference = entry.half_points - self.score
            values[layout.psd + layout.levels[difference]] += 1
            for index, ago in ((0, 0), (2, 1)):
                if entry.floats[ago] is Float.DOWN:
                    values[layout.c10 + 4 + index] += 1
                    values[layout.c18 + index * len(layout.levels) + layout.levels[difference]] += 1
        if floaters:
            # An MDP left unpaired would count at a larger difference than a resident.
            values[layout.psd + layout.levels[2]] += floaters
        if self.next_group is not None:
            values[layout.c7] = (len(self.next_group) + floaters) % 2
            if floaters:
                below = self.next_group[0].half_points
                values[layout.c8 + layout.next_levels[self.score - below]] += floaters
        if self.last and floaters:
            eligible = [e.unplayed for e in self.players if bye_eligible(e, self.limit)]
            values[layout.c9] = min(eligible, default=0)
        for strong, digit in ((False, 2), (True, 3)):
            for seat in (FIRST, SECOND):
                wanting = sum(
                    1
                    for e in self.players
                    if e.preference.seat == seat
                    and (not strong or e.preference.strength >= Strength.STRONG)
                )
                values[layout.c10 + digit] += max(0, wanting - floaters - pairs)
        return self.encode(values)

    # --- the search in the rules' order ---------------------------------------------

    def pair(self) -> tuple[list[tuple[Entry, Entry]], list[Entry]] | None:
        """The bracket's pairs and the players it moves down, or None if none keep C1-C4."""
        movable = _bipartite_pairs(self.moved, self.residents, self.met)
        most = max_pairs(self.residents, self.met)
        total = movable + min(most, (len(self.residents) - movable) // 2)
        self.target = self.lower_bound(total)
        # First only candidates as good as the lower bound (usually one is), then any.
        for ceiling in (self.target, None):
            self.ceiling = ceiling
            self.steps = 0
            self.stop = False
            for mdp_pairs in range(movable, -1, -1):
                for chosen in itertools.combinations(range(len(self.moved)), mdp_pairs):
                    limbo = [e for i, e in enumerate(self.moved) if i not in chosen]
                    s1 = [self.moved[i] for i in chosen]
                    self._pair_moved(s1, 0, self.residents, [], self.zero, limbo=limbo)
                    if self.stop:
                        break
                if self.stop:
                    break
            self.used += self.steps
            if self.best is not None:
                break
        if self.best is None:
            return None
        return self.best_pairs, sorted(self.best_floaters, key=lambda e: e.rank)

    def _prunes(self, value: Vector) -> bool:
        if self.ceiling is not None and value > self.ceiling:
            return True
        return self.best is not None and value >= self.best

    def _tick(self) -> bool:
        self.steps += 1
        if self.steps > self.budget and (
            self.best is not None or self.ceiling is not None or self.steps > 10 * self.budget
        ):
            self.stop = True
        return self.stop

    def _pair_moved(
        self,
        s1: list[Entry],
        index: int,
        available: list[Entry],
        pairs: list[tuple[Entry, Entry]],
        value: Vector,
        *,
        limbo: list[Entry],
    ) -> None:
        if self._tick():
            return
        if index == len(s1):
            self._remainder(available, pairs, value, limbo)
            return
        mover = s1[index]
        for position, resident in enumerate(available):
            if not compatible(mover, resident, self.met):
                continue
            after = value + self.pair_cost(mover, resident)
            if self._prunes(after):
                continue
            rest = available[:position] + available[position + 1 :]
            self._pair_moved(s1, index + 1, rest, [*pairs, (mover, resident)], after, limbo=limbo)
            if self.stop:
                return

    def _remainder(
        self,
        players: list[Entry],
        pairs: list[tuple[Entry, Entry]],
        value: Vector,
        limbo: list[Entry],
    ) -> None:
        """The remainder's candidates, the most pairs first (C5 then prunes the rest)."""
        for count in range(max_pairs(players, self.met), -1, -1):
            floaters = len(limbo) + len(players) - 2 * count
            counted = value + floaters * self.radix ** (self.size - 1)
            counted += sum(self.floater_psd(e) for e in limbo)
            counted += (len(players) - 2 * count) * self.resident_psd
            bound = counted + self.remainder_bound(players, count, floaters)
            if self._prunes(bound):
                return
            for out, into in exchanges(count, len(players) - count):
                moved = set(out) | set(into)
                s1 = [p for i, p in enumerate(players) if (i < count) != (i in moved)]
                s2 = [p for i, p in enumerate(players) if (i >= count) != (i in moved)]
                ahead = self._cheapest_ahead(s1, s2)
                if ahead is None or self._prunes(max(bound, counted + ahead[0])):
                    continue
                stage = _Stage(s1, limbo, ahead, bound)
                self._transpose(stage, 0, s2, pairs, counted)
                if self._prunes(bound):
                    return
                if self.stop:
                    return

    def _transpose(
        self,
        stage: _Stage,
        index: int,
        s2: list[Entry],
        pairs: list[tuple[Entry, Entry]],
        value: Vector,
    ) -> None:
        s1, ahead, bound = stage.s1, stage.ahead, stage.bound
        if self._tick():
            return
        if index == len(s1):
            self._leaf(pairs, value, stage.limbo + s2)
            return
        one = s1[index]
        for position, other in enumerate(s2):
            if not compatible(one, other, self.met):
                continue
            after = value + self.pair_cost(one, other)
            if self._prunes(max(bound, after + ahead[index + 1])):
                continue
            if index + 1 < len(s1) and self._prunes(
                after + self.colour_floor(s1, index + 1, s2, position)
            ):
                continue
            rest = s2[:position] + s2[position + 1 :]
            self._transpose(stage, index + 1, rest, [*pairs, (one, other)], after)
            if self.stop:
                return

    def colour_floor(self, s1: list[Entry], start: int, s2: list[Entry], taken: int) -> Vector:
        """The fewest unmet colour preferences (C12, C13) that pairing `s1[start:]` with
        the players of `s2` other than `s2[taken]` can make: an S1 player wanting a colour
        not met by an S2 player wanting the other (or none) is one more unmet."""
        wants = [0, 0, 0, 0]
        for one in s1[start:]:
            wanted = one.preference
            if wanted.seat is not None:
                wants[wanted.seat] += 1
                if wanted.strength >= Strength.STRONG:
                    wants[2 + wanted.seat] += 1
        if not any(wants):
            return 0
        others = [0, 0, 0, 0]
        for position, other in enumerate(s2):
            if position == taken:
                continue
            wanted = other.preference
            if wanted.seat is not None:
                others[wanted.seat] += 1
                if wanted.strength >= Strength.STRONG:
                    others[2 + wanted.seat] += 1
        pool = len(s2) - 1
        unmet = max(0, wants[FIRST] - (pool - others[FIRST])) + max(
            0, wants[SECOND] - (pool - others[SECOND])
        )
        strong = max(0, wants[2 + FIRST] - (pool - others[2 + FIRST])) + max(
            0, wants[2 + SECOND] - (pool - others[2 + SECOND])
        )
        return unmet * self.unmet_unit + strong * self.strong_unit

    def _cheapest_ahead(self, s1: list[Entry], s2: list[Entry]) -> list[Vector] | None:
        """For each position of S1, the least its players from there on can add (each
        at its cheapest partner in S2), or None if one of them has no partner at all."""
        cheapest = []
        for one in s1:
            costs = [self.pair_cost(one, other) for other in s2 if compatible(one, other, self.met)]
            if not costs:
                return None
            cheapest.append(min(costs))
        ahead = [0] * (len(s1) + 1)
        for index in range(len(s1) - 1, -1, -1):
            ahead[index] = ahead[index + 1] + cheapest[index]
        return ahead

    def _leaf(self, pairs: list[tuple[Entry, Entry]], value: Vector, floaters: list[Entry]) -> None:
        for entry in floaters:
            value += self.floater_cost(entry)
        if self._prunes(value):
            return
        end = self.terminal(floaters)
        if end is None:
            return
        value += end
        if self.best is None or value < self.best:
            self.best = value
            self.best_pairs = list(pairs)
            self.best_floaters = list(floaters)
            if value <= self.target:
                self.stop = True
