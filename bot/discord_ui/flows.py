"""`Flows`: what the bot does for each command and click, shared by cogs and buttons.

A flow calls one service inside a `Reply` (the interaction's deadline runs from when it
arrived), then answers: with the announcements the service stored for the place the
interaction came from (the board after a move, the offer with its buttons: the same
messages the dispatcher would post, marked delivered), or privately (previews,
pointers). Refusals raise (`ServiceError`, `rules.GameError`); the caller answers them
privately. Whatever the flow cannot answer itself is posted by the dispatcher.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Literal

import discord

from bot.discord_ui.answers import DEFER_AFTER, Payload, player
from bot.discord_ui.buttons import (
    MoveForm,
    board_buttons,
    challenge_buttons,
    resign_confirmation,
    show_game_buttons,
    turn_buttons,
)
from bot.discord_ui.context import DiscordContext
from bot.discord_ui.errors import site_of
from bot.discord_ui.leagues import LeagueFlows
from bot.discord_ui.payloads import Payloads
from bot.discord_ui.permissions import NEEDED
from bot.discord_ui.replies import Reply
from bot.discord_ui.style import STYLE, message_link
from bot.discord_ui.tournaments import TournamentFlows
from bot.services.announcing.announcements import Kind
from bot.services.announcing.outbox import Replying
from bot.services.container import Services
from bot.services.errors import InvalidInputError, InvalidStateError
from bot.services.games.games import visible
from bot.services.games.players import computer_seat
from bot.services.games.rematches import RematchAskedError
from bot.services.servers.suspensions import suspended_text
from bot.services.views.results import GameView, MoveResult, UndoStatus
from bot.storage.repository import (
    Announcement,
    AnnouncementStatus,
    ChallengeRecord,
    GameRecord,
)
from bot.texts.clocks import next_game_text
from bot.texts.games import (
    TURN_IN_PROGRESS,
    board_caption,
    challenge_text,
    game_title,
    header,
)
from bot.texts.guide import Page, with_guide

log = logging.getLogger(__name__)

ARRIVED = "tabula_arrived"
"""The key under which an interaction's arrival time (monotonic) is kept in its extras."""


def arrived(interaction: discord.Interaction) -> float:
    """When the bot received the interaction (monotonic seconds; stamped on first use)."""
    return float(interaction.extras.setdefault(ARRIVED, time.monotonic()))


class Flows:
    """The bot's actions on commands and clicks."""

    def __init__(self, context: DiscordContext, payloads: Payloads) -> None:
        self.context = context
        self.payloads = payloads
        self.tournaments = TournamentFlows(context)
        """Ratings and tournaments: their commands and buttons."""
        self.leagues = LeagueFlows(context)
        """Leagues: their commands."""

    @property
    def client(self) -> discord.Client:
        """The Discord client."""
        return self.context.client

    @property
    def services(self) -> Services:
        """The services the flows call."""
        return self.context.services

    # --- answering ---

    def reply(self, interaction: discord.Interaction) -> Reply:
        """A `Reply` for the interaction, its deadline running from its arrival."""
        arrived(interaction)
        reply = Reply(interaction, self.services)
        interaction.extras["tabula_reply"] = reply
        return reply

    async def compose(self, row: Announcement) -> Payload:
        """The message of an announcement an interaction answers with."""
        notice = await self.services.dispatcher.decode(row)
        return await self.payloads.answerable(notice)

    async def deliver(self, replying: Replying) -> None:
        """Post now what the service stored for other places (the game's thread when the
        command was given elsewhere, direct messages), before the private answer."""
        for row in replying.others:
            await self.services.dispatcher.deliver_now(row.id)

    async def answer(self, reply: Reply, replying: Replying, record: GameRecord) -> None:
        """Answer with the announcements held for the interaction (the rest goes with the
        dispatcher); when there were none (the command came from elsewhere), post them
        now and point there privately (where the game is now: a deleted thread is
        replaced while posting; a game with nowhere left to go is suspended, and the
        answer says so)."""
        if replying.rows:
            await reply.announce(
                replying, self.compose, pointer=f"Done: it is posted in <#{record.location}>."
            )
            return
        await self.deliver(replying)
        current = await self.services.games.record(record.id)
        suspension = await self.services.suspensions.of(current)
        if suspension is not None:
            # Posting found nowhere to go: say so, not "see" a deleted channel.
            await reply.private(f"Done: it is stored. {suspended_text(current.id, suspension)}")
            return
        await reply.private(f"Done: see <#{current.location}>.")

    @staticmethod
    async def keep_alive(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
        """Defer the answer ("thinking…") when the interaction is close to its deadline,
        counted from when it arrived here (not from its timestamp: clocks differ)."""
        if interaction.response.is_done():
            return
        age = time.monotonic() - arrived(interaction)
        if age >= DEFER_AFTER:
            log.info("interaction %s is %.1f s old: deferring its answer", interaction.id, age)
            await interaction.response.defer(thinking=True, ephemeral=ephemeral)

    async def respond(
        self, interaction: discord.Interaction, payload: Payload, *, ephemeral: bool = False
    ) -> None:
        """Answer the interaction (or follow up when it was answered already)."""
        await self.context.respond(interaction, payload, ephemeral=ephemeral)

    # --- challenges ---

    async def challenge(
        self,
        interaction: discord.Interaction,
        *,
        game: str,
        opponent: discord.abc.User | None,
        options: dict[str, object],
        colour: str,
        level: str | None = None,
        rated: bool = True,
        time: str | None = None,
    ) -> None:
        """/play: post a challenge with its buttons and remember the message; against the
        bot itself (or with a level and no opponent), start a game against the computer.
        Games between people are rated unless `rated` is False (a casual game)."""
        if interaction.channel_id is None:
            raise InvalidInputError("Challenges are made in a server channel.")
        me = self.client.user
        against_me = (opponent is not None and me is not None and opponent.id == me.id) or (
            opponent is None and level is not None
        )
        if against_me and time is not None:
            raise InvalidInputError("Games against me have no clock: leave out the time.")
        if opponent is not None and me is not None and opponent.id == me.id:
            await self.computer_game(interaction, game, options, colour, level)
            return
        if level is not None:
            if opponent is None:
                await self.computer_game(interaction, game, options, colour, level)
                return
            mention = me.mention if me is not None else "me"
            raise InvalidInputError(
                f"A level is for games against me: choose {mention} as the opponent."
            )
        challenge = await self.services.challenges.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            challenger=player(interaction.user),
            opponent=player(opponent) if opponent is not None else None,
            game=game,
            options=options,
            colour=colour,
            rated=rated,
            time_control=time,
        )
        response = await interaction.response.send_message(
            challenge_text(challenge, STYLE), view=challenge_buttons(challenge)
        )
        if response.message_id is not None:
            await self.services.challenges.attach_message(challenge.id, response.message_id)

    async def challenge_button(
        self, interaction: discord.Interaction, challenge_id: int, action: str
    ) -> None:
        """Accept (which starts the game), decline or cancel a challenge."""
        challenges = self.services.challenges
        reply = self.reply(interaction)
        try:
            if action == "accept":
                with reply.collecting() as replying:
                    accepted = await challenges.accept(
                        challenge_id, player(interaction.user), guild_id=interaction.guild_id
                    )
                text = challenge_text(accepted.challenge, STYLE)
                await reply.update({"content": text, "view": None})
                location = await self.open_game(reply, accepted.view.id, replying)
                if location is not None and location != interaction.channel_id:
                    await interaction.edit_original_response(
                        content=f"{text}\nPlay in <#{location}>."
                    )
                return
            if action == "decline":
                closed = await challenges.decline(challenge_id, interaction.user.id)
            else:
                closed = await challenges.cancel(challenge_id, interaction.user.id)
            await reply.update({"content": challenge_text(closed, STYLE), "view": None})
        finally:
            reply.close()

    async def open_game(self, reply: Reply, game_id: int, replying: Replying) -> int | None:
        """Open a new game's thread and post its first board now (the dispatcher retries
        if that fails); where the game is played, None while that is not known yet. When
        Discord refuses for good, the player who acted is told why (the players also get
        a direct message)."""
        await self.deliver(replying)
        for row in replying.others:
            if row.kind != Kind.START:
                continue
            stored = await self.services.repository.get_announcement(row.id)
            if stored is not None and stored.status is AnnouncementStatus.PARKED:
                await reply.private(
                    with_guide(
                        f"Game #{game_id} is stored, but I could not open it here: "
                        f"{stored.error}. {NEEDED}",
                        site_of(self.client),
                        Page.PERMISSIONS,
                    )
                )
                return None
            if stored is None or stored.status is AnnouncementStatus.PENDING:
                return None
        return (await self.services.games.record(game_id)).location

    async def computer_game(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, object],
        colour: str,
        level: str | None,
    ) -> None:
        """Start a game against the computer: announce it, open its thread, post the first
        board, and only then let the computer think (so its opening move comes after)."""
        computer = self.services.computer
        reply = self.reply(interaction)
        try:
            with reply.collecting() as replying:
                view = await computer.start(
                    guild_id=interaction.guild_id,
                    channel_id=interaction.channel_id or 0,
                    player=player(interaction.user),
                    game=game,
                    options=options,
                    level=level,
                    colour=colour,
                )
            await self.computer_started(reply, view, replying)
        finally:
            reply.close()

    async def computer_started(
        self, reply: Reply, view: GameView, replying: Replying, *, again: bool = False
    ) -> None:
        """Say that a game against the computer began (`again`: a rematch), open its thread
        and post its first board; only then let the computer think (so its opening move
        comes after)."""
        interaction = reply.interaction
        seat = computer_seat(view.record)
        assert seat is not None
        title = game_title(view.game, view.record.options)
        text = (
            f"{interaction.user.mention} plays {title} against {view.name(seat)}, game #{view.id}."
        )
        if again:
            text = (
                f"{interaction.user.mention} plays {title} against {view.name(seat)} again, "
                f"colours swapped: game #{view.id}."
            )
        try:
            await reply.send({"content": text})
            location = await self.open_game(reply, view.id, replying)
            if location is not None and location != interaction.channel_id:
                await interaction.edit_original_response(content=f"{text}\nPlay in <#{location}>.")
        finally:
            self.services.computer.begin(view.id)

    # --- moves ---

    async def move(
        self, interaction: discord.Interaction, game_id: int | None, notation: str
    ) -> None:
        """/move, the move form and quick-move buttons: play, then show the result."""
        games = self.services.games
        reply = self.reply(interaction)
        try:
            with reply.collecting() as replying:
                location, guild_id = interaction.channel_id or 0, interaction.guild_id
                user = interaction.user.id
                found = await games.find(user, location, game_id, guild_id=guild_id, for_move=True)
                result = await games.play(found.id, user, notation)
            await self.announce_move(reply, result, replying)
            if result.turn_complete:
                await self.offer_next_game(reply, result.view.id)
        finally:
            reply.close()

    async def offer_next_game(self, reply: Reply, game_id: int) -> None:
        """After a completed turn in `game_id`: privately, the most urgent other game
        waiting for the player's move, with a link and (when it can be shown here) a
        button that shows its board. The move is played whatever happens here."""
        interaction = reply.interaction
        user = interaction.user.id
        try:
            waiting = await self.services.notifications.next_games(user, game_id)
            if not waiting:
                return
            payload: Payload = {"content": next_game_text(waiting, user, STYLE)}
            if visible(waiting[0].record, user, interaction.guild_id):
                payload["view"] = show_game_buttons(waiting[0].record.id)
            await reply.send(payload, ephemeral=True)
        except Exception:
            log.exception("could not offer the next game after game %s", game_id)

    async def announce_move(self, reply: Reply, result: MoveResult, replying: Replying) -> None:
        """A completed turn is posted publicly; a move inside a turn is previewed privately."""
        view = result.view
        if not result.turn_complete:
            info = view.turn_info() or "your turn goes on"
            caption = (
                f"{header(view)}\nYou played **{result.move.notation}** "
                f"(move {result.move.ply}); {info}. The board is posted when your turn ends."
            )
            payload = await self.payloads.board(view, caption, buttons=turn_buttons(view))
            await reply.send(payload, ephemeral=True)
            return
        await self.answer(reply, replying, view.record)

    async def quick_move(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        """A quick-move button: the same as typing the move."""
        await self.move(interaction, game_id, move)

    async def board(
        self, interaction: discord.Interaction, game_id: int | None, *, private: bool = False
    ) -> None:
        """/board: the current position, publicly (or `private`ly), with the buttons; a
        finished game's with Rematch (not an imported game's: it was not played here)."""
        games = self.services.games
        reply = self.reply(interaction)
        try:
            record = await games.find(
                interaction.user.id,
                interaction.channel_id or 0,
                game_id,
                guild_id=interaction.guild_id,
            )
            view = await games.public_view(record)
            caption = board_caption(view, STYLE)
            if view.record.ply != record.ply and view.to_move_id == interaction.user.id:
                # The mover sees their turn in progress, and only they do.
                view, private = await games.view_of(record), True
                caption = f"{board_caption(view, STYLE)}\n{TURN_IN_PROGRESS}"
            imported = not record.is_active and (
                await self.services.repository.import_mark(record.id) is not None
            )
            buttons = board_buttons(view, rematch=not imported)
            payload = await self.payloads.board(view, caption, buttons=buttons)
            await reply.send(payload, ephemeral=private)
        finally:
            reply.close()

    async def show_game(self, interaction: discord.Interaction, game_id: int) -> None:
        """The next game's button: that game's board, privately, with its buttons."""
        await self.board(interaction, game_id, private=True)

    async def game_button(
        self, interaction: discord.Interaction, game_id: int, action: str
    ) -> None:
        """The buttons under a board."""
        if action == "move":
            view = await self.services.games.check_turn(game_id, interaction.user.id)
            await interaction.response.send_modal(MoveForm(view))
        elif action == "draw":
            await self.draw(interaction, game_id)
        elif action == "undo":
            await self.undo(interaction, game_id)
        else:
            await self.ask_resign(interaction, game_id)

    async def game_meant(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        *,
        answering: Literal["draw", "undo"] | None = None,
    ) -> int:
        """The game a command means: the one named (if visible here), else the caller's one
        game here (with `answering`, the one game with an offer for the caller)."""
        location = interaction.channel_id or 0
        games = self.services.games
        found = await games.find(
            interaction.user.id,
            location,
            game_id,
            guild_id=interaction.guild_id,
            answering=answering,
        )
        return found.id

    # --- resigning ---

    async def ask_resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Resign button: ask privately for confirmation first."""
        games = self.services.games
        record = await games.record(game_id)
        seat = games.check_player(record, interaction.user.id)
        if not record.is_active:
            await self.respond(interaction, {"content": "This game is over."}, ephemeral=True)
            return
        opponent = record.names[1 - seat]
        await self.respond(
            interaction,
            {
                "content": f"Resign game #{game_id} against {opponent}? This cannot be undone.",
                "view": resign_confirmation(game_id),
            },
            ephemeral=True,
        )

    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """The confirmation button: resign."""
        await self.resign(interaction, game_id)

    async def resign(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/resign (and the confirmed button): the opponent wins."""
        games = self.services.games
        reply = self.reply(interaction)
        try:
            with reply.collecting() as replying:
                game_id = await self.game_meant(interaction, game_id)
                view = await games.resign(game_id, interaction.user.id)
            await self.answer(reply, replying, view.record)
        finally:
            reply.close()

    # --- draws ---

    async def draw(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/draw and Offer draw: offer, or accept the opponent's standing offer."""
        games = self.services.games
        reply = self.reply(interaction)
        try:
            with reply.collecting() as replying:
                game_id = await self.game_meant(interaction, game_id, answering="draw")
                result = await games.offer_draw(game_id, interaction.user.id)
            await self.answer(reply, replying, result.view.record)
        finally:
            reply.close()

    async def answer_draw(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        """Accept draw / Decline under an offer: the offer's message says how it was
        answered; an accepted draw's final board follows."""
        reply = self.reply(interaction)
        try:
            with reply.collecting() as replying:
                result = await self.services.games.answer_draw(
                    game_id, interaction.user.id, accept, ply
                )
            if not accept:
                await reply.announce(replying, self.compose, first=self._update(reply))
                return
            name = result.view.name(result.seat)
            await reply.update(
                {"content": f"{name} accepted the draw in game #{game_id}.", "view": None}
            )
            await reply.announce(replying, self.compose)
        finally:
            reply.close()

    @staticmethod
    def _update(reply: Reply) -> Callable[[Payload], Awaitable[int | None]]:
        """Answer a click by editing the message it is on (without its buttons)."""

        async def update(payload: Payload) -> int | None:
            return await reply.update({**payload, "view": None})

        return update

    # --- undo ---

    async def undo(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/undo and Undo: ask the opponent, or take back one's own unfinished turn."""
        games = self.services.games
        reply = self.reply(interaction)
        try:
            with reply.collecting() as replying:
                game_id = await self.game_meant(interaction, game_id)
                result = await games.request_undo(game_id, interaction.user.id)
            view = result.view
            if result.status is UndoStatus.APPLIED and not result.allowed:
                caption = (
                    f"{header(view)}\nTaken back: **{result.notation}**. Your turn starts again."
                )
                payload = await self.payloads.board(view, caption, buttons=turn_buttons(view))
                await reply.send(payload, ephemeral=True)
                return
            await self.answer(reply, replying, view.record)
        finally:
            reply.close()

    async def answer_undo(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        """Allow undo / Refuse under a request: the request's message says how it was
        answered; an allowed undo's board follows."""
        reply = self.reply(interaction)
        try:
            with reply.collecting() as replying:
                result = await self.services.games.answer_undo(
                    game_id, interaction.user.id, accept, ply
                )
            if not accept:
                await reply.announce(replying, self.compose, first=self._update(reply))
                return
            name = result.view.name(1 - result.seat)
            text = f"{name} allowed taking back {result.notation} in game #{game_id}."
            await reply.update({"content": text, "view": None})
            await reply.announce(replying, self.compose)
        finally:
            reply.close()

    # --- after the game ---

    async def rematch(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """Rematch and /rematch: a challenge to the opponent, colours swapped, posted where
        the game was played (as the answer when asked there); against the computer, the
        new game at once. A rematch asked for already is pointed to privately. Without
        `game_id`, the game of this thread or the caller's latest finished game here."""
        rematches = self.services.rematches
        reply = self.reply(interaction)
        try:
            if game_id is None:
                game_id = await rematches.latest(
                    interaction.user.id, interaction.guild_id, interaction.channel_id
                )
            with reply.collecting() as replying:
                try:
                    made = await rematches.rematch(
                        game_id, player(interaction.user), guild_id=interaction.guild_id
                    )
                except RematchAskedError as asked:
                    challenge = asked.challenge
                    if challenge.message_id is None:
                        raise
                    link = message_link(
                        challenge.guild_id, challenge.channel_id, challenge.message_id
                    )
                    raise InvalidStateError(f"{asked} {link}") from None
            if isinstance(made, GameView):
                await self.computer_started(reply, made, replying, again=True)
                return
            await self.post_rematch(reply, made, game_id)
        finally:
            reply.close()

    async def post_rematch(self, reply: Reply, challenge: ChallengeRecord, game_id: int) -> None:
        """Show a rematch's challenge (with its buttons) where the game was played: as the
        click's answer when it came from there, else posted there, with a private pointer.
        A challenge that cannot be shown is withdrawn."""
        text = (
            f"**Rematch** of game #{game_id}, colours swapped.\n{challenge_text(challenge, STYLE)}"
        )
        payload: Payload = {"content": text, "view": challenge_buttons(challenge)}
        sent, message_id = False, None
        if reply.interaction.channel_id == challenge.channel_id:
            sent, message_id = await reply.send_public(payload)
        if not sent:
            channel = self.client.get_partial_messageable(challenge.channel_id)
            try:
                message = await channel.send(**payload)
            except discord.HTTPException:
                await self.services.challenges.cancel(challenge.id, challenge.challenger_id)
                raise
            message_id = message.id
            link = message_link(challenge.guild_id, challenge.channel_id, message_id)
            await reply.private(f"Rematch asked for: {link}")
        if message_id is not None:
            await self.services.challenges.attach_message(challenge.id, message_id)
