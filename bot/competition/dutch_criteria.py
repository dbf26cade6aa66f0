"""The Dutch system's quality criteria for one bracket, as one number per candidate.

FIDE C.04.3 (the edition in force since February 2026) ranks a bracket's candidates by
its quality criteria in order, each minimised before the next:

- C6 the number of downfloaters (players the bracket leaves unpaired);
- C7 their scores, taken in descending order;
- C8 in the following bracket, as C6 and C7: its downfloaters, then their scores;
- C9 the unplayed games of the player receiving the pairing-allocated bye (PAB), in the
  bracket that downfloats only that player;
- C10 and C11 topscorers or their opponents whose colour difference passes two, then who
  get a colour three times running (only a topscorer's game can do either: C3);
- C12 players who do not get their colour preference, C13 those who do not get a strong
  one (an absolute preference lost, possible only between topscorers, counts under C10
  and C11);
- C14 resident downfloaters who floated down the round before, C15 opponents of moved-down
  players (MDPs) who floated up the round before; C16 and C17 the same for two rounds
  before;
- C18 and C20 the scores of the players with a downfloat the round before (two rounds
  before) that the bracket does not pair, highest first; C19 and C21 the score
  differences of the MDPs whose opponents floated up the round before (two rounds
  before), largest first.

Each criterion is a digit (a score-by-score criterion a digit per score, the highest
score first) of one integer, C6 the most significant, so that adding and comparing
candidates' values is adding and comparing ints. Pairs and downfloaters add fixed
amounts; C8 and C9 depend on the whole set of downfloaters.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.competition.colours import FIRST, SECOND, Strength, breaks_limits
from bot.competition.dutch_colours import allocate
from bot.competition.swiss_players import Entry, Float

Value = int


class Criteria:
    """Where each criterion sits in one bracket's value, and what pairs and downfloaters add."""

    def __init__(
        self, scores: Iterable[int], next_scores: Iterable[int], radix: int, resident: int
    ) -> None:
        self.levels = _levels(scores)
        """Bracket scores (half points) to their digit, the highest first."""
        self.next_levels = _levels(next_scores)
        self.resident = resident
        """The residents' score."""
        width = len(self.levels)
        self.c6 = 0
        self.c7 = 1
        self.c8 = self.c7 + width
        self.c8_scores = self.c8 + 1
        self.c9 = self.c8_scores + len(self.next_levels)
        self.c10 = self.c9 + 1
        self.c18 = self.c10 + 8
        self.c19 = self.c18 + width
        self.c20 = self.c19 + width
        self.c21 = self.c20 + width
        self.size = self.c21 + width
        self.radix = radix
        self.units = [1] * self.size
        for digit in range(self.size - 2, -1, -1):
            self.units[digit] = self.units[digit + 1] * radix
        self._pairs: dict[tuple[int, int], Value] = {}

    def unit(self, digit: int) -> Value:
        """One unit of a digit."""
        return self.units[digit]

    def digits(self, value: Value) -> list[int]:
        """A value's digits, C6 first (for reading and testing)."""
        out = []
        for _ in range(self.size):
            value, digit = divmod(value, self.radix)
            out.append(digit)
        return out[::-1]

    def pair(self, one: Entry, other: Entry) -> Value:
        """What pairing two players of the bracket adds (C10-C13, C15, C17, C19, C21)."""
        higher, lower = (one, other) if one.rank < other.rank else (other, one)
        key = (higher.rank, lower.rank)
        cached = self._pairs.get(key)
        if cached is not None:
            return cached
        units = self.units
        value = 0
        first, second = allocate(higher, lower)
        for entry, seat in ((first, FIRST), (second, SECOND)):
            wide, run = breaks_limits(entry.seats, seat)
            value += wide * units[self.c10] + run * units[self.c10 + 1]
        mine, theirs = higher.preference, lower.preference
        if mine.seat is not None and mine.seat == theirs.seat:
            value += units[self.c10 + 2]
            both_strong = mine.strength >= Strength.STRONG and theirs.strength >= Strength.STRONG
            both_absolute = mine.strength is theirs.strength is Strength.ABSOLUTE
            if both_strong and not both_absolute:
                value += units[self.c10 + 3]
        if higher.half_points > lower.half_points:
            level = self.levels[higher.half_points]
            if lower.floats[0] is Float.UP:
                value += units[self.c10 + 5] + units[self.c19 + level]
            if lower.floats[1] is Float.UP:
                value += units[self.c10 + 7] + units[self.c21 + level]
        self._pairs[key] = value
        return value

    def floater(self, entry: Entry) -> Value:
        """What leaving a player of the bracket unpaired adds (C6, C7, C14, C16, C18, C20)."""
        units = self.units
        level = self.levels[entry.half_points]
        value = units[self.c6] + units[self.c7 + level]
        resident = entry.half_points == self.resident
        if entry.floats[0] is Float.DOWN:
            value += units[self.c18 + level] + resident * units[self.c10 + 4]
        if entry.floats[1] is Float.DOWN:
            value += units[self.c20 + level] + resident * units[self.c10 + 6]
        return value

    def next_floaters(self, scores: Iterable[int]) -> Value:
        """C8: the following bracket's downfloaters, by their scores."""
        value = 0
        for score in scores:
            value += self.units[self.c8] + self.units[self.c8_scores + self.next_levels[score]]
        return value

    def colour_floor(self, wanted: list[int], offered: list[int], pool: int) -> Value:
        """The fewest unmet colour preferences (C12, C13) when players who want
        (`wanted`: first seat, second seat, strongly first, strongly second, counting
        only strong preferences that are not absolute for the last two) each meet a
        different player of a `pool` whose wishes are `offered` (first, second, strong or
        absolute first, strong or absolute second)."""
        unmet = max(0, wanted[0] - (pool - offered[0])) + max(0, wanted[1] - (pool - offered[1]))
        strong = max(0, wanted[2] - (pool - offered[2])) + max(0, wanted[3] - (pool - offered[3]))
        return unmet * self.units[self.c10 + 2] + strong * self.units[self.c10 + 3]


def wishes(entry: Entry) -> tuple[int, int, int, int]:
    """A player's colour wish as counts for `Criteria.colour_floor`: (wants the first
    seat, the second, strongly but not absolutely the first, the second)."""
    wanted = entry.preference
    if wanted.seat is None:
        return (0, 0, 0, 0)
    strong = wanted.strength is Strength.STRONG
    return (
        int(wanted.seat == FIRST),
        int(wanted.seat == SECOND),
        int(strong and wanted.seat == FIRST),
        int(strong and wanted.seat == SECOND),
    )


def offers(entry: Entry) -> tuple[int, int, int, int]:
    """A possible opponent's wish for `Criteria.colour_floor`: (wants the first seat, the
    second, strongly or absolutely the first, the second)."""
    wanted = entry.preference
    if wanted.seat is None:
        return (0, 0, 0, 0)
    strong = wanted.strength >= Strength.STRONG
    return (
        int(wanted.seat == FIRST),
        int(wanted.seat == SECOND),
        int(strong and wanted.seat == FIRST),
        int(strong and wanted.seat == SECOND),
    )


def _levels(scores: Iterable[int]) -> dict[int, int]:
    return {score: index for index, score in enumerate(sorted(set(scores), reverse=True))}
