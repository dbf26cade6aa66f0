"""The outbound port: what the services announce when no interaction asked for it.

Challenge expiry, computer moves and (later) reminders, timeouts and tournament rounds
happen without anyone clicking; the services tell a `Notifier`, and each front end
implements it: Discord posts to the game's thread, the console prints, tests record.
"""

from __future__ import annotations

from typing import Protocol

from bot.services.results import GameView, MoveResult
from bot.storage.repository import ChallengeRecord


class Notifier(Protocol):
    """Announces events to the players."""

    async def challenge_expired(self, challenge: ChallengeRecord) -> None:
        """A challenge nobody answered in time was closed."""

    async def move_played(self, result: MoveResult) -> None:
        """A move was played that no player's command answers (e.g. a computer's move)."""

    async def game_finished(self, view: GameView) -> None:
        """A game ended without a move or a player's command (e.g. on time)."""


class NullNotifier:
    """A notifier that tells nobody (for tools that only read or write the database)."""

    async def challenge_expired(self, challenge: ChallengeRecord) -> None:
        """Ignore the event."""

    async def move_played(self, result: MoveResult) -> None:
        """Ignore the event."""

    async def game_finished(self, view: GameView) -> None:
        """Ignore the event."""
