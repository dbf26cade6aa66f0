"""The outbound port: how a front end delivers what the players must be told.

Services never call it directly: they write announcements (`bot.services.announcing.announcements`)
with the change they report, and the `Dispatcher` (`bot.services.delivery.dispatcher`) delivers
each one through a `Notifier`, the front end's: Discord posts in the game's thread or
sends direct messages, the console prints, tests record. A method returns the id of the
message it produced (None when it produced none, e.g. a direct message the user does not
accept); it raises `DeliveryRefused` when delivering can never work (a deleted channel,
missing permissions), and any other exception for a failure worth retrying.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from bot.services.announcing.announcements import (
    AnswerNotice,
    EndNotice,
    MoveNotice,
    OfferNotice,
    ResumedNotice,
    StartNotice,
    SuspensionNotice,
    UndeliveredNotice,
    UndoNotice,
)
from bot.services.views.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
)
from bot.services.views.conditional_notes import ClearedNotice
from bot.services.views.leagues import LeagueNews
from bot.services.views.results import GameView
from bot.services.views.tournaments import TournamentView
from bot.storage.competition import PairingRecord
from bot.storage.repository import ChallengeRecord

MessageId = int | None
"""The message an announcement became (None: no message, e.g. a refused DM)."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """Which announcement a delivery is, for the front end to make it idempotent."""

    id: int
    """The announcement's id (a nonce for Discord, so a retried post is not doubled)."""
    attempts: int = 1
    """This attempt's number: above 1, an earlier attempt may have got through."""
    first_attempt: datetime | None = None
    """When the first attempt began (what an earlier attempt could have posted is newer)."""
    reply: Mapping[str, Any] | None = None
    """The interaction that was to answer it (`bot.services.announcing.outbox.ReplyHandle.data`):
    the front end may find its answer there, or answer through it, instead of posting anew."""


class Notifier(Protocol):
    """Delivers announcements to the players; each call gets the announcement's `Ticket`."""

    async def game_started(self, notice: StartNotice, *, ticket: Ticket) -> MessageId:
        """Open the game's thread (or stay in its channel) and post the first board."""
        ...

    async def move_played(self, notice: MoveNotice, *, ticket: Ticket) -> MessageId:
        """Post the board after a completed turn."""
        ...

    async def game_finished(self, notice: EndNotice, *, ticket: Ticket) -> MessageId:
        """Post the final board of a game that ended without a move."""
        ...

    async def offer_made(self, notice: OfferNotice, *, ticket: Ticket) -> MessageId:
        """Post a draw offer or an undo request with the buttons to answer it."""
        ...

    async def offer_declined(self, notice: AnswerNotice, *, ticket: Ticket) -> MessageId:
        """Say that a draw offer or an undo request was declined."""
        ...

    async def moves_taken_back(self, notice: UndoNotice, *, ticket: Ticket) -> MessageId:
        """Post the board after moves were taken back."""
        ...

    async def timed_out(self, notice: TimeoutNotice, *, ticket: Ticket) -> MessageId:
        """Post a loss on time where the game is played, mentioning both players."""
        ...

    async def timeout_dm(self, notice: TimeoutNotice, user_id: int, *, ticket: Ticket) -> MessageId:
        """Tell a player by direct message that a game of theirs was lost on time."""
        ...

    async def reminder(self, notice: ReminderNotice, *, ticket: Ticket) -> MessageId:
        """Remind a player that their time runs low: by direct message when
        `notice.by_dm` (in the game's thread if that fails), else in the game's thread."""
        ...

    async def turn_waiting(self, notice: TurnNotice, *, ticket: Ticket) -> MessageId:
        """Tell a player by direct message that it is their turn (they asked for it)."""
        ...

    async def digest(self, notice: DigestNotice, *, ticket: Ticket) -> MessageId:
        """Send a player the direct message listing the games waiting for them."""
        ...

    async def vacation_changed(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """Tell the opponents in each game of `notice.games` that the player is away or
        back."""
        ...

    async def vacation_dm(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """Tell the player by direct message that their vacation ended by itself (with
        their games in `notice.games`)."""
        ...

    async def undelivered(self, notice: UndeliveredNotice, *, ticket: Ticket) -> MessageId:
        """Tell a player by direct message that something could not be posted, and why."""
        ...

    async def conditional_cleared(self, notice: ClearedNotice, *, ticket: Ticket) -> MessageId:
        """Tell a player by direct message that their conditional moves in a game were
        cleared, and why (when Discord refuses it, the note waits for their next command)."""
        ...

    async def challenge_expired(self, challenge: ChallengeRecord, *, ticket: Ticket) -> MessageId:
        """A challenge nobody answered in time was closed: edit its message."""
        ...

    async def challenge_gone(
        self, challenge: ChallengeRecord, user_id: int, *, ticket: Ticket
    ) -> MessageId:
        """Tell one of a challenge's players by direct message that it was withdrawn
        because its thread or channel was deleted."""
        ...

    async def tournament_round_started(
        self, tournament: TournamentView, number: int, *, ticket: Ticket
    ) -> MessageId:
        """Round `number` was paired: post its pairings where the tournament is run."""
        ...

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView], *, ticket: Ticket
    ) -> MessageId:
        """Games were aborted (cancellation, withdrawal before the first move)."""
        ...

    async def tournament_finished(self, tournament: TournamentView, *, ticket: Ticket) -> MessageId:
        """The last round ended: post the final standings."""
        ...

    async def tournament_seed_advanced(
        self, tournament: TournamentView, pairing: PairingRecord, *, ticket: Ticket
    ) -> MessageId:
        """A knockout match was drawn to its last allowed game (`pairing`): the better
        seed goes through; say so, and why."""
        ...

    async def tournament_cancelled(
        self, tournament: TournamentView, reason: str, *, ticket: Ticket
    ) -> MessageId:
        """The tournament was cancelled without a command (too few players entered)."""
        ...

    async def league_news(self, news: LeagueNews, *, ticket: Ticket) -> MessageId:
        """A league's news (a season's start or end, a withdrawal, a cancellation): post
        it where the league is run."""
        ...

    async def game_resumed(self, notice: ResumedNotice, *, ticket: Ticket) -> MessageId:
        """A suspended game goes on: post its board where it is played, saying so."""
        ...

    async def place_deleted(self, view: GameView, deleted: int, *, ticket: Ticket) -> MessageId:
        """The game's thread or channel `deleted` was deleted: post its board in its new
        place now, saying why (nothing when it has moved already)."""
        ...

    async def games_suspended(self, notice: SuspensionNotice, *, ticket: Ticket) -> MessageId:
        """Tell a player by direct message that games of theirs are suspended (or were
        aborted after their suspension lasted too long), and why."""
        ...

    async def server_gone(self, guild_id: int) -> bool:
        """True when the front end is no longer in the server `guild_id` (removed from
        it): a refusal to post there then suspends the server instead of giving up."""
        ...


class NullNotifier:
    """Delivers nothing (for tools that only read or write the database)."""

    async def game_started(self, notice: StartNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def move_played(self, notice: MoveNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def game_finished(self, notice: EndNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def offer_made(self, notice: OfferNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def offer_declined(self, notice: AnswerNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def moves_taken_back(self, notice: UndoNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def timed_out(self, notice: TimeoutNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def timeout_dm(self, notice: TimeoutNotice, user_id: int, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def reminder(self, notice: ReminderNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def turn_waiting(self, notice: TurnNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def digest(self, notice: DigestNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def vacation_changed(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def vacation_dm(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def undelivered(self, notice: UndeliveredNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def conditional_cleared(self, notice: ClearedNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def challenge_expired(self, challenge: ChallengeRecord, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def challenge_gone(
        self, challenge: ChallengeRecord, user_id: int, *, ticket: Ticket
    ) -> MessageId:
        """Deliver nothing."""
        return None

    async def tournament_round_started(
        self, tournament: TournamentView, number: int, *, ticket: Ticket
    ) -> MessageId:
        """Deliver nothing."""
        return None

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView], *, ticket: Ticket
    ) -> MessageId:
        """Deliver nothing."""
        return None

    async def tournament_finished(self, tournament: TournamentView, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def tournament_seed_advanced(
        self, tournament: TournamentView, pairing: PairingRecord, *, ticket: Ticket
    ) -> MessageId:
        """Deliver nothing."""
        return None

    async def tournament_cancelled(
        self, tournament: TournamentView, reason: str, *, ticket: Ticket
    ) -> MessageId:
        """Deliver nothing."""
        return None

    async def league_news(self, news: LeagueNews, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def game_resumed(self, notice: ResumedNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def place_deleted(self, view: GameView, deleted: int, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def games_suspended(self, notice: SuspensionNotice, *, ticket: Ticket) -> MessageId:
        """Deliver nothing."""
        return None

    async def server_gone(self, guild_id: int) -> bool:
        """Never: there is no server to leave."""
        return False
