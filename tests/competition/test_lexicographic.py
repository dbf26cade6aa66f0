"""Lexicographic matchings: no amount of a lower tier outweighs one unit of a higher one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.competition.lexicographic import best_matching, lexicographic_weights


def perfect_matchings(nodes: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of `nodes`, each pair as (earlier, later)."""
    if not nodes:
        yield []
        return
    head, tail = nodes[0], nodes[1:]
    for index, partner in enumerate(tail):
        for rest in perfect_matchings(tail[:index] + tail[index + 1 :]):
            yield [(head, partner), *rest]


def total(
    matching: list[tuple[int, int]], penalties: dict[tuple[int, int], tuple[int, ...]]
) -> tuple[int, ...]:
    """The matching's penalties summed tier by tier."""
    sums = [0] * len(next(iter(penalties.values())))
    for edge in matching:
        for tier, value in enumerate(penalties[edge]):
            sums[tier] += value
    return tuple(sums)


def test_one_unit_of_a_higher_tier_outweighs_any_amount_below() -> None:
    """0-1 and 2-3 cost one unit of the first tier; the other two matchings cost nothing
    there but a million in the second tier: they win."""
    penalties = {
        (0, 1): (1, 0),
        (2, 3): (0, 0),
        (0, 2): (0, 10**6),
        (1, 3): (0, 10**6),
        (0, 3): (0, 10**6),
        (1, 2): (0, 10**6),
    }
    assert best_matching([0, 1, 2, 3], penalties) in ([(0, 2), (1, 3)], [(0, 3), (1, 2)])


def test_weights_are_positive_and_refuse_bad_penalties() -> None:
    """Every weight is positive; ragged or negative penalties are refused."""
    weights = lexicographic_weights({(0, 1): (0, 3), (0, 2): (2, 0)}, 1)
    assert min(weights.values()) > 0
    with pytest.raises(ValueError, match="same tiers"):
        lexicographic_weights({(0, 1): (0,), (0, 2): (0, 1)}, 1)
    with pytest.raises(ValueError, match="never negative"):
        lexicographic_weights({(0, 1): (-1,)}, 1)
    with pytest.raises(ValueError, match="even number"):
        best_matching([0, 1, 2], {(0, 1): (0,), (0, 2): (0,), (1, 2): (0,)})


@settings(max_examples=60, deadline=None)
@given(
    nodes=st.sampled_from([2, 4, 6, 8]),
    tiers=st.integers(1, 4),
    high=st.sampled_from([1, 3, 1000, 10**12]),
    data=st.data(),
)
def test_best_matching_is_lexicographically_smallest(
    nodes: int, tiers: int, high: int, data: st.DataObject
) -> None:
    """Random penalties (small and huge): the matching found has the smallest sums of
    all perfect matchings, compared tier by tier."""
    values = st.integers(0, high)
    penalties = {
        (i, j): tuple(data.draw(values) for _ in range(tiers))
        for i in range(nodes)
        for j in range(i + 1, nodes)
    }
    found = best_matching(list(range(nodes)), penalties)
    best = min(total(m, penalties) for m in perfect_matchings(list(range(nodes))))
    assert total(found, penalties) == best
