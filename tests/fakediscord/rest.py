"""The REST API (aiohttp routes under /api/v10), with failure injection and a request log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from aiohttp import web

from tests.fakediscord import permissions as perm
from tests.fakediscord.commands import CommandStore
from tests.fakediscord.errors import (
    DiscordHTTPError,
    FormErrors,
    json_response,
    missing_access,
    missing_permissions,
    not_found,
)
from tests.fakediscord.interactions import (
    FakeInteraction,
    edit_webhook_message,
    followup,
    interaction_for_webhook,
    respond,
    webhook_message,
)
from tests.fakediscord.messages import edit_message, post_once, read_body
from tests.fakediscord.ratelimits import RateLimiter, Verdict
from tests.fakediscord.state import (
    ANNOUNCEMENT_THREAD,
    GUILD_ANNOUNCEMENT,
    INTENT_GUILD_MESSAGE_REACTIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeMessage,
)
from tests.fakediscord.world import World

log = logging.getLogger(__name__)

API = "/api/v10"
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""The `auto_archive_duration` values Discord allows (minutes)."""
ARCHIVE_CHOICES = "Value must be one of {60, 1440, 4320, 10080}."
ARCHIVED = "Operation cannot be performed on an archived thread"
_TRUE = ("1", "true", "True")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RequestLog(NamedTuple):
    """One REST request: method, path (after /api/v10, without the query) and status."""

    method: str
    path: str
    status: int


@dataclass
class FailureRule:
    """An injected failure: the next `remaining` matching requests get `status`."""

    method: str
    pattern: re.Pattern[str]
    status: int
    remaining: int
    retry_after: float
    is_global: bool
    body: dict[str, Any] | None

    def matches(self, method: str, path: str) -> bool:
        """Whether a request is one this rule fails."""
        return (
            self.remaining > 0
            and self.method in ("*", method)
            and bool(self.pattern.fullmatch(path))
        )


@dataclass
class HoldRule:
    """A stalled network: the next matching request is held, unanswered, until `release()`.

    With `after`, Discord acts on it first (the message exists) and only its answer is held,
    the case where the bot cannot know whether its request got through."""

    method: str
    pattern: re.Pattern[str]
    after: bool
    reached: asyncio.Event
    """Set once the request arrived (and, with `after`, Discord acted on it)."""
    released: asyncio.Event
    path: str = ""
    """The held request's path, once it arrived."""

    def matches(self, method: str, path: str) -> bool:
        """Whether a request is the one this rule holds."""
        return not self.path and self.method in ("*", method) and bool(self.pattern.fullmatch(path))

    def release(self) -> None:
        """Let the held request (or its answer) through."""
        self.released.set()


def _int(request: web.Request, key: str, what: str, code: int) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise not_found(code, what) from None


class RestApi:
    """Discord's REST API as far as a typical bot uses it."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.failures: list[FailureRule] = []
        self.holds: list[HoldRule] = []
        self.requests: list[RequestLog] = []
        self.unknown_routes: list[str] = []
        """`METHOD /path` of every request no route handled (each is also logged)."""
        self.internal_errors: list[str] = []
        """Exceptions raised by the fake's own handlers (bugs of the fake)."""
        self.limiter = RateLimiter()

    # the application

    def app(self) -> web.Application:
        """The aiohttp application with every route."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_bot_gateway),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", "/webhooks/{application_id}/{token}", self.webhook_execute),
            ("GET", "/webhooks/{application_id}/{token}/messages/{message}", self.webhook_get),
            ("PATCH", "/webhooks/{application_id}/{token}/messages/{message}", self.webhook_edit),
            (
                "DELETE",
                "/webhooks/{application_id}/{token}/messages/{message}",
                self.webhook_delete,
            ),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.edit_channel),
            ("DELETE", "/channels/{channel_id}", self.delete_channel),
            ("GET", "/channels/{channel_id}/messages", self.get_messages),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self.thread_from_message,
            ),
            ("POST", "/channels/{channel_id}/threads", self.thread_without_message),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            (
                "DELETE",
                "/channels/{channel_id}/thread-members/{user_id}",
                self.remove_thread_member,
            ),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.add_reaction,
            ),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.remove_reaction,
            ),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_guild_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/guilds/{guild_id}/threads/active", self.get_active_threads),
        ]
        for scope in (
            "/applications/{application_id}",
            "/applications/{application_id}/guilds/{guild_id}",
        ):
            routes += [
                ("GET", f"{scope}/commands", self.get_commands),
                ("PUT", f"{scope}/commands", self.put_commands),
                ("POST", f"{scope}/commands", self.post_command),
                ("GET", f"{scope}/commands/{{command_id}}", self.get_command),
                ("PATCH", f"{scope}/commands/{{command_id}}", self.patch_command),
                ("DELETE", f"{scope}/commands/{{command_id}}", self.delete_command),
            ]
        for method, path, handler in routes:
            app.router.add_route(method, API + path, handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment)
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API):
            try:
                return await handler(request)
            except DiscordHTTPError as error:
                return error.response()
        path = request.path.removeprefix(API)
        method = request.method
        hold = next((rule for rule in self.holds if rule.matches(method, path)), None)
        if hold is None:
            return await self._serve(request, handler, method, path)
        hold.path = path
        if not hold.after:
            hold.reached.set()
            await hold.released.wait()
            if request.transport is None or request.transport.is_closing():
                return web.Response(status=499)  # the bot went away: Discord never saw it
            return await self._serve(request, handler, method, path)
        response = await self._serve(request, handler, method, path)
        hold.reached.set()
        await hold.released.wait()
        return response

    def release_holds(self) -> None:
        """Let every held request through (the fake is closing)."""
        for rule in self.holds:
            rule.release()

    async def _serve(
        self, request: web.Request, handler: Handler, method: str, path: str
    ) -> web.StreamResponse:
        for rule in self.failures:
            if rule.matches(method, path):
                rule.remaining -= 1
                if rule.remaining <= 0:
                    self.failures.remove(rule)
                await request.read()
                response = self._failure(rule)
                self._record(method, path, response.status, "injected failure")
                return response
        self.world.archive_idle_threads()
        limits = self._rate_limit(request, path)
        if limits.refusal is not None:
            await request.read()
            self._record(method, path, 429, "rate limited")
            return limits.refusal
        try:
            if _needs_bot_auth(path):
                self._check_auth(request)
            result = await handler(request)
        except DiscordHTTPError as error:
            response = error.response()
            response.headers.update(limits.headers)
            self._record(
                method, path, error.status, f"{error.code} {error.message} {error.errors or ''}"
            )
            return response
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            route = f"{method} {path}"
            self.unknown_routes.append(route)
            log.warning("fakediscord: no route for %s (add it to tests/fakediscord/rest.py)", route)
            response = json_response({"message": "404: Not Found", "code": 0}, status=404)
            self._record(method, path, 404, "no such route in the fake")
            return response
        except Exception as error:
            # A bug in the fake: answer 400 (discord.py would retry a 500 for 25 s) and say so.
            log.exception("fakediscord: internal error on %s %s", method, path)
            self.internal_errors.append(f"{method} {path}: {error!r}")
            response = json_response(
                {"message": f"fakediscord internal error: {error!r}", "code": 0}, status=400
            )
            self._record(method, path, 400, f"internal error {error!r}")
            return response
        result.headers.update(limits.headers)
        self._record(method, path, result.status)
        return result

    def _rate_limit(self, request: web.Request, path: str) -> Verdict:
        """Count the request against its route's bucket and the global limit."""
        resource = request.match_info.route.resource
        if resource is None:  # no such route: answered 404 below
            return Verdict({}, None)
        template = resource.canonical.removeprefix(API)
        return self.limiter.check(
            request.method, template, path, request.match_info, self.world.now()
        )

    def _record(self, method: str, path: str, status: int, problem: str = "") -> None:
        self.requests.append(RequestLog(method, path, status))
        if problem:
            self.world.recent_errors.append(f"{method} {path} -> {status} {problem}".strip())

    def _failure(self, rule: FailureRule) -> web.Response:
        if rule.status != 429:
            body = rule.body or {"message": f"{rule.status}: Injected failure", "code": 0}
            return json_response(body, status=rule.status)
        retry = rule.retry_after
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(retry))),
            "X-RateLimit-Scope": "global" if rule.is_global else "user",
        }
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(
                {
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{self.world.now() + retry:.3f}",
                    "X-RateLimit-Reset-After": f"{retry:.3f}",
                    "X-RateLimit-Bucket": "fakediscord-bucket",
                }
            )
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry,
            "global": rule.is_global,
        }
        return json_response(body, status=429, headers=headers)

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.world.token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")

    # helpers

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.world.channels.get(_int(request, "channel_id", "Channel", 10003))
        if channel is None or channel.deleted:
            raise not_found(10003, "Channel")
        return channel

    def _message(self, channel: FakeChannel, request: web.Request) -> FakeMessage:
        message = self.world.messages.get(_int(request, "message_id", "Message", 10008))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel is not channel
        ):
            raise not_found(10008, "Message")
        return message

    def _require(self, channel: FakeChannel, bits: int) -> int:
        """The bot's permissions in `channel`; 403 unless it can see it and has `bits`."""
        perms = perm.channel_permissions(channel, self.world.bot_user)
        if not perms & perm.VIEW_CHANNEL:
            raise missing_access()
        if not perm.has(perms, bits):
            raise missing_permissions()
        return perms

    def _json(self, data: Any, status: int = 200) -> web.Response:
        return json_response(data, status=status)

    def _message_json(self, message: FakeMessage) -> web.Response:
        return json_response(self.world.message_payload(message))

    # users and the application

    async def get_me(self, request: web.Request) -> web.Response:
        """The bot's user."""
        user = self.world.bot_user.payload()
        user.update(verified=True, mfa_enabled=False, email=None, locale="en-US")
        return self._json(user)

    async def get_user(self, request: web.Request) -> web.Response:
        """A user by id."""
        user = self.world.users.get(_int(request, "user_id", "User", 10013))
        if user is None:
            raise not_found(10013, "User")
        return self._json(user.payload())

    async def get_application(self, request: web.Request) -> web.Response:
        """The application (discord.py reads it at login)."""
        world = self.world
        owner = world.bot_user.payload()
        return self._json(
            {
                "id": str(world.application_id),
                "name": world.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": world.bot_user.payload(),
                "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
                "integration_types_config": {"0": {}},
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(world.guilds),
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """Where the gateway is."""
        return self._json({"url": self.world.base_url.replace("http://", "ws://") + "/gateway"})

    async def get_bot_gateway(self, request: web.Request) -> web.Response:
        """Where the gateway is, and how many shards to use (sharded clients ask)."""
        url = self.world.base_url.replace("http://", "ws://") + "/gateway"
        return self._json(
            {
                "url": url,
                "shards": self.world.shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.world.max_concurrency,
                },
            }
        )

    async def create_dm(self, request: web.Request) -> web.Response:
        """Open (or reopen) the DM channel with a user."""
        payload, _ = await read_body(request)
        try:
            user = self.world.users.get(int(payload.get("recipient_id") or 0))
        except (TypeError, ValueError):
            user = None
        if user is None or user is self.world.bot_user:
            errors = FormErrors()
            errors.add(("recipient_id",), "USER_UNKNOWN", "Unknown user")
            errors.raise_if_any()
        assert user is not None
        return self._json(self.world.dm_channel(user).payload())

    # application commands

    def _store(self, request: web.Request) -> CommandStore:
        if _int(request, "application_id", "Application", 10002) != self.world.application_id:
            raise DiscordHTTPError(
                403, 20012, "You are not authorized to perform this action on this application"
            )
        if "guild_id" not in request.match_info:
            return self.world.global_commands
        guild_id = _int(request, "guild_id", "Guild", 10004)
        if guild_id not in self.world.guilds:
            raise missing_access()
        return self.world.guild_command_store(guild_id)

    async def get_commands(self, request: web.Request) -> web.Response:
        """Every synced command of a scope."""
        return self._json(list(self._store(request).by_id.values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        """Bulk overwrite (what `tree.sync()` does)."""
        store = self._store(request)
        raw = await request.read()
        try:
            commands = json.loads(raw or b"[]")
        except ValueError:
            raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from None
        if not isinstance(commands, list):
            raise DiscordHTTPError(400, 50035, "Invalid Form Body")
        return self._json(store.overwrite(commands))

    async def post_command(self, request: web.Request) -> web.Response:
        """Create or replace one command."""
        store = self._store(request)
        payload, _ = await read_body(request)
        command, created = store.upsert(payload)
        return self._json(command, status=201 if created else 200)

    def _command(self, request: web.Request) -> tuple[CommandStore, int]:
        store = self._store(request)
        command_id = _int(request, "command_id", "application command", 10063)
        if command_id not in store.by_id:
            raise not_found(10063, "application command")
        return store, command_id

    async def get_command(self, request: web.Request) -> web.Response:
        """One command."""
        store, command_id = self._command(request)
        return self._json(store.by_id[command_id])

    async def patch_command(self, request: web.Request) -> web.Response:
        """Edit one command."""
        store, command_id = self._command(request)
        payload, _ = await read_body(request)
        return self._json(store.edit(command_id, payload))

    async def delete_command(self, request: web.Request) -> web.Response:
        """Delete one command."""
        store, command_id = self._command(request)
        del store.by_id[command_id]
        return web.Response(status=204)

    # interactions and their webhooks

    def _webhook(self, request: web.Request) -> FakeInteraction:
        """The interaction whose token a webhook route names."""
        application_id = _int(request, "application_id", "Webhook", 10015)
        return interaction_for_webhook(self.world, application_id, request.match_info["token"])

    async def interaction_callback(self, request: web.Request) -> web.StreamResponse:
        """The bot's response to an interaction."""
        interaction = self.world.interactions.get(
            _int(request, "interaction_id", "interaction", 10062)
        )
        if interaction is None or interaction.token != request.match_info["token"]:
            raise not_found(10062, "interaction")
        payload, uploads = await read_body(request)
        with _kept_on(interaction):
            body = respond(self.world, interaction, payload, uploads)
        if request.query.get("with_response") in _TRUE:
            return self._json(body)
        return web.Response(status=204)

    async def webhook_execute(self, request: web.Request) -> web.StreamResponse:
        """A follow-up message."""
        interaction = self._webhook(request)
        payload, uploads = await read_body(request)
        with _kept_on(interaction):
            message = followup(self.world, interaction, payload, uploads)
        if request.query.get("wait") in _TRUE:
            return self._message_json(message)
        return web.Response(status=204)

    async def webhook_get(self, request: web.Request) -> web.Response:
        """The original response or a follow-up."""
        interaction = self._webhook(request)
        return self._message_json(webhook_message(interaction, request.match_info["message"]))

    async def webhook_edit(self, request: web.Request) -> web.Response:
        """Edit the original response or a follow-up."""
        interaction = self._webhook(request)
        payload, uploads = await read_body(request)
        reference = request.match_info["message"]
        with _kept_on(interaction):
            message = edit_webhook_message(self.world, interaction, reference, payload, uploads)
        return self._message_json(message)

    async def webhook_delete(self, request: web.Request) -> web.Response:
        """Delete the original response or a follow-up."""
        interaction = self._webhook(request)
        message = webhook_message(interaction, request.match_info["message"])
        self.world.delete_message(message)
        return web.Response(status=204)

    # channels and messages

    async def get_channel(self, request: web.Request) -> web.Response:
        """A channel, thread or DM."""
        channel = self._channel(request)
        if channel.guild is not None:
            self._require(channel, 0)
        return self._json(channel.payload(bot_id=self.world.bot_user.id))

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Rename a channel; archive, lock or rename a thread."""
        channel = self._channel(request)
        if channel.guild is None:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        payload, _ = await read_body(request)
        bot = self.world.bot_user
        perms = perm.channel_permissions(channel, bot)
        if not perms & perm.VIEW_CHANNEL:
            raise missing_access()
        if not channel.is_thread:
            if not perms & perm.MANAGE_CHANNELS:
                raise missing_permissions()
            channel.name = payload.get("name", channel.name)
            channel.topic = payload.get("topic", channel.topic)
            self.world.announce("CHANNEL_UPDATE", channel.payload())
            return self._json(channel.payload())
        manages = bool(perms & perm.MANAGE_THREADS)
        if not manages and (channel.owner_id != bot.id or "locked" in payload):
            raise missing_permissions()
        unarchive = "archived" in payload and not payload["archived"]
        if channel.archived and not unarchive:
            raise DiscordHTTPError(400, 50083, ARCHIVED)
        if channel.locked and not manages:
            # Only Manage Threads unarchives a locked thread; in an open locked thread,
            # nobody else may change anything (name, archive duration...) either.
            raise missing_permissions()
        errors = FormErrors()
        if "name" in payload:
            name = payload["name"]
            if not isinstance(name, str) or not 1 <= len(name) <= 100:
                errors.add(
                    ("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                )
        duration = payload.get("auto_archive_duration", channel.auto_archive_duration)
        if duration not in ARCHIVE_DURATIONS:
            errors.add(("auto_archive_duration",), "BASE_TYPE_CHOICES", ARCHIVE_CHOICES)
        errors.raise_if_any()
        channel.name = payload.get("name", channel.name)
        if "locked" in payload:
            channel.locked = bool(payload["locked"])
        if "invitable" in payload:
            channel.invitable = bool(payload["invitable"])
        if duration != channel.auto_archive_duration:
            channel.auto_archive_duration = duration
            self.world.thread_active(channel)  # a new archive duration counts as activity
            channel.archived_at = channel.last_activity  # and `archive_timestamp` shows it
        archived = bool(payload.get("archived", channel.archived))
        if archived != channel.archived:
            self.world.set_archived(channel, archived)
        else:
            self.world.thread_updated(channel)
        return self._json(channel.payload(bot_id=bot.id))

    async def delete_channel(self, request: web.Request) -> web.Response:
        """Delete a thread (needs Manage Threads) or a channel (Manage Channels)."""
        channel = self._channel(request)
        if channel.guild is None:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        self._require(channel, perm.MANAGE_THREADS if channel.is_thread else perm.MANAGE_CHANNELS)
        return self._json(self.world.delete_channel(channel))

    def _check_can_post(self, channel: FakeChannel, *, files: bool, reply: bool) -> None:
        world = self.world
        if channel.is_dm:
            user = channel.recipient
            assert user is not None
            shares_guild = any(
                user.id in g.members and world.bot_user.id in g.members
                for g in world.guilds.values()
            )
            if not user.accepts_dms or not shares_guild:
                raise DiscordHTTPError(403, 50007, "Cannot send messages to this user")
            return
        send = perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else perm.SEND_MESSAGES
        needed = (
            send | (perm.ATTACH_FILES if files else 0) | (perm.READ_MESSAGE_HISTORY if reply else 0)
        )
        perms = self._require(channel, needed)
        if channel.is_thread:
            manages = bool(perms & perm.MANAGE_THREADS)
            if channel.locked and not manages:
                raise DiscordHTTPError(403, 160005, "Thread is locked")

    async def get_messages(self, request: web.Request) -> web.Response:
        """A channel's history, newest first (`limit`, `before`, `after`, `around`)."""
        channel = self._channel(request)
        if channel.guild is not None:
            self._require(channel, perm.READ_MESSAGE_HISTORY)
        query = request.query
        try:
            limit = min(100, max(1, int(query.get("limit", "50"))))
            before = int(query["before"]) if "before" in query else None
            after = int(query["after"]) if "after" in query else None
            around = int(query["around"]) if "around" in query else None
        except ValueError:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body") from None
        messages = channel.messages
        if around is not None:
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            chosen = older + newer
        elif after is not None:
            chosen = [m for m in messages if m.id > after][:limit]
        else:
            chosen = [m for m in messages if before is None or m.id < before][-limit:]
        return self._json([self.world.message_payload(m) for m in reversed(chosen)])

    async def post_message(self, request: web.Request) -> web.Response:
        """Post a message (JSON, or multipart with files)."""
        channel = self._channel(request)
        payload, uploads = await read_body(request)
        self._check_can_post(
            channel, files=bool(uploads), reply=bool(payload.get("message_reference"))
        )
        message = post_once(self.world, channel, self.world.bot_user, payload, uploads)
        return self._message_json(message)

    async def get_message(self, request: web.Request) -> web.Response:
        """One message."""
        channel = self._channel(request)
        if channel.guild is not None:
            self._require(channel, perm.READ_MESSAGE_HISTORY)
        return self._message_json(self._message(channel, request))

    async def patch_message(self, request: web.Request) -> web.Response:
        """Edit one of the bot's messages: in a server, only where the bot can still see
        the channel (403 `50001`), not in a locked thread without Manage Threads (403
        `160005`), and a new file needs Attach Files (403 `50013`), as for a post."""
        channel = self._channel(request)
        perms = self._require(channel, 0) if channel.guild is not None else perm.ALL
        message = self._message(channel, request)
        if message.author is not self.world.bot_user:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        payload, uploads = await read_body(request)
        locked = channel.is_thread and channel.locked and not channel.archived  # else 50083
        if locked and not perms & perm.MANAGE_THREADS:
            raise DiscordHTTPError(403, 160005, "Thread is locked")
        if uploads and channel.guild is not None and not perms & perm.ATTACH_FILES:
            raise missing_permissions()
        return self._message_json(edit_message(self.world, message, payload, uploads))

    async def delete_message(self, request: web.Request) -> web.Response:
        """Delete a message (others' need Manage Messages)."""
        channel = self._channel(request)
        message = self._message(channel, request)
        if message.author is not self.world.bot_user and channel.guild is not None:
            self._require(channel, perm.MANAGE_MESSAGES)
        elif message.author is not self.world.bot_user:
            raise DiscordHTTPError(403, 50003, "Cannot execute action on a DM channel")
        self.world.delete_message(message)
        return web.Response(status=204)

    # threads

    def _thread_name(self, payload: dict[str, Any]) -> str:
        name = payload.get("name")
        errors = FormErrors()
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        duration = payload.get("auto_archive_duration")
        if duration is not None and duration not in ARCHIVE_DURATIONS:
            errors.add(("auto_archive_duration",), "BASE_TYPE_CHOICES", ARCHIVE_CHOICES)
        errors.raise_if_any()
        assert isinstance(name, str)
        return name

    async def thread_from_message(self, request: web.Request) -> web.Response:
        """Start a public thread from a message."""
        channel = self._channel(request)
        if channel.is_thread or channel.is_dm:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        message = self._message(channel, request)
        payload, _ = await read_body(request)
        name = self._thread_name(payload)
        self._require(channel, perm.CREATE_PUBLIC_THREADS | perm.READ_MESSAGE_HISTORY)
        if message.thread is not None:
            raise DiscordHTTPError(
                400, 160004, "A thread has already been created for this message"
            )
        kind = ANNOUNCEMENT_THREAD if channel.type == GUILD_ANNOUNCEMENT else PUBLIC_THREAD
        thread = self.world.create_thread(
            channel,
            name,
            thread_type=kind,
            starter=message,
            auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
        )
        return self._json(thread.payload(bot_id=self.world.bot_user.id), status=201)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        """Start a thread without a starter message (private unless `type` is 11)."""
        channel = self._channel(request)
        if channel.is_thread or channel.is_dm:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        payload, _ = await read_body(request)
        name = self._thread_name(payload)
        kind = int(payload.get("type") or PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD, ANNOUNCEMENT_THREAD):
            errors = FormErrors()
            errors.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}.")
            errors.raise_if_any()
        allowed = (
            (ANNOUNCEMENT_THREAD,)
            if channel.type == GUILD_ANNOUNCEMENT
            else (PUBLIC_THREAD, PRIVATE_THREAD)
        )
        if kind not in allowed:  # announcement channels hold announcement threads only
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        needed = (
            perm.CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else perm.CREATE_PUBLIC_THREADS
        )
        self._require(channel, needed)
        thread = self.world.create_thread(
            channel,
            name,
            thread_type=kind,
            auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
            invitable=bool(payload.get("invitable", True)),
        )
        return self._json(thread.payload(bot_id=self.world.bot_user.id), status=201)

    def _thread_and_user(self, request: web.Request) -> tuple[FakeChannel, int]:
        channel = self._channel(request)
        if not channel.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        user_id = (
            self.world.bot_user.id if raw == "@me" else _int(request, "user_id", "User", 10013)
        )
        assert channel.guild is not None
        if user_id not in channel.guild.members:
            raise not_found(10007, "Member")
        return channel, user_id

    async def add_thread_member(self, request: web.Request) -> web.Response:
        """Add a member (or the bot, `@me`) to a thread."""
        thread, user_id = self._thread_and_user(request)
        perms = self._require(thread, 0)
        if thread.archived:
            raise DiscordHTTPError(400, 50083, ARCHIVED)
        if user_id != self.world.bot_user.id:
            self._require(thread, perm.SEND_MESSAGES_IN_THREADS)
            private_thread_outsider = thread.is_private_thread and not perms & perm.MANAGE_THREADS
            if private_thread_outsider and self.world.bot_user.id not in thread.thread_member_ids:
                raise missing_access()
        if user_id not in thread.thread_member_ids:
            thread.thread_member_ids.append(user_id)
            self.world.thread_updated(thread)
        return web.Response(status=204)

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        """Remove a member (or the bot) from a thread."""
        thread, user_id = self._thread_and_user(request)
        if self.world.bot_user.id not in (user_id, thread.owner_id):
            self._require(thread, perm.MANAGE_THREADS)
        if user_id in thread.thread_member_ids:
            thread.thread_member_ids.remove(user_id)
            self.world.thread_updated(thread)
        return web.Response(status=204)

    async def typing(self, request: web.Request) -> web.Response:
        """The typing indicator (nothing to record)."""
        self._channel(request)
        return web.Response(status=204)

    async def add_reaction(self, request: web.Request) -> web.Response:
        """The bot reacts to a message."""
        channel = self._channel(request)
        message = self._message(channel, request)
        if channel.guild is not None:
            self._require(channel, perm.ADD_REACTIONS | perm.READ_MESSAGE_HISTORY)
        if channel.is_thread and channel.archived:
            raise DiscordHTTPError(400, 50083, ARCHIVED)
        emoji = request.match_info["emoji"]
        users = message.reactions.setdefault(emoji, [])
        bot_id = self.world.bot_user.id
        if bot_id not in users:
            users.append(bot_id)
            event: dict[str, Any] = {
                "user_id": str(bot_id),
                "channel_id": str(channel.id),
                "message_id": str(message.id),
                "emoji": {"id": None, "name": emoji},
                "burst": False,
                "type": 0,
            }
            if channel.guild is not None:
                event["guild_id"] = str(channel.guild.id)
            self.world.announce("MESSAGE_REACTION_ADD", event, INTENT_GUILD_MESSAGE_REACTIONS)
            self.world.emit_message("message_update", message)
        return web.Response(status=204)

    async def remove_reaction(self, request: web.Request) -> web.Response:
        """The bot takes its reaction back."""
        channel = self._channel(request)
        message = self._message(channel, request)
        users = message.reactions.get(request.match_info["emoji"], [])
        if self.world.bot_user.id in users:
            users.remove(self.world.bot_user.id)
            if not users:
                del message.reactions[request.match_info["emoji"]]
            self.world.emit_message("message_update", message)
        return web.Response(status=204)

    # guilds

    def _guild(self, request: web.Request) -> Any:
        guild = self.world.guilds.get(_int(request, "guild_id", "Guild", 10004))
        if guild is None:
            raise not_found(10004, "Guild")
        if self.world.bot_user.id not in guild.members:
            raise missing_access()
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        """A guild."""
        return self._json(self._guild(request).summary())

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        """A guild's channels."""
        guild = self._guild(request)
        return self._json([c.payload() for c in guild.channels.values() if not c.deleted])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        """A guild's roles."""
        guild = self._guild(request)
        return self._json([r.payload() for r in guild.roles.values()])

    async def get_member(self, request: web.Request) -> web.Response:
        """A guild member."""
        guild = self._guild(request)
        member = guild.members.get(_int(request, "user_id", "Member", 10007))
        if member is None:
            raise not_found(10007, "Member")
        return self._json(member.payload())

    async def get_active_threads(self, request: web.Request) -> web.Response:
        """A guild's active (unarchived) threads."""
        guild = self._guild(request)
        bot_id = self.world.bot_user.id
        threads = [t for t in guild.threads if not t.archived and not t.deleted]
        members = [
            t.thread_member_payload(bot_id) for t in threads if bot_id in t.thread_member_ids
        ]
        return self._json({"threads": [t.payload() for t in threads], "members": members})

    # files

    async def attachment(self, request: web.Request) -> web.Response:
        """An attachment's bytes, served at its `url`."""
        try:
            attachment = self.world.attachments.get(int(request.match_info["attachment_id"]))
        except ValueError:
            attachment = None
        if attachment is None:
            raise not_found(10008, "Attachment")
        content_type = attachment.content_type or "application/octet-stream"
        return web.Response(body=attachment.data, content_type=content_type)


@contextlib.contextmanager
def _kept_on(interaction: FakeInteraction) -> Iterator[None]:
    """Record on the interaction any of its requests the fake refuses."""
    try:
        yield
    except DiscordHTTPError as error:
        interaction.rejected.append(error)
        raise


def _needs_bot_auth(path: str) -> bool:
    return not path.startswith(("/interactions/", "/webhooks/", "/gateway"))
