"""Swiss pairings by maximum-weight matching (networkx), deterministic for a given input.

Each round pairs the active players so that, in this order of importance:

1. nobody meets an earlier opponent again while that can be avoided;
2. every player's colour difference (first seats minus second seats) stays within one;
3. with an odd field, the bye goes to the lowest-ranked player who has had the fewest
   byes (so nobody gets a second bye while someone has none);
4. players meet others on the same score, or as close to it as possible;
5. players get the seat they are due (alternating, and never a third time running);
6. within a score group the top half meets the bottom half (1 v 5, 2 v 6, ...).

Each rule is a tier of penalties on the edges of a complete graph; the tiers are
combined as digits of a mixed-radix number, so no amount of a lower tier ever
outweighs one unit of a higher one, and the matching with the largest total weight is
the lexicographically best pairing. Keeping colours within one is stricter than FIDE's
limit of two: now and then a player floats to a neighbouring score group instead.

Players are ranked for pairing by score, then seed. A bye scores a full point. A
forfeited game counts as a meeting but gives no colour. Withdrawn players are simply
not paired any more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from bot.competition.colours import FIRST, SECOND, colour_difference, seat_histories
from bot.competition.records import Pairing, PlayerId
from bot.competition.scoring import SWISS_BYE_POINTS, records

_REPEAT_PENALTY = 1
"""Getting the same seat as last round (with colours level)."""
_THIRD_RUNNING_PENALTY = 4
"""Getting the same seat a third round running."""
_UNDUE_SEAT_PENALTY = 2
"""Not getting the seat one's colour difference asks for."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """What pairing needs to know about one active player."""

    player: PlayerId
    rank: int
    half_points: int
    group_position: int
    group_size: int
    seats: tuple[int, ...]
    difference: int
    """First seats minus second seats so far."""
    byes: int


def pair_round(
    players: Sequence[PlayerId],
    history: Iterable[Pairing],
    round_number: int,
    *,
    withdrawn: Iterable[PlayerId] = (),
) -> tuple[Pairing, ...]:
    """Round `round_number`'s pairings, best boards first and the bye (if any) last.

    `players` are all entrants in seed order; `history` holds every earlier round,
    finished; `withdrawn` players are left out.
    """
    history = tuple(history)
    if any(pairing.round >= round_number for pairing in history):
        raise ValueError(f"round {round_number} must come after the rounds already played")
    if not all(pairing.is_finished for pairing in history):
        raise ValueError("every game of the earlier rounds must be finished first")
    gone = set(withdrawn)
    entries = _entries(players, history, gone)
    if len(entries) < 2:
        raise ValueError("a Swiss round needs at least two active players")
    met = Counter(frozenset(p.players) for p in history if p.second is not None)
    pairs, bye = _match(entries, met)
    boards = sorted(pairs, key=lambda pair: min(pair[0].rank, pair[1].rank))
    pairings = []
    for board, (one, other) in enumerate(boards, start=1):
        first, second = _seats(one, other, board)
        pairings.append(Pairing(round_number, first.player, second.player))
    if bye is not None:
        pairings.append(Pairing(round_number, bye.player))
    return tuple(pairings)


def _entries(
    players: Sequence[PlayerId], history: tuple[Pairing, ...], gone: set[PlayerId]
) -> list[_Entry]:
    """The active players in pairing order (score, then seed), with what pairing needs."""
    table = records(players, history, bye_points=SWISS_BYE_POINTS)
    histories = seat_histories(history)
    seed = {player: index for index, player in enumerate(players)}
    active = sorted(
        (player for player in players if player not in gone),
        key=lambda player: (-table[player].points, seed[player]),
    )
    half_points = {player: round(table[player].points * 2) for player in active}
    groups = Counter(half_points.values())
    entries = []
    position: Counter[int] = Counter()
    for rank, player in enumerate(active):
        score = half_points[player]
        entries.append(
            _Entry(
                player=player,
                rank=rank,
                half_points=score,
                group_position=position[score],
                group_size=groups[score],
                seats=tuple(histories.get(player, ())),
                difference=colour_difference(histories.get(player, ())),
                byes=table[player].byes,
            )
        )
        position[score] += 1
    return entries


def _match(
    entries: list[_Entry], met: Counter[frozenset[PlayerId]]
) -> tuple[list[tuple[_Entry, _Entry]], _Entry | None]:
    """The best pairs by maximum-weight matching, and the player with the bye."""
    bye_node = len(entries) if len(entries) % 2 else None
    penalties: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, one in enumerate(entries):
        for j in range(i + 1, len(entries)):
            penalties[i, j] = _pair_penalty(one, entries[j], met)
    if bye_node is not None:
        fewest = min(entry.byes for entry in entries)
        eligible = [i for i, entry in enumerate(entries) if entry.byes == fewest]
        for below, i in enumerate(reversed(eligible)):
            # A bye leaves colours as they are, so an excess already there stays.
            stays = max(0, abs(entries[i].difference) - 1)
            penalties[i, bye_node] = (0, stays, below, 0, 0, 0)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(entries) + (bye_node is not None)))
    for (i, j), weight in _lexicographic_weights(penalties).items():
        graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise RuntimeError("the pairing graph has no perfect matching")
    pairs = []
    bye = None
    for u, v in matching:
        i, j = min(u, v), max(u, v)
        if j == bye_node:
            bye = entries[i]
        else:
            pairs.append((entries[i], entries[j]))
    return pairs, bye


def _pair_penalty(one: _Entry, other: _Entry, met: Counter[frozenset[PlayerId]]) -> tuple[int, ...]:
    """The penalty tiers of pairing two players (`one` ranked higher)."""
    violation, preference = min(_seat_cost(one, other, one_first) for one_first in (True, False))
    score_gap = one.half_points - other.half_points
    if one.half_points == other.half_points:
        # Top half against bottom half: the ideal distance is half the group.
        shape = abs(other.group_position - one.group_position - one.group_size // 2)
    else:
        # Across groups, float the bottom of the upper group and the top of the lower.
        shape = (one.group_size - 1 - one.group_position) + other.group_position
    return (
        met[frozenset((one.player, other.player))],
        violation,
        0,
        score_gap * score_gap,
        preference,
        shape,
    )


def _seat_cost(one: _Entry, other: _Entry, one_first: bool) -> tuple[int, int]:
    """(Colour-difference excess, unmet seat preferences) if `one` takes the first seat."""
    one_seat, other_seat = (FIRST, SECOND) if one_first else (SECOND, FIRST)
    excess = _excess(one, one_seat) + _excess(other, other_seat)
    return excess, _preference(one, one_seat) + _preference(other, other_seat)


def _excess(entry: _Entry, seat: int) -> int:
    """How far beyond one the colour difference goes if `entry` takes `seat`."""
    after = entry.difference + (1 if seat == FIRST else -1)
    return max(0, abs(after) - 1)


def _preference(entry: _Entry, seat: int) -> int:
    """The penalty for giving `entry` this seat, from their seat history."""
    seats = entry.seats
    if not seats:
        return 0
    if entry.difference:
        due = SECOND if entry.difference > 0 else FIRST
        return 0 if seat == due else _UNDUE_SEAT_PENALTY
    penalty = 0
    if seats[-1] == seat:
        penalty += _REPEAT_PENALTY
        if len(seats) >= 2 and seats[-2] == seat:
            penalty += _THIRD_RUNNING_PENALTY
    return penalty


def _seats(one: _Entry, other: _Entry, board: int) -> tuple[_Entry, _Entry]:
    """(first seat, second seat) for a pair on `board`: the cheaper, else by history and rank."""
    higher, lower = (one, other) if one.rank < other.rank else (other, one)
    higher_first = _seat_cost(higher, lower, True)
    lower_first = _seat_cost(higher, lower, False)
    if higher_first != lower_first:
        return (higher, lower) if higher_first < lower_first else (lower, higher)
    # Equal costs: alternate from the last round in which their seats differed...
    for mine, theirs in zip(reversed(higher.seats), reversed(lower.seats), strict=False):
        if mine != theirs:
            return (higher, lower) if mine == SECOND else (lower, higher)
    # ...or, with identical histories, the higher-ranked takes the first seat on odd boards.
    return (higher, lower) if board % 2 else (lower, higher)


def _lexicographic_weights(
    penalties: dict[tuple[int, int], tuple[int, ...]],
) -> dict[tuple[int, int], int]:
    """Edge weights whose maximum-weight perfect matching minimises the penalty tiers in order.

    Each tier becomes one digit of a mixed-radix number whose radix exceeds the largest
    sum that tier can reach over a matching, so higher tiers always dominate.
    """
    if not penalties:
        return {}
    tiers = len(next(iter(penalties.values())))
    pairs = max(max(edge) for edge in penalties) // 2 + 1
    totals = dict.fromkeys(penalties, 0)
    scale = 1
    for tier in reversed(range(tiers)):
        largest = max(values[tier] for values in penalties.values())
        for edge, values in penalties.items():
            totals[edge] += values[tier] * scale
        scale *= largest * pairs + 1
    return {edge: scale - total for edge, total in totals.items()}
