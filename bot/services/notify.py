"""The outbound port: what the services announce when no interaction asked for it.

Challenge expiry, computer moves, turn messages, reminders, timeouts, digests and
vacations happen without anyone clicking; the services tell a `Notifier`, and each front
end implements it: Discord posts to the game's thread or sends direct messages, the
console prints, tests record. Tournament announcements are a port of their own
(`TournamentNotifier`), which a front end implements alongside `Notifier`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from bot.services.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
)
from bot.services.results import GameView, MoveResult
from bot.services.tournament_views import TournamentView
from bot.storage.competition import PairingRecord
from bot.storage.repository import ChallengeRecord


class Notifier(Protocol):
    """Announces events to the players."""

    async def challenge_expired(self, challenge: ChallengeRecord) -> None:
        """A challenge nobody answered in time was closed."""

    async def move_played(self, result: MoveResult) -> None:
        """A move was played that no player's command answers (e.g. a computer's move)."""

    async def game_finished(self, view: GameView) -> None:
        """A game ended without a move or a player's command (e.g. by an administrator)."""

    async def turn_waiting(self, notice: TurnNotice) -> None:
        """Tell a player by direct message that it is their turn (they asked for it)."""

    async def reminder(self, notice: ReminderNotice) -> None:
        """Remind a player that their time runs low: by direct message when
        `notice.by_dm` (in the game's thread if that fails), else in the game's thread."""

    async def timed_out(self, notice: TimeoutNotice) -> None:
        """Post a loss on time in the game's thread, telling both players, and send a
        direct message to each player in `notice.dm_user_ids`."""

    async def digest(self, notice: DigestNotice) -> None:
        """Send a player the direct message listing the games waiting for them."""

    async def vacation_changed(self, notice: VacationNotice) -> None:
        """Tell the opponents in each of the player's games that the player is away or
        back (and the player too, by direct message, when `notice.dm`)."""


@runtime_checkable
class TournamentNotifier(Protocol):
    """Announces what a tournament does by itself (a front end implements it)."""

    async def tournament_round_started(self, tournament: TournamentView, number: int) -> None:
        """Round `number` was paired: post its pairings where the tournament is run."""

    async def tournament_game_started(
        self, tournament: TournamentView, pairing: PairingRecord, game: GameView
    ) -> None:
        """A tournament game was created: open its thread and call its players."""

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView]
    ) -> None:
        """Games were aborted (cancellation, withdrawal before the first move)."""

    async def tournament_finished(self, tournament: TournamentView) -> None:
        """The last round ended: post the final standings."""

    async def tournament_seed_advanced(
        self, tournament: TournamentView, pairing: PairingRecord
    ) -> None:
        """A knockout match was drawn to its last allowed game (`pairing`): the better
        seed goes through; say so, and why."""

    async def tournament_cancelled(self, tournament: TournamentView, reason: str) -> None:
        """The tournament was cancelled without a command (too few players entered)."""


class NullNotifier:
    """A notifier that tells nobody (for tools that only read or write the database)."""

    async def tournament_round_started(self, tournament: TournamentView, number: int) -> None:
        """Ignore the event."""

    async def tournament_game_started(
        self, tournament: TournamentView, pairing: PairingRecord, game: GameView
    ) -> None:
        """Ignore the event."""

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView]
    ) -> None:
        """Ignore the event."""

    async def tournament_finished(self, tournament: TournamentView) -> None:
        """Ignore the event."""

    async def tournament_seed_advanced(
        self, tournament: TournamentView, pairing: PairingRecord
    ) -> None:
        """Ignore the event."""

    async def tournament_cancelled(self, tournament: TournamentView, reason: str) -> None:
        """Ignore the event."""

    async def challenge_expired(self, challenge: ChallengeRecord) -> None:
        """Ignore the event."""

    async def move_played(self, result: MoveResult) -> None:
        """Ignore the event."""

    async def game_finished(self, view: GameView) -> None:
        """Ignore the event."""

    async def turn_waiting(self, notice: TurnNotice) -> None:
        """Ignore the event."""

    async def reminder(self, notice: ReminderNotice) -> None:
        """Ignore the event."""

    async def timed_out(self, notice: TimeoutNotice) -> None:
        """Ignore the event."""

    async def digest(self, notice: DigestNotice) -> None:
        """Ignore the event."""

    async def vacation_changed(self, notice: VacationNotice) -> None:
        """Ignore the event."""
