"""What the tournament service returns: a tournament as stored, and what commands did."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from bot.competition.tournament import Tournament
from bot.services.views.results import GameView
from bot.storage.competition import (
    EntrantRecord,
    PairingRecord,
    TournamentRecord,
    TournamentStatus,
)
from rules import get_game


@dataclass(frozen=True)
class TournamentView:
    """A tournament with its entrants and pairings, as stored."""

    record: TournamentRecord
    entrants: tuple[EntrantRecord, ...]
    """By seed once started, before that in the order they joined."""
    pairings: tuple[PairingRecord, ...]
    """In the order they were made."""

    @property
    def id(self) -> int:
        """The tournament's id."""
        return self.record.id

    @property
    def names(self) -> dict[int, str]:
        """Every entrant's name by user id."""
        return {entrant.user_id: entrant.name for entrant in self.entrants}

    @property
    def game_title(self) -> str:
        """The game's name for players."""
        return get_game(self.record.game).title

    def entrant(self, user_id: int) -> EntrantRecord | None:
        """The entry of `user_id`, if they entered."""
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @cached_property
    def state(self) -> Tournament | None:
        """The tournament as the algorithms see it; None before it started."""
        record = self.record
        if record.rounds is None or record.status is TournamentStatus.OPEN:
            return None
        return Tournament(
            record.format,
            tuple(entrant.user_id for entrant in self.entrants),
            record.rounds,
            tuple(pairing.pairing for pairing in self.pairings),
            frozenset(entrant.user_id for entrant in self.entrants if entrant.withdrawn),
        )

    @property
    def current_round(self) -> int:
        """The latest round paired (0 before the first)."""
        return max((pairing.round for pairing in self.pairings), default=0)

    def round_pairings(self, number: int) -> tuple[PairingRecord, ...]:
        """Round `number`'s games and byes, in the order they were made."""
        return tuple(pairing for pairing in self.pairings if pairing.round == number)

    def pairing_of_game(self, game_id: int) -> PairingRecord | None:
        """The pairing a game was played for."""
        return next((p for p in self.pairings if p.game_id == game_id), None)


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A player's withdrawal and what it did to their games in progress."""

    tournament: TournamentView
    player_id: int
    resigned: tuple[GameView, ...] = ()
    """Games they were playing, now lost (and rated when the tournament is)."""
    aborted: tuple[GameView, ...] = ()
    """Games nobody had moved in yet, won by the opponent by forfeit (unrated)."""


@dataclass(frozen=True, slots=True)
class Cancellation:
    """A cancelled tournament and the games it aborted."""

    tournament: TournamentView
    aborted: tuple[GameView, ...] = ()


@dataclass(frozen=True)
class TournamentPage:
    """One page of a server's tournaments: going ones first (newest first), then the
    ended ones, the most recently ended first."""

    records: tuple[TournamentRecord, ...]
    page: int
    """1 for the first page."""
    pages: int
    total: int
