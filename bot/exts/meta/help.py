"""/help and /rules (with a picture of the starting position and the full rules page)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import render_board
from bot.rulebook import page_text
from bot.services.views.results import GameView
from bot.storage.repository import GameRecord
from bot.texts.games import help_text, rules_text
from rules import get_game, list_games

GAME_CHOICES = [app_commands.Choice(name=game.title, value=game.name) for game in list_games()]


def example_view(name: str) -> GameView:
    """A game's starting position with default options, for the rules picture."""
    game = get_game(name)
    state = game.new_game()
    record = GameRecord(
        game=game.name,
        options=state.options,
        guild_id=None,
        channel_id=0,
        players=(None, None),
        names=(game.colours[0], game.colours[1]),
        created_at=discord.utils.utcnow(),
    )
    return GameView(record, state)


class Help(commands.Cog):
    """Explains the bot and the games."""

    @app_commands.command(name="help", description="What Tabula does and its commands")
    async def help(self, interaction: discord.Interaction) -> None:
        """/help, privately."""
        settings = getattr(interaction.client, "settings", None)
        docs_url = settings.docs_url if settings is not None else None
        await interaction.response.send_message(help_text(docs_url), ephemeral=True)

    @app_commands.command(name="rules", description="A game's rules: a summary and the full page")
    @app_commands.describe(game="the game to explain")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """/rules game: the summary with the starting position and the full rules page
        attached as a Markdown file, privately."""
        rules = get_game(game)
        image = await asyncio.to_thread(render_board, example_view(game))
        page = f"{rules.name}.md"
        note = f"\nThe complete rules are attached: **{page}**."
        text = rules_text(rules)[: 2000 - len(note)] + note
        files = [discord.File(io.BytesIO(page_text(rules).encode()), filename=page)]
        if image.png is not None:
            files.append(
                discord.File(
                    io.BytesIO(image.png),
                    filename=f"{game}-start.png",
                    description=image.description,
                )
            )
        await interaction.response.send_message(text, files=files, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Help())
