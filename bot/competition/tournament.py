"""A tournament as one immutable value: who plays, what has been paired, what comes next.

The tournament service keeps the players (in seed order), the format, the number of
rounds, the withdrawn players and every pairing with its result; from those it builds
a `Tournament` and asks it what to do. After every result it calls `advance()` until
that returns nothing: it yields the replays of drawn elimination games, or the next
round once the current one is complete. Pairings that come back with a result already
(forfeits of withdrawn players in a round robin) need no game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from bot.competition import elimination, round_robin, swiss, tables
from bot.competition.records import Entrant, Pairing, PlayerId, Result, players_of, seed
from bot.competition.scoring import SWISS_BYE_POINTS
from bot.competition.standings import Standing, rank_players
from bot.competition.tiebreaks import Tiebreak

MIN_PLAYERS = 2
"""The fewest players a tournament can start with."""


class Format(StrEnum):
    """How a tournament pairs its players; stored by value."""

    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single-elimination"
    """A knockout; the stored value keeps its first name."""

    @property
    def label(self) -> str:
        """The format's name for players: "Round robin", "Knockout"."""
        return _TITLES[self]

    @property
    def keyword(self) -> str:
        """The name players type: "round-robin", "swiss", "knockout"."""
        return "knockout" if self is Format.SINGLE_ELIMINATION else self.value

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        """The tie-breaks that order players on equal points, in order."""
        return _TIEBREAKS[self]

    @property
    def is_round_robin(self) -> bool:
        """True for the single and double round robin."""
        return self in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)


_TITLES = {
    Format.ROUND_ROBIN: "Round robin",
    Format.DOUBLE_ROUND_ROBIN: "Double round robin",
    Format.SWISS: "Swiss",
    Format.SINGLE_ELIMINATION: "Knockout",
}
_TIEBREAKS = {
    Format.ROUND_ROBIN: (Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS),
    Format.DOUBLE_ROUND_ROBIN: (Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS),
    Format.SWISS: (
        Tiebreak.BUCHHOLZ,
        Tiebreak.BUCHHOLZ_CUT_1,
        Tiebreak.SONNEBORN_BERGER,
        Tiebreak.WINS,
    ),
    Format.SINGLE_ELIMINATION: (),
}


def round_count(format: Format, field: int, swiss_rounds: int | None = None) -> int:
    """The rounds a tournament of `field` players will have.

    A Swiss plays the rounds asked for, but no more than a round robin of the same field
    would take: after that, everyone would have met everyone.
    """
    if field < MIN_PLAYERS:
        raise ValueError(f"a tournament needs at least {MIN_PLAYERS} players")
    if format is Format.SWISS:
        if swiss_rounds is None or swiss_rounds < 1:
            raise ValueError("a Swiss tournament needs a number of rounds (at least 1)")
        return min(swiss_rounds, round_robin.rounds_per_cycle(field))
    if format is Format.SINGLE_ELIMINATION:
        return elimination.round_count(field)
    return round_robin.round_count(field, _cycles(format))


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's pairing state; every change returns a new value."""

    format: Format
    """How players are paired."""
    players: tuple[PlayerId, ...]
    """Every entrant, in seed order (best first)."""
    rounds: int
    """The number of rounds (see `round_count`)."""
    pairings: tuple[Pairing, ...] = ()
    """Every pairing so far, in the order they were made."""
    withdrawn: frozenset[PlayerId] = field(default_factory=frozenset)
    """Players who left the tournament."""

    def __post_init__(self) -> None:
        """Reject a tournament that cannot exist."""
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player can enter a tournament only once")
        if len(self.players) < MIN_PLAYERS:
            raise ValueError(f"a tournament needs at least {MIN_PLAYERS} players")
        if self.rounds < 1:
            raise ValueError("a tournament has at least one round")
        known = set(self.players)
        for pairing in self.pairings:
            if not set(pairing.players) <= known:
                raise ValueError(f"a pairing of round {pairing.round} has a stranger in it")
        if not self.withdrawn <= known:
            raise ValueError("only entrants can withdraw")

    @classmethod
    def start(
        cls, format: Format, entrants: Iterable[Entrant], *, swiss_rounds: int | None = None
    ) -> Tournament:
        """A new tournament with its players seeded by rating, before round one."""
        seeded = seed(entrants)
        return cls(format, players_of(seeded), round_count(format, len(seeded), swiss_rounds))

    @property
    def current_round(self) -> int:
        """The latest round paired so far (0 before the first)."""
        return max((pairing.round for pairing in self.pairings), default=0)

    @property
    def active_players(self) -> tuple[PlayerId, ...]:
        """The players who have not withdrawn, in seed order."""
        return tuple(player for player in self.players if player not in self.withdrawn)

    def round_pairings(self, number: int) -> tuple[Pairing, ...]:
        """The pairings of round `number`, in the order they were made."""
        return tuple(pairing for pairing in self.pairings if pairing.round == number)

    def unfinished(self) -> tuple[Pairing, ...]:
        """The games being played: pairings without a result."""
        return tuple(pairing for pairing in self.pairings if not pairing.is_finished)

    def is_round_complete(self, number: int) -> bool:
        """True when every game of round `number` is over and its matches are decided."""
        pairings = self.round_pairings(number)
        if not pairings or not all(pairing.is_finished for pairing in pairings):
            return False
        if self.format is Format.SINGLE_ELIMINATION:
            bracket = self._bracket()
            return len(bracket) >= number and all(m.decided for m in bracket[number - 1])
        return True

    @property
    def is_finished(self) -> bool:
        """True once the last round is complete (or too few players are left to go on)."""
        current = self.current_round
        if current == 0 or not self.is_round_complete(current):
            return False
        if current >= self.rounds:
            return True
        if self.format is Format.SWISS:
            return len(self.active_players) < MIN_PLAYERS
        if self.format is Format.SINGLE_ELIMINATION:
            # A lone survivor still walks through the remaining rounds to the title.
            survivors = {m.winner for m in self._bracket()[-1]} - {None} - self.withdrawn
            return not survivors
        return False

    def advance(self) -> tuple[Pairing, ...]:
        """The pairings to make now: replays of drawn elimination games, or the next round."""
        current = self.current_round
        if self.is_finished:
            return ()
        if current and not self.is_round_complete(current):
            if self.format is not Format.SINGLE_ELIMINATION:
                return ()
            made = elimination.replays(self.players, self.pairings, withdrawn=self.withdrawn)
        else:
            made = self._pair_round(current + 1)
        return tuple(self._forfeit_if_absent(pairing) for pairing in made)

    def with_pairings(self, pairings: Iterable[Pairing]) -> Tournament:
        """The tournament with more pairings made."""
        return replace(self, pairings=self.pairings + tuple(pairings))

    def with_result(self, pairing: Pairing, result: Result) -> Tournament:
        """The tournament with the result of one unfinished game."""
        for index, existing in enumerate(self.pairings):
            if existing == pairing and existing.result is None and not existing.is_bye:
                changed = list(self.pairings)
                changed[index] = existing.with_result(result)
                return replace(self, pairings=tuple(changed))
        raise ValueError("that game is not being played in this tournament")

    def withdraw(self, player: PlayerId) -> Tournament:
        """The tournament without `player`: their unfinished games are lost by forfeit."""
        if player not in self.players:
            raise ValueError("only entrants can withdraw")
        if player in self.withdrawn:
            raise ValueError("that player has withdrawn already")
        gone = replace(self, withdrawn=self.withdrawn | {player})
        return replace(
            gone,
            pairings=tuple(
                gone._forfeit_if_absent(pairing) if pairing.result is None else pairing
                for pairing in self.pairings
            ),
        )

    def standings(self) -> tuple[Standing, ...]:
        """The current standings, ranked with the format's tie-breaks."""
        if self.format is Format.SINGLE_ELIMINATION:
            return elimination.standings(self.players, self.pairings, withdrawn=self.withdrawn)
        return rank_players(
            self.players,
            self.pairings,
            tiebreaks=self.format.tiebreaks,
            bye_points=SWISS_BYE_POINTS,
            withdrawn=self.withdrawn,
        )

    def standings_table(self, names: Mapping[PlayerId, str]) -> str:
        """The standings as aligned text for a code block, with the format's columns."""
        return tables.standings_table(
            self.standings(),
            names,
            tiebreaks=self.format.tiebreaks,
            points=self.format is not Format.SINGLE_ELIMINATION,
        )

    def standings_grid(self) -> tables.StandingsGrid:
        """The standings as cells, with the format's columns (for a page's table)."""
        return tables.standings_grid(
            self.standings(),
            tiebreaks=self.format.tiebreaks,
            points=self.format is not Format.SINGLE_ELIMINATION,
        )

    def pairings_table(
        self,
        number: int,
        names: Mapping[PlayerId, str],
        *,
        seats: tuple[str, str] = ("First", "Second"),
    ) -> str:
        """Round `number`'s boards as aligned text, with each player's points so far."""
        before = replace(self, pairings=tuple(p for p in self.pairings if p.round < number))
        points = {standing.player: standing.points for standing in before.standings()}
        shown = points if self.format is not Format.SINGLE_ELIMINATION else None
        return tables.pairings_table(self.round_pairings(number), names, points=shown, seats=seats)

    def resting(self, number: int) -> tuple[PlayerId, ...]:
        """Active players with neither a game nor a bye in round `number` (in a knockout,
        those not knocked out yet)."""
        busy = {player for pairing in self.round_pairings(number) for player in pairing.players}
        if self.format is Format.SINGLE_ELIMINATION:
            busy |= elimination.eliminated_before(
                self.players, self.pairings, number, withdrawn=self.withdrawn
            )
        return tuple(player for player in self.active_players if player not in busy)

    def seed_decision(self, game: Pairing) -> elimination.Match | None:
        """In a knockout, the match that the drawn `game` gave to the better seed."""
        if self.format is not Format.SINGLE_ELIMINATION:
            return None
        return elimination.seed_decision(
            self.players, self.pairings, game, withdrawn=self.withdrawn
        )

    def _pair_round(self, number: int) -> tuple[Pairing, ...]:
        """Round `number`'s opening pairings, by the format's method."""
        if self.format is Format.SWISS:
            return swiss.pair_round(
                self.players,
                self.pairings,
                number,
                withdrawn=self.withdrawn,
                last_round=self.rounds,
            )
        if self.format is Format.SINGLE_ELIMINATION:
            return elimination.round_pairings(
                self.players, self.pairings, number, withdrawn=self.withdrawn
            )
        return round_robin.round_pairings(self.players, number, _cycles(self.format))

    def _bracket(self) -> list[list[elimination.Match]]:
        """The elimination bracket so far."""
        return elimination.rounds_of(self.players, self.pairings, withdrawn=self.withdrawn)

    def _forfeit_if_absent(self, pairing: Pairing) -> Pairing:
        """The pairing, lost by forfeit if a player in it has withdrawn."""
        if pairing.second is None or pairing.result is not None:
            return pairing
        first_gone, second_gone = pairing.first in self.withdrawn, pairing.second in self.withdrawn
        if not (first_gone or second_gone):
            return pairing
        return pairing.with_result(Result.forfeit(first_gone, second_gone))


def _cycles(format: Format) -> int:
    """How many times a round robin format meets each pair."""
    return 2 if format is Format.DOUBLE_ROUND_ROBIN else 1
