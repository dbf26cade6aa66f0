"""Colour (seat) histories: who had the first seat how often, for balancing colours."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from bot.competition.records import Pairing, PlayerId

FIRST, SECOND = 0, 1
"""The two seats: the first player moves first."""


def counts_for_colour(pairing: Pairing) -> bool:
    """True when the pairing gave its players a colour: a game played or being played."""
    return pairing.second is not None and not (
        pairing.result is not None and pairing.result.is_forfeit
    )


def seat_histories(pairings: Iterable[Pairing]) -> dict[PlayerId, list[int]]:
    """Each player's seats in their games, in round order; byes and forfeits have none."""
    histories: dict[PlayerId, list[int]] = {}
    for pairing in sorted(pairings, key=lambda p: p.round):
        if counts_for_colour(pairing):
            for seat, player in enumerate(pairing.players):
                histories.setdefault(player, []).append(seat)
    return histories


def colour_difference(history: Iterable[int]) -> int:
    """First seats minus second seats: positive for a player who owes a second seat."""
    return sum(1 if seat == FIRST else -1 for seat in history)


def longest_run(history: list[int]) -> int:
    """The longest stretch of games in the same seat."""
    best = run = 0
    previous = None
    for seat in history:
        run = run + 1 if seat == previous else 1
        previous = seat
        best = max(best, run)
    return best


MAX_DIFFERENCE = 2
"""The widest colour difference the Swiss allows (FIDE's absolute limit)."""
MAX_RUN = 2
"""The most games running in the same seat the Swiss allows."""


class Strength(IntEnum):
    """How much a player wants a seat next (FIDE's colour preferences)."""

    NONE = 0
    """No game played yet."""
    MILD = 1
    """Colours level: the seat opposite the last game's."""
    STRONG = 2
    """One game more in one seat than in the other: the other seat."""
    ABSOLUTE = 3
    """The other seat is the only one allowed (two more, or the same seat twice running)."""


@dataclass(frozen=True, slots=True)
class Preference:
    """The seat a player is due next, and how strongly."""

    seat: int | None
    """FIRST or SECOND; None without a preference."""
    strength: Strength


def preference(history: Sequence[int]) -> Preference:
    """The seat a player with these seats (played games only, in order) is due next."""
    if not history:
        return Preference(None, Strength.NONE)
    difference = colour_difference(history)
    if difference > 1 or difference < -1:
        return Preference(SECOND if difference > 0 else FIRST, Strength.ABSOLUTE)
    if len(history) >= MAX_RUN and len(set(history[-MAX_RUN:])) == 1:
        return Preference(1 - history[-1], Strength.ABSOLUTE)
    if difference:
        return Preference(SECOND if difference > 0 else FIRST, Strength.STRONG)
    return Preference(1 - history[-1], Strength.MILD)


def breaks_limits(history: Sequence[int], seat: int) -> tuple[bool, bool]:
    """Whether taking `seat` next breaks the Swiss's absolute colour limits: (a colour
    difference beyond two, the same seat a third time running)."""
    after = [*history, seat]
    wide = abs(colour_difference(after)) > MAX_DIFFERENCE
    return wide, len(after) > MAX_RUN and len(set(after[-MAX_RUN - 1 :])) == 1
