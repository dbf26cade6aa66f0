"""The records the repository keeps for leagues: the league, its members, its seasons,
each season's placements (divisions and final places) and games."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.competition.leagues import Move
from bot.competition.records import Pairing, Result
from rules import OptionValue


class LeagueStatus(enum.StrEnum):
    """Where a league is between and during its seasons."""

    OPEN = "open"
    """Taking entries; the next season starts at `starts_at`."""
    RUNNING = "running"
    """A season is being played; it ends at `ends_at` at the latest."""
    CANCELLED = "cancelled"


class SeasonStatus(enum.StrEnum):
    """Where a season is."""

    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class NewLeague:
    """What a league is created with."""

    guild_id: int
    channel_id: int
    """Where seasons are announced and games start."""
    name: str
    organiser_id: int
    organiser_name: str
    game: str
    options: Mapping[str, OptionValue]
    time_control: str
    rated: bool
    games_per_pair: int
    """1: each pair meets once; 2: once with each colour."""
    smallest: int
    """The fewest players a division is made with (when the count allows)."""
    largest: int
    """The most players a division is made with (when the count allows)."""
    season_length: timedelta
    """How long a season lasts at most."""
    entry_window: timedelta
    """How long entries stay open before a season (the first, and between seasons)."""
    created_at: datetime
    starts_at: datetime
    """When the first season starts."""


@dataclass(frozen=True, slots=True)
class LeagueRecord(NewLeague):
    """A stored league."""

    id: int = 0
    status: LeagueStatus = LeagueStatus.OPEN
    season: int = 0
    """The latest season started (0 before the first)."""
    announced_season: int = 0
    """The latest season whose divisions were posted."""
    ends_at: datetime | None = None
    """While running: when the season ends at the latest."""
    updated_at: datetime | None = None

    @property
    def title(self) -> str:
        """The name with the number players use in commands: "Groups League (#3)"."""
        return f"{self.name} (#{self.id})"

    def evolve(self, **changes: object) -> LeagueRecord:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class LeagueMember:
    """A player entered for the league's seasons (until they leave)."""

    league_id: int
    user_id: int
    name: str
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season of a league."""

    league_id: int
    number: int
    started_at: datetime
    ends_at: datetime
    status: SeasonStatus = SeasonStatus.RUNNING
    finished_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PlacementRecord:
    """A player's division in a season, and (once it ended) their place and move."""

    league_id: int
    season: int
    user_id: int
    name: str
    division: int
    """1 for the top division."""
    position: int
    """The place on the season's ladder, from 1."""
    rating: float
    """The rating when the season started."""
    withdrawn_at: datetime | None = None
    place: int | None = None
    """The final place in the division (withdrawn players last)."""
    move: Move | None = None

    @property
    def withdrawn(self) -> bool:
        """True once the player left the season."""
        return self.withdrawn_at is not None


@dataclass(frozen=True, slots=True)
class NewLeagueGame:
    """A game of a division, before it is stored."""

    division: int
    pairing: Pairing


@dataclass(frozen=True, slots=True)
class LeagueGameRecord:
    """A stored game of a division: its players, result and the game played for it."""

    id: int
    league_id: int
    season: int
    division: int
    round: int
    first_id: int
    second_id: int
    result: Result | None = None
    game_id: int | None = None
    """None before the game is made, and for a forfeit decided before it was."""
    announced: bool = False

    @property
    def pairing(self) -> Pairing:
        """The game as the league algorithms see it."""
        return Pairing(self.round, self.first_id, self.second_id, self.result)

    @property
    def needs_game(self) -> bool:
        """True for a game to be played whose game was not made yet."""
        return self.result is None and self.game_id is None
