"""The FIDE Dutch system (C.04.3, the edition in force since February 2026), bracket by
bracket, each bracket's candidates tried in the order the rules prescribe.

Brackets are paired from the top score down. A bracket is the players moved down from
the bracket above (MDPs) followed by the residents of its scoregroup, in pairing order
(score, then pairing number); its bracket sequence numbers (BSNs) follow that order.

The criteria, in the rules' own numbering:

- absolute: C1 no two players meet twice; C2 no pairing-allocated bye (PAB) for a player
  who had one or scored a win without playing; C3 two players who are not topscorers and
  have the same absolute colour preference do not meet;
- C4 completion: whatever a bracket leaves unpaired, every player not yet paired can
  still be paired; C5 the PAB goes to the lowest score it can (`bye_limit`), so every
  bracket also leaves that possible;
- quality, C6 to C21, each before the next (see `dutch_criteria`): the fewest
  downfloaters, then their scores; the same in the following bracket; the PAB's unplayed
  games; colours; repeated floats.

Candidates (articles 3 and 4): in a homogeneous bracket (or the remainder of a
heterogeneous one) S1 is its first MaxPairs players and S2 the rest; S1's players meet
S2's as S2 is transposed, in lexicographic order of BSNs, and when no transposition is
good enough the exchanges between S1 and S2 follow in their prescribed order. In a
heterogeneous bracket S1 holds a set of MDPs (sets in BSN order; the others wait in
Limbo and float again), paired with the residents as transposed, and the remainder is
paired as above. Of all candidates the first with the best value on C6-C21 is taken, so
where the criteria tie, the rules' order decides.

How: a candidate's value is one integer (each criterion a digit). The search walks the
candidates in the rules' order (`dutch_search`) and stops at the first that reaches a
lower bound of the bracket's value, which most brackets reach at once (a small bracket
is searched through for its best value when the bound is out of reach). Otherwise the
weighted matching (`dutch_optimum`) finds the rules' choice directly, the rules' order
written into its weights. Either way the pairing taken is the first candidate, in the
rules' order, of the best value.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from bot.competition.colours import Strength
from bot.competition.dutch_absolute import (
    Met,
    bye_eligible,
    bye_limit,
    compatible,
    completable,
    max_pairs,
    most_pairs_between,
    unpaired_by_most_pairs,
)
from bot.competition.dutch_criteria import Criteria, Value, offers, wishes
from bot.competition.dutch_optimum import Scope, Setting, cheapest_pairing, choose
from bot.competition.dutch_search import Steps, all_exchanges_listed, assignments, exchanges
from bot.competition.swiss_players import Entry

QUICK_STEPS = 5_000
"""The steps a bracket's search may take aiming at its lower bound (or, in a small
bracket, looking for its best value)."""
SMALL_BRACKET = 8
"""Up to this many players, a bracket whose lower bound is out of reach is searched
through for its best value."""

Pairs = list[tuple[Entry, Entry]]
Found = tuple[Pairs, list[Entry], Value]
"""A bracket's candidate: its pairs, its downfloaters and its value."""

__all__ = [
    "bye_eligible",
    "bye_limit",
    "compatible",
    "completable",
    "exchanges",
    "max_pairs",
    "pair_dutch",
]


def pair_dutch(entries: Sequence[Entry], met: Met) -> tuple[Pairs, Entry | None] | None:
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
    pairs: Pairs = []
    moved: list[Entry] = []
    for index, group in enumerate(groups):
        lower = groups[index + 1 :]
        bracket = _Bracket(moved, group, lower, met, limit=limit, odd=len(players) % 2 == 1)
        found = bracket.pair()
        if found is None:
            return None
        made, moved = found
        pairs.extend(made)
    if len(moved) > 1:
        return None
    return pairs, (moved[0] if moved else None)


@dataclass(frozen=True, slots=True)
class _Start:
    """Where a remainder's search starts: the MDPs' pairs, their value (with Limbo's),
    and the MDPs in Limbo."""

    pairs: Pairs
    value: Value
    limbo: list[Entry]


class _Bracket:
    """One pairing bracket: its MDPs and residents, and the search for its pairing."""

    def __init__(
        self,
        moved: list[Entry],
        residents: list[Entry],
        lower: list[list[Entry]],
        met: Met,
        *,
        limit: int | None,
        odd: bool,
    ) -> None:
        self.moved = moved
        self.residents = residents
        self.players = moved + residents
        self.next_group = lower[0] if lower else None
        self.below = [entry for group in lower[1:] for entry in group]
        """The players after the next scoregroup."""
        self.rest = [entry for group in lower for entry in group]
        self.met = met
        self.limit = limit
        self.score = residents[0].half_points
        scores = [entry.half_points for entry in self.players]
        next_scores = [*scores, self.next_group[0].half_points] if self.next_group else []
        everyone = self.players + self.rest
        radix = 2 * len(everyone) + max((e.unplayed for e in everyone), default=0) + 4
        self.criteria = Criteria(scores, next_scores, radix, self.score)
        self.bye_bracket = (
            odd
            and limit is not None
            and limit >= self.score
            and len(self.rest) % 2 == 0
            and completable(self.rest, met)
        )
        """C9 applies: the bracket downfloats one player, who then receives the PAB."""
        self.terminals: dict[frozenset[int], Value | None] = {}
        self.completions: dict[frozenset[int], bool] = {}
        self.complete = True
        """Whether the last search walked every candidate it had to."""
        self.ceiling: Value = 0
        """The value the search in progress looks for a candidate within."""
        self.steps = Steps(0)

    # --- the pairing ----------------------------------------------------------------

    def pair(self) -> tuple[Pairs, list[Entry]] | None:
        """The bracket's pairs and the players it moves down, or None if no candidate
        keeps C1-C4."""
        found = self.search(self.lower_bound(), QUICK_STEPS)
        if found is None and self.complete and len(self.players) <= SMALL_BRACKET:
            found = self._best_by_search()
        if found is not None:
            pairs, floaters, _ = found
            return pairs, sorted(floaters, key=lambda e: e.rank)
        return self._choose()

    def _best_by_search(self) -> Found | None:
        """The first candidate of the best value, by searching with ever lower ceilings
        (None if the search does not finish within its steps)."""
        best: Found | None = None
        ceiling = self.criteria.unit(0) * self.criteria.radix
        while True:
            found = self.search(ceiling, QUICK_STEPS)
            if not self.complete:
                return None
            if found is None:
                return best
            best = found
            ceiling = found[2] - 1

    def _choose(self) -> tuple[Pairs, list[Entry]] | None:
        """The rules' choice by weighted matching (`dutch_optimum`): of the bracket alone
        when it leaves at most one player unpaired (what that player's floating costs
        below is worked out player by player), else with the next scoregroup, else with
        everyone not yet paired."""
        odd = len(self.players) % 2 == 1
        setting = Setting(
            moved=self.moved,
            residents=self.residents,
            next_group=self.next_group or [],
            below=self.below,
            met=self.met,
            limit=self.limit,
            criteria=self.criteria,
            bye_bracket=self.bye_bracket,
            # An even bracket leaves an even number unpaired: alone, nobody.
            alone={e.rank: self.terminal([e]) if odd else 0 for e in self.players},
            none_left=self.terminal([]),
        )
        found = choose(setting, scope=Scope.ALONE)
        if found is None and self.next_group is not None:
            found = choose(setting, scope=Scope.NEXT)
            if found is not None and self.terminal(found[1]) is None:
                found = None
        if found is None:
            found = choose(setting, scope=Scope.FULL)
        return found

    # --- values -------------------------------------------------------------------

    def resident_floater(self) -> Value:
        """C6 and C7 for one resident left unpaired (C14, C16, C18, C20 aside)."""
        criteria = self.criteria
        return criteria.unit(criteria.c6) + criteria.unit(criteria.c7 + criteria.levels[self.score])

    def next_floor(self, floaters: int) -> Value:
        """The least C8 can be with this many players floating into the next bracket."""
        if self.next_group is None:
            return 0
        criteria = self.criteria
        lowest = criteria.next_levels[self.next_group[0].half_points]
        count = max((floaters + len(self.next_group)) % 2, floaters - len(self.next_group))
        return count * (criteria.unit(criteria.c8) + criteria.unit(criteria.c8_scores + lowest))

    def lower_bound(self) -> Value:
        """A value no candidate can beat: the fewest downfloaters at the lowest score, the
        colour preferences that cannot all be met, and what that means for C8."""
        criteria = self.criteria
        movable = len(most_pairs_between(self.moved, self.residents, self.met))
        free = len(self.residents) - movable
        pairs = movable + min(max_pairs(self.residents, self.met), free // 2)
        floaters = len(self.players) - 2 * pairs
        value = floaters * self.resident_floater() + self.next_floor(floaters)
        if any(entry.top_scorer for entry in self.players):
            return value
        size = len(self.players)
        for seat in range(2):
            wanting = sum(1 for e in self.players if e.preference.seat == seat)
            strongly = sum(
                1
                for e in self.players
                if e.preference.seat == seat and e.preference.strength >= Strength.STRONG
            )
            same = max(0, wanting - (size - wanting) - floaters)
            strong = max(0, strongly - (size - strongly) - floaters)
            value += (same + 1) // 2 * criteria.unit(criteria.c10 + 2)
            value += (strong + 1) // 2 * criteria.unit(criteria.c10 + 3)
        return value

    def terminal(self, floaters: list[Entry]) -> Value | None:
        """C4 for the players left unpaired (None when it fails), with C8 and C9."""
        key = frozenset(entry.rank for entry in floaters)
        if key not in self.terminals:
            self.terminals[key] = self._terminal(floaters)
        return self.terminals[key]

    def _terminal(self, floaters: list[Entry]) -> Value | None:
        criteria = self.criteria
        if self.next_group is None:
            if len(floaters) > 1 or not all(bye_eligible(e, self.limit) for e in floaters):
                return None
            if floaters and self.bye_bracket:
                return floaters[0].unplayed * criteria.unit(criteria.c9)
            return 0
        if not self.bye_bracket:
            quick = self._next_bracket_quickly(floaters)
            if quick is not None:
                return quick
        return self._next_bracket_exactly(floaters)

    def _next_bracket_quickly(self, floaters: list[Entry]) -> Value | None:
        """C8 when the next bracket pairs every floater and its own players but for the
        odd one out, with the rest still completable; None when that is not so."""
        assert self.next_group is not None
        group = self.next_group
        partners = most_pairs_between(floaters, group, self.met)
        if len(partners) < len(floaters):
            return None
        taken = set(partners.values())
        left = unpaired_by_most_pairs([e for j, e in enumerate(group) if j not in taken], self.met)
        if len(left) > 1 or not self._completes_below(left):
            return None
        return self.criteria.next_floaters(e.half_points for e in left)

    def _completes_below(self, left: list[Entry]) -> bool:
        """C4 for the players the next bracket leaves unpaired, with everyone below it."""
        key = frozenset(e.rank for e in left)
        if key not in self.completions:
            self.completions[key] = completable(left + self.below, self.met, self.limit)
        return self.completions[key]

    def _next_bracket_exactly(self, floaters: list[Entry]) -> Value | None:
        """C8 (and C9) by weighted matching of the floaters and the next scoregroup,
        then, if what that leaves unpaired cannot be completed, with everyone below."""
        assert self.next_group is not None
        best = self._next_bracket_matched(floaters, everyone=False)
        if best is not None:
            value, left = best
            if self._completes_below(left):
                return value
        found = self._next_bracket_matched(floaters, everyone=True)
        return None if found is None else found[0]

    def _next_bracket_matched(
        self, floaters: list[Entry], *, everyone: bool
    ) -> tuple[Value, list[Entry]] | None:
        """The next bracket's best C8 (and C9) with these floaters, and whom it leaves
        unpaired; with `everyone`, completion first (None when it fails)."""
        assert self.next_group is not None
        criteria = self.criteria
        nexts = {e.rank for e in floaters} | {e.rank for e in self.next_group}
        moved = {e.rank for e in floaters}
        nodes = floaters + self.next_group + (self.below if everyone else [])
        high = criteria.unit(0) * criteria.radix
        huge = high * (len(nodes) + 2) if everyone else 0
        unpaired = {}
        for entry in nodes:
            cost = 0
            if everyone:
                cost = huge + (0 if bye_eligible(entry, self.limit) else high)
            if entry.rank in nexts:
                cost += criteria.next_floaters([entry.half_points])
            if self.bye_bracket and entry.rank in moved:
                cost += entry.unplayed * criteria.unit(criteria.c9)
            unpaired[entry.rank] = cost
        by_rank = {entry.rank: entry for entry in nodes}

        def together(one: int, other: int) -> int | None:
            if (one in moved and other in moved) or not compatible(
                by_rank[one], by_rank[other], self.met
            ):
                return None
            if (one in nexts) == (other in nexts):
                return 0
            inside = one if one in nexts else other
            return criteria.next_floaters([by_rank[inside].half_points])

        total, matching = cheapest_pairing([e.rank for e in nodes], unpaired, together)
        paired = {rank for pair in matching for rank in pair}
        left = [e for e in nodes if e.rank not in paired]
        if not everyone:
            return total, left
        unpaired_count, rest = divmod(total, huge)
        ineligible, value = divmod(rest, high)
        if unpaired_count != len(nodes) % 2 or ineligible:
            return None
        return value, left

    # --- the search in the rules' order -------------------------------------------------

    def search(self, ceiling: Value, budget: int) -> Found | None:
        """The first candidate, in the rules' order, whose value does not pass `ceiling`
        (None if none is found; `complete` says whether every candidate was tried)."""
        self.steps = steps = Steps(budget)
        self.ceiling = ceiling
        self.complete = True
        found = self._search()
        if steps.exceeded:
            self.complete = False
        return found

    def _search(self) -> Found | None:
        """MDP sets in order (the most paired first), each with its MDPs' opponents as
        S2 is transposed, each with its remainder's candidates."""
        criteria, ceiling, steps = self.criteria, self.ceiling, self.steps
        moved, residents = self.moved, self.residents
        offered = [offers(e) for e in residents]
        movable = len(most_pairs_between(moved, residents, self.met))
        for count in range(movable, -1, -1):
            for chosen in itertools.combinations(range(len(moved)), count):
                if steps.tick():
                    return None
                picked = set(chosen)
                s1 = [moved[i] for i in chosen]
                limbo = [e for i, e in enumerate(moved) if i not in picked]
                limbo_value = sum(criteria.floater(e) for e in limbo)
                free = len(residents) - count
                fixed = (
                    limbo_value
                    + (free % 2) * self.resident_floater()
                    + self.next_floor(len(limbo) + free % 2)
                )
                ahead = self._cheapest_ahead(s1, residents)
                if ahead is None or fixed + ahead[0] > ceiling:
                    continue

                def mdp_cost(i: int, j: int, s1: list[Entry] = s1) -> Value | None:
                    if not compatible(s1[i], residents[j], self.met):
                        return None
                    return criteria.pair(s1[i], residents[j])

                def mdp_floor(i: int, _left: int, _counts: list[int], a: list[int] = ahead) -> int:
                    return a[i]

                for partners, value in assignments(
                    s1,
                    residents,
                    cost=mdp_cost,
                    floor=mdp_floor,
                    offered=offered,
                    ceiling=ceiling - fixed,
                    steps=steps,
                ):
                    used = set(partners)
                    remainder = [r for j, r in enumerate(residents) if j not in used]
                    pairs = [(s1[i], residents[j]) for i, j in enumerate(partners)]
                    found = self._remainder(remainder, _Start(pairs, value + limbo_value, limbo))
                    if found is not None or steps.exceeded:
                        return found
                if steps.exceeded:
                    return None
        return None

    def _cheapest_ahead(self, s1: list[Entry], s2: list[Entry]) -> list[Value] | None:
        """For each position of S1, the least its players from there on can add (each
        at its cheapest partner in S2), or None if one of them has no partner at all."""
        cheapest = []
        for one in s1:
            costs = [self.criteria.pair(one, o) for o in s2 if compatible(one, o, self.met)]
            if not costs:
                return None
            cheapest.append(min(costs))
        ahead = [0] * (len(s1) + 1)
        for index in range(len(s1) - 1, -1, -1):
            ahead[index] = ahead[index + 1] + cheapest[index]
        return ahead

    def _remainder(self, players: list[Entry], start: _Start) -> Found | None:
        """The remainder's candidates, the most pairs first, each number of pairs with
        its exchanges in order and each exchange with its transpositions."""
        criteria, ceiling, steps = self.criteria, self.ceiling, self.steps
        value, limbo = start.value, start.limbo
        size = len(players)
        wished = [wishes(e) for e in players]
        offered = [offers(e) for e in players]
        for count in range(max_pairs(players, self.met), -1, -1):
            left_over = size - 2 * count
            fixed = (
                value
                + left_over * self.resident_floater()
                + self.next_floor(len(limbo) + left_over)
            )
            if fixed > ceiling:
                return None  # fewer pairs leave more downfloaters (C6)
            if not all_exchanges_listed(count, size - count):
                self.complete = False
            first = [sum(w[k] for w in wished[:count]) for k in range(4)]
            second = [sum(o[k] for o in offered[count:]) for k in range(4)]
            for out, into in exchanges(count, size - count):
                if steps.tick():
                    return None
                # The colour preferences S2 can meet after this exchange, before building it.
                mine = list(first)
                theirs = list(second)
                for i in out:
                    for k in range(4):
                        mine[k] -= wished[i][k]
                        theirs[k] += offered[i][k]
                for i in into:
                    for k in range(4):
                        mine[k] += wished[i][k]
                        theirs[k] -= offered[i][k]
                if fixed + criteria.colour_floor(mine, theirs, size - count) > ceiling:
                    continue
                moving = set(out) | set(into)
                s1 = [p for i, p in enumerate(players) if (i < count) != (i in moving)]
                s2 = [p for i, p in enumerate(players) if (i >= count) != (i in moving)]
                found = self._transpose(s1, s2, start, fixed)
                if found is not None or steps.exceeded:
                    return found
        return None

    def _transpose(
        self, s1: list[Entry], s2: list[Entry], start: _Start, fixed: Value
    ) -> Found | None:
        """The transpositions of S2 against S1, in order; the first within the ceiling
        (`fixed` is what the candidates add at least besides their S1 players' pairs)."""
        criteria, ceiling = self.criteria, self.ceiling
        offered = [offers(e) for e in s2]
        suffix = [[0, 0, 0, 0] for _ in range(len(s1) + 1)]
        for index in range(len(s1) - 1, -1, -1):
            wish = wishes(s1[index])
            suffix[index] = [suffix[index + 1][k] + wish[k] for k in range(4)]

        def cost(i: int, j: int) -> Value | None:
            one, other = s1[i], s2[j]
            # A pair with the S2 player ranked higher came with an earlier exchange.
            if other.rank < one.rank or not compatible(one, other, self.met):
                return None
            return criteria.pair(one, other)

        def floor(i: int, left: int, counts: list[int]) -> Value:
            return criteria.colour_floor(suffix[i], counts, left)

        for partners, added in assignments(
            s1,
            s2,
            cost=cost,
            floor=floor,
            offered=offered,
            ceiling=ceiling - fixed,
            steps=self.steps,
        ):
            used = set(partners)
            left = [e for j, e in enumerate(s2) if j not in used]
            total = start.value + added + sum(criteria.floater(e) for e in left)
            if total > ceiling:
                continue
            floaters = start.limbo + left
            end = self.terminal(floaters)
            if end is None or total + end > ceiling:
                continue
            pairs = start.pairs + [(s1[i], s2[j]) for i, j in enumerate(partners)]
            return pairs, floaters, total + end
        return None
