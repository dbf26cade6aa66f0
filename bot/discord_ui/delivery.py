"""`DiscordNotifier`: the outbox's announcements, delivered on Discord.

The dispatcher calls one method per announcement with its `Ticket`; each posts (or edits,
or sends a direct message) through the `Poster`, which makes a retry harmless, and
returns the id of the message that resulted. Games are posted in their thread (opened
here, with the first board, when the server uses threads) or channel; direct messages
that a user does not accept fall back to the game's thread where that matters
(reminders) and are skipped otherwise.

Everything posted where a game is played goes through `_in_game`: when the game's thread
was deleted, the game moves to a new thread in its channel; when its channel was deleted
too, to the server's game channel (a thread there); each time with the current board and
a line saying why. With nowhere to go, `NowhereToPost` makes the dispatcher suspend the
game.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.discord_ui.answers import Payload
from bot.discord_ui.buttons import board_buttons, challenge_buttons
from bot.discord_ui.context import DiscordContext
from bot.discord_ui.errors import site_of
from bot.discord_ui.payloads import Payloads, record_thread_name, thread_name
from bot.discord_ui.posting import Poster
from bot.discord_ui.style import STYLE
from bot.discord_ui.tournaments import close_entries, game_thread_name, table_payload
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
from bot.services.announcing.outbox import DeliveryRefused, NowhereToPost, Refusal
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
from bot.storage.repository import ChallengeRecord, GameRecord
from bot.texts.clocks import (
    digest_text,
    reminder_text,
    timeout_dm_text,
    turn_text,
    vacation_dm,
    vacation_post,
)
from bot.texts.conditionals import cleared_text
from bot.texts.games import board_caption, challenge_text
from bot.texts.guide import Page, with_guide
from bot.texts.leagues import forfeited_game_text, news_message
from bot.texts.servers import (
    CHANNEL_DELETED,
    NOWHERE_TO_POST,
    THREAD_DELETED,
    THREAD_DELETED_HERE,
    challenge_expired_anew,
    challenge_gone_dm,
    suspension_dm,
)
from bot.texts.tournaments import (
    aborted_text,
    final_message,
    round_started_message,
    seed_advance_text,
    tournament_heading,
)

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel or thread that does not exist (deleted)."""
BOARD_PART = 1000
"""Added to a post's part number for the board posted before it in a game's new place."""
WHAT_TO_DO: dict[str, str] = {
    Refusal.ACCESS: "ask a moderator to give me back access there",
    Refusal.NO_ACCESS: "ask a moderator to give me back access there",
    Refusal.CLOSED: "the thread is locked: a moderator can reopen it",
}
"""What players can do about a refusal, by its kind (nothing to say for the others)."""


def undelivered_text(notice: UndeliveredNotice, docs_url: str | None = None) -> str:
    """The direct message about an announcement that could not be posted (one per game
    until a post there gets through again), with the page on the bot's permissions when
    access was refused and the documentation site is configured."""
    where = f" in <#{notice.location}>" if notice.location is not None else ""
    game = f" about game #{notice.game_id}" if notice.game_id is not None else ""
    steps = [WHAT_TO_DO.get(notice.kind, "")]
    if notice.game_id is not None:
        steps.append("use /board to see the game")
    todo = "; ".join(step for step in steps if step)
    text = f"I could not post{where}{game}: {notice.reason}. Everything is stored"
    text += f"; {todo}." if todo else "."
    if notice.game_id is not None:
        text += " Until a post there gets through, I will not send this again for this game."
    if notice.kind in (Refusal.ACCESS, Refusal.NO_ACCESS):
        return with_guide(text, docs_url, Page.PERMISSIONS)
    return text


class DiscordNotifier:
    """Delivers announcements on Discord (the services' `Notifier`)."""

    def __init__(self, context: DiscordContext, payloads: Payloads) -> None:
        self.context = context
        self.payloads = payloads
        self.poster = Poster(context.client)

    # --- games ---

    async def game_started(self, notice: StartNotice, *, ticket: Ticket) -> MessageId:
        """Open the game's thread (unless threads are off, or the channel holds none) and
        post the first board there. The thread is recorded before the board is posted."""
        services = self.context.services
        record = notice.view.record
        if record.thread_id is None and record.guild_id is not None:
            settings = await services.settings.guild(record.guild_id)
            if settings.threads:
                if notice.tournament is not None and notice.pairing is not None:
                    name = game_thread_name(notice.tournament, notice.pairing, notice.view)
                else:
                    name = thread_name(notice.view)
                thread = await self.poster.thread(
                    record.guild_id, record.channel_id, name, ticket, f"Tabula game #{record.id}"
                )
                if thread is not None:
                    await services.games.set_thread(record.id, thread)
                    record = record.evolve(thread_id=thread)
        payload = await self.payloads.start(notice)
        return await self._in_game(record, payload, ticket)

    async def _answerable(self, view: GameView, payload: Payload, ticket: Ticket) -> MessageId:
        """An announcement an interaction was to answer: its answer if it was sent (or is
        deferred, filled in now), else a post where the game is played."""
        if ticket.reply is not None:
            found = await self.poster.answered(ticket.reply, payload)
            if found is not None:
                return found
        return await self._in_game(view.record, payload, ticket)

    async def _in_game(
        self, record: GameRecord, payload: Payload, ticket: Ticket, *, part: int | None = None
    ) -> MessageId:
        """Post where the game is played. If its thread (or channel) was deleted, the game
        moves (`_move`) and the post goes to its new place, after the current board and a
        line saying why (the line goes on the post itself when it is a board). With
        nowhere to go: `NowhereToPost`, and the dispatcher suspends the game."""
        try:
            return await self.poster.send(record.location, payload, ticket, part=part)
        except DeliveryRefused as refusal:
            cause = refusal.__cause__
            gone = isinstance(cause, discord.NotFound) and cause.code == UNKNOWN_CHANNEL
            if not gone or record.guild_id is None:
                raise
            moved = await self._move(record, ticket)
            if moved is None:
                raise NowhereToPost(
                    f"cannot post game #{record.id}: {NOWHERE_TO_POST}"
                ) from refusal
        location, why = moved
        if why is None:  # another announcement moved it already
            return await self.poster.send(location, payload, ticket, part=part)
        if "file" not in payload and "files" not in payload:
            view = await self.context.services.games.public_view(
                await self.context.services.games.record(record.id)
            )
            board = await self.payloads.current(view, why)
            await self.poster.send(location, board, ticket, part=BOARD_PART + (part or 0))
            return await self.poster.send(location, payload, ticket, part=part)
        content = f"{why}\n{payload.get('content') or ''}".rstrip()
        return await self.poster.send(location, {**payload, "content": content}, ticket, part=part)

    async def _move(self, record: GameRecord, ticket: Ticket) -> tuple[int, str | None] | None:
        """The game's new place now that the old one is gone, with the line saying why
        (None when another announcement moved it already): a new thread in its channel;
        that channel itself if no thread can be opened there; when the channel is gone
        too, the server's game channel (a thread in it when the server uses threads).
        None when there is nowhere to go."""
        services = self.context.services
        games = services.games
        current = await games.record(record.id)
        if current.location != record.location:
            return current.location, None
        guild = current.guild_id
        assert guild is not None
        name = record_thread_name(current)
        if current.thread_id is not None and await self.poster.channel_type(current.channel_id):
            thread = await self.poster.thread(
                guild, current.channel_id, name, ticket, "the game's thread was deleted"
            )
            await games.move_to(current.id, current.channel_id, thread)
            log.info("game %s: thread %s was deleted; now in %s", current.id,
                     current.thread_id, thread or current.channel_id)  # fmt: skip
            if thread is None:
                return current.channel_id, THREAD_DELETED_HERE
            return thread, THREAD_DELETED
        settings = await services.settings.guild(guild)
        for channel in sorted(settings.game_channels):
            if channel == current.channel_id or await self.poster.channel_type(channel) is None:
                continue
            thread = None
            if settings.threads:
                thread = await self.poster.thread(
                    guild, channel, name, ticket, "the game's channel was deleted"
                )
            await games.move_to(current.id, channel, thread)
            log.info("game %s: channel %s was deleted; now in %s", current.id,
                     current.channel_id, thread or channel)  # fmt: skip
            return thread or channel, CHANNEL_DELETED
        return None

    async def move_played(self, notice: MoveNotice, *, ticket: Ticket) -> MessageId:
        """The board after a completed turn."""
        return await self._answerable(notice.view, await self.payloads.move(notice), ticket)

    async def game_finished(self, notice: EndNotice, *, ticket: Ticket) -> MessageId:
        """The final board of a game that ended without a move."""
        return await self._answerable(notice.view, await self.payloads.end(notice), ticket)

    async def offer_made(self, notice: OfferNotice, *, ticket: Ticket) -> MessageId:
        """A draw offer or undo request, with the answer buttons."""
        return await self._answerable(notice.view, self.payloads.offer(notice), ticket)

    async def offer_declined(self, notice: AnswerNotice, *, ticket: Ticket) -> MessageId:
        """A declined draw offer or undo request."""
        return await self._answerable(notice.view, self.payloads.declined(notice), ticket)

    async def moves_taken_back(self, notice: UndoNotice, *, ticket: Ticket) -> MessageId:
        """The board after moves were taken back."""
        return await self._answerable(notice.view, await self.payloads.undone(notice), ticket)

    # --- clocks and correspondence ---

    async def timed_out(self, notice: TimeoutNotice, *, ticket: Ticket) -> MessageId:
        """The final board in the thread, mentioning both players."""
        payload = await self.payloads.timeout(notice)
        return await self._in_game(notice.view.record, payload, ticket)

    async def timeout_dm(self, notice: TimeoutNotice, user_id: int, *, ticket: Ticket) -> MessageId:
        """A direct message about a loss on time."""
        text = timeout_dm_text(notice, user_id, STYLE)
        return await self.poster.direct(user_id, {"content": text}, ticket)

    async def reminder(self, notice: ReminderNotice, *, ticket: Ticket) -> MessageId:
        """By direct message when the player accepts them, else (or if Discord refuses it)
        in the game's thread with a mention."""
        if notice.by_dm:
            sent = await self.poster.direct(
                notice.user_id, {"content": reminder_text(notice, STYLE)}, ticket
            )
            if sent is not None:
                return sent
        in_thread = ReminderNotice(
            notice.user_id, notice.record, notice.seat, notice.left, notice.deadline, False
        )
        payload = {"content": reminder_text(in_thread, STYLE)}
        return await self._in_game(notice.record, payload, ticket)

    async def turn_waiting(self, notice: TurnNotice, *, ticket: Ticket) -> MessageId:
        """A direct message: it is your turn."""
        return await self.poster.direct(
            notice.user_id, {"content": turn_text(notice, STYLE)}, ticket
        )

    async def digest(self, notice: DigestNotice, *, ticket: Ticket) -> MessageId:
        """The digest, by direct message."""
        return await self.poster.direct(
            notice.user_id, {"content": digest_text(notice, STYLE)}, ticket
        )

    async def vacation_changed(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """A line in the player's game (no ping)."""
        sent: MessageId = None
        for part, record in enumerate(notice.games):
            payload = {"content": vacation_post(notice, record, STYLE)}
            sent = await self._in_game(record, payload, ticket, part=part or None)
        return sent

    async def vacation_dm(self, notice: VacationNotice, *, ticket: Ticket) -> MessageId:
        """The direct message to the player whose vacation ended by itself."""
        return await self.poster.direct(
            notice.user_id, {"content": vacation_dm(notice, STYLE)}, ticket
        )

    async def undelivered(self, notice: UndeliveredNotice, *, ticket: Ticket) -> MessageId:
        """The direct message about an announcement given up on."""
        return await self.poster.direct(
            notice.user_id,
            {"content": undelivered_text(notice, site_of(self.context.client))},
            ticket,
        )

    async def conditional_cleared(self, notice: ClearedNotice, *, ticket: Ticket) -> MessageId:
        """The direct message saying why conditional moves were cleared; when Discord
        refuses it, the note waits for the player's next command instead."""
        user = notice.note.user_id
        text = cleared_text(notice, STYLE)
        sent = await self.poster.direct(user, {"content": text}, ticket)
        if sent is None:
            await self.context.services.conditionals.keep_note(notice.note)
        return sent

    async def challenge_expired(self, challenge: ChallengeRecord, *, ticket: Ticket) -> MessageId:
        """Edit the expired challenge's message and disable its buttons. When Discord
        refuses the edit for good (a locked thread, or an archived one the bot may not
        reopen), say it expired in a new message: in that thread if the bot may post
        there (posting reopens an archived thread), else in its channel."""
        if challenge.message_id is None:
            return None
        payload = {
            "content": challenge_text(challenge, STYLE),
            "view": challenge_buttons(challenge, disabled=True),
        }
        try:
            return await self.poster.edit(challenge.channel_id, challenge.message_id, payload)
        except DeliveryRefused as refusal:
            if refusal.kind not in (Refusal.CLOSED, Refusal.ACCESS):
                raise
            log.info("challenge %s: %s; its expiry is posted anew", challenge.id, refusal)
        notice = {
            "content": challenge_expired_anew(challenge),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        try:
            return await self.poster.send(challenge.channel_id, notice, ticket)
        except DeliveryRefused as refusal:
            kind = await self.poster.channel_type(challenge.channel_id)
            parent = None if kind is None else kind[1]
            if refusal.kind not in (Refusal.CLOSED, Refusal.ACCESS) or parent is None:
                raise
        return await self.poster.send(parent, notice, ticket, part=1)

    async def challenge_gone(
        self, challenge: ChallengeRecord, user_id: int, *, ticket: Ticket
    ) -> MessageId:
        """A direct message: the challenge was withdrawn with its deleted channel."""
        text = challenge_gone_dm(challenge, user_id)
        return await self.poster.direct(user_id, {"content": text}, ticket)

    # --- tournaments ---

    async def tournament_round_started(
        self, tournament: TournamentView, number: int, *, ticket: Ticket
    ) -> MessageId:
        """A round's pairings, posted before its games' threads open; entries close with
        the first."""
        message = round_started_message(tournament, number)
        payload = table_payload(message, f"round-{number}.txt")
        sent = await self.poster.send(tournament.record.channel_id, payload, ticket)
        if number == 1:
            await close_entries(self.context.client, tournament)
        return sent

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView], *, ticket: Ticket
    ) -> MessageId:
        """Say in each aborted game's thread that it ended without a result."""
        sent: MessageId = None
        for part, game in enumerate(games):
            payload = {"content": aborted_text(game, tournament)}
            sent = await self._in_game(game.record, payload, ticket, part=part)
        return sent

    async def tournament_seed_advanced(
        self, tournament: TournamentView, pairing: PairingRecord, *, ticket: Ticket
    ) -> MessageId:
        """Say in the tournament's channel that the better seed goes through, and why."""
        text = seed_advance_text(tournament, pairing)
        if not text:
            return None
        return await self.poster.send(tournament.record.channel_id, {"content": text}, ticket)

    async def tournament_finished(self, tournament: TournamentView, *, ticket: Ticket) -> MessageId:
        """The winner and the final standings."""
        payload = table_payload(final_message(tournament, STYLE), "final-standings.txt")
        return await self.poster.send(tournament.record.channel_id, payload, ticket)

    async def tournament_cancelled(
        self, tournament: TournamentView, reason: str, *, ticket: Ticket
    ) -> MessageId:
        """Say that the tournament was cancelled without a command, and why."""
        text = f"{tournament_heading(tournament)} was cancelled: {reason}."
        sent = await self.poster.send(tournament.record.channel_id, {"content": text}, ticket)
        await close_entries(self.context.client, tournament)
        return sent

    # --- leagues ---

    async def league_news(self, news: LeagueNews, *, ticket: Ticket) -> MessageId:
        """A league's news in its channel (a long table attached whole); after a
        withdrawal, a line in each game it ended."""
        payload = table_payload(news_message(news, STYLE), "league.txt")
        sent = await self.poster.send(news.league.record.channel_id, payload, ticket)
        for part, game in enumerate(news.aborted, start=1):
            text = forfeited_game_text(news.data["name"], news.league, game.id)
            line = {"content": text}
            await self._in_game(game.record, line, ticket, part=part)
        return sent

    async def place_deleted(self, view: GameView, deleted: int, *, ticket: Ticket) -> MessageId:
        """The game's thread or channel was deleted: its board, which moves it at once
        (`_in_game` finds its place gone); nothing when it has moved since."""
        record = view.record
        if deleted not in (record.location, record.channel_id):
            return None
        caption = board_caption(view, STYLE)
        payload = await self.payloads.board(view, caption, buttons=board_buttons(view))
        return await self._in_game(record, payload, ticket)

    # --- suspensions ---

    async def game_resumed(self, notice: ResumedNotice, *, ticket: Ticket) -> MessageId:
        """The board of a suspended game that goes on, where it is played."""
        payload = await self.payloads.resumed(notice)
        return await self._in_game(notice.view.record, payload, ticket)

    async def games_suspended(self, notice: SuspensionNotice, *, ticket: Ticket) -> MessageId:
        """The direct message about suspended (or aborted) games; when Discord refuses it
        (no server shared any more), nothing more can be done."""
        text = suspension_dm(notice, STYLE)
        return await self.poster.direct(notice.user_id, {"content": text}, ticket)

    async def server_gone(self, guild_id: int) -> bool:
        """True when the bot is connected and the server is not among its servers: it was
        removed (a server down for an outage stays listed, as unavailable)."""
        client = self.context.client
        return client.is_ready() and client.get_guild(guild_id) is None
