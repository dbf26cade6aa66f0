"""/play: challenge a member (or anyone) to a game, with the game's options.

The command's options are built from the game registry: every option of every game
becomes one slash-command option (options of the same name are merged, e.g. `size`),
so a newly registered game's options appear without touching this module. Values are
validated by the game itself, whose message names what is allowed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import Level
from bot.client import bot_of
from bot.services.games.challenges import COLOUR_CHOICES
from rules import AnyGame, Option, OptionValue, list_games

FIXED_PARAMETERS = ("game", "opponent", "colour", "level", "casual", "time")
"""The parameters every /play has; no game option may use these names."""
LEVELS = tuple(level.value for level in Level)
"""The computer's levels, offered as choices of /play's `level`."""
DESCRIPTION_LIMIT = 100
"""Discord's limit for a command or option description."""


@dataclass(frozen=True)
class MergedOption:
    """One /play option standing for the options of that name in every game."""

    name: str
    is_int: bool
    choices: tuple[OptionValue, ...]
    """Allowed values when every game restricts the option to a set (strings only)."""
    minimum: int | None
    maximum: int | None
    description: str


def _allowed(spec: Option) -> str:
    if spec.choices:
        return "/".join(str(choice) for choice in spec.choices)
    if spec.minimum is not None and spec.maximum is not None:
        return f"{spec.minimum}–{spec.maximum}"
    return "any"


def _bound(spec: Option, pick: Callable[[list[int]], int]) -> int | None:
    """An integer option's lowest (`min`) or highest (`max`) allowed value, if bounded."""
    if spec.choices:
        return pick([int(choice) for choice in spec.choices])
    return spec.minimum if pick is min else spec.maximum


def _shorten(text: str) -> str:
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


def merged_options(games: Sequence[AnyGame]) -> list[MergedOption]:
    """Every game option, merged by name, with a description naming each game's values."""
    by_name: dict[str, list[tuple[AnyGame, Option]]] = {}
    for game in games:
        for spec in game.option_specs:
            by_name.setdefault(spec.name, []).append((game, spec))
    merged = []
    for name, entries in sorted(by_name.items()):
        if name in FIXED_PARAMETERS:
            raise ValueError(f"the game option {name!r} clashes with /play's own {name!r}")
        specs = [spec for _, spec in entries]
        is_int = all(spec.is_int for spec in specs)
        choices: tuple[OptionValue, ...] = ()
        if not is_int and all(spec.choices for spec in specs):
            choices = tuple(dict.fromkeys(c for spec in specs for c in spec.choices))
            if len(choices) > 25:
                choices = ()
        minimums = [_bound(spec, min) for spec in specs] if is_int else []
        maximums = [_bound(spec, max) for spec in specs] if is_int else []
        ints_bounded = is_int and None not in minimums and None not in maximums
        described = "; ".join(
            f"{game.title} {_allowed(spec)} (default {spec.default})" for game, spec in entries
        )
        merged.append(
            MergedOption(
                name=name,
                is_int=is_int,
                choices=choices,
                minimum=min(m for m in minimums if m is not None) if ints_bounded else None,
                maximum=max(m for m in maximums if m is not None) if ints_bounded else None,
                description=_shorten(described),
            )
        )
    return merged


def option_annotation(option: MergedOption) -> Any:
    """The slash-command type of a merged game option (a range or choices when known)."""
    if option.is_int:
        if option.minimum is not None and option.maximum is not None:
            return app_commands.Range[int, option.minimum, option.maximum]
        return int
    if option.choices:
        return Literal[option.choices]
    return str


PlayCommand = app_commands.Command[Any, ..., None]


def build_play_command(games: Sequence[AnyGame] | None = None) -> PlayCommand:
    """The /play command for the registered games (or the ones given)."""
    games = list(games) if games is not None else list_games()
    options = merged_options(games)

    async def play(interaction: discord.Interaction, **values: Any) -> None:
        game = values.pop("game")
        opponent = values.pop("opponent", None)
        colour = values.pop("colour", None) or "random"
        level = values.pop("level", None)
        rated = not values.pop("casual", None)
        time = values.pop("time", None)
        chosen = {name: value for name, value in values.items() if value is not None}
        await bot_of(interaction).flows.challenge(
            interaction,
            game=game,
            opponent=opponent,
            options=chosen,
            colour=colour,
            level=level,
            rated=rated,
            time=time,
        )

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("game", keyword, annotation=str),
        inspect.Parameter("opponent", keyword, annotation=discord.Member | None, default=None),
        inspect.Parameter(
            "colour", keyword, annotation=Literal[COLOUR_CHOICES] | None, default=None
        ),
        inspect.Parameter("level", keyword, annotation=Literal[LEVELS] | None, default=None),
        inspect.Parameter("casual", keyword, annotation=bool | None, default=None),
        inspect.Parameter("time", keyword, annotation=str | None, default=None),
    ]
    parameters += [
        inspect.Parameter(
            option.name, keyword, annotation=option_annotation(option) | None, default=None
        )
        for option in options
    ]
    play.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    descriptions = {
        "game": "the game to play",
        "opponent": "whom to challenge (leave out for an open challenge; me to play the computer)",
        "colour": "the colour you play (default: random)",
        "level": "how strongly I play when you play against me (default: medium)",
        "casual": "true for a casual game that does not change ratings (default: rated)",
        "time": "the clock: none, 3d per move, or 7d+1d max 10d (default: the server's)",
        **{option.name: option.description for option in options},
    }
    callback = app_commands.describe(**descriptions)(play)
    callback = app_commands.choices(
        game=[app_commands.Choice(name=game.title, value=game.name) for game in games]
    )(callback)
    command: PlayCommand = app_commands.command(
        name="play", description="Challenge a member, or anyone, to a game"
    )(callback)
    return app_commands.guild_only()(command)


class Play(commands.Cog):
    """Adds /play (built from the game registry) to the command tree."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.command = build_play_command()

    async def cog_load(self) -> None:
        """Register /play."""
        self.bot.tree.add_command(self.command)

    async def cog_unload(self) -> None:
        """Remove /play."""
        self.bot.tree.remove_command(self.command.name)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Play(bot))
