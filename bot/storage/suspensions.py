"""The records the repository keeps of suspensions: servers that removed Tabula, and games
left without a channel."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime


class SuspensionReason(enum.StrEnum):
    """Why games are suspended."""

    REMOVED = "removed"
    """Tabula was removed from the server (kicked, or the server was deleted): every game
    and competition there waits for it to be invited back."""
    NO_CHANNEL = "no_channel"
    """One game's channel was deleted and the server names no game channel to move it to."""


class SuspensionOutcome(enum.StrEnum):
    """How a suspension ended."""

    RESUMED = "resumed"
    """Tabula came back (or a game channel was named): the games went on."""
    ABORTED = "aborted"
    """The suspension lasted its whole period: the games were aborted, unrated."""


@dataclass(frozen=True, slots=True)
class Suspension:
    """A stretch of time in which a server's games (or one game) stand still."""

    id: int
    guild_id: int
    game_id: int | None
    """The one game suspended; None for every game of the server."""
    reason: SuspensionReason
    started_at: datetime
    ended_at: datetime | None = None
    """None while it holds."""
    outcome: SuspensionOutcome | None = None
    games: int = 0
    """The games in progress it held when it ended (kept as a record)."""

    @property
    def is_open(self) -> bool:
        """True while the games stand still."""
        return self.ended_at is None

    def covers(self, guild_id: int | None, game_id: int | None) -> bool:
        """True when this suspension holds the game `game_id` of server `guild_id` (or,
        with `game_id` None, something of the server that is not a game's)."""
        if guild_id != self.guild_id:
            return False
        return self.game_id is None or self.game_id == game_id
