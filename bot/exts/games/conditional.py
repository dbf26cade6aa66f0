"""/conditional add|list|clear: replies queued while the opponent is to move.

The answers are private, and so are the notes that come with a player's next command
when their conditional moves were cleared (for players who take no direct messages).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.discord_ui.conditionals import ConditionalFlows
from bot.exts.games.moves import choices_of
from bot.services.errors import ServiceError
from bot.services.games.games import visible

log = logging.getLogger(__name__)

GAME_HELP = "the game's number (default: the game of this thread)"
LIST_HELP = "one game only, with pictures (default: your games in this server)"
LINE_HELP = (
    "their move, your reply, and so on: e5 d4 f6 c3 (Diffusion Chess: a turn's moves joined by ,)"
)


async def waiting_games(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete for /conditional add: the caller's games where the opponent is to move."""
    user = interaction.user.id
    try:
        records = await bot_of(interaction).services.games.active_games(user)
    except Exception:
        log.exception("conditional game autocomplete failed")
        return []
    records = [
        r
        for r in records
        if visible(r, user, interaction.guild_id) and r.players[r.to_move] not in (user, None)
    ]
    notes = {r.id: f"{r.names[r.to_move]} to move" for r in records}
    return choices_of(records, user, current, notes)


async def games_with_trees(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete for /conditional list and clear: the caller's games with a tree."""
    user = interaction.user.id
    try:
        trees = await bot_of(interaction).services.conditionals.trees(
            user, guild_id=interaction.guild_id
        )
    except Exception:
        log.exception("conditional game autocomplete failed")
        return []
    records = [tree.record for tree in trees]
    notes = {tree.record.id: f"{tree.replies} conditional replies" for tree in trees}
    return choices_of(records, user, current, notes)


class Conditional(commands.GroupCog, group_name="conditional"):
    """Conditional moves: if your opponent plays this, answer that, at once."""

    @app_commands.command(
        name="add", description="Queue replies: if your opponent plays this, answer that"
    )
    @app_commands.describe(game="the game, where your opponent is to move", line=LINE_HELP)
    @app_commands.autocomplete(game=waiting_games)
    async def add(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1],
        line: app_commands.Range[str, 1, 6000],
    ) -> None:
        """/conditional add game line (privately)."""
        await ConditionalFlows(bot_of(interaction).services).add(interaction, game, line)

    @add.autocomplete("line")
    async def line_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The line typed so far, its last word completed to the legal moves there."""
        game = getattr(interaction.namespace, "game", None)
        if not isinstance(game, int):
            return []
        services = bot_of(interaction).services
        user = interaction.user.id
        try:
            record = await services.games.record(game)
            if not visible(record, user, interaction.guild_id):
                return []
            lines = await services.conditionals.suggest(game, user, current)
        except ServiceError:
            return []
        except Exception:
            log.exception("line autocomplete failed")
            return []
        return [app_commands.Choice(name=line, value=line) for line in lines]

    @app_commands.command(name="list", description="Your conditional moves (only you see them)")
    @app_commands.describe(game=LIST_HELP)
    @app_commands.autocomplete(game=games_with_trees)
    async def list(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """/conditional list [game] (privately)."""
        await ConditionalFlows(bot_of(interaction).services).list(interaction, game)

    @app_commands.command(name="clear", description="Remove your conditional moves in a game")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=games_with_trees)
    async def clear(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """/conditional clear [game] (privately)."""
        await ConditionalFlows(bot_of(interaction).services).clear(interaction, game)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: object
    ) -> None:
        """After any command: the notes waiting for its user."""
        try:
            await ConditionalFlows(bot_of(interaction).services).show_notes(interaction)
        except Exception:
            log.exception("showing conditional notes to user %s failed", interaction.user.id)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Conditional())
