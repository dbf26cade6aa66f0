"""Points: a win scores 1, a draw ½, a loss 0; a Swiss bye scores 1.

A forfeit (a game not played because a player withdrew or never showed up) scores like
a win for the player who was there and a loss for the other; a double forfeit scores
nothing. Games still being played do not count yet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.competition.records import Pairing, PlayerId

WIN_POINTS = 1.0
"""The points for a win (over the board or by forfeit)."""
DRAW_POINTS = 0.5
"""The points for a draw."""
LOSS_POINTS = 0.0
"""The points for a loss."""
SWISS_BYE_POINTS = 1.0
"""The points for a bye in a Swiss tournament (a full point, as on Lichess)."""


@dataclass(frozen=True, slots=True)
class Encounter:
    """One finished round of one player: whom they met and what they scored."""

    round: int
    """The round, counted from 1."""
    opponent: PlayerId | None
    """The opponent; None for a bye."""
    points: float
    """The points the player made."""
    played: bool
    """True for a game played over the board; False for a bye or a forfeit."""


@dataclass(frozen=True, slots=True)
class Record:
    """One player's finished rounds and the totals made from them."""

    player: PlayerId
    """The player."""
    encounters: tuple[Encounter, ...]
    """The player's finished rounds, in order."""

    @property
    def points(self) -> float:
        """The player's score."""
        return sum(encounter.points for encounter in self.encounters)

    @property
    def wins(self) -> int:
        """Games won, forfeits included."""
        return self._count(lambda e: e.opponent is not None and e.points == WIN_POINTS)

    @property
    def draws(self) -> int:
        """Games drawn."""
        return self._count(lambda e: e.opponent is not None and e.points == DRAW_POINTS)

    @property
    def losses(self) -> int:
        """Games lost, forfeits included."""
        return self._count(lambda e: e.opponent is not None and e.points == LOSS_POINTS)

    @property
    def byes(self) -> int:
        """Rounds the player had a bye."""
        return self._count(lambda e: e.opponent is None)

    def _count(self, test: Callable[[Encounter], bool]) -> int:
        """How many encounters pass `test`."""
        return sum(1 for encounter in self.encounters if test(encounter))


def records(
    players: Sequence[PlayerId], pairings: Iterable[Pairing], *, bye_points: float
) -> dict[PlayerId, Record]:
    """Every player's record from the finished pairings (`bye_points` for each bye)."""
    encounters: dict[PlayerId, list[Encounter]] = {player: [] for player in players}
    for pairing in sorted(pairings, key=lambda p: p.round):
        strangers = [player for player in pairing.players if player not in encounters]
        if strangers:
            raise ValueError(f"player {strangers[0]} is not in this tournament")
        if pairing.second is None:
            bye = Encounter(pairing.round, None, bye_points, played=False)
            encounters[pairing.first].append(bye)
            continue
        if pairing.result is None:
            continue
        played = not pairing.result.is_forfeit
        for player, opponent, points in (
            (pairing.first, pairing.second, pairing.result.first_score),
            (pairing.second, pairing.first, pairing.result.second_score),
        ):
            encounter = Encounter(pairing.round, opponent, points, played)
            encounters[player].append(encounter)
    return {player: Record(player, tuple(found)) for player, found in encounters.items()}
