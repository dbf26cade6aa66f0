"""The Dutch system's absolute criteria (C1-C3), completion (C4) and the PAB's score (C5).

Also the pairing counts the search needs: the most pairs a group of players can make, and
the most pairs between two groups.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import networkx as nx

from bot.competition.colours import Strength
from bot.competition.records import PlayerId
from bot.competition.swiss_players import Entry

Met = frozenset[frozenset[PlayerId]]


def compatible(one: Entry, other: Entry, met: Met) -> bool:
    """C1 and C3: the two have not met, and are not two players (neither a topscorer)
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
    """C2: nobody gets a second PAB, nor one after scoring a win without playing; and
    (C5) nobody scoring more than `limit` half points, the lowest score the PAB can go
    to with the round complete."""
    return entry.scored_without_playing == 0 and (limit is None or entry.half_points <= limit)


def bye_limit(players: Sequence[Entry], met: Met) -> int | None:
    """C5: the lowest score whose players can take the PAB with everyone else paired
    (None for an even field, or when no pairing completes the round)."""
    if len(players) % 2 == 0:
        return None
    for score in sorted({entry.half_points for entry in players}):
        if completable(players, met, score):
            return score
    return None


def completable(players: Sequence[Entry], met: Met, limit: int | None = None) -> bool:
    """C4: whether these players can all be paired, but for one eligible for the PAB."""
    unpaired = greedy_unpaired(players, met)
    if len(unpaired) == len(players) % 2 and all(bye_eligible(e, limit) for e in unpaired):
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


def greedy_unpaired(players: Sequence[Entry], met: Met) -> list[Entry]:
    """Who is left when each player in turn meets the first compatible one below."""
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
    return unpaired


def max_pairs(players: Sequence[Entry], met: Met) -> int:
    """The most pairs these players can make among themselves (C1 and C3 kept)."""
    return (len(players) - len(unpaired_by_most_pairs(players, met))) // 2


def unpaired_by_most_pairs(players: Sequence[Entry], met: Met) -> list[Entry]:
    """The players a pairing of the most pairs among these players leaves out."""
    greedy = greedy_unpaired(players, met)
    if len(greedy) == len(players) % 2:
        return greedy
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    for i, one in enumerate(players):
        for j in range(i + 1, len(players)):
            if compatible(one, players[j], met):
                graph.add_edge(i, j)
    paired = {node for pair in nx.max_weight_matching(graph, maxcardinality=True) for node in pair}
    return [entry for index, entry in enumerate(players) if index not in paired]


def most_pairs_between(upper: Sequence[Entry], lower: Sequence[Entry], met: Met) -> dict[int, int]:
    """A largest set of pairs between `upper` and `lower` players, as upper position to
    lower position (augmenting paths, found breadth first: no recursion)."""
    options = [[j for j, other in enumerate(lower) if compatible(one, other, met)] for one in upper]
    partner_of_lower: dict[int, int] = {}
    partner_of_upper: dict[int, int] = {}
    for start in range(len(upper)):
        reached_from: dict[int, int] = {}
        queue = deque([start])
        free = -1
        while queue and free < 0:
            one = queue.popleft()
            for j in options[one]:
                if j in reached_from:
                    continue
                reached_from[j] = one
                if j not in partner_of_lower:
                    free = j
                    break
                queue.append(partner_of_lower[j])
        j = free
        while j >= 0:
            one = reached_from[j]
            previous = partner_of_upper.get(one, -1)
            partner_of_upper[one] = j
            partner_of_lower[j] = one
            j = previous if one != start else -1
    return partner_of_upper
