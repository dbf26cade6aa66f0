"""/league: create, join, leave, cancel, standings, divisions, history, info, list.

`create` takes every game option, built from the game registry as /play does, and is
checked by the service: members with Manage Server or the server's organiser role may
create leagues; the creator and those members cancel them.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.competition.leagues import MAX_DIVISION, MIN_DIVISION
from bot.exts.games.play import merged_options, option_annotation
from bot.services.competition.leagues import NAME_LENGTH
from rules import list_games

log = logging.getLogger(__name__)

LEAGUE_HELP = "the league's number (needed only when several could be meant)"
SEASON_HELP = "the season's number (default: the latest)"
CREATE_PARAMETERS = (
    "game", "season", "games_per_pair", "smallest", "largest", "name", "entry_window",
    "time_control", "casual",
)  # fmt: skip
"""/league create's own parameters; no game option may use these names."""

CreateCommand = app_commands.Command[Any, ..., None]


def build_create_command() -> CreateCommand:
    """/league create, with the options of every game."""
    games = list_games()
    options = merged_options(games)
    clashes = [option.name for option in options if option.name in CREATE_PARAMETERS]
    if clashes:
        raise ValueError(f"game options {clashes} clash with /league create's own")

    async def create(interaction: discord.Interaction, **values: Any) -> None:
        fixed = {name: values.pop(name, None) for name in CREATE_PARAMETERS}
        chosen = {name: value for name, value in values.items() if value is not None}
        await bot_of(interaction).flows.leagues.create(
            interaction,
            game=fixed["game"],
            season=fixed["season"],
            games_per_pair=fixed["games_per_pair"],
            smallest=fixed["smallest"],
            largest=fixed["largest"],
            name=fixed["name"],
            entry_window=fixed["entry_window"],
            time_control=fixed["time_control"],
            casual=bool(fixed["casual"]),
            options=chosen,
        )

    keyword = inspect.Parameter.KEYWORD_ONLY

    def optional(name: str, annotation: Any) -> inspect.Parameter:
        return inspect.Parameter(name, keyword, annotation=annotation | None, default=None)

    sizes = app_commands.Range[int, MIN_DIVISION, MAX_DIVISION]
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("game", keyword, annotation=str),
        inspect.Parameter("season", keyword, annotation=str),
        optional("games_per_pair", app_commands.Range[int, 1, 2]),
        optional("smallest", sizes),
        optional("largest", sizes),
        optional("name", app_commands.Range[str, 1, NAME_LENGTH]),
        optional("entry_window", str),
        optional("time_control", str),
        optional("casual", bool),
    ]
    parameters += [optional(option.name, option_annotation(option)) for option in options]
    create.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    descriptions = {
        "game": "the game played",
        "season": "how long a season lasts at most, like 30d",
        "games_per_pair": "1: each pair plays once; 2: once with each colour (default 1)",
        "smallest": f"the fewest players in a division (default {MIN_DIVISION})",
        "largest": f"the most players in a division (default {MAX_DIVISION})",
        "name": "the league's name (default: the game's name and League)",
        "entry_window": "how long entries stay open before each season, like 2d (default 1d)",
        "time_control": "none, a time per move like 3d, or 7d+1d max 10d (default: server's)",
        "casual": "true for a league whose games do not change ratings",
        **{option.name: option.description for option in options},
    }
    callback = app_commands.describe(**descriptions)(create)
    callback = app_commands.choices(
        game=[app_commands.Choice(name=game.title, value=game.name) for game in games],
    )(callback)
    command: CreateCommand = app_commands.command(
        name="create", description="Create a league (Manage Server or the organiser role)"
    )(callback)
    return command


class LeagueGroup(app_commands.Group):
    """The /league commands."""

    def __init__(self) -> None:
        super().__init__(
            name="league", description="Correspondence leagues on this server", guild_only=True
        )
        self.add_command(build_create_command())

    @app_commands.command(name="join", description="Enter a league's next season")
    @app_commands.describe(league=LEAGUE_HELP)
    async def join(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """/league join."""
        await bot_of(interaction).flows.leagues.join(interaction, league)

    @app_commands.command(
        name="leave", description="Leave a league (mid-season: your remaining games are lost)"
    )
    @app_commands.describe(league=LEAGUE_HELP)
    async def leave(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """/league leave."""
        await bot_of(interaction).flows.leagues.leave(interaction, league)

    @app_commands.command(name="cancel", description="Cancel a league (organisers)")
    @app_commands.describe(league=LEAGUE_HELP)
    async def cancel(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """/league cancel."""
        await bot_of(interaction).flows.leagues.cancel(interaction, league)

    @app_commands.command(name="standings", description="Every division's standings")
    @app_commands.describe(season=SEASON_HELP, league=LEAGUE_HELP)
    async def standings(
        self,
        interaction: discord.Interaction,
        season: app_commands.Range[int, 1, 9999] | None = None,
        league: int | None = None,
    ) -> None:
        """/league standings."""
        await bot_of(interaction).flows.leagues.standings(interaction, league, season)

    @app_commands.command(name="divisions", description="Who plays in which division")
    @app_commands.describe(season=SEASON_HELP, league=LEAGUE_HELP)
    async def divisions(
        self,
        interaction: discord.Interaction,
        season: app_commands.Range[int, 1, 9999] | None = None,
        league: int | None = None,
    ) -> None:
        """/league divisions."""
        await bot_of(interaction).flows.leagues.divisions(interaction, league, season)

    @app_commands.command(name="history", description="Every season's winners, ups and downs")
    @app_commands.describe(league=LEAGUE_HELP)
    async def history(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """/league history."""
        await bot_of(interaction).flows.leagues.history(interaction, league)

    @app_commands.command(name="info", description="What a league is and who is entered")
    @app_commands.describe(league=LEAGUE_HELP)
    async def info(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """/league info."""
        await bot_of(interaction).flows.leagues.info(interaction, league)

    @app_commands.command(name="list", description="This server's leagues going on")
    async def listing(self, interaction: discord.Interaction) -> None:
        """/league list."""
        await bot_of(interaction).flows.leagues.listing(interaction)


class Leagues(commands.Cog):
    """Adds /league to the command tree."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.group = LeagueGroup()

    async def cog_load(self) -> None:
        """Register /league."""
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        """Remove /league."""
        self.bot.tree.remove_command(self.group.name)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Leagues(bot))
