"""The Dutch system's colour allocation rules, for one pair already made.

In order (FIDE C.04.3, colour allocation): grant both preferences; else grant the
stronger one (of two absolute ones, that of the wider colour difference); else alternate
both players' colours from the latest round in which they differed; else grant the
higher-ranked player's preference; else the higher-ranked player takes the initial colour
with an odd pairing number, the other colour with an even one. The initial colour is
drawn before the first round; Tabula's is the first seat (white) unless a tournament
file says otherwise.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from bot.competition.colours import FIRST, SECOND, Preference, Strength


class Colourable(Protocol):
    """What colour allocation needs to know of a player."""

    @property
    def rank(self) -> int:
        """The place in pairing order, from 0."""

    @property
    def pairing_number(self) -> int:
        """The seed, from 1."""

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats of the games played, in order."""

    @property
    def preference(self) -> Preference:
        """The seat due next, and how strongly."""

    @property
    def difference(self) -> int:
        """First seats minus second seats so far."""


T = TypeVar("T", bound=Colourable)


def first_seat_to_higher(higher: Colourable, lower: Colourable, initial: int = FIRST) -> bool:
    """True when the higher-ranked player of a pair takes the first seat (`initial` is
    the initial colour's seat)."""
    mine, theirs = higher.preference, lower.preference
    if mine.seat is None and theirs.seat is not None:
        return theirs.seat == SECOND
    if theirs.seat is None and mine.seat is not None:
        return mine.seat == FIRST
    if mine.seat is not None and theirs.seat is not None:
        if mine.seat != theirs.seat:
            return mine.seat == FIRST
        if mine.strength != theirs.strength:
            stronger = mine if mine.strength > theirs.strength else theirs
            return (stronger.seat == FIRST) == (stronger is mine)
        if mine.strength is Strength.ABSOLUTE and abs(higher.difference) != abs(lower.difference):
            mine_wider = abs(higher.difference) > abs(lower.difference)
            return (mine.seat == FIRST) == mine_wider
    for my_seat, their_seat in zip(reversed(higher.seats), reversed(lower.seats), strict=False):
        if my_seat != their_seat:
            return my_seat == SECOND
    if mine.seat is not None:
        return mine.seat == FIRST
    return (higher.pairing_number % 2 == 1) == (initial == FIRST)


def allocate(one: T, other: T, initial: int = FIRST) -> tuple[T, T]:
    """(first seat, second seat) for a pair, by the Dutch colour allocation rules, with
    `initial` the initial colour's seat."""
    higher, lower = (one, other) if one.rank < other.rank else (other, one)
    return (higher, lower) if first_seat_to_higher(higher, lower, initial) else (lower, higher)
