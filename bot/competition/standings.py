"""Standings: players ranked by points, then by the format's tie-breaks.

Players still level after every tie-break share their place ("3-4") and are listed in
seed order. Withdrawn players keep their results and their place, and are marked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.competition.records import Pairing, PlayerId
from bot.competition.scoring import Record, records
from bot.competition.tiebreaks import Tiebreak


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    """The player's place, from 1."""
    last_rank: int
    """The last place of a tie shared with others; equal to `rank` when not shared."""
    player: PlayerId
    """The player."""
    points: float
    """The player's score."""
    wins: int
    """Games won, forfeits included."""
    draws: int
    """Games drawn."""
    losses: int
    """Games lost, forfeits included."""
    byes: int
    """Byes received."""
    tiebreaks: tuple[float, ...] = ()
    """The values of the format's tie-breaks, in order."""
    withdrawn: bool = False
    """True when the player left the tournament."""
    note: str = ""
    """A word about the player's run, such as "final" in an elimination bracket."""

    @property
    def rank_label(self) -> str:
        """The place as shown: "3", or "3-4" when shared."""
        return str(self.rank) if self.rank == self.last_rank else f"{self.rank}-{self.last_rank}"


def rank_players(
    players: Sequence[PlayerId],
    pairings: Iterable[Pairing],
    *,
    tiebreaks: Sequence[Tiebreak],
    bye_points: float,
    withdrawn: Iterable[PlayerId] = (),
) -> tuple[Standing, ...]:
    """The standings by points, then `tiebreaks` in order; `players` in seed order."""
    table = records(players, pairings, bye_points=bye_points)
    points = {player: record.points for player, record in table.items()}
    values = {
        player: tuple(tiebreak.value_of(record, points) for tiebreak in tiebreaks)
        for player, record in table.items()
    }
    return ranked(
        players,
        table,
        key=lambda player: (points[player], *values[player]),
        tiebreaks=values,
        withdrawn=withdrawn,
    )


def ranked(
    players: Sequence[PlayerId],
    table: dict[PlayerId, Record],
    *,
    key: Callable[[PlayerId], tuple[float, ...]],
    tiebreaks: dict[PlayerId, tuple[float, ...]] | None = None,
    withdrawn: Iterable[PlayerId] = (),
    notes: dict[PlayerId, str] | None = None,
) -> tuple[Standing, ...]:
    """Standings ordered by `key` (larger is better), seed order among equals."""
    gone = set(withdrawn)
    seed = {player: index for index, player in enumerate(players)}
    order = sorted(table, key=lambda player: (tuple(-k for k in key(player)), seed[player]))
    standings = []
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and key(order[end + 1]) == key(order[start]):
            end += 1
        for player in order[start : end + 1]:
            record = table[player]
            standings.append(
                Standing(
                    rank=start + 1,
                    last_rank=end + 1,
                    player=player,
                    points=record.points,
                    wins=record.wins,
                    draws=record.draws,
                    losses=record.losses,
                    byes=record.byes,
                    tiebreaks=(tiebreaks or {}).get(player, ()),
                    withdrawn=player in gone,
                    note=(notes or {}).get(player, ""),
                )
            )
        start = end + 1
    return tuple(standings)
