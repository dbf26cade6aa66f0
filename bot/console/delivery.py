"""`ConsoleNotifier`: the outbox's announcements, printed in the terminal.

The console delivers them after each command (in the order they were stored), so a
session reads like Discord's channel would: the boards, offers and results of that
command, then the computer's answer, then whatever came due.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.console.output import ConsoleOutput, name_in, plain_message
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
from bot.services.announcing.notify import MessageId, Ticket
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
from bot.texts.clocks import (
    digest_text,
    reminder_text,
    timeout_dm_text,
    timeout_text,
    turn_text,
    vacation_dm,
    vacation_post,
)
from bot.texts.conditionals import cleared_text
from bot.texts.games import board_caption, challenge_text, end_caption, move_caption, start_caption
from bot.texts.leagues import forfeited_game_text, news_message
from bot.texts.servers import challenge_gone_dm, resumed_text, suspension_dm
from bot.texts.tournaments import (
    aborted_text,
    final_message,
    round_started_message,
    seed_advance_text,
    tournament_game_caption,
    tournament_heading,
)


class ConsoleNotifier:
    """Prints announcements (the services' `Notifier` in the console)."""

    def __init__(self, output: ConsoleOutput) -> None:
        self.output = output

    @staticmethod
    def _done(ticket: Ticket) -> MessageId:
        return ticket.id  # the terminal has no messages: the announcement stands for one

    async def game_started(self, notice: StartNotice, *, ticket: Ticket) -> MessageId:
        """The first board."""
        view = notice.view
        if notice.tournament is not None and notice.pairing is not None:
            style = self.output.style
            caption = tournament_game_caption(notice.tournament, notice.pairing, view, style)
        else:
            caption = start_caption(view, self.output.style)
        await self.output.show_board(view, caption)
        return self._done(ticket)

    async def move_played(self, notice: MoveNotice, *, ticket: Ticket) -> MessageId:
        """The board after a turn."""
        await self.output.show_board(notice.view, move_caption(notice, self.output.style))
        return self._done(ticket)

    async def game_finished(self, notice: EndNotice, *, ticket: Ticket) -> MessageId:
        """The final board."""
        await self.output.show_board(notice.view, end_caption(notice.view, self.output.style))
        return self._done(ticket)

    async def offer_made(self, notice: OfferNotice, *, ticket: Ticket) -> MessageId:
        """A draw offer or undo request, with how to answer it here."""
        view = notice.view
        asker, opponent = view.name(notice.seat), view.name(1 - notice.seat)
        if notice.what == "draw":
            self.output.say(
                f"{asker} offers a draw in game #{view.id}. "
                f"{opponent}: /draw accept or /draw decline."
            )
        else:
            self.output.say(
                f"{asker} asks to take back {notice.notation} in game #{view.id}. "
                f"{opponent}: /undo accept or /undo decline."
            )
        return self._done(ticket)

    async def offer_declined(self, notice: AnswerNotice, *, ticket: Ticket) -> MessageId:
        """A declined offer or request."""
        view = notice.view
        name = view.name(notice.seat)
        if notice.what == "draw":
            self.output.say(f"{name} declined the draw offer in game #{view.id}.")
        else:
            self.output.say(f"{name} refused to take back {notice.notation}.")
        return self._done(ticket)

    async def moves_taken_back(self, notice: UndoNotice, *, ticket: Ticket) -> MessageId:
        """The board after an undo."""
        view = notice.view
        caption = f"Taken back: {notice.notation}.\n{board_caption(view, self.output.style)}"
        await self.output.show_board(view, caption)
        return self._done(ticket)

    async def timed_out(self, notice: TimeoutNotice, *, ticket: Ticket) -> MessageId:
        """A loss on time: the board with the result."""
        await self.output.show_board(notice.view, timeout_text(notice, self.output.style))
        return self._done(ticket)

    async def timeout_dm(self, notice: TimeoutNotice, user_id: int, *, ticket: Ticket) -> MessageId:
        """A loss on time, by direct message."""
        record = notice.view.record
        text = timeout_dm_text(notice, user_id, self.output.style)
        self.output.direct(user_id, name_in(record, user_id), text)
        return self._done(ticket)

    async def reminder(self, notice: ReminderNotice, *, ticket: Ticket) -> MessageId:
        """A reminder, by direct message or in the game's channel."""
        text = reminder_text(notice, self.output.style)
        if notice.by_dm:
            self.output.direct(notice.user_id, notice.record.names[notice.seat], text)
        else:
            self.output.say(text)
        return self._done(ticket)

    async def turn_waiting(self, notice: TurnNotice, *, ticket: Ticket) -> MessageId:
        """A direct message: it is the user's turn."""
        record = notice.view.record
        text = turn_text(notice, self.output.style)
        self.output.direct(notice.user_id, name_in(record, notice.user_id), text)
        return self._done(ticket)

    async def digest(self, notice: DigestNotice, *, ticket: Ticket) -> MessageId:
        """The digest, as a direct message."""
        name = name_in(notice.games[0].record, notice.user_id)
        self.output.direct(notice.user_id, name, digest_text(notice, self.output.style))
        return self._done(ticket)

    async def vacation_changed(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """Tell each game that a player is away or back."""
        for record in notice.games:
            post = vacation_post(notice, record, self.output.style)
            self.output.say(f"[game #{record.id}] {post}")
        return self._done(ticket)

    async def vacation_dm(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """The end of a vacation, by direct message."""
        name = self.output.users.name(notice.user_id, "player")
        self.output.direct(notice.user_id, name, vacation_dm(notice, self.output.style))
        return self._done(ticket)

    async def undelivered(self, notice: UndeliveredNotice, *, ticket: Ticket) -> MessageId:
        """An announcement given up on, by direct message."""
        name = self.output.users.name(notice.user_id, "player")
        self.output.direct(notice.user_id, name, f"Not shown: {notice.reason}.")
        return self._done(ticket)

    async def conditional_cleared(self, notice: ClearedNotice, *, ticket: Ticket) -> MessageId:
        """Conditional moves cleared, and why, by direct message."""
        user = notice.note.user_id
        text = cleared_text(notice, self.output.style)
        self.output.direct(user, name_in(notice.record, user), text)
        return self._done(ticket)

    async def challenge_expired(self, challenge: ChallengeRecord, *, ticket: Ticket) -> MessageId:
        """An expired challenge."""
        self.output.say(challenge_text(challenge, self.output.style))
        return self._done(ticket)

    async def challenge_gone(
        self, challenge: ChallengeRecord, user_id: int, *, ticket: Ticket
    ) -> MessageId:
        """A challenge withdrawn with its deleted channel (the console has no such thing)."""
        self.output.say(challenge_gone_dm(challenge, user_id))
        return self._done(ticket)

    async def tournament_round_started(
        self, tournament: TournamentView, number: int, *, ticket: Ticket
    ) -> MessageId:
        """A new round's pairings."""
        self.output.say(plain_message(round_started_message(tournament, number)))
        return self._done(ticket)

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView], *, ticket: Ticket
    ) -> MessageId:
        """Which games were aborted."""
        for game in games:
            self.output.say(aborted_text(game, tournament))
        return self._done(ticket)

    async def tournament_seed_advanced(
        self, tournament: TournamentView, pairing: PairingRecord, *, ticket: Ticket
    ) -> MessageId:
        """The better seed goes through a drawn knockout match, and why."""
        text = seed_advance_text(tournament, pairing)
        if text:
            self.output.say(text)
        return self._done(ticket)

    async def tournament_finished(self, tournament: TournamentView, *, ticket: Ticket) -> MessageId:
        """The final standings."""
        self.output.say(plain_message(final_message(tournament, self.output.style)))
        return self._done(ticket)

    async def tournament_cancelled(
        self, tournament: TournamentView, reason: str, *, ticket: Ticket
    ) -> MessageId:
        """A tournament cancelled by itself, and why."""
        self.output.say(f"{tournament_heading(tournament)} was cancelled: {reason}.")
        return self._done(ticket)

    async def league_news(self, news: LeagueNews, *, ticket: Ticket) -> MessageId:
        """A league's news, and a line for each game a withdrawal ended."""
        self.output.say(plain_message(news_message(news, self.output.style)))
        for game in news.aborted:
            self.output.say(forfeited_game_text(news.data["name"], news.league, game.id))
        return self._done(ticket)

    async def game_resumed(self, notice: ResumedNotice, *, ticket: Ticket) -> MessageId:
        """A suspended game goes on: its board."""
        await self.output.show_board(notice.view, resumed_text(notice, self.output.style))
        return self._done(ticket)

    async def place_deleted(self, view: GameView, deleted: int, *, ticket: Ticket) -> MessageId:
        """Nothing: the console's channel is never deleted."""
        return None

    async def games_suspended(self, notice: SuspensionNotice, *, ticket: Ticket) -> MessageId:
        """Suspended (or aborted) games, by direct message."""
        name = self.output.users.name(notice.user_id, "player")
        self.output.direct(notice.user_id, name, suspension_dm(notice, self.output.style))
        return self._done(ticket)

    async def server_gone(self, guild_id: int) -> bool:
        """Never: the console is its own server."""
        return False
