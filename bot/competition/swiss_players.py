"""What the Swiss pairing knows about each player: score, seats, floats, byes.

A player's facts come from the finished history alone: the score (in half points) and
score group, the seats of the games played (byes and forfeits give none), the colour
preference those seats make, the byes and wins by forfeit, and how they floated in the
last two rounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.competition.colours import Preference, colour_difference, preference, seat_histories
from bot.competition.records import Pairing, PlayerId
from bot.competition.scoring import SWISS_BYE_POINTS, WIN_POINTS, Record, records


class Float(Enum):
    """How a player was paired against their score in a round."""

    DOWN = "down"
    """Met a lower score, had the bye, or won by forfeit."""
    UP = "up"
    """Met a higher score."""


@dataclass(frozen=True, slots=True)
class Entry:
    """What pairing needs to know about one active player."""

    player: PlayerId
    rank: int
    """The place in pairing order (score, then seed), from 0."""
    pairing_number: int
    """The seed, from 1."""
    half_points: int
    level: int
    """The score group, from 0 for the highest score."""
    group_position: int
    group_size: int
    seats: tuple[int, ...]
    """Seats of the games played, in order (byes and forfeits left out)."""
    preference: Preference
    scored_without_playing: int
    """Byes and wins by forfeit so far."""
    floats: tuple[Float | None, Float | None]
    """The floats of the last round and of the round before it."""
    top_scorer: bool = False
    """In the last round: more than half the points possible so far."""
    unplayed: int = 0
    """Earlier rounds without a game played: byes, forfeits, absences."""

    @property
    def difference(self) -> int:
        """First seats minus second seats so far."""
        return colour_difference(self.seats)


def entries_for(
    players: Sequence[PlayerId],
    history: tuple[Pairing, ...],
    round_number: int,
    gone: set[PlayerId],
    *,
    last: bool = False,
) -> list[Entry]:
    """The active players in pairing order (score, then seed), with what pairing needs."""
    table = records(players, history, bye_points=SWISS_BYE_POINTS)
    histories = seat_histories(history)
    floats = float_history(players, history)
    seed = {player: index for index, player in enumerate(players)}
    active = sorted(
        (player for player in players if player not in gone),
        key=lambda player: (-table[player].points, seed[player]),
    )
    half_points = {player: round(table[player].points * 2) for player in active}
    levels = {score: level for level, score in enumerate(sorted(set(half_points.values()))[::-1])}
    groups = Counter(half_points.values())
    entries = []
    position: Counter[int] = Counter()
    for rank, player in enumerate(active):
        score = half_points[player]
        seats = tuple(histories.get(player, ()))
        mine = floats.get(player, {})
        entries.append(
            Entry(
                player=player,
                rank=rank,
                pairing_number=seed[player] + 1,
                half_points=score,
                level=levels[score],
                group_position=position[score],
                group_size=groups[score],
                seats=seats,
                preference=preference(seats),
                scored_without_playing=_scored_without_playing(table[player]),
                floats=(mine.get(round_number - 1), mine.get(round_number - 2)),
                top_scorer=last and score > round_number - 1,
                unplayed=round_number - 1 - len(seats),
            )
        )
        position[score] += 1
    return entries


def float_history(
    players: Sequence[PlayerId], history: Iterable[Pairing]
) -> dict[PlayerId, dict[int, Float]]:
    """Each player's floats by round: against a different score, a bye, a forfeit win."""
    points = dict.fromkeys(players, 0.0)
    floats: dict[PlayerId, dict[int, Float]] = {}
    by_round: dict[int, list[Pairing]] = {}
    for pairing in history:
        by_round.setdefault(pairing.round, []).append(pairing)
    for number in sorted(by_round):
        for pairing in by_round[number]:
            if pairing.second is None:
                floats.setdefault(pairing.first, {})[number] = Float.DOWN
                continue
            assert pairing.result is not None
            if pairing.result.is_forfeit:
                winner = pairing.winner()
                if winner is not None:
                    floats.setdefault(winner, {})[number] = Float.DOWN
                continue
            first, second = points[pairing.first], points[pairing.second]
            if first != second:
                higher, lower = (
                    (pairing.first, pairing.second)
                    if first > second
                    else (pairing.second, pairing.first)
                )
                floats.setdefault(higher, {})[number] = Float.DOWN
                floats.setdefault(lower, {})[number] = Float.UP
        for pairing in by_round[number]:
            if pairing.second is None:
                points[pairing.first] += SWISS_BYE_POINTS
            else:
                for player in pairing.players:
                    points[player] += pairing.score(player) or 0.0
    return floats


def _scored_without_playing(record: Record) -> int:
    """Byes and wins by forfeit: either rules out a further bye."""
    return sum(
        1
        for e in record.encounters
        if e.opponent is None or (not e.played and e.points == WIN_POINTS)
    )
