"""`TabulaBot`: the Discord client. Its `setup_hook` opens the database, builds the
services, loads the extensions, registers the persistent buttons and starts the
scheduler."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord_ui.buttons import DYNAMIC_ITEMS
from bot.discord_ui.errors import report
from bot.discord_ui.flows import Flows
from bot.discord_ui.tournaments import TOURNAMENT_ITEMS
from bot.exts import walk_extensions
from bot.services.clock import Clock, SystemClock
from bot.services.computer import COMPUTER_NAME
from bot.services.computer_runner import TurnRunner
from bot.services.container import Services
from bot.storage.sqlite import SqliteRepository

log = logging.getLogger(__name__)


class TabulaTree(app_commands.CommandTree["TabulaBot"]):
    """The command tree, with the one central error handler for slash commands."""

    async def on_error(
        self, interaction: discord.Interaction[TabulaBot], error: app_commands.AppCommandError
    ) -> None:
        """Answer refusals privately; log anything unexpected with its traceback."""
        await report(interaction, error)


class TabulaBot(commands.Bot):
    """The bot: slash commands and buttons over the services. No privileged intents."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        tick_seconds: float = 15.0,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=TabulaTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.tick_seconds = tick_seconds
        self.flows = Flows(self)
        self._repository: SqliteRepository | None = None
        self._services: Services | None = None
        self._scheduler: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None

    @property
    def services(self) -> Services:
        """The services (available once `setup_hook` ran)."""
        if self._services is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._services

    async def setup_hook(self) -> None:
        """Open the database, build the services, load extensions, start background work."""
        self._repository = await SqliteRepository.open(
            self.settings.database, synchronous=self.settings.sqlite_synchronous
        )
        self._services = Services.build(
            self._repository,
            self.clock,
            self.flows,
            tick_seconds=self.tick_seconds,
            runner=TurnRunner(workers=self.settings.ai_workers),
            ai_seconds=self.settings.ai_seconds,
            computer_name=self.user.display_name if self.user is not None else COMPUTER_NAME,
        )
        self.flows.attach(self._services)
        for extension in walk_extensions():
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *TOURNAMENT_ITEMS)
        self._scheduler = asyncio.create_task(
            self._services.scheduler.run_forever(), name="tabula-scheduler"
        )
        self._resuming = asyncio.create_task(self._resume_computer(), name="tabula-resume")
        await self.sync_commands(self.settings.sync_commands)

    async def _resume_computer(self) -> None:
        """Once connected, the computer moves in the games where it was to move."""
        await self.wait_until_ready()
        waiting = await self.services.computer.resume()
        if waiting:
            log.info("the computer resumes thinking in %d games", waiting)

    async def sync_commands(self, target: str | None) -> None:
        """Sync slash commands when asked: `global`, or one server's id."""
        if target is None:
            return
        if target == "global":
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
            return
        guild = discord.Object(int(target))
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d commands to server %s", len(synced), target)

    async def close(self) -> None:
        """Stop the scheduler, disconnect, close the database."""
        for task in (self._scheduler, self._resuming):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._services is not None:
            await self._services.computer.close()
            await self._services.background.close()
        await super().close()
        if self._repository is not None:
            await self._repository.close()
            self._repository = None


def bot_of(interaction: discord.Interaction) -> TabulaBot:
    """The bot that received an interaction."""
    return cast(TabulaBot, interaction.client)


def run_bot(settings: Settings) -> int:
    """Run the bot until it is stopped; the token is never logged."""
    if settings.token is None:
        raise ValueError("a token is needed to run the Discord bot")
    if settings.sync_commands not in (None, "global") and not settings.sync_commands.isdigit():
        print(
            "TABULA_SYNC_COMMANDS must be `global` or a server id "
            f"(got {settings.sync_commands!r}).",
            file=sys.stderr,
        )
        return 2
    discord.utils.setup_logging(level=logging.INFO)
    TabulaBot(settings).run(settings.token, log_handler=None)
    return 0
