"""In-game commands: /move (with autocomplete), /board, /resign, /draw, /undo.

Also answers the move form (the Move button's modal) from the interaction listener,
so that a form opened before a restart still works after it.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from bot.discord_ui.buttons import MOVE_FORM, NOTATION_FIELD
from bot.discord_ui.errors import guarded
from bot.discord_ui.origins import parse_id
from bot.services.errors import ServiceError
from bot.services.games.games import visible
from bot.storage.repository import GameRecord
from rules import get_game

log = logging.getLogger(__name__)

GAME_HELP = "the game's number (needed only when you have several games here)"


async def game_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete for `game:`: the caller's active games, those where it is their turn first."""
    try:
        records = await bot_of(interaction).services.games.active_games(interaction.user.id)
    except Exception:
        log.exception("game autocomplete failed")
        return []
    user = interaction.user.id
    records = [r for r in records if visible(r, user, interaction.guild_id)]
    records.sort(key=lambda r: (r.players[r.to_move] != user, r.id))
    turns = {r.id: "your turn" if r.players[r.to_move] == user else "waiting" for r in records}
    return choices_of(records, user, current, turns)


def choices_of(
    records: list[GameRecord], user: int, current: str, notes: dict[int, str]
) -> list[app_commands.Choice[int]]:
    """Autocomplete choices for games, "#12 Groups vs bob · <note>", matching what was
    typed (at most 25, Discord's limit)."""
    choices = []
    for record in records:
        seat = record.seat_of(user)
        opponent = record.names[1 - seat] if seat is not None else "?"
        label = f"#{record.id} {get_game(record.game).title} vs {opponent} · {notes[record.id]}"
        if current.strip().lstrip("#") in label:
            choices.append(app_commands.Choice(name=label[:100], value=record.id))
    return choices[:25]


def _form_value(components: list[dict[str, Any]], custom_id: str) -> str | None:
    """The value of the text field `custom_id` in a modal submission's components."""
    for component in components:
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"])
        nested = component.get("components") or (
            [component["component"]] if "component" in component else []
        )
        found = _form_value(nested, custom_id)
        if found is not None:
            return found
    return None


class Moves(commands.Cog):
    """Commands used inside a game."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Play a move in your game")
    @app_commands.describe(
        notation="your move (start typing to see the legal ones)", game=GAME_HELP
    )
    @app_commands.autocomplete(game=game_choices)
    async def move(
        self, interaction: discord.Interaction, notation: str, game: int | None = None
    ) -> None:
        """/move notation [game]."""
        await bot_of(interaction).flows.move(interaction, game, notation)

    @move.autocomplete("notation")
    async def notation_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves matching what was typed, most useful first (at most 25)."""
        services = bot_of(interaction).services
        user = interaction.user.id
        game_id = getattr(interaction.namespace, "game", None)
        try:
            if not isinstance(game_id, int):
                location = interaction.channel_id or 0
                found = await services.games.find(
                    user, location, guild_id=interaction.guild_id, for_move=True
                )
                game_id = found.id
            moves = await services.games.suggest_moves(game_id, user, current)
        except ServiceError:
            return []
        except Exception:
            log.exception("move autocomplete failed")
            return []
        return [app_commands.Choice(name=move, value=move) for move in moves]

    @app_commands.command(name="board", description="Show the current board of your game")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_choices)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """/board [game]."""
        await bot_of(interaction).flows.board(interaction, game)

    @app_commands.command(name="resign", description="Resign your game: your opponent wins")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_choices)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """/resign [game]."""
        await bot_of(interaction).flows.resign(interaction, game)

    @app_commands.command(name="draw", description="Offer a draw (or accept your opponent's offer)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_choices)
    async def draw(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """/draw [game]."""
        await bot_of(interaction).flows.draw(interaction, game)

    @app_commands.command(
        name="undo", description="Ask your opponent to let you take back your last move"
    )
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_choices)
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """/undo [game]."""
        await bot_of(interaction).flows.undo(interaction, game)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a submitted move form."""
        if interaction.type is not discord.InteractionType.modal_submit or not interaction.data:
            return
        match = MOVE_FORM.fullmatch(str(interaction.data.get("custom_id", "")))
        if match is None:
            return
        components = cast(list[dict[str, Any]], interaction.data.get("components", []))
        notation = _form_value(components, NOTATION_FIELD) or ""
        flows = bot_of(interaction).flows
        await guarded(
            interaction, lambda: flows.move(interaction, parse_id(match["game"]), notation)
        )


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Moves(bot))
