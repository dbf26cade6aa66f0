"""Leagues on Discord: what /league's commands do.

Long tables are cut to fit a message and attached whole as a text file, as for
tournaments.
"""

from __future__ import annotations

import discord

from bot.discord_ui.answers import answer_in_time, player
from bot.discord_ui.context import DiscordContext
from bot.discord_ui.style import STYLE
from bot.discord_ui.tournaments import guild_of, member, table_payload
from bot.services.competition.leagues import LeagueService
from bot.services.views.leagues import LeagueView
from bot.storage.leagues import LeagueStatus
from bot.texts.leagues import (
    departure_text,
    divisions_message,
    history_message,
    league_heading,
    league_list_message,
    league_summary,
    standings_message,
)


class LeagueFlows:
    """What the bot does for /league."""

    def __init__(self, context: DiscordContext) -> None:
        self.context = context

    @property
    def service(self) -> LeagueService:
        """The league service."""
        return self.context.services.leagues

    async def create(
        self,
        interaction: discord.Interaction,
        *,
        game: str,
        season: str,
        games_per_pair: int | None,
        smallest: int | None,
        largest: int | None,
        name: str | None,
        entry_window: str | None,
        time_control: str | None,
        casual: bool,
        options: dict[str, object],
    ) -> None:
        """/league create (organisers): announce the new league."""
        sizes = {
            key: value
            for key, value in (
                ("games_per_pair", games_per_pair),
                ("smallest", smallest),
                ("largest", largest),
            )
            if value is not None
        }
        view = await self.service.create(
            guild_id=guild_of(interaction),
            channel_id=interaction.channel_id or 0,
            member=member(interaction),
            game=game,
            season=season,
            name=name,
            entry_window=entry_window,
            time_control=time_control,
            options=options,
            rated=not casual,
            **sizes,
        )
        text = f"{league_summary(view, STYLE)}\nJoin with /league join."
        await interaction.response.send_message(text)

    async def join(self, interaction: discord.Interaction, league_id: int | None) -> None:
        """/league join: entered for the next season (and the ones after)."""
        view = await self.service.join(guild_of(interaction), league_id, player(interaction.user))
        when = (
            f"season {view.record.season + 1}, which starts {STYLE.when(view.record.starts_at)}"
            if view.record.status is LeagueStatus.OPEN
            else f"season {view.record.season + 1}, after the one being played"
        )
        await interaction.response.send_message(
            f"{interaction.user.mention} joined {league_heading(view)}: "
            f"{len(view.members)} entered for {when}."
        )

    async def leave(self, interaction: discord.Interaction, league_id: int | None) -> None:
        """/league leave: during a season one plays, their remaining games are forfeited."""
        departure = await answer_in_time(
            interaction,
            self.service.leave(guild_of(interaction), league_id, interaction.user.id),
        )
        # After forfeits the league's channel gets the announcement: the answer is private.
        await self.context.respond(
            interaction,
            {"content": departure_text(departure)},
            ephemeral=bool(departure.forfeited),
        )

    async def cancel(self, interaction: discord.Interaction, league_id: int | None) -> None:
        """/league cancel (organisers): games in progress are aborted."""
        view = await answer_in_time(
            interaction,
            self.service.cancel(guild_of(interaction), league_id, member(interaction)),
        )
        text = f"{league_heading(view)} was cancelled by {interaction.user.mention}."
        await self.context.respond(interaction, {"content": text})

    async def standings(
        self, interaction: discord.Interaction, league_id: int | None, season: int | None
    ) -> None:
        """/league standings: every division's table (a season's, the latest by default)."""
        view = await self._find(interaction, league_id, season)
        payload = table_payload(standings_message(view), "standings.txt")
        await self.context.respond(interaction, payload)

    async def divisions(
        self, interaction: discord.Interaction, league_id: int | None, season: int | None
    ) -> None:
        """/league divisions: who plays in which division."""
        view = await self._find(interaction, league_id, season)
        payload = table_payload(divisions_message(view), "divisions.txt")
        await self.context.respond(interaction, payload)

    async def history(self, interaction: discord.Interaction, league_id: int | None) -> None:
        """/league history: every season's winners and who went up and down."""
        history = await self.service.history(guild_of(interaction), league_id)
        payload = table_payload(history_message(history), "history.txt")
        await self.context.respond(interaction, payload)

    async def info(self, interaction: discord.Interaction, league_id: int | None) -> None:
        """/league info: what the league is and who is entered."""
        view = await self.service.find(guild_of(interaction), league_id, interaction.user.id)
        await interaction.response.send_message(league_summary(view, STYLE)[:2000])

    async def listing(self, interaction: discord.Interaction) -> None:
        """/league list: the server's leagues going on, privately."""
        message = league_list_message(await self.service.listed(guild_of(interaction)))
        payload = table_payload(message, "leagues.txt")
        await interaction.response.send_message(**payload, ephemeral=True)

    async def _find(
        self, interaction: discord.Interaction, league_id: int | None, season: int | None
    ) -> LeagueView:
        view = await self.service.find(guild_of(interaction), league_id, interaction.user.id)
        if season is None:
            return view
        return await self.service.season(view, season)
