"""Synced application commands, and typed interaction options built from their declarations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.fakediscord import permissions as perm
from tests.fakediscord.errors import FakeDiscordError
from tests.fakediscord.messages import ATTACHMENT_SIZE_LIMIT
from tests.fakediscord.state import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    image_size,
    sniff_content_type,
)
from tests.fakediscord.validation import validate_commands

if TYPE_CHECKING:
    from tests.fakediscord.world import World

# Option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

_MAX_SAFE_INTEGER = 2**53

_OPTION_KEYS = (
    "type",
    "name",
    "description",
    "required",
    "choices",
    "options",
    "channel_types",
    "min_value",
    "max_value",
    "min_length",
    "max_length",
    "autocomplete",
    "name_localizations",
    "description_localizations",
)


class CommandStore:
    """The commands synced for one scope: global, or one guild."""

    def __init__(self, world: World, guild_id: int | None = None) -> None:
        self._world = world
        self.guild_id = guild_id
        self.by_id: dict[int, dict[str, Any]] = {}
        self._ids: dict[tuple[int, str], int] = {}
        self.syncs = 0
        """How many times the bot overwrote this scope's commands."""

    def overwrite(self, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Replace every command (a bulk PUT); ids stay the same for the same name and type."""
        validate_commands(commands)
        self.by_id = {}
        for command in commands:
            stored = self._stored(command)
            self.by_id[int(stored["id"])] = stored
        self.syncs += 1
        return list(self.by_id.values())

    def upsert(self, command: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Create or replace one command; returns it and whether it is new."""
        others = [c for c in self.by_id.values() if _key(c) != _key(command)]
        validate_commands([*others, command])
        stored = self._stored(command)
        created = int(stored["id"]) not in self.by_id
        self.by_id[int(stored["id"])] = stored
        return stored, created

    def edit(self, command_id: int, changes: dict[str, Any]) -> dict[str, Any] | None:
        """Change fields of a command; None if unknown."""
        current = self.by_id.get(command_id)
        if current is None:
            return None
        merged = {**current, **changes}
        others = [c for c in self.by_id.values() if int(c["id"]) != command_id]
        validate_commands([*others, merged])
        stored = self._stored(merged, command_id)
        self.by_id[command_id] = stored
        return stored

    def find(self, name: str, command_type: int = 1) -> dict[str, Any] | None:
        """The command named `name` of `command_type` (1: slash), or None."""
        for command in self.by_id.values():
            if command["name"] == name and command["type"] == command_type:
                return command
        return None

    def by_name(self) -> dict[str, dict[str, Any]]:
        """Slash commands by name."""
        return {c["name"]: c for c in self.by_id.values() if c["type"] == 1}

    def _stored(self, command: dict[str, Any], command_id: int | None = None) -> dict[str, Any]:
        key = _key(command)
        if command_id is None:
            command_id = self._ids.get(key) or self._world.new_id()
        self._ids[key] = command_id
        kind = command.get("type", 1)
        permissions = command.get("default_member_permissions")
        stored: dict[str, Any] = {
            "id": str(command_id),
            "application_id": str(self._world.application_id),
            "version": str(self._world.new_id()),
            "type": kind,
            "name": command["name"],
            "description": command.get("description", ""),
            "options": [_clean_option(o) for o in command.get("options") or []],
            "default_member_permissions": None if permissions is None else str(permissions),
            "dm_permission": command.get("dm_permission", True),
            "contexts": command.get("contexts"),
            "integration_types": command.get("integration_types") or [0],
            "nsfw": bool(command.get("nsfw", False)),
            "name_localizations": command.get("name_localizations"),
            "description_localizations": command.get("description_localizations"),
        }
        if self.guild_id is not None:
            stored["guild_id"] = str(self.guild_id)
            del stored["dm_permission"]
        return stored


def _key(command: dict[str, Any]) -> tuple[int, str]:
    return int(command.get("type", 1)), str(command.get("name"))


def _clean_option(option: dict[str, Any]) -> dict[str, Any]:
    cleaned = {k: option[k] for k in _OPTION_KEYS if k in option and option[k] is not None}
    if "options" in cleaned:
        cleaned["options"] = [_clean_option(o) for o in cleaned["options"]]
    return cleaned


def can_use(
    command: dict[str, Any], user: FakeUser, channel: FakeChannel, guild: FakeGuild | None
) -> str | None:
    """Why `user` cannot run `command` in `channel` (Discord would not offer it), or None."""
    name = command["name"]
    contexts = command.get("contexts")
    if guild is None:
        if command.get("guild_id") is not None:
            return f"/{name} is a guild command and cannot be used in DMs"
        if command.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
            return f"/{name} is not available in DMs"
        return None
    if contexts is not None and 0 not in contexts:
        return f"/{name} is not available in servers"
    perms = perm.channel_permissions(channel, user)
    if not perms & perm.VIEW_CHANNEL:
        return f"{user.name} cannot see #{channel.name}"
    if not perms & perm.USE_APPLICATION_COMMANDS:
        return f"{user.name} may not use application commands in #{channel.name}"
    required = command.get("default_member_permissions")
    if required is not None and not perm.has(perms, int(required)):
        return f"{user.name} lacks the permissions /{name} requires ({required})"
    return None


def build_command_data(
    world: World,
    command: dict[str, Any],
    path: list[str],
    values: dict[str, Any],
    *,
    user: FakeUser,
    guild: FakeGuild | None,
    focused: str | None = None,
) -> dict[str, Any]:
    """The `data` of a slash (or autocomplete) interaction, typed per the synced declaration."""
    declared: list[dict[str, Any]] = command.get("options") or []
    chain: list[dict[str, Any]] = []
    shown = command["name"]
    for part in path:
        sub = next(
            (
                o
                for o in declared
                if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            names = [o["name"] for o in declared if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise FakeDiscordError(f"/{shown} has no sub-command {part!r}; it has {names}")
        chain.append(sub)
        shown = f"{shown} {part}"
        declared = sub.get("options") or []
    subs = [o["name"] for o in declared if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if subs:
        raise FakeDiscordError(
            f"/{shown} cannot be run itself; pick one of its sub-commands {subs}"
        )
    resolver = Resolver(world, user, guild)
    options = _options(resolver, shown, declared, values, focused)
    for sub in reversed(chain):
        options = [{"type": sub["type"], "name": sub["name"], "options": options}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": 1,
        "options": options,
    }
    if command.get("guild_id") is not None:
        data["guild_id"] = command["guild_id"]
    if resolver.resolved:
        data["resolved"] = resolver.resolved
    return data


@dataclass
class Resolver:
    """Builds an interaction's `resolved` data for the users, roles, channels it mentions."""

    world: World
    user: FakeUser
    """Who acts (channel permissions in `resolved` are theirs)."""
    guild: FakeGuild | None
    resolved: dict[str, dict[str, Any]] = field(default_factory=dict)

    def entity(
        self, kind: int, value: Any, *, channel_types: list[int] | None = None, where: str = "value"
    ) -> str:
        """The id of a user, role or channel (`kind`: USER, CHANNEL, ROLE or MENTIONABLE)."""
        if isinstance(value, FakeMember):
            value = value.user
        if kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
            self.resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = self.guild.members.get(value.id) if self.guild is not None else None
            if member is not None:
                data = member.payload(with_user=False)
                data["permissions"] = str(perm.guild_permissions(member.guild, value))
                self.resolved.setdefault("members", {})[str(value.id)] = data
            return str(value.id)
        if kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
            self.resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == CHANNEL and isinstance(value, FakeChannel):
            if channel_types and value.type not in channel_types:
                raise FakeDiscordError(f"{where} only accepts channel types {channel_types}")
            data = value.payload(bot_id=self.world.bot_user.id)
            data["permissions"] = str(perm.channel_permissions(value, self.user))
            self.resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        raise FakeDiscordError(f"{where} (type {kind}) cannot take {value!r}")

    def attachment(self, filename: str, blob: bytes) -> str:
        """The id of a file the user uploads in an attachment option."""
        if len(blob) > ATTACHMENT_SIZE_LIMIT:
            raise FakeDiscordError(f"{filename} is larger than Discord's upload limit")
        size = image_size(blob)
        attachment = FakeAttachment(
            self.world.new_id(),
            filename,
            blob,
            sniff_content_type(filename, blob),
            None,
            size[0] if size else None,
            size[1] if size else None,
        )
        self.world.attachments[attachment.id] = attachment
        data = attachment.payload(self.world.base_url, 0)
        data["ephemeral"] = True
        self.resolved.setdefault("attachments", {})[str(attachment.id)] = data
        return str(attachment.id)


def _options(
    resolver: Resolver,
    shown: str,
    declared: list[dict[str, Any]],
    values: dict[str, Any],
    focused: str | None,
) -> list[dict[str, Any]]:
    names = [o["name"] for o in declared]
    unknown = [k for k in values if k not in names]
    if unknown:
        raise FakeDiscordError(f"/{shown} has no option {unknown[0]!r}; it has {names}")
    if focused is not None:
        target = next((o for o in declared if o["name"] == focused), None)
        if target is None:
            raise FakeDiscordError(f"/{shown} has no option {focused!r} to autocomplete")
        if not target.get("autocomplete"):
            raise FakeDiscordError(
                f"option {focused!r} of /{shown} is not declared with autocomplete"
            )
    result: list[dict[str, Any]] = []
    for option in declared:
        name = option["name"]
        value = values.get(name)
        if name == focused:
            typed = "" if value is None else str(value)
            result.append({"type": option["type"], "name": name, "value": typed, "focused": True})
            continue
        if value is None:
            if option.get("required") and focused is None:
                raise FakeDiscordError(f"/{shown} needs its required option {name!r}")
            continue
        converted = _convert(resolver, f"option {name!r} of /{shown}", option, value)
        result.append({"type": option["type"], "name": name, "value": converted})
    return result


def _convert(resolver: Resolver, where: str, option: dict[str, Any], value: Any) -> Any:
    kind = option["type"]
    if kind == STRING:
        if not isinstance(value, str):
            raise FakeDiscordError(f"{where} takes a string, not {value!r}")
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise FakeDiscordError(f"{where} must be {low} to {high} characters long")
    elif kind in (INTEGER, NUMBER):
        number_types = (int,) if kind == INTEGER else (int, float)
        if isinstance(value, bool) or not isinstance(value, number_types):
            expected = "an integer" if kind == INTEGER else "a number"
            raise FakeDiscordError(f"{where} takes {expected}, not {value!r}")
        low = option.get("min_value", -_MAX_SAFE_INTEGER)
        high = option.get("max_value", _MAX_SAFE_INTEGER)
        if not low <= value <= high:
            raise FakeDiscordError(f"{where} must be between {low} and {high}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise FakeDiscordError(f"{where} takes True or False, not {value!r}")
    elif kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        return resolver.entity(kind, value, channel_types=option.get("channel_types"), where=where)
    elif kind == ATTACHMENT and isinstance(value, tuple):
        filename, blob = value
        return resolver.attachment(filename, blob)
    else:
        raise FakeDiscordError(f"{where} (type {kind}) cannot take {value!r}")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise FakeDiscordError(f"{where} must be one of {allowed}, not {value!r}")
    return value
