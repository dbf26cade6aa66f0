"""`FakeDiscord`: the server, and a driver that plays Discord's users for the tests."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import discord
import yarl
from aiohttp import web

from tests.fakediscord import permissions as perm
from tests.fakediscord.commands import MENTIONABLE, Resolver, build_command_data, can_use
from tests.fakediscord.errors import WAIT, FakeDiscordError, FakeDiscordTimeout
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.interactions import FakeInteraction, InteractionType
from tests.fakediscord.messages import create_message
from tests.fakediscord.rest import API, FailureRule, HoldRule, RequestLog, RestApi
from tests.fakediscord.state import (
    BUTTON,
    LINK_STYLE,
    PREMIUM_STYLE,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    _walk,
)
from tests.fakediscord.world import Listener, World

T = TypeVar("T")
ClientT = TypeVar("ClientT", bound=discord.Client)

_SELECT_OPTION_TYPE = {5: 6, 6: 8, 7: MENTIONABLE, 8: 7}
"""Select component type → the option type whose values it resolves (user, role, ...)."""


def client_shards(client: discord.Client) -> list[int]:
    """The shard ids a discord.py client runs (shard 0 for an unsharded client)."""
    if isinstance(client, discord.AutoShardedClient):
        ids = client.shard_ids
        return list(ids) if ids is not None else list(range(client.shard_count or 1))
    return [client.shard_id or 0]


class FakeDiscord:
    """An in-process fake Discord (REST + gateway on 127.0.0.1) and the users who click.

    ```
    async with FakeDiscord() as fake:
        fake.install()
        guild = fake.add_guild("Club")
        ...
    ```
    """

    def __init__(
        self,
        *,
        bot_name: str = "Tabula",
        heartbeat_interval: int = 41_250,
        response_deadline: float = 3.0,
        privileged_intents: int = 0,
        shards: int = 1,
        max_concurrency: int = 1,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.world = World(bot_name=bot_name)
        self.world.response_deadline = response_deadline
        self.world.shards = shards
        self.world.max_concurrency = max_concurrency
        self.rest = RestApi(self.world)
        self._heartbeat_interval = heartbeat_interval
        self._privileged_intents = privileged_intents
        self._host = host
        self._port = port
        self._gateway: Gateway | None = None
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None

    # lifecycle

    async def start(self) -> None:
        """Start the server on a free port."""
        gateway = Gateway(
            self.world,
            heartbeat_interval=self._heartbeat_interval,
            privileged_intents=self._privileged_intents,
        )
        app = self.rest.app()
        app.router.add_get("/gateway", gateway.handle)
        app.router.add_get("/resume", gateway.handle)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self._host, self._port)
        await site.start()
        port = runner.addresses[0][1]
        self.world.base_url = f"http://{self._host}:{port}"
        gateway.url = f"ws://{self._host}:{port}/gateway"
        self.world.gateway = gateway
        self._gateway = gateway
        self._runner = runner

    async def stop(self) -> None:
        """Close every connection, stop the server and undo `install()`."""
        self.uninstall()
        self.rest.release_holds()
        if self._gateway is not None:
            await self._gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.world.gateway = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def install(self) -> None:
        """Point discord.py at this fake (REST `Route.BASE` and the default gateway URL)."""
        if self._saved is None:
            self._saved = (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            )
        discord.http.Route.BASE = self.api_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)

    def uninstall(self) -> None:
        """Restore discord.py's real Discord URLs."""
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    @contextlib.asynccontextmanager
    async def run_client(self, client: ClientT, *, timeout: float = WAIT) -> AsyncIterator[ClientT]:
        """Start `client` against the fake, wait until both sides are ready, close it on exit.

        Give the client a small `guild_ready_timeout` (e.g. 0.05), or readiness takes 2 s.
        A sharded client (`shard_ids`/`shard_id`) is ready once its own shards are; other
        clients may run the other shards at the same time.
        """
        shards = client_shards(client)
        task = asyncio.create_task(client.start(self.token), name="fakediscord-client")
        try:
            ready = asyncio.ensure_future(self._both_ready(client, shards))
            done, _ = await asyncio.wait(
                {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if ready not in done:
                ready.cancel()
                if task in done:
                    task.result()
                    raise FakeDiscordError("the client stopped before it was ready")
                raise FakeDiscordError(
                    f"the client was not ready after {timeout:g}s{self.world.error_hint()}"
                )
            yield client
        finally:
            await client.close()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, 5)
            await self.wait_until_disconnected(shards=shards)

    async def _both_ready(self, client: discord.Client, shards: list[int]) -> None:
        await client.wait_until_ready()
        await self.wait_until_ready(timeout=3600, shards=shards)  # run_client times out first

    # what a test reads

    @property
    def gateway(self) -> Gateway:
        """The websocket gateway (once started)."""
        if self._gateway is None:
            raise FakeDiscordError(
                "the fake is not started: use `async with FakeDiscord() as fake`"
            )
        return self._gateway

    @property
    def api_url(self) -> str:
        """The REST base URL (what `discord.http.Route.BASE` becomes)."""
        return self.world.base_url + API

    @property
    def token(self) -> str:
        """The bot token the fake accepts."""
        return self.world.token

    @property
    def application_id(self) -> int:
        """The application's id (the same as the bot user's, as on Discord)."""
        return self.world.application_id

    @property
    def bot_user(self) -> FakeUser:
        """The bot's user."""
        return self.world.bot_user

    @property
    def commands(self) -> dict[str, dict[str, Any]]:
        """The globally synced slash commands, by name."""
        return self.world.global_commands.by_name()

    def guild_commands(self, guild: FakeGuild) -> dict[str, dict[str, Any]]:
        """The slash commands synced to `guild`, by name."""
        return self.world.guild_command_store(guild.id).by_name()

    @property
    def requests(self) -> list[RequestLog]:
        """Every REST request: `(method, path, status)`, path after /api/v10."""
        return self.rest.requests

    @property
    def unknown_routes(self) -> list[str]:
        """Requests no route of the fake handled (`METHOD /path`); each got a 404."""
        return self.rest.unknown_routes

    @property
    def messages(self) -> dict[int, FakeMessage]:
        """Every message by id, including ephemeral and deleted ones."""
        return self.world.messages

    @property
    def interactions(self) -> dict[int, FakeInteraction]:
        """Every interaction sent to the bot, by id."""
        return self.world.interactions

    def add_listener(self, listener: Listener) -> None:
        """Call `listener(event, obj)` on every change (see `world.Listener`); for benchmarks."""
        self.world.listeners.append(listener)

    # building the world

    def add_user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        accepts_dms: bool = True,
    ) -> FakeUser:
        """Create a user (`accepts_dms=False`: the bot's DMs to them fail with 50007)."""
        return self.world.add_user(name, global_name=global_name, bot=bot, accepts_dms=accepts_dms)

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        bot_permissions: int = perm.DEFAULT_BOT,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a server the bot is in (GUILD_CREATE is sent to its shard if a bot is
        connected there); `shard=(id, count)` gives it an id on that shard."""
        return self.world.add_guild(name, owner=owner, bot_permissions=bot_permissions, shard=shard)

    def remove_bot(self, guild: FakeGuild) -> None:
        """Kick the bot from the server: GUILD_DELETE without `unavailable`, then 403
        50001 (Missing Access) on the server's routes; nobody can use it there."""
        self.world.remove_bot(guild)

    def invite_bot(self, guild: FakeGuild, *, bot_permissions: int = perm.DEFAULT_BOT) -> None:
        """Invite the bot (back) into the server: GUILD_CREATE as for a server joined."""
        self.world.invite_bot(guild, bot_permissions=bot_permissions)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user`: `.messages` are the DMs the bot sent."""
        return self.world.dm_channel(user)

    def lock_thread(self, thread: FakeChannel, locked: bool = True) -> None:
        """A moderator locks (or unlocks) a thread, leaving it open: THREAD_UPDATE."""
        thread.locked = locked
        self.world.thread_updated(thread)

    def advance_time(self, seconds: float) -> None:
        """Move the fake's clock on (interaction deadlines, token expiry, timestamps); threads
        idle for their `auto_archive_duration` archive."""
        self.world.time_offset += seconds
        self.world.archive_idle_threads()

    def pass_identify_window(self) -> None:
        """Move the fake's clock on until every shard may identify again (at most 5
        seconds after the last IDENTIFY), as a bot restart that takes that long would;
        without it a client identifying sooner gets op 9 and waits 5 real seconds."""
        self.advance_time(self.gateway.identify_wait())

    def fail_next(
        self,
        method: str,
        path: str,
        status: int = 500,
        *,
        count: int = 1,
        retry_after: float = 0.2,
        is_global: bool = False,
        body: dict[str, Any] | None = None,
    ) -> FailureRule:
        """Fail the next `count` REST requests whose path (after /api/v10) fully matches `path`.

        `status=429` sends Discord's rate-limit headers and body (`retry_after`, `global`), so
        discord.py waits and retries; 500/502/504 are retried by discord.py after 1 s, 3 s, ...
        `method` may be "*". `rule.remaining` tells how many failures are still to come.
        """
        rule = FailureRule(
            method.upper(), re.compile(path), status, count, retry_after, is_global, body
        )
        self.rest.failures.append(rule)
        return rule

    def hold_next(self, method: str, path: str, *, after: bool = False) -> HoldRule:
        """Hold the next REST request matching `path` unanswered until `rule.release()`: a
        stalled network, e.g. to kill the bot while it waits. With `after`, Discord acts on
        the request first and only the answer is held. `await rule.reached.wait()`."""
        rule = HoldRule(method.upper(), re.compile(path), after, asyncio.Event(), asyncio.Event())
        self.rest.holds.append(rule)
        return rule

    # gateway control

    async def wait_until_ready(
        self, timeout: float = WAIT, *, shards: list[int] | None = None
    ) -> None:
        """Wait until a bot is connected (on each of `shards`, if given) and has its READY
        and GUILD_CREATEs."""
        gateway = self.gateway
        try:
            await self.world.wait_until(
                lambda: True if gateway.is_ready(shards) else None,
                timeout,
                lambda: "a bot to connect",
            )
        except FakeDiscordTimeout:
            which = "" if shards is None else f" on shards {shards}"
            raise FakeDiscordError(
                f"no bot connected{which} within {timeout:g}s{self.world.error_hint()}"
            ) from None

    async def wait_until_disconnected(
        self, timeout: float = WAIT, *, shards: list[int] | None = None
    ) -> None:
        """Wait until no bot is connected (on `shards`, if given): the fake sees a
        `client.close()` a moment later."""
        await self.world.wait_until(
            lambda: None if self.gateway.is_connected(shards) else True,
            timeout,
            lambda: "the bot to disconnect",
        )

    async def disconnect_gateway(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Drop the bot's websocket (one shard's, if given); discord.py reconnects to
        `resume_gateway_url` and resumes."""
        await self.gateway.disconnect(code, shard=shard)

    def request_reconnect(self, *, shard: int | None = None) -> None:
        """Send op 7 RECONNECT (to one shard, if given); discord.py reconnects and resumes."""
        self.gateway.request_reconnect(shard=shard)

    # users acting

    def _send(
        self,
        kind: InteractionType,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        **details: Any,
    ) -> FakeInteraction:
        """Create an interaction (`details`: FakeInteraction's keywords) and dispatch it."""
        self.world.archive_idle_threads()
        if channel.is_thread and channel.archived:
            commands = (InteractionType.APPLICATION_COMMAND, InteractionType.AUTOCOMPLETE)
            what = "commands" if kind in commands else "clicks"
            raise FakeDiscordError(
                f"{channel!r} is archived: Discord's client takes no {what} there "
                "(a message unarchives it)"
            )
        guild_id = None if channel.guild is None else channel.guild.id
        if not self.gateway.deliverable_to(guild_id):
            if self.gateway.deliverable:
                raise FakeDiscordError(
                    f"no bot is connected on the shard of {channel!r}: Discord sends its "
                    "interactions to that shard only"
                )
            raise FakeDiscordError(
                "no bot is connected to the gateway: start a client (fake.run_client) first"
            )
        interaction = FakeInteraction(self.world, kind, user, channel, data, **details)
        self.gateway.dispatch("INTERACTION_CREATE", interaction.payload(), 0)
        return interaction

    def _check_present(self, user: FakeUser, channel: FakeChannel) -> None:
        self.world.archive_idle_threads()
        if channel.deleted:
            raise FakeDiscordError(f"{channel!r} was deleted")
        if channel.is_dm:
            if channel.recipient is not user:
                raise FakeDiscordError(f"{user.name} is not in {channel!r}")
            return
        guild = channel.guild
        assert guild is not None
        if user.id not in guild.members:
            raise FakeDiscordError(f"{user.name} is not a member of {guild.name}")
        if self.world.bot_user.id not in guild.members:
            raise FakeDiscordError(f"the bot is not in {guild.name}: nobody can use it there")
        if not perm.channel_permissions(channel, user) & perm.VIEW_CHANNEL:
            raise FakeDiscordError(f"{user.name} cannot see {channel!r}")

    def _find_command(self, channel: FakeChannel, name: str) -> tuple[dict[str, Any], list[str]]:
        parts = name.split()
        if not parts:
            raise FakeDiscordError("empty command name")
        command = None
        if channel.guild is not None:
            store = self.world.guild_commands.get(channel.guild.id)
            command = store.find(parts[0]) if store is not None else None
        if command is None:
            command = self.world.global_commands.find(parts[0])
        if command is None:
            synced = sorted(self.commands)
            in_guild = sorted(self.guild_commands(channel.guild)) if channel.guild else []
            raise FakeDiscordError(
                f"/{parts[0]} is not synced (global: {synced}, this guild: {in_guild}); "
                "did the bot call tree.sync()?"
            )
        return command, parts[1:]

    def _command_interaction(
        self,
        kind: InteractionType,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        *,
        options: dict[str, Any] | None,
        focused: str | None,
        locale: str,
    ) -> FakeInteraction:
        self._check_present(user, channel)
        command, path = self._find_command(channel, name)
        reason = can_use(command, user, channel, channel.guild)
        if reason is not None:
            raise FakeDiscordError(reason)
        data = build_command_data(
            self.world,
            command,
            path,
            options or {},
            user=user,
            guild=channel.guild,
            focused=focused,
        )
        label = f"/{name}" if focused is None else f"autocomplete of {focused!r} in /{name}"
        return self._send(kind, user, channel, data, locale=locale, label=label)

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """`user` runs `/name` in `channel` ("group sub" for sub-commands).

        Options are typed per the synced declaration: str, int, float, bool, FakeUser/FakeMember,
        FakeChannel, FakeRole, or `(filename, bytes)` for attachments. Anything Discord's client
        would refuse (unknown or missing options, a value outside the choices or range, a
        command the user may not use) raises FakeDiscordError.
        """
        return self._command_interaction(
            InteractionType.APPLICATION_COMMAND,
            user,
            channel,
            name,
            options=options,
            focused=None,
            locale=locale,
        )

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        focused: str,
        timeout: float = WAIT,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        """`user` types in option `focused` of `/name`; returns the bot's choices."""
        interaction = self._command_interaction(
            InteractionType.AUTOCOMPLETE,
            user,
            channel,
            name,
            options=options,
            focused=focused,
            locale=locale,
        )
        response = await interaction.response(timeout)
        return list(response.choices or [])

    def _check_can_use_message(self, user: FakeUser, message: FakeMessage) -> None:
        if message.deleted:
            raise FakeDiscordError(f"message {message.id} was deleted")
        if message.ephemeral:
            owner = message.interaction.user if message.interaction is not None else None
            if owner is not user:
                raise FakeDiscordError(
                    f"only {owner and owner.name} sees ephemeral message {message.id}"
                )
        self._check_present(user, message.channel)

    def _component(self, message: FakeMessage, custom_id: str) -> dict[str, Any]:
        component = message.component(custom_id)
        if component is None:
            ids = [c.get("custom_id") for c in message.iter_components() if c.get("custom_id")]
            raise FakeDiscordError(
                f"message {message.id} has no component {custom_id!r}; it has {ids}"
            )
        if component.get("disabled"):
            raise FakeDiscordError(f"component {custom_id!r} of message {message.id} is disabled")
        return component

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        locale: str = "en-US",
        stale: bool = False,
    ) -> FakeInteraction:
        """`user` clicks the button `custom_id` (or the one labelled `label`) on `message`.

        `stale`: from a client that has not yet seen the message's later edits, so a
        button disabled or removed since then is clicked as an earlier version showed it.
        """
        if stale:
            return self._stale_click(user, message, custom_id, label, locale)
        if custom_id is None:
            if label is None:
                raise FakeDiscordError("click() needs a custom_id or a label")
            custom_id = message.button_id(label)
        self._check_can_use_message(user, message)
        component = self._component(message, custom_id)
        if component.get("type") != BUTTON:
            raise FakeDiscordError(f"{custom_id!r} is not a button (use select())")
        if component.get("style") in (LINK_STYLE, PREMIUM_STYLE):
            raise FakeDiscordError(
                f"{custom_id!r} is a link or premium button; the bot never sees it"
            )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
        if "id" in component:
            data["id"] = component["id"]
        return self._send_component(user, message, data, locale, f"click on {label or custom_id!r}")

    def _stale_click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None,
        label: str | None,
        locale: str,
    ) -> FakeInteraction:
        """A click on an enabled button of the message as it is or was before an edit."""
        self._check_can_use_message(user, message)
        versions = [message.components, *(v.components for v in reversed(message.edits))]
        for components in versions:
            for component in _walk(components):
                wanted = (
                    component.get("custom_id") == custom_id
                    if custom_id is not None
                    else component.get("label") == label
                )
                if wanted and component.get("type") == BUTTON and not component.get("disabled"):
                    data = {"custom_id": component["custom_id"], "component_type": BUTTON}
                    what = f"stale click on {label or custom_id!r}"
                    return self._send_component(user, message, data, locale, what)
        raise FakeDiscordError(
            f"no version of message {message.id} had an enabled button {label or custom_id!r}"
        )

    async def forge(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        values: list[str] | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """A modified client sends a click (or, with `values`, a select) on `message` with a
        `custom_id` the message need not show.

        Discord does not check that a component interaction's custom id comes from its
        message (its documentation asks applications to check that themselves), so this
        is delivered; what a client cannot do at all still fails: using a deleted message,
        another user's ephemeral message, or a channel the user cannot see.
        """
        self._check_can_use_message(user, message)
        if len(custom_id) > 100:
            raise FakeDiscordError("a custom_id has at most 100 characters")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return self._send_component(user, message, data, locale, f"forged {custom_id!r}")

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: list[Any],
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """`user` picks `values` in the select `custom_id` (strings, or users/roles/channels)."""
        self._check_can_use_message(user, message)
        component = self._component(message, custom_id)
        resolver = Resolver(self.world, user, message.channel.guild)
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": component.get("type"),
            "values": self._select_values(resolver, component, values),
        }
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        return self._send_component(
            user, message, data, locale, f"select {values!r} in {custom_id!r}"
        )

    def _send_component(
        self, user: FakeUser, message: FakeMessage, data: dict[str, Any], locale: str, label: str
    ) -> FakeInteraction:
        kind = InteractionType.MESSAGE_COMPONENT
        channel = message.channel
        return self._send(kind, user, channel, data, message=message, locale=locale, label=label)

    @staticmethod
    def _select_values(
        resolver: Resolver, component: dict[str, Any], values: list[Any]
    ) -> list[Any]:
        """Check picks against a select menu; users/roles/channels go to `resolver`."""
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if kind not in (3, 5, 6, 7, 8):
            raise FakeDiscordError(f"{custom_id!r} is not a select menu")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise FakeDiscordError(
                f"select {custom_id!r} takes {low} to {high} values, not {len(values)}"
            )
        if kind == 3:
            offered = [o["value"] for o in component.get("options") or []]
            wrong = [v for v in values if v not in offered]
            if wrong:
                raise FakeDiscordError(f"select {custom_id!r} offers {offered}, not {wrong}")
            return list(values)
        option_type = _SELECT_OPTION_TYPE[int(kind)]
        types = component.get("channel_types")
        where = f"select {custom_id!r}"
        return [resolver.entity(option_type, v, channel_types=types, where=where) for v in values]

    async def submit_modal(
        self,
        user: FakeUser,
        source: FakeInteraction,
        values: dict[str, Any],
        *,
        timeout: float = WAIT,
    ) -> FakeInteraction:
        """`user` fills in and submits the modal the bot opened in answer to `source`.

        `values` maps field custom_ids to text (or lists of values for selects); fields left
        out keep their pre-filled value. Required, min and max length are enforced as
        Discord's client does.
        """
        response = await source.response(timeout)
        modal = response.modal
        if modal is None:
            raise FakeDiscordError(
                f"the bot answered {source.label} with type {response.type}, not a modal"
            )
        if user is not source.user:
            raise FakeDiscordError(f"the modal was shown to {source.user.name}, not {user.name}")
        if source.modal_submitted:
            raise FakeDiscordError(f"the modal opened by {source.label} was already submitted")
        known = {str(f.get("custom_id")) for f in modal.fields}
        unknown = [k for k in values if k not in known]
        if unknown:
            raise FakeDiscordError(
                f"modal {modal.title!r} has no field {unknown[0]!r}; it has {sorted(known)}"
            )
        resolver = Resolver(self.world, user, source.channel.guild)
        components: list[dict[str, Any]] = []
        for top in modal.components:
            if top.get("type") == 1:
                child = self._modal_value(resolver, top["components"][0], values)
                components.append({"type": 1, "components": [child]})
            elif top.get("type") == 18:
                child = self._modal_value(resolver, top["component"], values)
                components.append({"type": 18, "component": child})
            elif top.get("type") == 10:
                components.append({"type": 10, **({"id": top["id"]} if "id" in top else {})})
        source.modal_submitted = True
        data: dict[str, Any] = {"custom_id": modal.custom_id, "components": components}
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        return self._send(
            InteractionType.MODAL_SUBMIT,
            user,
            source.channel,
            data,
            message=source.message,
            source=source,
            locale=source.locale,
            label=f"modal {modal.title!r}",
        )

    def _modal_value(
        self, resolver: Resolver, field: dict[str, Any], values: dict[str, Any]
    ) -> dict[str, Any]:
        custom_id = field.get("custom_id")
        kind = field.get("type")
        if kind == 4:
            text = values.get(str(custom_id), field.get("value") or "")
            if not isinstance(text, str):
                raise FakeDiscordError(f"field {custom_id!r} takes text, not {text!r}")
            if field.get("required", True) and not text:
                raise FakeDiscordError(f"field {custom_id!r} is required")
            low, high = field.get("min_length", 0), field.get("max_length", 4000)
            if text and not low <= len(text) <= high:
                raise FakeDiscordError(
                    f"field {custom_id!r} takes {low} to {high} characters, not {len(text)}"
                )
            return {"type": 4, "custom_id": custom_id, "value": text}
        chosen = values.get(str(custom_id), [])
        if not isinstance(chosen, list):
            chosen = [chosen]
        if field.get("required", True) is False and not chosen:
            return {"type": kind, "custom_id": custom_id, "values": []}
        picked = self._select_values(resolver, field, chosen)
        return {"type": kind, "custom_id": custom_id, "values": picked}

    async def post(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """`user` writes a message (the bot gets MESSAGE_CREATE, text hidden without the intent)."""
        self._check_present(user, channel)
        if channel.guild is not None:
            needed = perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else perm.SEND_MESSAGES
            perms = perm.channel_permissions(channel, user)
            if not perms & needed:
                raise FakeDiscordError(f"{user.name} may not write in {channel!r}")
            if channel.is_thread and channel.locked and not perms & perm.MANAGE_THREADS:
                raise FakeDiscordError(f"{channel!r} is locked: {user.name} may not write there")
        return create_message(self.world, channel, user, {"content": content}, {})

    # waiting

    async def wait_for(
        self, check: Callable[[], T | None], *, timeout: float = WAIT, what: str = "a condition"
    ) -> T:
        """Wait until `check()` returns something other than None.

        It is re-checked on every change of the fake and every 50 ms (for checks on the bot).
        """
        return await self.world.wait_until(
            check, timeout, lambda: what + self.world.error_hint(), poll=True
        )

    async def wait_for_message(
        self,
        channel: FakeChannel | None,
        predicate: Callable[[FakeMessage], Any] | None = None,
        *,
        timeout: float = WAIT,
        after: FakeMessage | FakeInteraction | int | None = None,
    ) -> FakeMessage:
        """The earliest visible message in `channel` (None: anywhere) matching `predicate`.

        Already-posted messages count; pass `after=` (an interaction, a message or an id) to
        consider only messages posted or edited since then. Waits for one if none matches.
        """
        since = _stamp(after)

        def check() -> FakeMessage | None:
            pool = channel.messages if channel is not None else self.world.messages.values()
            for message in pool:
                if message.deleted or message.ephemeral or message.changed <= since:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        def what() -> str:
            where = repr(channel) if channel is not None else "any channel"
            recent = channel.messages[-5:] if channel is not None else []
            return (
                f"a matching message in {where}; last messages: {recent}{self.world.error_hint()}"
            )

        return await self.world.wait_until(check, timeout, what, topic=channel)

    async def wait_for_thread(
        self,
        parent: FakeChannel | FakeGuild | None = None,
        predicate: Callable[[FakeChannel], Any] | None = None,
        *,
        timeout: float = WAIT,
        after: FakeMessage | FakeInteraction | int | None = None,
    ) -> FakeChannel:
        """The earliest thread (in `parent`, a channel or a guild) matching `predicate`."""
        since = _stamp(after)

        def check() -> FakeChannel | None:
            if isinstance(parent, FakeChannel | FakeGuild):
                pool = parent.threads
            else:
                pool = [t for g in self.world.guilds.values() for t in g.threads]
            for thread in pool:
                if (
                    thread.stamp > since
                    and not thread.deleted
                    and (predicate is None or predicate(thread))
                ):
                    return thread
            return None

        return await self.world.wait_until(
            check, timeout, lambda: f"a thread in {parent!r}{self.world.error_hint()}", topic=parent
        )


def _stamp(after: FakeMessage | FakeInteraction | int | None) -> int:
    if after is None:
        return 0
    if isinstance(after, FakeMessage):
        return after.changed
    if isinstance(after, int):
        return after
    return after.id
