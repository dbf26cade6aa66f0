"""What the league service returns: a league with one season as stored, its history,
and what a player's leaving did."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.competition.leagues import standings
from bot.competition.standings import Standing
from bot.services.views.results import GameView
from bot.storage.leagues import (
    LeagueGameRecord,
    LeagueMember,
    LeagueRecord,
    PlacementRecord,
    SeasonRecord,
)
from rules import get_game


@dataclass(frozen=True)
class LeagueView:
    """A league with its members and one season (the latest, unless asked otherwise)."""

    record: LeagueRecord
    members: tuple[LeagueMember, ...]
    """Who is entered for the coming seasons, in the order they joined."""
    season: SeasonRecord | None
    """The season shown; None before the first."""
    placements: tuple[PlacementRecord, ...] = ()
    """The season's players by division, then ladder position."""
    games: tuple[LeagueGameRecord, ...] = ()
    """The season's games by division."""

    @property
    def id(self) -> int:
        """The league's id."""
        return self.record.id

    @property
    def game_title(self) -> str:
        """The game's title: "Groups"."""
        return get_game(self.record.game).title

    @property
    def names(self) -> dict[int, str]:
        """Every member's and season player's name by user id."""
        found = {member.user_id: member.name for member in self.members}
        found.update({placement.user_id: placement.name for placement in self.placements})
        return found

    @property
    def division_count(self) -> int:
        """How many divisions the season has."""
        return max((placement.division for placement in self.placements), default=0)

    def division(self, number: int) -> tuple[PlacementRecord, ...]:
        """The division's players in ladder order."""
        return tuple(p for p in self.placements if p.division == number)

    def division_games(self, number: int) -> tuple[LeagueGameRecord, ...]:
        """The division's games."""
        return tuple(game for game in self.games if game.division == number)

    def standings(self, number: int) -> tuple[Standing, ...]:
        """The division's standings from the results so far."""
        players = self.division(number)
        return standings(
            [p.user_id for p in players],
            [game.pairing for game in self.division_games(number)],
            {p.user_id for p in players if p.withdrawn},
        )

    def placement(self, user_id: int) -> PlacementRecord | None:
        """The player's place in the season, if they play it."""
        return next((p for p in self.placements if p.user_id == user_id), None)

    def member(self, user_id: int) -> LeagueMember | None:
        """The player's entry for the coming seasons, if any."""
        return next((m for m in self.members if m.user_id == user_id), None)


@dataclass(frozen=True)
class SeasonSummary:
    """One past or current season: its record and where everyone ended."""

    season: SeasonRecord
    placements: tuple[PlacementRecord, ...]


@dataclass(frozen=True)
class LeagueHistory:
    """A league's seasons, first first."""

    record: LeagueRecord
    seasons: tuple[SeasonSummary, ...]


@dataclass(frozen=True)
class Departure:
    """A player left a league: their entry ended, and in a running season their games
    without a result were forfeited."""

    league: LeagueView
    user_id: int
    name: str
    forfeited: tuple[LeagueGameRecord, ...] = ()
    """The games scored as losses for them (wins for their opponents)."""
    aborted: tuple[GameView, ...] = ()
    """Their games in progress, ended without a result."""


@dataclass(frozen=True)
class LeagueNews:
    """A league's announcement, decoded: what the front ends word and post."""

    kind: str
    """The announcement's kind (`bot.services.announcing.announcements.Kind`)."""
    league: LeagueView
    """The league with the season the news is about."""
    data: Mapping[str, Any]
    aborted: tuple[GameView, ...] = ()
    """For a withdrawal: the games in progress it ended (a line goes in each)."""
