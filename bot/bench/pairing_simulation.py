"""`tabula bench pairing --simulate`: many random Swiss tournaments, audited round by round.

Every round the pairing code makes is checked here from the history alone, without the
pairing code's own weights:

- rematches: two players who played each other before (a forfeit is no game, C.04.2);
- colour breaks: a colour difference beyond two or a third seat running, except in the
  last round for a top scorer (more than half the points possible) or their opponent,
  FIDE's exception (those are counted apart);
- second byes: a bye for a player who had a bye or a win by forfeit;
- avoidable floats: a round with more floats than the fewest that some pairing keeping
  the absolute criteria above would have. A float is one score group crossed: a game
  between neighbouring groups is one, a game across two boundaries two, and the bye
  counts as a game against a group one below the lowest (so in an odd field one float
  is unavoidable). The fewest are found by a separate minimum-weight matching. This
  one is told, not a fault: the Dutch system pairs bracket by bracket from the top, and
  its rules can float more players than the fewest a whole round could;
- unpairable rounds: rounds for which no pairing keeps the absolute criteria at all
  (late rounds of long events in small fields); the checks above count only the other
  rounds, since breaking some criterion is forced in these.

After the last round, an event has a single winner when one player alone has the most
points.

With a reference program (`--reference PROGRAM`, an independent Dutch-system pairing
program on this machine), every round is also paired by that program from the same
history written as a TRF file, and the rounds where both made the same pairs (and the
same seats) are counted; rounds it refuses (no pairing keeps its absolute criteria) are
counted apart.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import networkx as nx

from bot.bench.pairing_reference import compare
from bot.bench.simulation import play_out
from bot.competition.colours import colour_difference, seat_histories
from bot.competition.records import Pairing
from bot.competition.scoring import SWISS_BYE_POINTS, Record, records
from bot.competition.tournament import Format, Tournament

DEFAULT_FIELDS = (6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 32, 33, 48, 64)
"""Field sizes simulated when none are given."""
DRAW_RATE = 0.2
"""The share of games drawn."""
WITHDRAW_RATE = 0.02
"""The share of games abandoned because one of the players withdraws (a forfeit)."""


@dataclass
class Audit:
    """What the simulated tournaments of one field size did."""

    field: int
    events: int = 0
    rounds: int = 0
    games: int = 0
    rematches: int = 0
    colour_breaks: int = 0
    top_scorer_exceptions: int = 0
    second_byes: int = 0
    avoidable_floats: int = 0
    unpairable_rounds: int = 0
    withdrawals: int = 0
    single_winners: int = 0
    compared: int = 0
    """Rounds also paired by the reference program."""
    same_pairs: int = 0
    """Of those, rounds with the same pairs and bye as the reference."""
    same_seats: int = 0
    """Of those, rounds with the same seats too."""
    refused: int = 0
    """Rounds the reference found no pairing for."""
    seconds: float = 0.0
    """Time spent pairing, playing and auditing."""

    def as_dict(self) -> dict[str, object]:
        """The figures, for JSON: the counts, and the share of events with one winner."""
        figures: dict[str, object] = asdict(self)
        del figures["single_winners"]
        share = self.single_winners / self.events if self.events else 0.0
        figures["single_winner_share"] = share
        return figures


def rounds_for(field: int) -> int:
    """⌈log₂ N⌉ rounds: the bot's default for a Swiss of `field` players."""
    return max(1, math.ceil(math.log2(field)))


def simulate_field(
    field: int,
    events: int,
    seed: int,
    *,
    draw_rate: float = DRAW_RATE,
    withdraw_rate: float = WITHDRAW_RATE,
    rounds: int | None = None,
    reference: Path | None = None,
) -> Audit:
    """Play `events` Swiss tournaments of `field` players and audit every round (and
    compare it with the `reference` program's, if any)."""
    started = time.perf_counter()
    audit = Audit(field)
    rng = random.Random(f"{seed}:{field}")
    planned = min(rounds or rounds_for(field), field - 1 if field % 2 == 0 else field)
    for _ in range(events):
        tournament = Tournament(Format.SWISS, tuple(range(1, field + 1)), rounds=planned)
        finished = play_out(
            tournament,
            rng,
            draw_rate=draw_rate,
            withdraw_rate=withdraw_rate,
            check=lambda before, made: check_round(before, made, audit, reference),
        )
        audit.events += 1
        audit.withdrawals += len(finished.withdrawn)
        table = records(finished.players, finished.pairings, bye_points=SWISS_BYE_POINTS)
        top = max(table[p].points for p in finished.players)
        audit.single_winners += sum(1 for p in finished.players if table[p].points == top) == 1
    audit.seconds = time.perf_counter() - started
    return audit


def check_round(
    before: Tournament, made: tuple[Pairing, ...], audit: Audit, reference: Path | None
) -> None:
    """Audit one round, and compare it with the reference program's."""
    audit_round(before, made, audit)
    if reference is None:
        return
    comparison = compare(reference, before, made)
    audit.compared += 1
    audit.refused += comparison.refused
    audit.same_pairs += comparison.same_pairs
    audit.same_seats += comparison.same_seats


def audit_round(before: Tournament, made: tuple[Pairing, ...], audit: Audit) -> None:
    """Check one freshly paired round against the rules, from the history alone."""
    number = made[0].round
    audit.rounds += 1
    history = before.pairings
    active = list(before.active_players)
    table = records(before.players, history, bye_points=SWISS_BYE_POINTS)
    half = {p: round(2 * table[p].points) for p in active}
    free = {p: _scored_without_playing(table[p]) for p in active}
    met = Counter(
        frozenset(p.players)
        for p in history
        if p.second is not None and not (p.result is not None and p.result.is_forfeit)
    )
    seats = seat_histories(history)
    leaders = {p for p in active if number == before.rounds and half[p] > number - 1}
    games = [p for p in made if p.second is not None]
    audit.games += len(games)
    fewest = _fewest_floats(active, half, free, met, seats, leaders=leaders)
    if fewest is None:
        # No pairing keeps every absolute criterion: breaking one is forced.
        audit.unpairable_rounds += 1
        return
    for pairing in made:
        if pairing.second is None:
            audit.second_byes += free[pairing.first] > 0
            continue
        audit.rematches += met[frozenset(pairing.players)] > 0
        broken = [
            player
            for seat, player in enumerate(pairing.players)
            if _breaks(seats.get(player, []), seat)
        ]
        if set(pairing.players) & leaders:
            audit.top_scorer_exceptions += len(broken)
        else:
            audit.colour_breaks += len(broken)
    if _floats(made, half) > fewest:
        audit.avoidable_floats += 1


def _scored_without_playing(record: Record) -> int:
    """Byes and wins by forfeit in a player's record."""
    return sum(
        1 for e in record.encounters if e.opponent is None or (not e.played and e.points == 1.0)
    )


def _breaks(history: list[int], seat: int) -> bool:
    """True when `seat` after `history` breaks a colour limit."""
    after = [*history, seat]
    run = len(after) >= 3 and len(set(after[-3:])) == 1
    return abs(colour_difference(after)) > 2 or run


def _fewest_floats(
    active: list[int],
    half: dict[int, int],
    free: dict[int, int],
    met: Counter[frozenset[int]],
    seats: dict[int, list[int]],
    *,
    leaders: set[int],
) -> int | None:
    """The fewest floats of any pairing keeping the absolute criteria, or None when there
    is no such pairing: a minimum-weight perfect matching whose edges weigh the score
    groups between the two players (the bye sits one group below the lowest)."""
    levels = sorted(set(half.values()), reverse=True)
    level = {player: levels.index(half[player]) for player in active}
    graph: nx.Graph[object] = nx.Graph()
    nodes: list[object] = list(active)
    if len(active) % 2:
        nodes.append("bye")
    graph.add_nodes_from(nodes)
    far = len(levels) + 1
    for i, one in enumerate(active):
        if len(active) % 2 and not free[one]:
            graph.add_edge(one, "bye", weight=far - (len(levels) - level[one]))
        for other in active[i + 1 :]:
            if met[frozenset((one, other))]:
                continue
            exempt = bool({one, other} & leaders)
            mine, theirs = seats.get(one, []), seats.get(other, [])
            if not exempt and all(
                _breaks(mine, seat) or _breaks(theirs, 1 - seat) for seat in (0, 1)
            ):
                continue
            graph.add_edge(one, other, weight=far - abs(level[one] - level[other]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(nodes):
        return None
    return sum(far - graph.edges[u, v]["weight"] for u, v in matching)


def _floats(made: tuple[Pairing, ...], half: dict[int, int]) -> int:
    """The floats of a round: score groups crossed by each game, and by the bye from its
    player's group to one below the lowest."""
    levels = sorted(set(half.values()), reverse=True)
    total = 0
    for pairing in made:
        one = levels.index(half[pairing.first])
        other = len(levels) if pairing.second is None else levels.index(half[pairing.second])
        total += abs(one - other)
    return total
