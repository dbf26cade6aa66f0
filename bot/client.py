"""`TabulaBot`: the Discord client. Its `setup_hook` opens the database, builds the
services, loads the extensions, registers the persistent buttons and starts the
scheduler; `close` shuts all of it down gracefully (SIGTERM and SIGINT call it)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from datetime import timedelta
from typing import Any, cast

import aiohttp
import asyncpg
import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord_ui.buttons import DYNAMIC_ITEMS, answer_removed_button
from bot.discord_ui.context import DiscordContext
from bot.discord_ui.delivery import DiscordNotifier
from bot.discord_ui.errors import report, send_ephemeral
from bot.discord_ui.flows import Flows, arrived
from bot.discord_ui.payloads import Payloads
from bot.discord_ui.records import RECORD_ITEMS
from bot.discord_ui.threads import ThreadKeeper
from bot.discord_ui.tournaments import TOURNAMENT_ITEMS
from bot.exts import walk_extensions
from bot.runtime import tune_garbage_collector
from bot.services.clock import Clock, SystemClock
from bot.services.computer.computer import COMPUTER_NAME
from bot.services.computer.runner import TurnRunner
from bot.services.container import Services
from bot.services.gate import Gate, ShuttingDownError
from bot.sharding import format_shard_ids, owner_name
from bot.storage.opening import display_location, open_repository
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SchemaTooNewError
from bot.web.server import WebServer

log = logging.getLogger(__name__)


class TabulaTree(app_commands.CommandTree["TabulaBot"]):
    """The command tree: the door for slash commands, and their one error handler."""

    async def interaction_check(self, interaction: discord.Interaction[TabulaBot], /) -> bool:
        """Count the command as work in progress, or refuse it once the bot is stopping."""
        arrived(interaction)
        gate = interaction.client.gate
        if gate is None:
            return True
        try:
            gate.admit_current_task()
        except ShuttingDownError as error:
            if interaction.type is not discord.InteractionType.autocomplete:
                await send_ephemeral(interaction, str(error))
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[TabulaBot], error: app_commands.AppCommandError
    ) -> None:
        """Answer refusals privately; log anything unexpected with its traceback."""
        await report(interaction, error)


class TabulaBot(commands.Bot):
    """The bot: slash commands and buttons over the services. No privileged intents.

    With `commands_only`, `setup_hook` only builds the command tree (for
    `tabula sync-commands`): no database, no services, no background work.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        tick_seconds: float | None = None,
        commands_only: bool = False,
        web: bool = False,
        **options: Any,
    ) -> None:
        # Tabula has no voice; without this, discord.py warns about missing voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
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
        self.tick_seconds = settings.scheduler_interval if tick_seconds is None else tick_seconds
        self.commands_only = commands_only
        self.context = DiscordContext(self)
        payloads = Payloads(lambda: self.context.services)
        self.payloads = payloads
        self.notifier = DiscordNotifier(self.context, payloads)
        """Delivers the outbox's announcements (the services' notifier)."""
        self.flows = Flows(self.context, payloads)
        self._repository: SqlRepository | None = None
        self._services: Services | None = None
        self._scheduler: asyncio.Task[None] | None = None
        self._dispatching: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None
        self._shutdown: asyncio.Task[None] | None = None
        self.thread_keeper: ThreadKeeper | None = None
        """Keeps the threads of games in progress open (set up in `setup_hook`)."""
        self.serve_web = web and settings.web and not commands_only
        self.web: WebServer | None = None
        """The web pages, when served (`TABULA_WEB`; started in `setup_hook`)."""

    @property
    def services(self) -> Services:
        """The services (available once `setup_hook` ran)."""
        if self._services is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._services

    @property
    def gate(self) -> Gate | None:
        """The services' gate (None before set-up and with `commands_only`)."""
        return None if self._services is None else self._services.gate

    async def setup_hook(self) -> None:
        """Open the database, build the services, load extensions, start background work."""
        if not self.commands_only:
            self._repository = await open_repository(
                self.settings.database, synchronous=self.settings.sqlite_synchronous
            )
            shards = self.settings.shards
            self._services = Services.build(
                self._repository,
                self.clock,
                self.notifier,
                owner=owner_name(shards),
                shards=shards,
                tick_seconds=self.tick_seconds,
                runner=TurnRunner(workers=self.settings.ai_workers),
                ai_seconds=self.settings.ai_seconds,
                computer_name=self.user.display_name if self.user is not None else COMPUTER_NAME,
                vacation_allowance=timedelta(days=self.settings.vacation_days),
                suspension_period=timedelta(days=self.settings.suspension_days),
            )
            self.context.attach(self._services)
        for extension in walk_extensions():
            await self.load_extension(extension)
        if self.commands_only:
            return
        self.add_dynamic_items(*DYNAMIC_ITEMS, *TOURNAMENT_ITEMS, *RECORD_ITEMS)
        self.thread_keeper = ThreadKeeper(
            self, self.services.games, self.clock, shards=self.settings.shards
        )
        self.services.scheduler.add("keep game threads open", self.thread_keeper.tick)
        self._scheduler = asyncio.create_task(
            self.services.scheduler.run_forever(), name="tabula-scheduler"
        )
        self._resuming = asyncio.create_task(self._resume_computer(), name="tabula-resume")
        self._dispatching = asyncio.create_task(self._dispatch(), name="tabula-dispatcher")
        if self.serve_web:
            await self._start_web()

    async def _start_web(self) -> None:
        """Serve the web pages; a port that cannot be opened is logged, not fatal (the
        games go on in Discord)."""
        web = WebServer(self.services, self.settings)
        try:
            address = await web.start()
        except OSError as error:
            log.error("the web pages could not start on %s:%s: %s", web.host, web.port, error)
            await web.stop()
            return
        self.web = web
        self.payloads.web_base = web.base
        print(web.start_line(address), flush=True)
        log.info("web pages served at %s (links use %s)", address, web.base)

    async def _dispatch(self) -> None:
        """Once connected (the server caches tell which channels hold threads): deliver
        what the outbox holds, starting with what the previous run left."""
        await self.wait_until_ready()
        dispatcher = self.services.dispatcher
        await dispatcher.resume()
        await dispatcher.run_forever()

    async def _resume_computer(self) -> None:
        """Once connected, servers the bot is in again go on, and the computer moves in the
        games where it was to move."""
        await self.wait_until_ready()
        try:
            await self._resume_servers()
        except Exception:
            log.exception("could not look for suspended servers the bot is in again")
        waiting = await self.services.computer.resume()
        if waiting:
            log.info("the computer resumes thinking in %d games", waiting)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer clicks on buttons their message no longer shows (discord.py drops them)."""
        if not self.commands_only:
            await answer_removed_button(
                interaction, (*DYNAMIC_ITEMS, *TOURNAMENT_ITEMS, *RECORD_ITEMS)
            )

    async def on_message(self, message: discord.Message, /) -> None:
        """Tabula has no text commands: a message is never one (mentions get a pointer to
        /help from `bot.exts.meta.mentions`), so nothing is looked up or logged."""

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (kicked, or the server deleted; an outage only makes it
        unavailable): its games and competitions are suspended."""
        if self._services is None:
            return
        try:
            await self.services.suspensions.suspend_server(guild.id)
        except Exception:
            log.exception("could not suspend the games of server %s", guild.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: a game played there moves to a new one at once."""
        await self._place_deleted(payload.guild_id, payload.thread_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted (its threads with it): its games move at once."""
        await self._place_deleted(channel.guild.id, channel.id)

    async def _place_deleted(self, guild_id: int, place_id: int) -> None:
        if self._services is None:
            return
        try:
            moved = await self.services.games.place_deleted(guild_id, place_id)
            withdrawn = await self.services.challenges.place_deleted(guild_id, place_id)
        except Exception:
            log.exception("could not move the games of the deleted channel %s", place_id)
            return
        if moved or withdrawn:
            log.info("channel %s was deleted: %d game(s) move, %d challenge(s) withdrawn",
                     place_id, len(moved), len(withdrawn))  # fmt: skip

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Invited to a server (perhaps back): what a removal suspended there goes on."""
        await self._back_in(guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server is there again after an outage (or after a removal, if Discord says
        so that way): what a removal suspended there goes on. At start-up every server
        comes this way; `_resume_servers` looks at the suspended ones then."""
        if self.is_ready():
            await self._back_in(guild.id)

    async def _back_in(self, guild_id: int) -> None:
        if self._services is None:
            return
        try:
            resumed = await self.services.suspensions.resume_server(guild_id)
        except Exception:
            log.exception("could not resume the games of server %s", guild_id)
            return
        if resumed:
            log.info("back in server %s: %d game(s) go on", guild_id, len(resumed))

    async def _resume_servers(self) -> None:
        """At start-up: servers suspended while the bot was away that it is in again."""
        shards = self.settings.shards
        for suspension in await self.services.repository.open_suspensions():
            guild = suspension.guild_id
            mine = shards is None or shards.covers(guild)
            if mine and suspension.game_id is None and self.get_guild(guild) is not None:
                await self._back_in(guild)

    async def on_ready(self) -> None:
        """Log who the bot is and where (on every (re)connection)."""
        user = self.user
        shards = self.settings.shards
        log.info(
            "connected as %s (id %s) in %d server(s)%s",
            user,
            user.id if user else "?",
            len(self.guilds),
            ""
            if shards is None
            else f" on shards {format_shard_ids(shards.ids)} of {shards.count}",
        )

    async def sync_commands(
        self, guild_id: int | None = None, *, clear: bool = False
    ) -> list[app_commands.AppCommand]:
        """Register the slash commands with Discord, globally or in one server only.

        In one server they appear at once (the global commands are copied there); `clear`
        removes the commands instead (from that server, or globally). Discord limits how
        many commands may be created a day, so this is done on request, not at start-up.
        """
        guild = None if guild_id is None else discord.Object(guild_id)
        if clear:
            self.tree.clear_commands(guild=guild)
        elif guild is not None:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        where = "globally" if guild_id is None else f"in server {guild_id}"
        log.info("synced %d command(s) %s", len(synced), where)
        return synced

    async def close(self) -> None:
        """Shut down gracefully (once, however often it is called; see `_shut_down`)."""
        if self._shutdown is None:
            self._shutdown = asyncio.create_task(self._shut_down(), name="tabula-shutdown")
        await asyncio.shield(self._shutdown)

    async def _shut_down(self) -> None:
        """Stop the scheduler after its tick, refuse new requests, let those in progress
        finish, stop the computer's thinking (it resumes at the next start) and other
        background work, disconnect, close the database. The waits share one shutdown
        timeout, so the service manager's stop timeout can safely exceed it."""
        timeout = self.settings.shutdown_timeout
        deadline = asyncio.get_running_loop().time() + timeout

        def left() -> float:
            return max(0.0, deadline - asyncio.get_running_loop().time())

        if self.web is not None:
            await self.web.stop()
            self.web = None
        if self._resuming is not None:
            self._resuming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._resuming
        if self._scheduler is not None:
            self.services.scheduler.stop()
            try:
                if not self._scheduler.done():
                    await asyncio.wait_for(asyncio.shield(self._scheduler), left())
            except TimeoutError:
                log.warning("background work did not stop within %gs; cancelling it", timeout)
                self._scheduler.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._scheduler
        if self._services is not None:
            gate = self._services.gate
            gate.close()
            if gate.active:
                log.info("shutting down: waiting for %d request(s) in progress", gate.active)
            if not await gate.wait_idle(left()):
                log.warning(
                    "%d request(s) still in progress after %gs; closing anyway",
                    gate.active,
                    timeout,
                )
            try:  # a round being paired: let it finish rather than redo it at the next start
                if self._services.background.pending:
                    await asyncio.wait_for(self._services.background.settle(), left())
            except TimeoutError:
                log.warning("tournament work did not finish within %gs; cancelling it", timeout)
            await self._services.computer.close()
            await self._services.background.close()
            await self._stop_dispatching(left())
        await super().close()
        if self._repository is not None:
            await self._repository.close()
            self._repository = None
            log.info("database closed")

    async def _stop_dispatching(self, timeout: float) -> None:
        """Let the deliveries in progress finish (what is left stays pending for the next
        start), then stop the dispatcher."""
        task = self._dispatching
        if task is None or task.done():
            return
        self.services.dispatcher.stop()
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            log.warning("announcements still being delivered after %gs; stopping", timeout)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class ShardedTabulaBot(TabulaBot, commands.AutoShardedBot):
    """The bot running some of Discord's shards (`TABULA_SHARD_COUNT`, `TABULA_SHARD_IDS`):
    one gateway connection per shard, each receiving its servers' events."""


def create_bot(settings: Settings, **options: Any) -> TabulaBot:
    """The bot for these settings: sharded when they name shards, else the plain client."""
    shards = settings.shards
    if shards is None:
        return TabulaBot(settings, **options)
    return ShardedTabulaBot(
        settings, shard_count=shards.count, shard_ids=sorted(shards.ids), **options
    )


def bot_of(interaction: discord.Interaction) -> TabulaBot:
    """The bot that received an interaction."""
    return cast(TabulaBot, interaction.client)


async def serve(bot: TabulaBot, token: str) -> None:
    """Run `bot` until it is closed; SIGTERM and SIGINT close it gracefully."""
    loop = asyncio.get_running_loop()
    stop_signals = (signal.SIGTERM, signal.SIGINT)

    closing: list[asyncio.Task[None]] = []

    def on_signal(signum: int) -> None:
        name = signal.Signals(signum).name
        if closing:
            log.info("received %s: already shutting down", name)
            return
        log.info("received %s: shutting down", name)
        closing.append(loop.create_task(bot.close(), name="tabula-signal-close"))

    for signum in stop_signals:
        loop.add_signal_handler(signum, on_signal, signum)
    try:
        async with bot:
            try:
                await bot.start(token)
            finally:
                # start() returns as soon as the connection closed; the shutdown (waiting
                # for requests in progress, closing the database) may still be going on.
                await bot.close()
    finally:
        for signum in stop_signals:
            loop.remove_signal_handler(signum)


def run_bot(settings: Settings) -> int:
    """Run the bot until it is stopped; problems at start-up are one line, not a traceback."""
    if settings.token is None:
        raise ValueError("a token is needed to run the Discord bot")
    tune_garbage_collector()
    try:
        asyncio.run(serve(create_bot(settings, web=True), settings.token))
    except discord.LoginFailure:
        print(
            "tabula: Discord refused the token (DISCORD_TOKEN); reset it in the developer "
            "portal and try again",
            file=sys.stderr,
        )
        return 1
    except (sqlite3.Error, SchemaTooNewError, asyncpg.PostgresError) as error:
        where = display_location(settings.database)
        print(f"tabula: cannot use the database {where}: {error}", file=sys.stderr)
        return 1
    except (OSError, aiohttp.ClientError) as error:
        print(f"tabula: cannot reach Discord: {error}", file=sys.stderr)
        return 1
    return 0
