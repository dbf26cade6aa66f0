"""The Dutch system's candidates in the order its rules generate them, without recursion.

A bracket's candidates (FIDE C.04.3, articles 3 and 4) come from giving each player of
S1, in order, a partner from S2: the transpositions of S2 in lexicographic order of
bracket sequence numbers (BSNs); between the transpositions, the exchanges between the
original S1 and S2 in their prescribed order. `assignments` walks the transpositions with
an explicit stack (a bracket of any size needs no deep recursion) and skips every branch
a lower bound shows cannot reach the value sought; `exchanges` lists the exchanges.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence

from bot.competition.dutch_criteria import Value
from bot.competition.swiss_players import Entry

EXCHANGE_LIMIT = 10_000
"""The most exchanges of one size listed at once; past it a bracket's candidates are not
all walked (the search says so, and the exact pairing is found another way)."""


class Steps:
    """A search's budget of steps, and whether it ran out."""

    def __init__(self, budget: int) -> None:
        self.left = budget
        self.exceeded = False

    def tick(self) -> bool:
        """Spend a step; True once the budget is spent."""
        self.left -= 1
        if self.left < 0:
            self.exceeded = True
        return self.exceeded


Cost = Callable[[int, int], "Value | None"]
"""The value of pairing S1's player at one position with S2's at another (None when
they may not meet)."""
Floor = Callable[[int, int, list[int]], Value]
"""A lower bound of what S1's players from a position on add, given how many players of
S2 are left and their colour wishes (see `dutch_criteria.offers`)."""


def assignments(
    s1: Sequence[Entry],
    s2: Sequence[Entry],
    *,
    cost: Cost,
    floor: Floor,
    offered: Sequence[tuple[int, int, int, int]],
    ceiling: Value,
    steps: Steps,
) -> Iterator[tuple[list[int], Value]]:
    """Each way to give every player of `s1` a different partner in `s2`, in the
    lexicographic order of the partners' positions, as (positions in `s2`, value),
    leaving out every assignment whose value (or whose partial value plus `floor`)
    passes `ceiling`. The list yielded is reused: copy it to keep it."""
    size, pool = len(s1), len(s2)
    if size == 0:
        yield [], 0
        return
    counts = [sum(wish[kind] for wish in offered) for kind in range(4)]
    taken = [False] * pool
    choice = [-1] * size
    values = [0] * (size + 1)
    index = 0
    while True:
        if steps.tick():
            return
        start = choice[index] + 1
        if choice[index] >= 0:
            previous = choice[index]
            taken[previous] = False
            for kind in range(4):
                counts[kind] += offered[previous][kind]
        picked, value = -1, 0
        for position in range(start, pool):
            if taken[position]:
                continue
            added = cost(index, position)
            if added is None:
                continue
            value = values[index] + added
            for kind in range(4):
                counts[kind] -= offered[position][kind]
            if value + floor(index + 1, pool - index - 1, counts) <= ceiling:
                picked = position
                break
            for kind in range(4):
                counts[kind] += offered[position][kind]
        if picked < 0:
            choice[index] = -1
            index -= 1
            if index < 0:
                return
            continue
        choice[index] = picked
        taken[picked] = True
        values[index + 1] = value
        if index + 1 == size:
            yield choice, value
            continue
        index += 1
        choice[index] = -1


def exchanges(n1: int, n2: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Exchanges between S1 (positions 0..n1-1) and S2 (n1..n1+n2-1) in the rules' order
    (C.04.3 article 4.3), as (positions moved out of S1, positions moved into it), no
    exchange first: the fewest players exchanged; then the smallest difference between
    the BSN sums moved in and out; then the highest BSN moved out differing; then the
    lowest BSN moved in differing. Stops (see `EXCHANGE_LIMIT`) where listing a size
    would take too long."""
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


def all_exchanges_listed(n1: int, n2: int) -> bool:
    """Whether `exchanges(n1, n2)` lists every exchange."""
    return all(
        math.comb(n1, size) * math.comb(n2, size) <= EXCHANGE_LIMIT
        for size in range(1, min(n1, n2) + 1)
    )
