"""Leagues: seasons of divisions, each a round robin, with promotion and relegation.

A season's players stand on one ladder, best first; the divisions are consecutive cuts
of it, the top division first. The first ladder is ordered by rating. At a season's
end each division's final order (withdrawn players last) gives the next ladder: the
top `MOVERS` of each division go up one division, the bottom `MOVERS` go down one;
players who do not come back are left out, and each newcomer joins the division where
their rating ranks among the returning players. The next season's divisions are cut
from that ladder again (so when players leave or join, a player at a division's edge
may move once more; newcomers stand last in their division, so they move first).

Everything here is pure: plain ids, ratings and pairings in, plain values out.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.competition.records import Pairing, PlayerId
from bot.competition.round_robin import schedule
from bot.competition.standings import Standing, rank_players
from bot.competition.tiebreaks import Tiebreak

MIN_DIVISION = 6
"""The fewest players a division is made with, when there are enough players."""
MAX_DIVISION = 10
"""The most players a division is made with, when the count allows it."""
MOVERS = 2
"""How many players go up (and down) between two divisions at a season's end."""
MIN_PLAYERS = 2
"""The fewest players a season starts with."""
TIEBREAKS = (Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS)
"""How players level on points are ranked in a division."""


class Move(enum.StrEnum):
    """Where a player goes at the end of a season."""

    UP = "up"
    DOWN = "down"
    STAY = "stay"


def check_bounds(smallest: int, largest: int) -> None:
    """Reject division bounds outside `MIN_DIVISION`..`MAX_DIVISION` or upside down."""
    if not MIN_DIVISION <= smallest <= largest <= MAX_DIVISION:
        raise ValueError(
            f"divisions take between {MIN_DIVISION} and {MAX_DIVISION} players, the smallest "
            f"no more than the largest (got {smallest} to {largest})"
        )


def division_sizes(
    players: int, smallest: int = MIN_DIVISION, largest: int = MAX_DIVISION
) -> tuple[int, ...]:
    """The sizes of the divisions of `players`, top division first.

    As few divisions as keep every size within `smallest`..`largest`, as even as can be
    (the larger ones on top). When no split keeps both bounds (11 players in divisions of
    6 to 10, or fewer players than `smallest`), the divisions keep the lower bound and
    grow past the upper one instead; with fewer than `smallest` there is one division.
    """
    if players < 0 or smallest < 2 or largest < smallest:
        raise ValueError(f"cannot split {players} players into divisions of {smallest}-{largest}")
    if players == 0:
        return ()
    count = -(-players // largest)
    if players // count < smallest:
        count = max(1, players // smallest)
    base, extra = divmod(players, count)
    return tuple(base + 1 if index < extra else base for index in range(count))


def split(
    ladder: Sequence[PlayerId], smallest: int = MIN_DIVISION, largest: int = MAX_DIVISION
) -> tuple[tuple[PlayerId, ...], ...]:
    """The divisions cut from the ladder, top first (see `division_sizes`)."""
    if len(set(ladder)) != len(ladder):
        raise ValueError("a player stands on the ladder twice")
    divisions = []
    start = 0
    for size in division_sizes(len(ladder), smallest, largest):
        divisions.append(tuple(ladder[start : start + size]))
        start += size
    return tuple(divisions)


def by_rating(
    players: Iterable[PlayerId], rating: Mapping[PlayerId, float]
) -> tuple[PlayerId, ...]:
    """The first ladder: best rating first, ties in the order given."""
    listed = list(players)
    order = {player: index for index, player in enumerate(listed)}
    return tuple(sorted(listed, key=lambda player: (-rating[player], order[player])))


def movers(upper: int, lower: int) -> int:
    """How many go up from a division of `lower` players to one of `upper` (and down):
    `MOVERS`, or fewer when a division is too small to give that many from its half."""
    return min(MOVERS, upper // 2, lower // 2)


def moves(finals: Sequence[Sequence[PlayerId]]) -> dict[PlayerId, Move]:
    """Where every player goes, from each division's final order (top division first)."""
    found = {player: Move.STAY for division in finals for player in division}
    for upper, lower in itertools.pairwise(finals):
        count = movers(len(upper), len(lower))
        for player in upper[len(upper) - count :]:
            found[player] = Move.DOWN
        for player in lower[:count]:
            found[player] = Move.UP
    return found


def next_ladder(
    finals: Sequence[Sequence[PlayerId]],
    returning: Collection[PlayerId],
    newcomers: Iterable[PlayerId],
    rating: Mapping[PlayerId, float],
) -> tuple[PlayerId, ...]:
    """The ladder of the next season.

    `finals` are the divisions' final orders (top first, withdrawn players last);
    `returning` are those of them who play again; `newcomers` (not in `finals`) are
    placed by `rating`, which must cover returning players and newcomers alike. Each new
    division reads: those relegated into it, those who stayed, those promoted into it,
    then the newcomers placed in it (see `place_newcomers`).
    """
    went = moves(finals)
    blocks: list[list[PlayerId]] = []
    for index, division in enumerate(finals):
        above = finals[index - 1] if index > 0 else ()
        below = finals[index + 1] if index + 1 < len(finals) else ()
        block = [player for player in above if went[player] is Move.DOWN]
        block += [player for player in division if went[player] is Move.STAY]
        block += [player for player in below if went[player] is Move.UP]
        blocks.append([player for player in block if player in returning])
    return tuple(player for block in place_newcomers(blocks, newcomers, rating) for player in block)


def place_newcomers(
    blocks: Sequence[Sequence[PlayerId]],
    newcomers: Iterable[PlayerId],
    rating: Mapping[PlayerId, float],
) -> tuple[tuple[PlayerId, ...], ...]:
    """The new divisions' players (`blocks`, top first) with each newcomer added to the
    division where their rating ranks among the returning players: when `k` of those rate
    higher, the division of the ladder's `k`-th player. Newcomers go at the end of their
    division, so that when divisions are cut again, returning players keep the division
    their results earned before a newcomer does."""
    ladder = [player for block in blocks for player in block]
    present = set(ladder)
    fresh = [player for player in by_rating(newcomers, rating) if player not in present]
    if len(set(fresh)) != len(fresh):
        raise ValueError("a newcomer is listed twice")
    placed = [list(block) for block in blocks] or [[]]
    ends = []
    total = 0
    for block in placed:
        total += len(block)
        ends.append(total)
    for player in fresh:
        higher = sum(1 for other in ladder if rating[other] > rating[player])
        target = next((i for i, end in enumerate(ends) if higher < end), len(placed) - 1)
        placed[target].append(player)
    return tuple(tuple(block) for block in placed)


def division_games(players: Sequence[PlayerId], games_per_pair: int) -> tuple[Pairing, ...]:
    """Every game of a division: each pair once, or twice with the seats swapped; the
    rounds are those of a round robin (the games are all played at once)."""
    if games_per_pair not in (1, 2):
        raise ValueError(f"a pair plays 1 or 2 games, not {games_per_pair}")
    if len(players) < 2:
        return ()
    return tuple(pairing for games in schedule(players, games_per_pair) for pairing in games)


def standings(
    players: Sequence[PlayerId], games: Iterable[Pairing], withdrawn: Collection[PlayerId] = ()
) -> tuple[Standing, ...]:
    """A division's standings: points, then Sonneborn-Berger and wins; `players` in
    ladder order, which orders those level on everything."""
    return rank_players(players, games, tiebreaks=TIEBREAKS, bye_points=0.0, withdrawn=withdrawn)


def final_order(table: Sequence[Standing]) -> tuple[PlayerId, ...]:
    """The division's order for promotion and relegation: withdrawn players last."""
    staying = [line.player for line in table if not line.withdrawn]
    gone = [line.player for line in table if line.withdrawn]
    return tuple(staying + gone)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One player's season, as it ended."""

    player: PlayerId
    division: int
    """The division played in, from 1 (the top)."""
    place: int
    """The place in the division's final order, from 1."""
    move: Move


def outcomes(finals: Sequence[Sequence[PlayerId]]) -> tuple[Outcome, ...]:
    """Every player's division, place and move, top division first."""
    went = moves(finals)
    return tuple(
        Outcome(player, number, place, went[player])
        for number, division in enumerate(finals, start=1)
        for place, player in enumerate(division, start=1)
    )
