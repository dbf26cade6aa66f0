"""Colour (seat) histories: who had the first seat how often, for balancing colours."""

from __future__ import annotations

from collections.abc import Iterable

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
