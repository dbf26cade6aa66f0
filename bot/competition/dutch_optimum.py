"""A bracket's Dutch pairing by weighted matching: its best value, and the rules' own
choice among the candidates of that value.

Every way of pairing a bracket's players (and, for C4 and C8, the players below it) is a
matching of one graph, and a candidate's value (`dutch_criteria`) is what its unpaired
players cost plus what its pairs cost. So the maximum-weight matching with weights
`cost(u unpaired) + cost(v unpaired) - cost(u with v)` is the cheapest pairing.

The rules' order among candidates of equal value (articles 3 and 4) can be written as
further digits below the criteria, in two matchings:

1. The MDPs paired in the bracket, as a set, first by smallest differing BSN; then their
   opponents, S1's first MDP with the lowest resident it can have, and so on.
2. With those pairs fixed, the remainder's candidates. A candidate comes first from the
   exchange that puts the higher-ranked player of each of its pairs in S1 (any other
   exchange producing it exchanges more players, or a higher BSN sum), so its exchange
   is known from its pairs: the fewest players exchanged, then the smallest BSN sum in
   S1, then the highest BSN leaving S1, then the lowest entering it; then its S1
   players' opponents, the first the lowest.

The search in the rules' order (`dutch_search`) is much faster where a quick bound
shows the best value; this is the way for brackets where it does not.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar

import networkx as nx

from bot.competition.dutch_absolute import Met, bye_eligible, compatible
from bot.competition.dutch_criteria import Criteria, Value
from bot.competition.swiss_players import Entry

Node = TypeVar("Node", bound=Hashable)
Together = Callable[[int, int], "int | None"]
Pairs = list[tuple[Entry, Entry]]


def cheapest_pairing(
    nodes: Sequence[Node],
    unpaired: Mapping[Node, int],
    together: Callable[[Node, Node], int | None],
) -> tuple[int, list[tuple[Node, Node]]]:
    """The least total cost of a pairing of `nodes` (each left unpaired costs
    `unpaired[node]`, each pair `together(u, v)`, None for a pair that may not be made),
    and such a pairing."""
    graph: nx.Graph[Node] = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, one in enumerate(nodes):
        for other in nodes[i + 1 :]:
            cost = together(one, other)
            if cost is None:
                continue
            weight = unpaired[one] + unpaired[other] - cost
            if weight > 0:
                graph.add_edge(one, other, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=False)
    saved = sum(graph.edges[u, v]["weight"] for u, v in matching)
    return sum(unpaired[node] for node in nodes) - saved, list(matching)


class Scope(Enum):
    """Which players the matching takes besides the bracket's."""

    ALONE = "alone"
    """None: what leaving a player unpaired costs below (C4, C8, C9) is known player by
    player (`Setting.alone`), which holds while at most one player is left unpaired."""
    NEXT = "next"
    """The next scoregroup, for C8; completion is left out."""
    FULL = "full"
    """Everyone not yet paired, completion first."""


@dataclass(frozen=True, slots=True)
class Setting:
    """A bracket as the matching sees it."""

    moved: list[Entry]
    residents: list[Entry]
    next_group: list[Entry]
    """The next scoregroup (empty for the last bracket)."""
    below: list[Entry]
    """Everyone after the next scoregroup."""
    met: Met
    limit: int | None
    criteria: Criteria
    bye_bracket: bool
    alone: Mapping[int, Value | None] = field(default_factory=dict)
    """For `Scope.ALONE`: by rank, C4 (None: it fails), C8 and C9 with only that player
    left unpaired."""
    none_left: Value | None = None
    """For `Scope.ALONE`: the same with nobody left unpaired."""


class _Model:
    """The value of every pairing of a bracket's graph, as unpaired and pair costs."""

    def __init__(self, setting: Setting, scope: Scope) -> None:
        self.setting = setting
        self.scope = Scope.FULL if scope is Scope.NEXT and not setting.next_group else scope
        self.full = self.scope is Scope.FULL
        criteria = setting.criteria
        players = setting.moved + setting.residents
        self.inside = {e.rank for e in players}
        self.moved = {e.rank for e in setting.moved}
        group = [] if self.scope is Scope.ALONE else setting.next_group
        self.nexts = {e.rank for e in group}
        nodes = players + group + (setting.below if self.full else [])
        self.entries = {e.rank: e for e in nodes}
        self.nodes = [e.rank for e in nodes]
        self.high = criteria.unit(0) * criteria.radix
        self.huge = self.high * (len(nodes) + 2)
        self.floater = {e.rank: criteria.floater(e) for e in players}
        self.further = {
            e.rank: criteria.next_floaters([e.half_points]) if group else 0 for e in players + group
        }
        if self.scope is Scope.ALONE:
            for rank in self.inside:
                alone = setting.alone.get(rank)
                self.further[rank] = self.high if alone is None else alone

    def unpaired(self, rank: int) -> int:
        """What leaving a player unpaired costs."""
        setting, entry = self.setting, self.entries[rank]
        cost = self.floater.get(rank, 0) + self.further.get(rank, 0)
        if self.full:
            cost += self.huge + (0 if bye_eligible(entry, setting.limit) else self.high)
        if setting.bye_bracket and rank in self.inside and self.scope is not Scope.ALONE:
            cost += entry.unplayed * setting.criteria.unit(setting.criteria.c9)
        return cost

    def together(self, one: int, other: int) -> int | None:
        """What pairing two players costs (None if they may not meet)."""
        first, second = self.entries[one], self.entries[other]
        if not compatible(first, second, self.setting.met):
            return None
        if one in self.inside and other in self.inside:
            if one in self.moved and other in self.moved:
                return None
            return self.setting.criteria.pair(first, second)
        cost = 0
        for rank, mate in ((one, other), (other, one)):
            cost += self.floater.get(rank, 0)
            if mate not in self.inside and mate not in self.nexts:
                cost += self.further.get(rank, 0)
        return cost

    def decode(self, total: int) -> Value | None:
        """The criteria's part of a pairing's cost; None when it leaves more players
        unpaired than the odd one out, or that one may not take the PAB."""
        if not self.full:
            return total
        unpaired, rest = divmod(total, self.huge)
        ineligible, value = divmod(rest, self.high)
        if unpaired != len(self.nodes) % 2 or ineligible:
            return None
        return value

    def holds(self, floaters: list[int]) -> bool:
        """Whether a pairing leaving these players of the bracket unpaired is valued
        right: always, but with `Scope.ALONE` only for at most one who may be."""
        if self.scope is not Scope.ALONE:
            return True
        if not floaters:
            return self.setting.none_left is not None
        return len(floaters) == 1 and self.setting.alone.get(floaters[0]) is not None


def best_value(setting: Setting, *, scope: Scope) -> Value | None:
    """The bracket's best value. With `Scope.NEXT`, completion and the players below the
    next scoregroup are left out, so it may be lower than any candidate reaches; with
    `Scope.ALONE`, it is right only if the pairing leaves at most one player unpaired."""
    model = _Model(setting, scope)
    total, _ = cheapest_pairing(
        model.nodes, {r: model.unpaired(r) for r in model.nodes}, model.together
    )
    return model.decode(total)


def choose(setting: Setting, *, scope: Scope) -> tuple[Pairs, list[Entry]] | None:
    """The rules' choice for the bracket: the first candidate, in their order, of the
    best value (see the module's description). None when no candidate completes the
    round, or when the one chosen is not valued right in this scope (`_Model.holds`;
    with `Scope.NEXT`, completion is for the caller to check)."""
    model = _Model(setting, scope)
    moved = sorted(setting.moved, key=lambda e: e.rank)
    residents = sorted(setting.residents, key=lambda e: e.rank)
    order = {e.rank: i for i, e in enumerate(moved)}
    seat = {e.rank: i for i, e in enumerate(residents)}
    count = len(moved)
    width = len(residents) + 1
    powers = _powers(width, count + 1)
    set_scale = powers[count]

    def set_key(rank: int) -> int:
        return (1 << (count - 1 - order[rank])) * set_scale

    def unpaired_first(rank: int) -> int:
        return model.unpaired(rank) * scale + (set_key(rank) if rank in order else 0)

    def together_first(one: int, other: int) -> int | None:
        cost = model.together(one, other)
        if cost is None:
            return None
        cost *= scale
        for rank, mate in ((one, other), (other, one)):
            if rank in order:
                if mate in seat:
                    cost += seat[mate] * powers[count - 1 - order[rank]]
                else:
                    cost += set_key(rank)
        return cost

    scale = (1 << count) * set_scale + 1
    total, matching = cheapest_pairing(
        model.nodes, {r: unpaired_first(r) for r in model.nodes}, together_first
    )
    if model.decode(total // scale) is None:
        return None
    paired_inside = {r for pair in matching if set(pair) <= model.inside for r in pair}
    if not model.holds([r for r in model.inside if r not in paired_inside]):
        return None
    fixed: Pairs = []
    taken: set[int] = set()
    remainder_pairs = 0
    for one, other in matching:
        if one in model.inside and other in model.inside:
            if one in order or other in order:
                mdp, resident = (one, other) if one in order else (other, one)
                fixed.append((model.entries[mdp], model.entries[resident]))
                taken |= {mdp, resident}
            else:
                remainder_pairs += 1
    return _choose_remainder(model, setting, fixed, taken, remainder_pairs)


def _choose_remainder(
    model: _Model, setting: Setting, fixed: Pairs, taken: set[int], pairs: int
) -> tuple[Pairs, list[Entry]] | None:
    """The second matching: the remainder's candidate, with the MDPs' pairs fixed."""
    remainder = [e for e in sorted(setting.residents, key=lambda e: e.rank) if e.rank not in taken]
    limbo = {e.rank for e in setting.moved} - taken
    index = {e.rank: i for i, e in enumerate(remainder)}
    size = len(remainder)
    width = size + 1
    # Digits below the criteria, most significant first: players exchanged, S1's BSN
    # sum, S1 players kept (the highest first), S2 players brought in (the lowest
    # first, as a reward), then the opponents of S1's players in order.
    powers = _powers(width, size + 1)
    opponents = powers[size]
    brought = opponents
    kept = brought * (1 << (size + 1))
    total_bsn = kept * (1 << size)
    exchanged = total_bsn * (size * size + 1)
    scale = exchanged * (size + 1) * 2
    nodes = [r for r in model.nodes if r not in taken]

    def together(one: int, other: int) -> int | None:
        if (one in limbo and other in model.inside) or (other in limbo and one in model.inside):
            return None
        cost = model.together(one, other)
        if cost is None:
            return None
        cost *= scale
        if one in index and other in index:
            higher, lower = sorted((index[one], index[other]))
            cost += (higher >= pairs) * exchanged + higher * total_bsn
            if higher < pairs:
                cost += (1 << higher) * kept
            else:
                cost -= (1 << (size - 1 - higher)) * brought
            cost += lower * powers[size - 1 - higher]
        return cost

    total, matching = cheapest_pairing(
        nodes, {r: model.unpaired(r) * scale for r in nodes}, together
    )
    if model.decode(_floor_div(total, scale)) is None:
        return None
    made = list(fixed)
    paired: set[int] = set()
    for one, other in matching:
        if one in index and other in index:
            first, second = sorted((model.entries[one], model.entries[other]), key=lambda e: e.rank)
            made.append((first, second))
            paired |= {one, other}
    floaters = [e for e in setting.moved if e.rank in limbo]
    floaters += [e for e in remainder if e.rank not in paired]
    if not model.holds([e.rank for e in floaters]):
        return None
    return made, sorted(floaters, key=lambda e: e.rank)


def _powers(base: int, count: int) -> list[int]:
    """base**0, base**1, ... base**(count - 1), as ints."""
    powers = [1] * count
    for index in range(1, count):
        powers[index] = powers[index - 1] * base
    return powers


def _floor_div(total: int, scale: int) -> int:
    """The criteria's part of a total whose lower digits may be negative (rewards)."""
    return (total + scale // 2) // scale
