"""Tie-breaks: Sonneborn-Berger, Buchholz and Buchholz cut 1, and wins.

- Sonneborn-Berger: the final scores of the opponents a player beat, plus half the
  final scores of those they drew with. Only games played over the board count.
- Buchholz: the sum of the player's opponents' final scores. A round without a game
  (a bye or a forfeit, won or lost) counts as a game against a virtual opponent with
  the player's own final score, so an unplayed round neither helps nor hurts.
- Buchholz cut 1: Buchholz without its smallest term.
- Wins: games won, forfeits included.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from bot.competition.records import PlayerId
from bot.competition.scoring import DRAW_POINTS, WIN_POINTS, Record


class Tiebreak(StrEnum):
    """A tie-break, stored and shown by its short name."""

    SONNEBORN_BERGER = "SB"
    BUCHHOLZ = "Bh"
    BUCHHOLZ_CUT_1 = "Bh-1"
    WINS = "Wins"

    @property
    def label(self) -> str:
        """The tie-break's full name."""
        return _TITLES[self]

    def value_of(self, record: Record, points: Mapping[PlayerId, float]) -> float:
        """The tie-break's value for `record`, with every player's final score."""
        if self is Tiebreak.SONNEBORN_BERGER:
            return sonneborn_berger(record, points)
        if self is Tiebreak.BUCHHOLZ:
            return buchholz(record, points)
        if self is Tiebreak.BUCHHOLZ_CUT_1:
            return buchholz_cut_1(record, points)
        return float(record.wins)


_TITLES = {
    Tiebreak.SONNEBORN_BERGER: "Sonneborn-Berger",
    Tiebreak.BUCHHOLZ: "Buchholz",
    Tiebreak.BUCHHOLZ_CUT_1: "Buchholz cut 1",
    Tiebreak.WINS: "wins",
}


def sonneborn_berger(record: Record, points: Mapping[PlayerId, float]) -> float:
    """Beaten opponents' scores plus half the scores of opponents drawn with."""
    total = 0.0
    for encounter in record.encounters:
        if not encounter.played or encounter.opponent is None:
            continue
        if encounter.points == WIN_POINTS:
            total += points[encounter.opponent]
        elif encounter.points == DRAW_POINTS:
            total += points[encounter.opponent] / 2
    return total


def buchholz_terms(record: Record, points: Mapping[PlayerId, float]) -> list[float]:
    """Each round's Buchholz term: the opponent's score, or the player's own if unplayed."""
    own = points[record.player]
    return [
        points[encounter.opponent] if encounter.played and encounter.opponent is not None else own
        for encounter in record.encounters
    ]


def buchholz(record: Record, points: Mapping[PlayerId, float]) -> float:
    """The sum of the opponents' final scores."""
    return sum(buchholz_terms(record, points))


def buchholz_cut_1(record: Record, points: Mapping[PlayerId, float]) -> float:
    """Buchholz without its smallest term."""
    terms = buchholz_terms(record, points)
    return sum(terms) - min(terms) if terms else 0.0
