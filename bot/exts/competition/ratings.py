"""/rating and /leaderboard: Glicko-2 ratings per game, per server leaderboards."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import bot_of
from rules import list_games


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a choice."""
    return [app_commands.Choice(name=game.title, value=game.name) for game in list_games()]


class Ratings(commands.Cog):
    """Ratings and leaderboards."""

    @app_commands.command(name="rating", description="A player's ratings (yours by default)")
    @app_commands.describe(
        user="whose ratings to show (default: yours)",
        game="one game only, with the place on this server's leaderboard",
    )
    @app_commands.choices(game=game_choices())
    async def rating(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        """/rating [user] [game]: only the caller sees the answer."""
        await bot_of(interaction).flows.tournaments.rating(interaction, user, game)

    @app_commands.command(name="leaderboard", description="This server's best players in a game")
    @app_commands.describe(game="the game")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """/leaderboard game: an embed; provisional ratings are marked with `?`."""
        await bot_of(interaction).flows.tournaments.leaderboard(interaction, game)


async def setup(bot: commands.Bot) -> None:
    """Load the extension."""
    await bot.add_cog(Ratings())
