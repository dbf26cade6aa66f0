"""Drive a tournament to its end with random results and withdrawals, as the services do."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.competition.records import Pairing, Result
from bot.competition.tournament import Tournament

PLAYED_RESULTS = (Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW)

RoundCheck = Callable[[Tournament, tuple[Pairing, ...]], None]
"""Called with the tournament before a batch of new pairings, and that batch."""


def play_out(
    tournament: Tournament,
    rng: random.Random,
    *,
    draw_rate: float = 0.2,
    withdraw_rate: float = 0.0,
    check: RoundCheck | None = None,
    max_batches: int = 500,
) -> Tournament:
    """Pair, play and withdraw at random until the tournament is finished.

    Each game is, with `withdraw_rate`, abandoned by one of its players withdrawing (a
    forfeit); otherwise it is drawn with `draw_rate`, else won by either side.
    """
    for _ in range(max_batches):
        made = tournament.advance()
        if not made:
            if not tournament.is_finished:
                raise RuntimeError("advance() gave nothing before the end")
            return tournament
        if check is not None:
            check(tournament, made)
        tournament = tournament.with_pairings(made)
        for pairing in tournament.unfinished():
            if pairing not in tournament.unfinished():
                continue  # forfeited by a withdrawal earlier in this loop
            if rng.random() < withdraw_rate:
                tournament = tournament.withdraw(rng.choice(pairing.players))
                continue
            tournament = tournament.with_result(pairing, random_result(rng, draw_rate))
    raise RuntimeError("the tournament did not finish")


def random_result(rng: random.Random, draw_rate: float) -> Result:
    """A played result: a draw with probability `draw_rate`, else either side wins."""
    if rng.random() < draw_rate:
        return Result.DRAW
    return rng.choice(PLAYED_RESULTS[:2])
