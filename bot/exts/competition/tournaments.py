"""/tournament: create, join, leave, start, withdraw, cancel, standings, pairings, info, list.

`create` takes every game option, built from the game registry as /play does, and is
checked by the service: members with Manage Server or the server's organiser role may
create tournaments; the creator and those members start and cancel them.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.competition.tournament import Format
from bot.exts.games.play import merged_options, option_annotation
from bot.services.competition.tournaments import MAX_PLAYERS, MAX_SWISS_ROUNDS, NAME_LENGTH
from rules import list_games

log = logging.getLogger(__name__)

TOURNAMENT_HELP = "the tournament's number (needed only when several could be meant)"
CREATE_PARAMETERS = (
    "game", "format", "name", "rounds", "time_control", "entry_window", "casual", "max_players",
)  # fmt: skip
"""/tournament create's own parameters; no game option may use these names."""


async def tournament_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete for `tournament:`: this server's tournaments, those going on first."""
    try:
        found = await bot_of(interaction).flows.tournaments.choices(interaction, current)
    except Exception:
        log.exception("tournament autocomplete failed")
        return []
    return [app_commands.Choice(name=label, value=number) for label, number in found]


CreateCommand = app_commands.Command[Any, ..., None]


def build_create_command() -> CreateCommand:
    """/tournament create, with the options of every game."""
    games = list_games()
    options = merged_options(games)
    clashes = [option.name for option in options if option.name in CREATE_PARAMETERS]
    if clashes:
        raise ValueError(f"game options {clashes} clash with /tournament create's own")

    async def create(interaction: discord.Interaction, **values: Any) -> None:
        fixed = {name: values.pop(name, None) for name in CREATE_PARAMETERS}
        chosen = {name: value for name, value in values.items() if value is not None}
        await bot_of(interaction).flows.tournaments.create(
            interaction,
            game=fixed["game"],
            format=fixed["format"],
            options=chosen,
            name=fixed["name"],
            rounds=fixed["rounds"],
            time_control=fixed["time_control"],
            entry_window=fixed["entry_window"],
            casual=bool(fixed["casual"]),
            max_players=fixed["max_players"],
        )

    keyword = inspect.Parameter.KEYWORD_ONLY

    def optional(name: str, annotation: Any) -> inspect.Parameter:
        return inspect.Parameter(name, keyword, annotation=annotation | None, default=None)

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("game", keyword, annotation=str),
        inspect.Parameter("format", keyword, annotation=str),
        optional("name", app_commands.Range[str, 1, NAME_LENGTH]),
        optional("rounds", app_commands.Range[int, 1, MAX_SWISS_ROUNDS]),
        optional("time_control", str),
        optional("entry_window", str),
        optional("casual", bool),
        optional("max_players", app_commands.Range[int, 2, MAX_PLAYERS]),
    ]
    parameters += [optional(option.name, option_annotation(option)) for option in options]
    create.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    descriptions = {
        "game": "the game played",
        "format": "how players are paired",
        "name": "the tournament's name (default: the game and the format)",
        "rounds": "Swiss only: the number of rounds (default: enough for a clear winner)",
        "time_control": "none, a time per move like 3d, or 7d+1d max 10d (default: server's)",
        "entry_window": "how long entries stay open, like 2d; it then starts by itself",
        "casual": "true for a tournament whose games do not change ratings",
        "max_players": f"the most players it takes (default {MAX_PLAYERS})",
        **{option.name: option.description for option in options},
    }
    callback = app_commands.describe(**descriptions)(create)
    callback = app_commands.choices(
        game=[app_commands.Choice(name=game.title, value=game.name) for game in games],
        format=[app_commands.Choice(name=f.label, value=f.keyword) for f in Format],
    )(callback)
    command: CreateCommand = app_commands.command(
        name="create", description="Create a tournament (Manage Server or the organiser role)"
    )(callback)
    return command


class TournamentGroup(app_commands.Group):
    """The /tournament commands."""

    def __init__(self) -> None:
        super().__init__(
            name="tournament", description="Community tournaments on this server", guild_only=True
        )
        self.add_command(build_create_command())

    @app_commands.command(name="join", description="Enter a tournament taking entries")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """/tournament join."""
        await bot_of(interaction).flows.tournaments.join(interaction, tournament)

    @app_commands.command(name="leave", description="Take back your entry before the start")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """/tournament leave."""
        await bot_of(interaction).flows.tournaments.leave(interaction, tournament)

    @app_commands.command(name="start", description="Close entries and start (organisers)")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """/tournament start."""
        await bot_of(interaction).flows.tournaments.start(interaction, tournament)

    @app_commands.command(
        name="withdraw", description="Leave a running tournament (organisers: remove a player)"
    )
    @app_commands.describe(
        tournament=TOURNAMENT_HELP,
        player="organisers: the player to withdraw (default: yourself)",
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    async def withdraw(
        self,
        interaction: discord.Interaction,
        tournament: int | None = None,
        player: discord.Member | None = None,
    ) -> None:
        """/tournament withdraw."""
        await bot_of(interaction).flows.tournaments.withdraw(interaction, tournament, player)

    @app_commands.command(name="cancel", description="Cancel a tournament (organisers)")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """/tournament cancel."""
        await bot_of(interaction).flows.tournaments.cancel(interaction, tournament)

    @app_commands.command(name="standings", description="A tournament's standings")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def standings(
        self, interaction: discord.Interaction, tournament: int | None = None
    ) -> None:
        """/tournament standings."""
        await bot_of(interaction).flows.tournaments.standings(interaction, tournament)

    @app_commands.command(name="pairings", description="A round's games and results")
    @app_commands.describe(
        round="the round's number (default: the latest round)", tournament=TOURNAMENT_HELP
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    async def pairings(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 999] | None = None,
        tournament: int | None = None,
    ) -> None:
        """/tournament pairings."""
        await bot_of(interaction).flows.tournaments.pairings(interaction, tournament, round)

    @app_commands.command(name="info", description="What a tournament is and who plays")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def info(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """/tournament info."""
        await bot_of(interaction).flows.tournaments.info(interaction, tournament)

    @app_commands.command(
        name="list", description="This server's tournaments, going ones first, then past ones"
    )
    @app_commands.describe(page="which page (1 for the first)")
    async def listing(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1] = 1
    ) -> None:
        """/tournament list [page]."""
        await bot_of(interaction).flows.tournaments.listing(interaction, page)


class Tournaments(commands.Cog):
    """Adds /tournament to the command tree."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.group = TournamentGroup()

    async def cog_load(self) -> None:
        """Register /tournament."""
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        """Remove /tournament."""
        self.bot.tree.remove_command(self.group.name)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Tournaments(bot))
