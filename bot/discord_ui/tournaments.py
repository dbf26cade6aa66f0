"""Ratings and tournaments on Discord: the commands' flows, the Join button, and what
the announcements of tournaments share (tables, thread names, closing the entries).

Long tables are cut to fit a message and attached whole as a text file.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any, Protocol, Self, cast

import discord

from bot.discord_ui.answers import Payload, answer_in_time, player
from bot.discord_ui.context import DiscordContext
from bot.discord_ui.origins import guarded_click, parse_id
from bot.discord_ui.replies import in_time
from bot.discord_ui.style import STYLE
from bot.services.competition.tournaments import Member, TournamentService
from bot.services.errors import InvalidStateError
from bot.services.views.results import GameView
from bot.services.views.tournaments import TournamentView
from bot.storage.competition import PairingRecord, TournamentStatus
from bot.texts.tournaments import (
    MESSAGE_LIMIT,
    PROVISIONAL_NOTE,
    TableMessage,
    announcement_text,
    cancellation_text,
    entrant_names,
    entrants_text,
    leaderboard_message,
    pairings_message,
    rating_text,
    standings_message,
    tournament_heading,
    tournament_list_message,
    tournament_summary,
    withdrawal_text,
)
from rules import get_game

log = logging.getLogger(__name__)

PREFIX = "tabula"
ALL_STATUSES = tuple(TournamentStatus)
"""Commands that show a tournament accept one in any state."""
LEADERBOARD_COLOUR = discord.Colour.gold()
INFO_SLACK = 40
"""Room kept in /tournament info's message beyond the summary and the players' names."""


def member(interaction: discord.Interaction) -> Member:
    """The user acting, with their Manage Server permission and roles in this server."""
    roles = frozenset(role.id for role in getattr(interaction.user, "roles", ()))
    return Member(
        player(interaction.user),
        can_manage=interaction.permissions.manage_guild,
        roles=roles,
    )


def guild_of(interaction: discord.Interaction) -> int:
    """The server the interaction came from (the commands are server-only)."""
    if interaction.guild_id is None:
        raise RuntimeError("a server command was used outside a server")
    return interaction.guild_id


def table_payload(message: TableMessage, filename: str) -> Payload:
    """A table message that fits Discord's limit; when cut, the whole message is attached
    as a text file (never an empty one)."""
    text, cut = message.shortened()
    payload: Payload = {"content": text}
    if cut:
        payload["file"] = text_file(message.plain(), filename)
    return payload


def text_file(text: str, filename: str) -> discord.File:
    """A UTF-8 text attachment."""
    if not text.strip():
        raise ValueError("an attachment needs some text")
    return discord.File(io.BytesIO(text.encode()), filename=filename)


def game_thread_name(tournament: TournamentView, pairing: PairingRecord, game: GameView) -> str:
    """ "Spring Swiss R2 #12 · alice vs bob" (with the game's number, which finds the
    thread again; at most 100 characters)."""
    names = game.record.names
    heading = f"{tournament.record.name[:60]} R{pairing.round} #{game.id}"
    return f"{heading} · {names[0]} vs {names[1]}"[:100]


async def close_entries(client: discord.Client, tournament: TournamentView) -> None:
    """Edit the tournament's announcement once entries closed: no more Join / Leave."""
    record = tournament.record
    if record.message_id is None or record.status is TournamentStatus.OPEN:
        return
    channel = client.get_partial_messageable(record.channel_id)
    try:
        await channel.get_partial_message(record.message_id).edit(
            content=announcement_text(tournament, STYLE), view=None
        )
    except discord.HTTPException as exc:
        log.warning("could not close the entries of tournament %s: %s", record.id, exc)


class _HasTournamentFlows(Protocol):
    """The bot's flows, which carry the tournament flows."""

    @property
    def tournaments(self) -> TournamentFlows:
        """The tournament flows."""
        ...


class HasFlows(Protocol):
    """A bot that carries its flows (TabulaBot)."""

    @property
    def flows(self) -> _HasTournamentFlows:
        """The bot's flows."""
        ...


class EntryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"{PREFIX}:te:(?P<id>\d+):(?P<action>join|leave)",
):
    """Join or Leave under a tournament's announcement."""

    def __init__(self, tournament_id: int, action: str) -> None:
        style = discord.ButtonStyle.success if action == "join" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=action.capitalize(),
                style=style,
                custom_id=f"{PREFIX}:te:{tournament_id}:{action}",
            )
        )
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from a clicked id."""
        return cls(parse_id(match["id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot."""
        flows = cast(HasFlows, interaction.client).flows.tournaments
        await guarded_click(
            interaction,
            self.custom_id,
            lambda: flows.entry_button(interaction, self.tournament_id, self.action),
        )


TOURNAMENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (EntryButton,)
"""The persistent buttons of this module; the bot registers them at start-up."""


def entry_buttons(tournament_id: int) -> discord.ui.View:
    """Join and Leave buttons for a tournament taking entries."""
    view = discord.ui.View(timeout=None)
    view.add_item(EntryButton(tournament_id, "join"))
    view.add_item(EntryButton(tournament_id, "leave"))
    return view


class TournamentFlows:
    """What the bot does for /rating, /leaderboard, /tournament and tournament events."""

    def __init__(self, context: DiscordContext) -> None:
        self.context = context

    @property
    def service(self) -> TournamentService:
        """The tournament service."""
        return self.context.services.tournaments

    # --- ratings ---

    async def rating(
        self, interaction: discord.Interaction, user: discord.abc.User | None, game: str | None
    ) -> None:
        """/rating: a user's ratings (all games, or one with their place here); private."""
        whom = user or interaction.user
        ratings = self.context.services.ratings
        rank = None
        if game is None:
            cards = await ratings.cards(whom.id)
        else:
            cards = [await ratings.card(whom.id, game, whom.display_name)]
            if interaction.guild_id is not None:
                rank = await ratings.rank(interaction.guild_id, game, whom.id)
        text = rating_text(whom.display_name, cards, rank=rank, style=STYLE)
        await interaction.response.send_message(text, ephemeral=True)

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """/leaderboard: this server's best players in a game, as an embed."""
        entries = await self.context.services.ratings.leaderboard(guild_of(interaction), game)
        message = leaderboard_message(game, entries)
        if not entries:
            await interaction.response.send_message(message.head, ephemeral=True)
            return
        embed = discord.Embed(
            title=f"{get_game(game).title} leaderboard",
            description=f"```\n{message.table}\n```",
            colour=LEADERBOARD_COLOUR,
        )
        if interaction.guild is not None:
            embed.set_author(name=interaction.guild.name)
        if any(entry.card.current.is_provisional for entry in entries):
            embed.set_footer(text=PROVISIONAL_NOTE)
        await interaction.response.send_message(embed=embed)

    # --- tournament commands ---

    async def create(
        self,
        interaction: discord.Interaction,
        *,
        game: str,
        format: str,
        options: dict[str, object],
        name: str | None,
        rounds: int | None,
        time_control: str | None,
        entry_window: str | None,
        casual: bool,
        max_players: int | None,
    ) -> None:
        """/tournament create: announce the new tournament with Join and Leave buttons."""
        view = await self.service.create(
            guild_id=guild_of(interaction),
            channel_id=interaction.channel_id or 0,
            member=member(interaction),
            game=game,
            format=format,
            options=options,
            name=name,
            rounds=rounds,
            time_control=time_control,
            entry_window=entry_window,
            rated=not casual,
            **({"max_players": max_players} if max_players is not None else {}),
        )
        response = await interaction.response.send_message(
            tournament_summary(view, STYLE), view=entry_buttons(view.id)
        )
        if response.message_id is not None:
            await self.service.attach_message(view.id, response.message_id)

    async def join(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """/tournament join."""
        view = await self.service.join(
            guild_of(interaction), tournament_id, player(interaction.user)
        )
        await interaction.response.send_message(
            f"{interaction.user.mention} joined {tournament_heading(view)}: "
            f"{len(view.entrants)} of {view.record.max_players} players."
        )

    async def leave(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """/tournament leave (before the start)."""
        view = await self.service.leave(guild_of(interaction), tournament_id, interaction.user.id)
        await interaction.response.send_message(
            f"{interaction.user.mention} left {tournament_heading(view)}."
        )

    async def entry_button(
        self, interaction: discord.Interaction, tournament_id: int, action: str
    ) -> None:
        """Join or Leave under an announcement: update its count, confirm privately.

        A click on a tournament no longer taking entries removes the stale buttons (the
        refusal is still answered privately)."""
        guild = guild_of(interaction)
        try:
            if action == "join":
                view = await self.service.join(guild, tournament_id, player(interaction.user))
                done = f"You joined {tournament_heading(view)}."
            else:
                view = await self.service.leave(guild, tournament_id, interaction.user.id)
                done = f"You left {tournament_heading(view)}."
        except InvalidStateError:
            current = await self.service.view(tournament_id)
            if current.record.status is not TournamentStatus.OPEN:
                text = announcement_text(current, STYLE)
                await interaction.response.edit_message(content=text, view=None)
            raise
        await interaction.response.edit_message(content=tournament_summary(view, STYLE))
        await interaction.followup.send(done, ephemeral=True)

    async def start(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """/tournament start: the first round is paired and posted right after."""
        view = await self.service.start(guild_of(interaction), tournament_id, member(interaction))
        await interaction.response.send_message(
            f"{interaction.user.mention} started {tournament_heading(view)} with "
            f"{len(view.entrants)} players: round 1 is being paired."
        )

    async def withdraw(
        self,
        interaction: discord.Interaction,
        tournament_id: int | None,
        user: discord.abc.User | None,
    ) -> None:
        """/tournament withdraw: oneself, or (organisers) another player."""
        withdrawal = await answer_in_time(
            interaction,
            self.service.withdraw(
                guild_of(interaction),
                tournament_id,
                member(interaction),
                user.id if user is not None else None,
            ),
        )
        await self.context.respond(interaction, {"content": withdrawal_text(withdrawal)})

    async def cancel(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """/tournament cancel (organisers): games in progress are aborted."""
        cancellation = await answer_in_time(
            interaction,
            self.service.cancel(guild_of(interaction), tournament_id, member(interaction)),
        )
        text = cancellation_text(cancellation, f"by {interaction.user.mention}")
        await self.context.respond(interaction, {"content": text})
        await close_entries(self.context.client, cancellation.tournament)

    async def standings(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """/tournament standings."""
        async with in_time(interaction, self.context.services) as reply:
            view = await self._find(interaction, tournament_id)
            await reply.send(table_payload(standings_message(view), "standings.txt"))

    async def pairings(
        self, interaction: discord.Interaction, tournament_id: int | None, number: int | None
    ) -> None:
        """/tournament pairings: a round's games and results (the latest round)."""
        async with in_time(interaction, self.context.services) as reply:
            view = await self._find(interaction, tournament_id)
            message = pairings_message(view, number)
            await reply.send(table_payload(message, "pairings.txt"))

    async def info(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """/tournament info: what the tournament is and who plays (a long list of players
        shortened, by whole names, and attached in full)."""
        async with in_time(interaction, self.context.services) as reply:
            view = await self._find(interaction, tournament_id)
            summary = tournament_summary(view, STYLE)
            players = entrants_text(view, budget=MESSAGE_LIMIT - len(summary) - INFO_SLACK)
            payload: Payload = {"content": f"{summary}\n{players}"}
            if players != entrants_text(view):
                names = "\n".join(entrant_names(view)) + "\n"
                payload["file"] = text_file(names, "players.txt")
            if view.record.status is TournamentStatus.OPEN:
                payload["view"] = entry_buttons(view.id)
            await reply.send(payload)

    async def listing(self, interaction: discord.Interaction, page: int = 1) -> None:
        """/tournament list: a page of the server's tournaments (going ones first, then
        ended ones), privately; a list too long for one message is cut by whole lines and
        attached in full."""
        async with in_time(interaction, self.context.services) as reply:
            listed = await self.service.listing(guild_of(interaction), page)
            message = tournament_list_message(listed)
            if not listed.records:
                await reply.private(message.head)
                return
            await reply.send(table_payload(message, "tournaments.txt"), ephemeral=True)

    async def _find(
        self, interaction: discord.Interaction, tournament_id: int | None
    ) -> TournamentView:
        return await self.service.find_shown(
            guild_of(interaction), tournament_id, interaction.user.id
        )

    async def choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[tuple[str, int]]:
        """Autocomplete for `tournament:`: this server's tournaments, going ones first."""
        if interaction.guild_id is None:
            return []
        records = await self.service.listed(interaction.guild_id, ALL_STATUSES)
        going = (TournamentStatus.OPEN, TournamentStatus.RUNNING)
        records.sort(key=lambda record: (record.status not in going, -record.id))
        typed = current.strip().lstrip("#").lower()
        found = []
        for record in records:
            label = f"#{record.id} {record.name} ({record.status.value})"
            if typed in label.lower():
                found.append((label[:100], record.id))
        return found[:25]
