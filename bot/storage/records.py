"""The records the repository keeps for game histories and imported games (a history's
games are `bot.storage.repository.FinishedGame`, which holds a game's record)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ImportMark:
    """What marks a game as imported from a record file, and what the record said that
    the game's row has no place for."""

    game_id: int
    rated: bool
    """Whether the game was rated where it was played (it is never rated here)."""
    event: str | None
    """The tournament it was played in there, if any."""
    round: str | None
    imported_at: datetime


@dataclass(frozen=True, slots=True)
class HistoryQuery:
    """Which finished games of a user a history lists."""

    user_id: int
    guild_id: int | None = None
    """Only games played in this server; None for every server (and imported games)."""
    with_user: int | None = None
    """Only games this other user played too."""
    game: str | None = None
    """Only games of this game (registry name)."""
