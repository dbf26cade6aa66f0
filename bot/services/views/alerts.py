"""What the clock, vacation and notification services tell players, as plain data.

The `Notifier` receives these; each front end words them in its own style (Discord
mentions and timestamps, the console's plain text).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.services.views.results import GameView
from bot.storage.repository import GameRecord, Vacation


@dataclass(frozen=True, slots=True)
class TurnNotice:
    """It became a player's turn, and they asked for a direct message when it does."""

    user_id: int
    view: GameView
    moves: str
    """What the opponent played in their turn ("" when the game just began)."""
    deadline: datetime | None
    """When the player's time runs out; None in a game without a clock."""


@dataclass(frozen=True, slots=True)
class ReminderNotice:
    """A player's time in a game is running low."""

    user_id: int
    record: GameRecord
    seat: int
    left: timedelta
    """The time the player has left (their clock's own time, without pauses)."""
    deadline: datetime
    by_dm: bool
    """True: send it as a direct message (falling back to the game's thread if that
    fails); False: mention the player in the game's thread."""


@dataclass(frozen=True, slots=True)
class TimeoutNotice:
    """A game was lost on time."""

    view: GameView
    """The finished game."""
    seat: int
    """The seat that ran out of time."""
    deadline: datetime
    dm_user_ids: tuple[int, ...]
    """The players who also get a direct message (those who accept them)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting for a player's move, with the time they have."""

    record: GameRecord
    deadline: datetime | None
    left: timedelta | None
    """None for a game without a clock."""


@dataclass(frozen=True, slots=True)
class DigestNotice:
    """One direct message listing every game where it is the user's turn."""

    user_id: int
    games: tuple[Waiting, ...]
    """Most urgent first."""


@dataclass(frozen=True, slots=True)
class VacationNotice:
    """A player went on vacation or came back: their opponents are told in each game."""

    user_id: int
    vacation: Vacation
    started: bool
    """True when the vacation began, False when it ended."""
    games: tuple[GameRecord, ...]
    """The player's active games, where the news is posted."""
    dm: bool
    """Also tell the player by direct message (it ended on its own; they accept DMs)."""
