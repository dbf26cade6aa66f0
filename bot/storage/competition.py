"""The records the repository keeps for ratings and tournaments."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from bot.competition.glicko2 import Rating, format_change
from bot.competition.records import Pairing, Result
from bot.competition.tournament import Format
from rules import OptionValue


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One user's stored rating in one game, with their record of rated games."""

    user_id: int
    game: str
    name: str
    """The user's name at their latest rated game."""
    rating: Rating
    """The rating as it stood after the latest rated game."""
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last_rated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated game did to one player's rating."""

    game_id: int
    user_id: int
    seat: int
    name: str
    game: str
    guild_id: int | None
    """The server the game was played in (the leaderboard it counts for)."""
    score: float
    """1 for a win, 0.5 for a draw, 0 for a loss."""
    before: Rating
    """The rating before the game, its deviation grown by the time since the last game."""
    after: Rating
    rated_at: datetime

    def text(self) -> str:
        """The change for a result message: "alice 1500? → 1662? (+162)"."""
        return f"{self.name} {format_change(self.before, self.after)}"


class TournamentStatus(enum.StrEnum):
    """Where a tournament is in its life."""

    OPEN = "open"
    """Taking entries."""
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What a tournament is created with."""

    guild_id: int
    channel_id: int
    """Where rounds are announced and games start."""
    name: str
    organiser_id: int
    organiser_name: str
    game: str
    options: Mapping[str, OptionValue]
    format: Format
    swiss_rounds: int | None
    """The rounds asked for in a Swiss; None to choose them from the field at start."""
    time_control: str
    rated: bool
    max_players: int
    entry_closes_at: datetime | None
    """When entries close and the tournament starts; None: the organiser starts it."""
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentRecord(NewTournament):
    """A stored tournament."""

    id: int = 0
    status: TournamentStatus = TournamentStatus.OPEN
    rounds: int | None = None
    """The number of rounds, fixed when the tournament starts."""
    announced_round: int = 0
    """The latest round whose pairings were announced."""
    started_at: datetime | None = None
    finished_at: datetime | None = None
    updated_at: datetime | None = None
    message_id: int | None = None
    """The message announcing the tournament with its Join / Leave buttons, if known."""

    @property
    def title(self) -> str:
        """The name with the number players use in commands: "Spring Swiss (#3)"."""
        return f"{self.name} (#{self.id})"

    def evolve(self, **changes: object) -> TournamentRecord:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    """A player entered in a tournament."""

    tournament_id: int
    user_id: int
    name: str
    joined_at: datetime
    seed: int | None = None
    """1 for the best-rated entrant; None before the start."""
    rating: float | None = None
    """The rating the seeding used."""
    withdrawn_at: datetime | None = None

    @property
    def withdrawn(self) -> bool:
        """True once the player left the running tournament."""
        return self.withdrawn_at is not None


@dataclass(frozen=True, slots=True)
class PairingRecord:
    """A stored pairing: one game of a round, or a bye."""

    id: int
    tournament_id: int
    round: int
    first_id: int
    second_id: int | None
    result: Result | None = None
    game_id: int | None = None
    """The game played for it; None for a bye, a forfeit, or before the game is made."""
    announced: bool = False
    """True once the game's start was posted to its players."""

    @property
    def pairing(self) -> Pairing:
        """The pairing as the tournament algorithms see it."""
        return Pairing(self.round, self.first_id, self.second_id, self.result)

    @property
    def needs_game(self) -> bool:
        """True for a pairing to be played whose game was not made yet."""
        return self.second_id is not None and self.result is None and self.game_id is None
