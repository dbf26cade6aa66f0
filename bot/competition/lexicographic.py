"""Perfect matchings that minimise several tiers of penalties, the first tier first.

Each edge carries a tuple of non-negative penalties, most important first. The tuples
become one integer weight per edge, each tier a digit of a mixed-radix number whose
radix exceeds the largest sum that tier can reach over a perfect matching (its largest
edge value times the number of pairs, plus one). So no amount of a lower tier outweighs
one unit of a higher one, for any number of players, and the maximum-weight perfect
matching is the matching whose summed penalties are lexicographically smallest.
networkx computes with integers only when every weight is an integer, so the large
weights stay exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import networkx as nx

Node = TypeVar("Node", bound=Hashable)


def lexicographic_weights(
    penalties: Mapping[tuple[Node, Node], Sequence[int]], pairs: int
) -> dict[tuple[Node, Node], int]:
    """Positive edge weights ranking perfect matchings of `pairs` edges by their penalties."""
    if not penalties:
        return {}
    tiers = {len(values) for values in penalties.values()}
    if len(tiers) != 1:
        raise ValueError("every edge needs the same tiers of penalties")
    if any(value < 0 for values in penalties.values() for value in values):
        raise ValueError("penalties are never negative")
    totals = dict.fromkeys(penalties, 0)
    scale = 1
    for tier in reversed(range(tiers.pop())):
        largest = max(values[tier] for values in penalties.values())
        for edge, values in penalties.items():
            totals[edge] += values[tier] * scale
        scale *= largest * pairs + 1
    return {edge: scale - total for edge, total in totals.items()}


def best_matching(
    nodes: Sequence[Node], penalties: Mapping[tuple[Node, Node], Sequence[int]]
) -> list[tuple[Node, Node]]:
    """The perfect matching of `nodes` with the lexicographically smallest penalties.

    Every pair of nodes needs penalties (the graph is complete); the pairs come back in
    the order of `nodes`, each as (earlier node, later node).
    """
    if len(nodes) % 2:
        raise ValueError("a perfect matching needs an even number of nodes")
    graph: nx.Graph[Node] = nx.Graph()
    graph.add_nodes_from(nodes)
    for (one, other), weight in lexicographic_weights(penalties, len(nodes) // 2).items():
        graph.add_edge(one, other, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(nodes):
        raise RuntimeError("the pairing graph has no perfect matching")
    order = {node: index for index, node in enumerate(nodes)}
    pairs = [(u, v) if order[u] < order[v] else (v, u) for u, v in matching]
    return sorted(pairs, key=lambda pair: order[pair[0]])
