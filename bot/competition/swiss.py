"""Swiss rounds: the FIDE Dutch system (`bot.competition.dutch`), and a fallback for the
rounds it cannot pair.

`pair_round` pairs a round by the Dutch system, bracket by bracket, and seats each pair by
its colour allocation rules (`bot.competition.dutch_colours`). When no pairing keeps the
Dutch absolute criteria at all (late rounds of long events in small fields), the round is
still paired, by the tiered penalties below, so that as few as possible are broken:

1. **Absolute**: rematches; second byes (a bye or a win by forfeit counts as one); colour
   differences beyond two or a third seat running (except for a top scorer in the last
   round).
2. **Scores**: the fewest score-group boundaries crossed, from the top, then the smallest
   score differences; repeated floats.
3. **Colours**: as many players as possible get their due seat, then as many with a
   strong preference as possible.
4. **Order**: a floater meets the highest of the group below; inside a group the top
   half meets the bottom half.

Every tier is a penalty on the edges of a complete graph (with a bye node when the field
is odd); `bot.competition.lexicographic` turns the tiers into weights so that no amount
of a lower tier outweighs one unit of a higher one, and the maximum-weight perfect
matching is the lexicographically best pairing. Boards are ordered by the higher score,
then the sum of the scores, then the rank of the better-placed player; the bye comes last.

A bye scores a full point. A forfeited game gives no colour and is no meeting: its two
players may meet again. Withdrawn players are not paired any more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.competition.colours import FIRST, SECOND, Strength, breaks_limits
from bot.competition.dutch import pair_dutch
from bot.competition.dutch_colours import allocate
from bot.competition.lexicographic import best_matching
from bot.competition.records import Pairing, PlayerId
from bot.competition.swiss_players import Entry, Float, entries_for


class Penalty(NamedTuple):
    """What one pairing (or the bye) costs, most important tier first."""

    rematch: int
    """Earlier meetings of the two players."""
    second_bye: int
    """A bye for a player who has had one (or a win by forfeit)."""
    colour_break: int
    """Players whose colour difference would pass two, or with a third seat running."""
    floats: int
    """The score-group boundaries crossed (two for a game across two boundaries)."""
    floats_from_top: int
    """The same boundaries, each a digit of its own, the top boundary the highest: of two
    pairings with as many floats, the one floating fewer players out of higher groups."""
    score_difference: int
    """The score difference, as a digit of its own by size (largest differences first)."""
    downfloat_again: int
    """A downfloat for a player who floated down the round before."""
    upfloat_again: int
    """An upfloat for a player who floated up the round before."""
    downfloat_two_ago: int
    """A downfloat for a player who floated down two rounds before."""
    upfloat_two_ago: int
    """An upfloat for a player who floated up two rounds before."""
    top_difference: int
    """In a top scorer's last-round game: players whose colour difference passes two."""
    top_run: int
    """In a top scorer's last-round game: players with a third seat running."""
    unmet_colour: int
    """Players who do not get their due seat."""
    unmet_strong_colour: int
    """Players with a strong (or absolute) preference who do not get their seat."""
    order: int
    """How far the pairing is from the natural order, per score group (the top group as
    the highest digit): a floater should be the lowest of its group and meet the highest
    of the group below; a pair inside a group, top half against bottom half."""


def pair_round(
    players: Sequence[PlayerId],
    history: Iterable[Pairing],
    round_number: int,
    *,
    withdrawn: Iterable[PlayerId] = (),
    last_round: int | None = None,
    initial: int = FIRST,
) -> tuple[Pairing, ...]:
    """Round `round_number`'s pairings, best boards first and the bye (if any) last.

    `players` are all entrants in seed order; `history` holds every earlier round,
    finished; `withdrawn` players are left out. In `last_round`, the top scorers'
    exception to the colour limits applies. `initial` is the seat of the initial colour
    (white, the first seat, unless a tournament file says black).
    """
    history = tuple(history)
    if any(pairing.round >= round_number for pairing in history):
        raise ValueError(f"round {round_number} must come after the rounds already played")
    if not all(pairing.is_finished for pairing in history):
        raise ValueError("every game of the earlier rounds must be finished first")
    entries = entries_for(
        players, history, round_number, set(withdrawn), last=round_number == last_round
    )
    if len(entries) < 2:
        raise ValueError("a Swiss round needs at least two active players")
    # A forfeited game was not played: its two players may still meet (C.04.2).
    met = Counter(
        frozenset(p.players)
        for p in history
        if p.second is not None and not (p.result is not None and p.result.is_forfeit)
    )
    dutch = pair_dutch(entries, frozenset(met))
    if dutch is None:
        # No pairing keeps the absolute criteria: the least bad one by penalty tiers.
        pairs, bye = _match(entries, met)
    else:
        pairs, bye = dutch
    boards = sorted(
        pairs,
        key=lambda pair: (
            -max(pair[0].half_points, pair[1].half_points),
            -(pair[0].half_points + pair[1].half_points),
            min(pair[0].rank, pair[1].rank),
        ),
    )
    pairings = []
    for one, other in boards:
        if dutch is not None:
            first, second = allocate(one, other, initial)
        else:
            first, second = seats(one, other, initial)
        pairings.append(Pairing(round_number, first.player, second.player))
    if bye is not None:
        pairings.append(Pairing(round_number, bye.player))
    return tuple(pairings)


def _match(
    entries: list[Entry], met: Counter[frozenset[PlayerId]]
) -> tuple[list[tuple[Entry, Entry]], Entry | None]:
    """The best pairs by maximum-weight matching, and the player with the bye."""
    bye = len(entries) if len(entries) % 2 else None
    nodes = list(range(len(entries) + (bye is not None)))
    pairs = len(nodes) // 2
    levels = max(entry.level for entry in entries) + 1 + (bye is not None)
    lowest = min(entry.half_points for entry in entries)
    differences = sorted(
        {abs(one.half_points - other.half_points) for one in entries for other in entries}
        | {entry.half_points - lowest + 2 for entry in entries}
    )
    # A distance inside a group is below twice the field, counted at most twice a pair.
    scales = Scales(levels, pairs + 1, differences, 4 * len(entries) * pairs + 1)
    penalties: dict[tuple[int, int], Penalty] = {}
    for i, one in enumerate(entries):
        for j in range(i + 1, len(entries)):
            penalties[i, j] = pair_penalty(one, entries[j], met, scales)
        if bye is not None:
            penalties[i, bye] = bye_penalty(one, lowest, scales)
    found = []
    chosen_bye = None
    for i, j in best_matching(nodes, penalties):
        if j == bye:
            chosen_bye = entries[i]
        else:
            found.append((entries[i], entries[j]))
    return found, chosen_bye


@dataclass(frozen=True, slots=True)
class Scales:
    """Turns score groups, score differences and order distances into digits of one
    penalty tier each."""

    levels: int
    """Score groups, the bye's level included."""
    base: int
    """More than the number of pairs, so that no digit overflows into the next."""
    differences: list[int]
    """Every score difference that can occur, smallest first."""
    order_base: int
    """More than the sum of order distances one group can reach over a pairing."""

    def crossing(self, upper: int, lower: int) -> int:
        """The group boundaries between two levels, each a digit (the top one highest)."""
        cuts = self.levels - 1
        return sum(int(self.base ** (cuts - 1 - cut)) for cut in range(upper, lower))

    def order(self, level: int, distance: int) -> int:
        """A distance from the natural order inside one score group, as that group's digit
        (the top group's highest)."""
        return distance * int(self.order_base ** (self.levels - 1 - level))

    def difference(self, half_points: int) -> int:
        """A score difference as a digit of its own: larger differences weigh more."""
        if half_points == 0:
            return 0
        return int(self.base ** self.differences.index(half_points))


def pair_penalty(
    one: Entry, other: Entry, met: Counter[frozenset[PlayerId]], scales: Scales
) -> Penalty:
    """The penalty tiers of pairing two players (`one` ranked higher)."""
    breaks, top_difference, top_run, unmet, unmet_strong = min(
        _seat_costs(one, other, first) for first in (True, False)
    )
    higher, lower = (one, other) if one.half_points >= other.half_points else (other, one)
    floats = higher.half_points != lower.half_points
    if floats:
        order = scales.order(higher.level, higher.group_size - 1 - higher.group_position)
        order += scales.order(lower.level, lower.group_position)
    else:
        order = scales.order(one.level, _half_distance(one, other))
    return Penalty(
        rematch=met[frozenset((one.player, other.player))],
        second_bye=0,
        colour_break=breaks,
        floats=lower.level - higher.level,
        floats_from_top=scales.crossing(higher.level, lower.level),
        score_difference=scales.difference(higher.half_points - lower.half_points),
        downfloat_again=floats and higher.floats[0] is Float.DOWN,
        upfloat_again=floats and lower.floats[0] is Float.UP,
        downfloat_two_ago=floats and higher.floats[1] is Float.DOWN,
        upfloat_two_ago=floats and lower.floats[1] is Float.UP,
        top_difference=top_difference,
        top_run=top_run,
        unmet_colour=unmet,
        unmet_strong_colour=unmet_strong,
        order=order,
    )


def _half_distance(one: Entry, other: Entry) -> int:
    """How far two players of one group (`one` ranked higher) are from meeting as top half
    against bottom half: 0 for 1 v 5 in a group of 8, 1 for 1 v 6, and more than any such
    shift for two players of the same half (an exchange between the halves, in FIDE's
    words)."""
    half = one.group_size // 2
    shift = abs(other.group_position - one.group_position - half)
    if one.group_position < half <= other.group_position:
        return shift
    return one.group_size + shift


def bye_penalty(entry: Entry, lowest: int, scales: Scales) -> Penalty:
    """The penalty tiers of giving `entry` the bye: a pairing a point below the lowest."""
    return Penalty(
        rematch=0,
        second_bye=entry.scored_without_playing,
        colour_break=0,
        floats=scales.levels - 1 - entry.level,
        floats_from_top=scales.crossing(entry.level, scales.levels - 1),
        score_difference=scales.difference(entry.half_points - lowest + 2),
        downfloat_again=entry.floats[0] is Float.DOWN,
        upfloat_again=0,
        downfloat_two_ago=entry.floats[1] is Float.DOWN,
        upfloat_two_ago=0,
        top_difference=0,
        top_run=0,
        unmet_colour=0,
        unmet_strong_colour=0,
        order=scales.order(entry.level, entry.group_size - 1 - entry.group_position),
    )


def _seat_costs(one: Entry, other: Entry, one_first: bool) -> tuple[int, int, int, int, int]:
    """What `one` taking the first seat costs, tier by tier: (absolute colour breaks;
    under the top scorers' exception, colour differences past two, then third seats
    running; unmet preferences, then unmet strong ones)."""
    exempt = one.top_scorer or other.top_scorer
    breaks = wide = runs = unmet = unmet_strong = 0
    for entry, seat in (
        (one, FIRST if one_first else SECOND),
        (other, SECOND if one_first else FIRST),
    ):
        too_wide, too_long = breaks_limits(entry.seats, seat)
        if exempt:
            wide += too_wide
            runs += too_long
        else:
            breaks += too_wide or too_long
        wanted = entry.preference
        if wanted.seat is not None and wanted.seat != seat:
            unmet += 1
            unmet_strong += wanted.strength >= Strength.STRONG
    return breaks, wide, runs, unmet, unmet_strong


def seats(one: Entry, other: Entry, initial: int = FIRST) -> tuple[Entry, Entry]:
    """(first seat, second seat) for a pair, by the Dutch colour rules.

    Both preferences when they agree, else the stronger one (of two absolute ones, the
    wider colour difference's); then alternate from the latest game in which their
    seats differed; then the higher-ranked player's preference; then the higher-ranked
    player takes the initial colour's seat (`initial`) with an odd pairing number, the
    other with an even one.
    """
    higher, lower = (one, other) if one.rank < other.rank else (other, one)
    higher_first, lower_first = _seat_costs(higher, lower, True), _seat_costs(higher, lower, False)
    if higher_first != lower_first:
        return (higher, lower) if higher_first < lower_first else (lower, higher)
    mine, theirs = higher.preference, lower.preference
    if (
        mine.strength is Strength.ABSOLUTE
        and theirs.strength is Strength.ABSOLUTE
        and abs(higher.difference) != abs(lower.difference)
    ):
        wider = higher if abs(higher.difference) > abs(lower.difference) else lower
        narrower = lower if wider is higher else higher
        return (wider, narrower) if wider.preference.seat == FIRST else (narrower, wider)
    for my_seat, their_seat in zip(reversed(higher.seats), reversed(lower.seats), strict=False):
        if my_seat != their_seat:
            return (higher, lower) if my_seat == SECOND else (lower, higher)
    if mine.seat is not None:
        return (higher, lower) if mine.seat == FIRST else (lower, higher)
    if (higher.pairing_number % 2 == 1) == (initial == FIRST):
        return higher, lower
    return lower, higher
