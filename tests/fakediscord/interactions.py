"""Interactions: their gateway payloads, the bot's callback responses, follow-ups and edits."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from tests.fakediscord import permissions as perm
from tests.fakediscord.errors import WAIT, DiscordHTTPError, FormErrors, not_found
from tests.fakediscord.messages import (
    ATTACHMENT_SIZE_LIMIT,
    EDIT_FLAGS,
    Upload,
    create_message,
    edit_message,
)
from tests.fakediscord.state import (
    CHAT_INPUT_COMMAND,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    FakeChannel,
    FakeMessage,
    FakeUser,
)
from tests.fakediscord.validation import validate_choices, validate_flags, validate_modal

if TYPE_CHECKING:
    from tests.fakediscord.world import World

IS_VOICE_MESSAGE = 1 << 13
CALLBACK_FLAGS = (
    SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
)
"""The flags an interaction response (types 4 and 5) or a follow-up may set."""


class InteractionType(IntEnum):
    """What the user did."""

    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class ResponseType(IntEnum):
    """How the bot answered (the callback's `type`)."""

    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


_ALLOWED = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}


@dataclass
class FakeModal:
    """A modal the bot opened (response type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]

    @property
    def fields(self) -> list[dict[str, Any]]:
        """The inputs (text inputs and selects), each with its `label` filled in from a Label."""
        found: list[dict[str, Any]] = []
        for top in self.components:
            if top.get("type") == 1:
                found.extend(dict(c) for c in top.get("components") or [])
            elif top.get("type") == 18 and top.get("component"):
                entry = dict(top["component"])
                entry.setdefault("label", top.get("label"))
                found.append(entry)
        return found

    def field(self, custom_id: str) -> dict[str, Any]:
        """The input with this custom_id."""
        for entry in self.fields:
            if entry.get("custom_id") == custom_id:
                return entry
        raise KeyError(f"modal {self.custom_id!r} has no field {custom_id!r}")


@dataclass
class FakeResponse:
    """The bot's answer to an interaction."""

    type: int
    message: FakeMessage | None = None
    """The message sent (4), shown as "thinking…" (5) or updated (7)."""
    ephemeral: bool = False
    modal: FakeModal | None = None
    choices: list[dict[str, Any]] | None = None
    """Autocomplete choices (8): `{"name", "value"}` dicts."""
    data: dict[str, Any] = field(default_factory=dict)
    """The callback's raw `data`."""


class FakeInteraction:
    """An interaction the fake sent to the bot, and everything the bot answered."""

    def __init__(
        self,
        world: World,
        kind: InteractionType,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
        source: FakeInteraction | None = None,
        locale: str = "en-US",
        label: str = "",
    ) -> None:
        self._world = world
        self.id = world.new_id()
        self.token = secrets.token_urlsafe(32)
        self.type = kind
        self.user = user
        self.channel = channel
        self.guild = channel.guild
        self.data = data
        self.message = message
        """The message whose component was used (components, and modals opened from them)."""
        self.source = source
        """For a modal submit: the interaction whose response opened the modal."""
        self.locale = locale
        self.label = label or f"interaction {self.id}"
        self.created_at = world.now()
        self.response_info: FakeResponse | None = None
        self.followup_messages: list[FakeMessage] = []
        self.original: FakeMessage | None = None
        """The response's message (after edits); for 6/7, the message the component is on."""
        self.own_messages: dict[int, FakeMessage] = {}
        self.rejected: list[DiscordHTTPError] = []
        """Requests of the bot on this interaction that the fake refused (400s, 404s...)."""
        self.modal_submitted = False
        world.interactions[self.id] = self
        world.interactions_by_token[self.token] = self

    @property
    def responded(self) -> bool:
        """Whether the bot answered."""
        return self.response_info is not None

    async def response(self, timeout: float = WAIT) -> FakeResponse:
        """Wait for the bot's answer."""
        return await self._world.wait_until(
            lambda: self.response_info,
            timeout,
            lambda: f"the bot's response to {self.label}{self._problems()}",
            topic=self,
        )

    async def followups(self, n: int = 1, timeout: float = WAIT) -> list[FakeMessage]:
        """Wait until the bot sent `n` follow-ups; returns them all."""
        return await self._world.wait_until(
            lambda: list(self.followup_messages) if len(self.followup_messages) >= n else None,
            timeout,
            lambda: (
                f"{n} follow-up(s) to {self.label} (got {len(self.followup_messages)})"
                f"{self._problems()}"
            ),
            topic=self,
        )

    def _problems(self) -> str:
        if self.rejected:
            refused = " | ".join(
                f"{e.status} {e.code} {e.message} {e.errors or ''}" for e in self.rejected
            )
            return f"; the fake refused the bot's requests: {refused}"
        return self._world.error_hint()

    def metadata(self) -> dict[str, Any]:
        """The `interaction_metadata` of messages this interaction produced."""
        owners = {"0": str(self.guild.id)} if self.guild is not None else {"0": "0"}
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": int(self.type),
            "user": self.user.payload(),
            "authorizing_integration_owners": owners,
        }
        if self.original is not None and self.type != InteractionType.MESSAGE_COMPONENT:
            data["original_response_message_id"] = str(self.original.id)
        if self.message is not None:
            data["interacted_message_id"] = str(self.message.id)
        if self.type == InteractionType.APPLICATION_COMMAND:
            data["name"] = self.data.get("name")
        return data

    def payload(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload."""
        world = self._world
        channel = self.channel
        guild = self.guild
        user_perms = perm.channel_permissions(channel, self.user)
        channel_data = channel.payload(bot_id=world.bot_user.id)
        channel_data["permissions"] = str(user_perms)
        data: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(world.application_id),
            "type": int(self.type),
            "data": self.data,
            "token": self.token,
            "version": 1,
            "locale": self.locale,
            "app_permissions": str(perm.channel_permissions(channel, world.bot_user)),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
            "context": 0 if guild is not None else 1,
            "channel_id": str(channel.id),
            "channel": channel_data,
        }
        if guild is not None:
            member = guild.members[self.user.id]
            member_data = member.payload()
            member_data["permissions"] = str(user_perms)
            data.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                member=member_data,
            )
        else:
            data["user"] = self.user.payload()
        if self.message is not None:
            data["message"] = world.message_payload(self.message)
        return data

    def __repr__(self) -> str:
        return f"<FakeInteraction {self.label} by {self.user.name}>"


def _check_alive(world: World, interaction: FakeInteraction) -> None:
    if world.now() - interaction.created_at > world.token_lifetime:
        raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")


def respond(
    world: World, interaction: FakeInteraction, body: dict[str, Any], uploads: dict[int, Upload]
) -> dict[str, Any]:
    """Apply the bot's callback; returns the `with_response` body."""
    if world.now() - interaction.created_at > world.response_deadline:
        raise not_found(10062, "interaction")
    if interaction.responded:
        raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
    kind = body.get("type")
    data: dict[str, Any] = body.get("data") or {}
    allowed = set(_ALLOWED[interaction.type])
    if interaction.type == InteractionType.MODAL_SUBMIT and interaction.message is None:
        allowed -= {6, 7}
    if kind not in allowed:
        errors = FormErrors()
        errors.add(
            ("type",),
            "INTERACTION_CALLBACK_TYPE_INVALID",
            f"Response type {kind} is not valid for a type {int(interaction.type)} interaction "
            f"(allowed: {sorted(allowed)})",
        )
        errors.raise_if_any()
    try:
        response = _apply(world, interaction, int(kind or 0), data, uploads)
    except DiscordHTTPError as error:
        if error.errors:
            error.errors = {
                "data": error.errors
            }  # Discord reports the callback's fields under data
        raise
    if response.message is not None:
        interaction.original = response.message
        interaction.own_messages[response.message.id] = response.message
    interaction.response_info = response
    world.emit("interaction_response", interaction, (interaction,))
    return callback_body(world, interaction, response)


def _apply(
    world: World,
    interaction: FakeInteraction,
    kind: int,
    data: dict[str, Any],
    uploads: dict[int, Upload],
) -> FakeResponse:
    bot = world.bot_user
    response = FakeResponse(type=kind, data=data)
    if kind in (ResponseType.CHANNEL_MESSAGE, ResponseType.DEFERRED_CHANNEL_MESSAGE):
        validate_flags(data, CALLBACK_FLAGS)
    elif kind == ResponseType.UPDATE_MESSAGE:
        validate_flags(data, EDIT_FLAGS | EPHEMERAL)
    ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
    if kind == ResponseType.CHANNEL_MESSAGE:
        message = create_message(
            world,
            interaction.channel,
            bot,
            data,
            uploads,
            extra_flags=EPHEMERAL if ephemeral else 0,
            message_type=CHAT_INPUT_COMMAND
            if interaction.type == InteractionType.APPLICATION_COMMAND
            else 0,
            interaction=interaction,
            webhook_id=world.application_id,
        )
        response.message = message
        response.ephemeral = ephemeral
    elif kind == ResponseType.DEFERRED_CHANNEL_MESSAGE:
        message = FakeMessage(
            world.new_id(),
            interaction.channel,
            bot,
            flags=LOADING | (EPHEMERAL if ephemeral else 0),
            type=CHAT_INPUT_COMMAND
            if interaction.type == InteractionType.APPLICATION_COMMAND
            else 0,
            created_at=world.now(),
            interaction=interaction,
            webhook_id=world.application_id,
        )
        world.store_message(message)
        response.message = message
        response.ephemeral = ephemeral
    elif kind == ResponseType.DEFERRED_UPDATE_MESSAGE:
        response.message = interaction.message
    elif kind == ResponseType.UPDATE_MESSAGE:
        target = interaction.message
        if target is None or target.deleted:
            raise not_found(10008, "Message")
        response.message = edit_message(world, target, data, uploads)
        response.ephemeral = target.ephemeral
    elif kind == ResponseType.AUTOCOMPLETE_RESULT:
        response.choices = validate_choices(data, _focused_type(interaction.data))
    elif kind == ResponseType.MODAL:
        validate_modal(data)
        response.modal = FakeModal(data["custom_id"], data["title"], list(data["components"]))
    return response


def _focused_type(data: dict[str, Any]) -> int | None:
    """The type of the option being typed in an autocomplete interaction's data."""
    for option in data.get("options") or []:
        if option.get("focused"):
            return int(option["type"])
        found = _focused_type(option)
        if found is not None:
            return found
    return None


def callback_body(
    world: World, interaction: FakeInteraction, response: FakeResponse
) -> dict[str, Any]:
    """The `{"interaction", "resource"}` body of a callback sent `with_response`."""
    info: dict[str, Any] = {"id": str(interaction.id), "type": int(interaction.type)}
    resource: dict[str, Any] = {"type": response.type}
    if response.message is not None and response.type in (4, 5, 7):
        info["response_message_id"] = str(response.message.id)
        info["response_message_loading"] = response.type == 5
        info["response_message_ephemeral"] = response.ephemeral
        resource["message"] = world.message_payload(response.message)
    return {"interaction": info, "resource": resource}


def interaction_for_webhook(world: World, application_id: int, token: str) -> FakeInteraction:
    """The interaction whose token a webhook request uses."""
    if application_id != world.application_id:
        raise not_found(10015, "Webhook")
    interaction = world.interactions_by_token.get(token)
    if interaction is None:
        raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
    _check_alive(world, interaction)
    return interaction


def followup(
    world: World, interaction: FakeInteraction, payload: dict[str, Any], uploads: dict[int, Upload]
) -> FakeMessage:
    """A follow-up; the first one after a deferred "thinking…" response fills that message in."""
    response = interaction.response_info
    if response is None or response.type in (8, 9):
        raise not_found(10015, "Webhook")
    validate_flags(payload, CALLBACK_FLAGS)
    original = interaction.original
    if response.type == 5 and original is not None and original.loading:
        message = edit_message(world, original, payload, uploads, finish_loading=True)
    else:
        ephemeral = bool(int(payload.get("flags") or 0) & EPHEMERAL)
        message = create_message(
            world,
            interaction.channel,
            world.bot_user,
            payload,
            uploads,
            extra_flags=EPHEMERAL if ephemeral else 0,
            interaction=interaction,
            webhook_id=world.application_id,
        )
    interaction.own_messages[message.id] = message
    interaction.followup_messages.append(message)
    world.emit("interaction_followup", interaction, (interaction,))
    return message


def webhook_message(interaction: FakeInteraction, reference: str) -> FakeMessage:
    """The message `@original` or `{id}` refers to, among those this interaction produced."""
    if reference == "@original":
        message = interaction.original
    else:
        try:
            message = interaction.own_messages.get(int(reference))
        except ValueError:
            message = None
    if message is None or message.deleted:
        raise not_found(10008, "Message")
    return message


def edit_webhook_message(
    world: World,
    interaction: FakeInteraction,
    reference: str,
    payload: dict[str, Any],
    uploads: dict[int, Upload],
) -> FakeMessage:
    """Edit the original response or a follow-up (a "thinking…" message gets filled in)."""
    message = webhook_message(interaction, reference)
    return edit_message(world, message, payload, uploads, finish_loading=True)
