"""Ratings and tournament algorithms: pure functions on plain values, no I/O, no Discord.

- `glicko2`: Glicko-2 ratings, one game at a time.
- `records`: entrants, pairings and results.
- `round_robin`, `swiss` (+ `dutch`, `dutch_colours`, `swiss_players`, `lexicographic`),
  `elimination`: the pairing methods.
- `trf`: FIDE Tournament Report Files, written and read.
- `scoring`, `tiebreaks`, `standings`: points, tie-breaks and rankings.
- `tournament`: one tournament's state and what to pair next.
- `tables`: standings and pairings as text for a Discord code block.
"""

from __future__ import annotations

from bot.competition.glicko2 import GameResult, Rating, rate_game, update
from bot.competition.records import Entrant, Pairing, PlayerId, Result
from bot.competition.standings import Standing
from bot.competition.tiebreaks import Tiebreak
from bot.competition.tournament import Format, Tournament

__all__ = [
    "Entrant",
    "Format",
    "GameResult",
    "Pairing",
    "PlayerId",
    "Rating",
    "Result",
    "Standing",
    "Tiebreak",
    "Tournament",
    "rate_game",
    "update",
]
