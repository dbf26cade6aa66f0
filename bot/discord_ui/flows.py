"""`Flows`: what the bot does for each command and click, shared by cogs and buttons.

A flow calls one service, then turns the result into Discord messages: the board
picture with its caption and buttons, private previews, edited challenge messages.
Refusals raise (`ServiceError`, `rules.GameError`); the caller answers them privately.
`Flows` is also the services' `Notifier`: what no interaction answers is posted here.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence

import discord

from bot.boards import render_board
from bot.clock_texts import board_clocks, clock_line
from bot.discord_ui.answers import DEFER_AFTER, Payload, player
from bot.discord_ui.buttons import (
    MoveForm,
    answer_buttons,
    board_buttons,
    challenge_buttons,
    resign_confirmation,
    turn_buttons,
)
from bot.discord_ui.notices import Notices
from bot.discord_ui.style import STYLE
from bot.discord_ui.threads import open_thread
from bot.discord_ui.tournaments import TournamentFlows
from bot.services.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
)
from bot.services.computer import computer_seat
from bot.services.container import Services
from bot.services.errors import InvalidInputError
from bot.services.results import (
    DrawStatus,
    GameView,
    MoveResult,
    UndoResult,
    UndoStatus,
)
from bot.services.tournament_views import TournamentView
from bot.storage.competition import PairingRecord
from bot.storage.repository import ChallengeRecord
from bot.texts import (
    board_caption,
    challenge_text,
    end_caption,
    game_title,
    header,
    move_caption,
    start_caption,
)

log = logging.getLogger(__name__)

DIAGRAM_LIMIT = 1900
"""Longer text diagrams are attached as a file (a message holds at most 2000 characters)."""


def mention(view: GameView, seat: int) -> str:
    """A mention of the player in `seat`."""
    return STYLE.mention(view.record.players[seat], view.name(seat))


def thread_name(view: GameView) -> str:
    """A readable thread name: "Hexade · alice vs bob" (at most 100 characters)."""
    record = view.record
    return f"{view.game.title} · {record.names[0]} vs {record.names[1]}"[:100]


class Flows:
    """The bot's actions; needs `attach(services)` before use."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._services: Services | None = None
        self.tournaments = TournamentFlows(self)
        """Ratings and tournaments: their commands, buttons and announcements."""
        self.notices = Notices(self)
        """Reminders, timeouts, digests, vacations: direct messages and thread posts."""

    def attach(self, services: Services) -> None:
        """Give the flows their services (built after the flows, which are their notifier)."""
        self._services = services

    @property
    def services(self) -> Services:
        """The services the flows call."""
        if self._services is None:
            raise RuntimeError("Flows.attach(services) was not called")
        return self._services

    # --- building and sending messages ---

    async def board_payload(
        self, view: GameView, caption: str, *, buttons: discord.ui.View | None
    ) -> Payload:
        """The board picture (or diagram) with the clocks, the caption (with the time
        left in a timed game) and the buttons, ready to send."""
        status = await self.services.clocks.status(view.record)
        line = clock_line(view, status, STYLE)
        if line is not None:
            caption = f"{caption}\n{line}"
        clocks = board_clocks(status, view.record)
        image = await asyncio.to_thread(render_board, view, clocks=clocks)
        payload: Payload = {"content": caption}
        if image.png is not None:
            payload["file"] = discord.File(io.BytesIO(image.png), filename=image.filename)
        elif len(caption) + len(image.diagram) + 8 <= DIAGRAM_LIMIT:
            payload["content"] = f"{caption}\n```\n{image.diagram}\n```"
        else:
            data = io.BytesIO(image.diagram.encode())
            payload["file"] = discord.File(data, filename=image.filename.replace(".png", ".txt"))
        if buttons is not None:
            payload["view"] = buttons
        return payload

    @staticmethod
    async def keep_alive(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
        """Defer the answer ("thinking…") when the interaction is close to its deadline."""
        if interaction.response.is_done():
            return
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if age >= DEFER_AFTER:
            log.warning("interaction %s is %.1f s old: deferring its answer", interaction.id, age)
            await interaction.response.defer(thinking=True, ephemeral=ephemeral)

    @staticmethod
    async def respond(
        interaction: discord.Interaction, payload: Payload, *, ephemeral: bool = False
    ) -> None:
        """Answer the interaction (or follow up when it was answered already)."""
        if interaction.response.is_done():
            await interaction.followup.send(**payload, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(**payload, ephemeral=ephemeral)

    async def post(self, channel_id: int, payload: Payload) -> discord.Message:
        """Send a message to a channel or thread by id."""
        return await self.client.get_partial_messageable(channel_id).send(**payload)

    async def deliver(
        self, interaction: discord.Interaction, location: int, payload: Payload
    ) -> None:
        """Post publicly where the game is played: as the answer when the command was
        given there, otherwise as a message there with a private pointer for the user."""
        if interaction.channel_id == location:
            await self.respond(interaction, payload)
            return
        await self.post(location, payload)
        await self.respond(interaction, {"content": f"Done: see <#{location}>."}, ephemeral=True)

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
        if action == "accept":
            accepted = await challenges.accept(
                challenge_id, player(interaction.user), guild_id=interaction.guild_id
            )
            text = challenge_text(accepted.challenge, STYLE)
            await interaction.response.edit_message(content=text, view=None)
            location = await self.open_game(interaction, accepted.view)
            if location != interaction.channel_id:
                await interaction.edit_original_response(content=f"{text}\nPlay in <#{location}>.")
            return
        if action == "decline":
            closed = await challenges.decline(challenge_id, interaction.user.id)
        else:
            closed = await challenges.cancel(challenge_id, interaction.user.id)
        await interaction.response.edit_message(content=challenge_text(closed, STYLE), view=None)

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
        view = await computer.start(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            player=player(interaction.user),
            game=game,
            options=options,
            level=level,
            colour=colour,
        )
        seat = computer_seat(view.record)
        assert seat is not None
        text = (
            f"{interaction.user.mention} plays {game_title(view.game, view.record.options)} "
            f"against {view.name(seat)}, game #{view.id}."
        )
        await interaction.response.send_message(text)
        location = await self.open_game(interaction, view)
        if location != interaction.channel_id:
            await interaction.edit_original_response(content=f"{text}\nPlay in <#{location}>.")
        computer.begin(view.id)

    async def open_game(self, interaction: discord.Interaction, view: GameView) -> int:
        """Create the game's thread (or stay in the channel) and post the first board."""
        return await self.open_game_in(interaction.channel, view, start_caption(view, STYLE))

    async def open_game_in(
        self, channel: object, view: GameView, caption: str, *, name: str | None = None
    ) -> int:
        """Create the game's thread in `channel` (or stay in the game's channel) and post
        the first board with `caption`; return where the game is played."""
        record = view.record
        settings = await self.services.settings.guild(record.guild_id)
        if settings.threads and isinstance(channel, discord.TextChannel):
            try:
                thread = await open_thread(
                    channel, name or thread_name(view), reason=f"Tabula game #{record.id}"
                )
            except discord.HTTPException as exc:
                log.warning("game %s: no thread (%s); playing in the channel", record.id, exc)
            else:
                record = await self.services.games.set_thread(record.id, thread.id)
                view = GameView(record, view.state)
        payload = await self.board_payload(view, caption, buttons=board_buttons(view))
        await self.post(record.location, payload)
        return record.location

    # --- moves ---

    async def move(
        self, interaction: discord.Interaction, game_id: int | None, notation: str
    ) -> None:
        """/move, the move form and quick-move buttons: play, then show the result."""
        games = self.services.games
        location, guild_id = interaction.channel_id or 0, interaction.guild_id
        user = interaction.user.id
        game_id = (await games.find(user, location, game_id, guild_id=guild_id, for_move=True)).id
        result = await games.play(game_id, user, notation)
        await self.announce_move(interaction, result)

    async def announce_move(self, interaction: discord.Interaction, result: MoveResult) -> None:
        """A completed turn is posted publicly; a move inside a turn is previewed privately."""
        view = result.view
        if not result.turn_complete:
            info = view.turn_info() or "your turn goes on"
            caption = (
                f"{header(view)}\nYou played **{result.move.notation}** "
                f"(move {result.move.ply}); {info}. The board is posted when your turn ends."
            )
            await self.keep_alive(interaction, ephemeral=True)
            payload = await self.board_payload(view, caption, buttons=turn_buttons(view))
            await self.respond(interaction, payload, ephemeral=True)
            return
        await self.keep_alive(interaction, ephemeral=interaction.channel_id != view.record.location)
        payload = await self.board_payload(
            view, move_caption(result, STYLE), buttons=board_buttons(view)
        )
        await self.deliver(interaction, view.record.location, payload)

    async def quick_move(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        """A quick-move button: the same as typing the move."""
        await self.move(interaction, game_id, move)

    async def board(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/board: the current position, publicly, with the buttons."""
        games = self.services.games
        record = await games.find(
            interaction.user.id,
            interaction.channel_id or 0,
            game_id,
            guild_id=interaction.guild_id,
        )
        view = await games.view_of(record)
        await self.keep_alive(interaction)
        payload = await self.board_payload(
            view, board_caption(view, STYLE), buttons=board_buttons(view)
        )
        await self.respond(interaction, payload)

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

    async def game_meant(self, interaction: discord.Interaction, game_id: int | None) -> int:
        """The game a command means: the one named (if visible here), else the caller's one
        game here."""
        location = interaction.channel_id or 0
        games = self.services.games
        return (
            await games.find(interaction.user.id, location, game_id, guild_id=interaction.guild_id)
        ).id

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
        game_id = await self.game_meant(interaction, game_id)
        view = await games.resign(game_id, interaction.user.id)
        payload = await self.board_payload(view, end_caption(view, STYLE), buttons=None)
        await self.deliver(interaction, view.record.location, payload)

    # --- draws ---

    async def draw(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/draw and Offer draw: offer, or accept the opponent's standing offer."""
        games = self.services.games
        game_id = await self.game_meant(interaction, game_id)
        result = await games.offer_draw(game_id, interaction.user.id)
        view = result.view
        if result.status is DrawStatus.ACCEPTED:
            payload = await self.board_payload(view, end_caption(view, STYLE), buttons=None)
            await self.deliver(interaction, view.record.location, payload)
            return
        if result.status is DrawStatus.DECLINED:  # the computer answers at once
            text = f"{view.name(result.seat)} declines the draw in game #{view.id}: play on."
            await self.deliver(interaction, view.record.location, {"content": text})
            return
        offer = view.record.draw_offer
        assert offer is not None
        opponent = 1 - result.seat
        text = (
            f"{mention(view, result.seat)} offers "
            f"a draw in game #{view.id}. "
            f"{mention(view, opponent)}, do you "
            "accept? (Moving instead declines it.)"
        )
        payload = {"content": text, "view": answer_buttons("dr", view.id, offer.ply)}
        await self.deliver(interaction, view.record.location, payload)

    async def answer_draw(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        """Accept draw / Decline under an offer."""
        result = await self.services.games.answer_draw(game_id, interaction.user.id, accept, ply)
        view = result.view
        name = view.name(result.seat)
        if result.status is DrawStatus.DECLINED:
            await interaction.response.edit_message(
                content=f"{name} declined the draw offer in game #{game_id}.", view=None
            )
            return
        await interaction.response.edit_message(
            content=f"{name} accepted the draw in game #{game_id}.", view=None
        )
        payload = await self.board_payload(view, end_caption(view, STYLE), buttons=None)
        await interaction.followup.send(**payload)

    # --- undo ---

    async def undo(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/undo and Undo: ask the opponent, or take back one's own unfinished turn."""
        games = self.services.games
        game_id = await self.game_meant(interaction, game_id)
        result = await games.request_undo(game_id, interaction.user.id)
        view = result.view
        computer = computer_seat(view.record)
        if computer is not None and computer != result.seat:  # the computer answers at once
            await self.computer_undo(interaction, result, computer)
            return
        if result.status is UndoStatus.APPLIED:
            caption = f"{header(view)}\nTaken back: **{result.notation}**. Your turn starts again."
            payload = await self.board_payload(view, caption, buttons=turn_buttons(view))
            await self.respond(interaction, payload, ephemeral=True)
            return
        request = view.record.undo_request
        assert request is not None
        opponent = 1 - result.seat
        text = (
            f"{mention(view, result.seat)} asks "
            f"to take back **{result.notation}** in game #{view.id}. "
            f"{mention(view, opponent)}, allow it?"
        )
        payload = {"content": text, "view": answer_buttons("ud", view.id, request.ply)}
        await self.deliver(interaction, view.record.location, payload)

    async def computer_undo(
        self, interaction: discord.Interaction, result: UndoResult, computer: int
    ) -> None:
        """The computer's answer to an undo request, posted where the game is played."""
        view = result.view
        name = view.name(computer)
        if result.status is UndoStatus.DECLINED:
            text = f"{name} refused to take back {result.notation} in game #{view.id}."
            await self.deliver(interaction, view.record.location, {"content": text})
            return
        caption = f"{name} allowed taking back **{result.notation}**.\n{board_caption(view, STYLE)}"
        payload = await self.board_payload(view, caption, buttons=board_buttons(view))
        await self.deliver(interaction, view.record.location, payload)

    async def answer_undo(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        """Allow undo / Refuse under a request."""
        user = interaction.user.id
        result = await self.services.games.answer_undo(game_id, user, accept, ply)
        view = result.view
        name = view.name(1 - result.seat)
        if result.status is UndoStatus.DECLINED:
            await interaction.response.edit_message(
                content=f"{name} refused to take back {result.notation} in game #{game_id}.",
                view=None,
            )
            return
        await interaction.response.edit_message(
            content=f"{name} allowed taking back {result.notation} in game #{game_id}.", view=None
        )
        caption = f"Taken back: **{result.notation}**.\n{board_caption(view, STYLE)}"
        payload = await self.board_payload(view, caption, buttons=board_buttons(view))
        await interaction.followup.send(**payload)

    # --- the Notifier port: what no interaction answers ---

    async def challenge_expired(self, challenge: ChallengeRecord) -> None:
        """Edit the expired challenge's message and disable its buttons."""
        if challenge.message_id is None:
            return
        channel = self.client.get_partial_messageable(challenge.channel_id)
        try:
            await channel.get_partial_message(challenge.message_id).edit(
                content=challenge_text(challenge, STYLE),
                view=challenge_buttons(challenge, disabled=True),
            )
        except discord.HTTPException as exc:
            log.warning("could not edit expired challenge %s: %s", challenge.id, exc)

    async def move_played(self, result: MoveResult) -> None:
        """Post a move no player's command answers (a computer's move)."""
        if not result.turn_complete:
            return
        view = result.view
        payload = await self.board_payload(
            view, move_caption(result, STYLE), buttons=board_buttons(view)
        )
        await self.post(view.record.location, payload)

    async def game_finished(self, view: GameView) -> None:
        """Post a result no player's command answers (e.g. a loss on time)."""
        payload = await self.board_payload(view, end_caption(view, STYLE), buttons=None)
        await self.post(view.record.location, payload)

    # --- the TournamentNotifier port: what tournaments do by themselves ---

    async def tournament_round_started(self, tournament: TournamentView, number: int) -> None:
        """Post a new round's pairings where the tournament is run."""
        await self.tournaments.round_started(tournament, number)

    async def tournament_game_started(
        self, tournament: TournamentView, pairing: PairingRecord, game: GameView
    ) -> None:
        """Open a tournament game's thread and call its players."""
        await self.tournaments.game_started(tournament, pairing, game)

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView]
    ) -> None:
        """Say in each aborted game's thread that it has no result."""
        await self.tournaments.games_aborted(tournament, games)

    async def tournament_finished(self, tournament: TournamentView) -> None:
        """Post the final standings."""
        await self.tournaments.finished(tournament)

    async def tournament_cancelled(self, tournament: TournamentView, reason: str) -> None:
        """Say that a tournament was cancelled by itself, and why."""
        await self.tournaments.cancelled(tournament, reason)

    # --- correspondence play: reminders, timeouts, digests, vacations ---

    async def turn_waiting(self, notice: TurnNotice) -> None:
        """Tell a player by direct message that it is their turn."""
        await self.notices.turn_waiting(notice)

    async def reminder(self, notice: ReminderNotice) -> None:
        """Remind a player that their time runs low."""
        await self.notices.reminder(notice)

    async def timed_out(self, notice: TimeoutNotice) -> None:
        """Post a loss on time and tell both players."""
        await self.notices.timed_out(notice)

    async def digest(self, notice: DigestNotice) -> None:
        """Send a player their digest."""
        await self.notices.digest(notice)

    async def vacation_changed(self, notice: VacationNotice) -> None:
        """Tell a player's opponents that they are away or back."""
        await self.notices.vacation_changed(notice)
