"""What the fake Discord holds: users, guilds, roles, members, channels, threads, messages.

Every object renders itself as the JSON payload Discord would send (`payload()`).
"""

from __future__ import annotations

import datetime as dt
import mimetypes
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from tests.fakediscord import permissions as perm

if TYPE_CHECKING:
    from tests.fakediscord.interactions import FakeInteraction

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Message types.
DEFAULT_MESSAGE = 0
THREAD_CREATED = 18
REPLY = 19
CHAT_INPUT_COMMAND = 20

# Gateway intents.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_GUILD_MESSAGE_REACTIONS = 1 << 10
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def iso(timestamp: float) -> str:
    """A Unix time as Discord's ISO 8601 timestamp."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).isoformat()


class Hub(Protocol):
    """What the objects need from the fake that owns them (ids, clock, gateway events)."""

    base_url: str

    def new_id(self) -> int:
        """A fresh snowflake."""
        ...

    def now(self) -> float:
        """The fake's clock (Unix seconds)."""
        ...

    def register_channel(self, channel: FakeChannel) -> None:
        """Index a new channel or thread."""
        ...

    def announce(self, event: str, data: dict[str, Any], intent: int = INTENT_GUILDS) -> None:
        """Dispatch a gateway event to the connected bot, if it asked for `intent`."""
        ...


@dataclass(eq=False)
class FakeUser:
    """A Discord user (a player, or the bot itself)."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    accepts_dms: bool = True
    """False: the bot's DMs fail with 50007, as for a user who closed their DMs."""

    @property
    def mention(self) -> str:
        """`<@id>`."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The user object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"


@dataclass(eq=False)
class FakeRole:
    """A server role; the @everyone role has the guild's id."""

    id: int
    guild: FakeGuild
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        """`<@&id>`."""
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a server."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole]
    joined_at: float
    nick: str | None = None

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        """The guild member object (`with_user=False`: the partial one inside messages)."""
        data: dict[str, Any] = {
            "roles": [str(role.id) for role in self.roles],
            "joined_at": iso(self.joined_at),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


class FakeGuild:
    """A server: roles (with @everyone), members, text channels and threads."""

    def __init__(self, hub: Hub, guild_id: int, name: str, owner_id: int) -> None:
        self._hub = hub
        self.id = guild_id
        self.name = name
        self.owner_id = owner_id
        self.created_at = hub.now()
        self.everyone = FakeRole(guild_id, self, "@everyone", perm.DEFAULT_EVERYONE)
        self.roles: dict[int, FakeRole] = {guild_id: self.everyone}
        self.members: dict[int, FakeMember] = {}
        self.channels: dict[int, FakeChannel] = {}
        """Text channels by id (threads are in `threads_by_id`)."""
        self.threads_by_id: dict[int, FakeChannel] = {}
        self.bot_role: FakeRole | None = None

    @property
    def threads(self) -> list[FakeChannel]:
        """Every thread in this server, oldest first."""
        return list(self.threads_by_id.values())

    def add_role(self, name: str, permissions: int = 0, *, managed: bool = False) -> FakeRole:
        """Create a role."""
        role = FakeRole(
            self._hub.new_id(), self, name, permissions, position=len(self.roles), managed=managed
        )
        self.roles[role.id] = role
        self._hub.announce("GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": role.payload()})
        return role

    def add_member(
        self,
        user: FakeUser,
        *,
        permissions: int = 0,
        roles: list[FakeRole] | tuple[FakeRole, ...] = (),
        nick: str | None = None,
    ) -> FakeMember:
        """Make `user` a member; `permissions` (permission bits) becomes a role of theirs."""
        if user.id in self.members:
            raise ValueError(f"{user.name} is already a member of {self.name}")
        member_roles = list(roles)
        if permissions:
            member_roles.append(self.add_role(f"{user.name} permissions", permissions))
        member = FakeMember(user, self, member_roles, self._hub.now(), nick)
        self.members[user.id] = member
        payload = member.payload()
        payload["guild_id"] = str(self.id)
        self._hub.announce("GUILD_MEMBER_ADD", payload, intent=INTENT_GUILD_MEMBERS)
        return member

    def remove_member(self, user: FakeUser) -> None:
        """`user` leaves the server (or is kicked); GUILD_MEMBER_REMOVE goes only to bots
        with the privileged GUILD_MEMBERS intent, as on Discord."""
        del self.members[user.id]
        payload = {"guild_id": str(self.id), "user": user.payload()}
        self._hub.announce("GUILD_MEMBER_REMOVE", payload, intent=INTENT_GUILD_MEMBERS)

    def member(self, user: FakeUser) -> FakeMember | None:
        """`user`'s membership, or None."""
        return self.members.get(user.id)

    def add_channel(
        self,
        name: str,
        *,
        allow_threads: bool = True,
        topic: str | None = None,
        announcement: bool = False,
    ) -> FakeChannel:
        """Create a text channel; `allow_threads=False` denies the bot thread creation there."""
        channel = FakeChannel(
            self._hub,
            self._hub.new_id(),
            GUILD_ANNOUNCEMENT if announcement else GUILD_TEXT,
            name,
            guild=self,
            position=len(self.channels),
        )
        channel.topic = topic
        if not allow_threads and self.bot_role is not None:
            channel.set_overwrite(self.bot_role, deny=perm.THREAD_CREATION)
        self.channels[channel.id] = channel
        self._hub.register_channel(channel)
        self._hub.announce("CHANNEL_CREATE", channel.payload())
        return channel

    def permissions(self, user: FakeUser, channel: FakeChannel | None = None) -> int:
        """`user`'s permissions in the server, or in `channel` if given."""
        if channel is None:
            return perm.guild_permissions(self, user)
        return perm.channel_permissions(channel, user)

    def payload(self, *, bot_id: int, all_members: bool) -> dict[str, Any]:
        """The GUILD_CREATE payload; members are only the bot unless `all_members`."""
        members = [m.payload() for m in self.members.values() if all_members or m.user.id == bot_id]
        return {
            **self.summary(),
            "joined_at": iso(self.members[bot_id].joined_at) if bot_id in self.members else None,
            "large": len(self.members) >= 250,
            "unavailable": False,
            "member_count": len(self.members),
            "members": members,
            "channels": [c.payload() for c in self.channels.values() if not c.deleted],
            "threads": [
                t.payload(bot_id=bot_id)
                for t in self.threads_by_id.values()
                if not t.archived and not t.deleted
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def summary(self) -> dict[str, Any]:
        """The guild object as `GET /guilds/{id}` returns it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "approximate_member_count": len(self.members),
            "approximate_presence_count": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} {self.id}>"


class FakeChannel:
    """A text channel, a thread (`parent` set) or a DM (`recipient` set)."""

    def __init__(
        self,
        hub: Hub,
        channel_id: int,
        channel_type: int,
        name: str,
        *,
        guild: FakeGuild | None = None,
        parent: FakeChannel | None = None,
        owner_id: int | None = None,
        recipient: FakeUser | None = None,
        position: int = 0,
    ) -> None:
        self._hub = hub
        self.id = channel_id
        self.type = channel_type
        self.name = name
        self.guild = guild
        self.parent = parent
        self.owner_id = owner_id
        self.recipient = recipient
        self.position = position
        self.topic: str | None = None
        self.created_at = hub.now()
        self.messages: list[FakeMessage] = []
        """Every message visible in the channel, oldest first (ephemeral ones are not)."""
        self.threads: list[FakeChannel] = []
        """Threads started in this channel."""
        self.overwrites: list[dict[str, Any]] = []
        self.deleted = False
        self.stamp = channel_id
        """An id-like stamp of the creation, compared by `after=` in waits."""
        self.last_message_id: int | None = None
        # Threads only.
        self.archived = False
        self.locked = False
        self.invitable = True
        self.auto_archive_duration = 1440
        self.archived_at: float | None = None
        """When the archive status or duration last changed (Discord's `archive_timestamp`)."""
        self.last_activity = self.created_at
        """The last message, unarchiving or change of `auto_archive_duration` (threads)."""
        self.thread_member_ids: list[int] = []
        """Users who joined the thread, in order (the bot joins threads it creates)."""
        self.total_message_sent = 0

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread."""
        return self.type in THREAD_TYPES

    @property
    def is_private_thread(self) -> bool:
        """Whether this is a private thread."""
        return self.type == PRIVATE_THREAD

    @property
    def is_dm(self) -> bool:
        """Whether this is a direct message channel."""
        return self.type == DM

    @property
    def mention(self) -> str:
        """`<#id>`."""
        return f"<#{self.id}>"

    def participant_ids(self) -> tuple[int, ...]:
        """For a DM: the recipient's id (the bot is the other side)."""
        return (self.recipient.id,) if self.recipient is not None else ()

    def set_overwrite(
        self, target: FakeRole | FakeUser | FakeMember, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a permission overwrite for a role or a member of the server."""
        if isinstance(target, FakeMember):
            target = target.user
        kind = 0 if isinstance(target, FakeRole) else 1
        self.overwrites = [o for o in self.overwrites if int(o["id"]) != target.id]
        self.overwrites.append(
            {"id": str(target.id), "type": kind, "allow": str(allow), "deny": str(deny)}
        )

    def payload(self, *, bot_id: int | None = None) -> dict[str, Any]:
        """The channel object (threads include `member` when `bot_id` has joined)."""
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": _opt_id(self.last_message_id),
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "last_message_id": _opt_id(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
            "nsfw": False,
        }
        if not self.is_thread:
            data.update(
                position=self.position,
                permission_overwrites=list(self.overwrites),
                topic=self.topic,
                parent_id=None,
                default_auto_archive_duration=1440,
            )
            return data
        assert self.parent is not None
        metadata: dict[str, Any] = {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": iso(self.archived_at or self.created_at),
            "locked": self.locked,
            "create_timestamp": iso(self.created_at),
        }
        if self.is_private_thread:
            metadata["invitable"] = self.invitable
        data.update(
            parent_id=str(self.parent.id),
            owner_id=str(self.owner_id),
            message_count=len(self.messages),
            member_count=min(len(self.thread_member_ids), 50),
            total_message_sent=self.total_message_sent,
            thread_metadata=metadata,
        )
        if bot_id is not None and bot_id in self.thread_member_ids:
            data["member"] = self.thread_member_payload(bot_id)
        return data

    def thread_member_payload(self, user_id: int) -> dict[str, Any]:
        """The thread member object for `user_id`."""
        return {
            "id": str(self.id),
            "user_id": str(user_id),
            "join_timestamp": iso(self.created_at),
            "flags": 0,
        }

    def __repr__(self) -> str:
        kind = "thread" if self.is_thread else "dm" if self.is_dm else "channel"
        return f"<FakeChannel {kind} {self.name!r} {self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message; `data` holds its bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        """The attachment object; `url` serves the bytes from the fake."""
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
            "description": self.description,
        }
        if self.width is not None:
            data["width"] = self.width
            data["height"] = self.height
        return data


class Button(NamedTuple):
    """A button of a message, as `FakeMessage.buttons()` lists them."""

    custom_id: str | None
    label: str | None
    disabled: bool


@dataclass(eq=False)
class MessageVersion:
    """A message's content before an edit."""

    content: str
    embeds: list[dict[str, Any]]
    attachments: list[FakeAttachment]
    components: list[dict[str, Any]]
    flags: int
    at: float


@dataclass(eq=False)
class FakeMessage:
    """A message in a channel, thread or DM (or an ephemeral one, seen by one user)."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    """The raw component rows (or Components V2 tree) as the bot sent them."""
    flags: int = 0
    type: int = DEFAULT_MESSAGE
    created_at: float = 0.0
    edited_at: float | None = None
    edits: list[MessageVersion] = field(default_factory=list)
    """Earlier versions, oldest first (empty if never edited)."""
    interaction: FakeInteraction | None = None
    """The interaction whose response or follow-up this message is."""
    webhook_id: int | None = None
    mentions: list[FakeUser] = field(default_factory=list)
    """Users mentioned and allowed to be pinged by `allowed_mentions`."""
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    pinged: list[FakeUser] = field(default_factory=list)
    """Users this message notified when it was posted (edits never notify)."""
    reference: FakeMessage | None = None
    """The message this one replies to."""
    thread: FakeChannel | None = None
    """The thread started from this message."""
    reactions: dict[str, list[int]] = field(default_factory=dict)
    """Emoji → ids of the users who reacted."""
    tts: bool = False
    nonce: int | str | None = None
    """The `nonce` the bot sent with Create Message (echoed back, as Discord does)."""
    deleted: bool = False
    changed: int = 0
    """An id-like stamp of the last creation or edit, compared by `after=` in waits."""

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user sees this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still showing "thinking…"."""
        return bool(self.flags & LOADING)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component at any depth (rows, sections, containers, their children)."""
        yield from _walk(self.components)

    def buttons(self) -> list[Button]:
        """Every button: `(custom_id, label, disabled)`; link buttons have no custom_id."""
        return [
            Button(c.get("custom_id"), c.get("label"), bool(c.get("disabled", False)))
            for c in self.iter_components()
            if c.get("type") == BUTTON
        ]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with this custom_id, or None."""
        for c in self.iter_components():
            if c.get("custom_id") == custom_id:
                return c
        return None

    def button_id(self, label: str) -> str:
        """The custom_id of the (first) button labelled `label`."""
        for button in self.buttons():
            if button.label == label and button.custom_id is not None:
                return button.custom_id
        labels = [b.label for b in self.buttons()]
        raise KeyError(f"no button labelled {label!r} on message {self.id}; buttons: {labels}")

    def text(self) -> str:
        """Content, embed titles/descriptions/fields and V2 text displays, one per line."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for f in embed.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        parts.extend(str(c["content"]) for c in self.iter_components() if c.get("type") == 10)
        return "\n".join(parts)

    def payload(self, base_url: str, bot_id: int) -> dict[str, Any]:
        """The message object."""
        channel = self.channel
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at is not None else None,
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [self._mention_payload(u) for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": [a.payload(base_url, channel.id) for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        guild = channel.guild
        if guild is not None:
            data["guild_id"] = str(guild.id)
            member = guild.members.get(self.author.id)
            if member is not None and self.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        if self.reactions:
            data["reactions"] = [
                {
                    "emoji": _emoji_payload(emoji),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": bot_id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata()
        if self.reference is not None:
            ref = self.reference
            data["message_reference"] = {
                "type": 0,
                "message_id": str(ref.id),
                "channel_id": str(ref.channel.id),
            }
            if ref.channel.guild is not None:
                data["message_reference"]["guild_id"] = str(ref.channel.guild.id)
            data["referenced_message"] = None if ref.deleted else ref.payload(base_url, bot_id)
        elif self.type == THREAD_CREATED and self.thread is not None:
            data["message_reference"] = {
                "type": 0,
                "channel_id": str(self.thread.id),
                "guild_id": str(guild.id) if guild else None,
            }
        if self.thread is not None and self.type != THREAD_CREATED:
            data["thread"] = self.thread.payload(bot_id=bot_id)
        return data

    def _mention_payload(self, user: FakeUser) -> dict[str, Any]:
        data = user.payload()
        guild = self.channel.guild
        member = guild.members.get(user.id) if guild is not None else None
        if member is not None:
            data["member"] = member.payload(with_user=False)
        return data

    def snapshot(self) -> MessageVersion:
        """The current content, kept in `edits` before an edit."""
        return MessageVersion(
            self.content,
            list(self.embeds),
            list(self.attachments),
            list(self.components),
            self.flags,
            self.edited_at or self.created_at,
        )

    def __repr__(self) -> str:
        where = self.channel.name
        text = self.content if len(self.content) < 40 else self.content[:37] + "..."
        eph = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage {self.id} in {where!r}{eph} by {self.author.name}: {text!r}>"


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from _walk(c.get("components") or [])
        for key in ("accessory", "component"):
            child = c.get(key)
            if isinstance(child, dict):
                yield from _walk([child])


def _opt_id(value: int | None) -> str | None:
    return None if value is None else str(value)


_CUSTOM_EMOJI = re.compile(r"^(?P<animated>a:)?(?P<name>\w+):(?P<id>\d+)$")


def _emoji_payload(emoji: str) -> dict[str, Any]:
    match = _CUSTOM_EMOJI.match(emoji)
    if match is None:
        return {"id": None, "name": emoji}
    return {"id": match["id"], "name": match["name"], "animated": bool(match["animated"])}


def sniff_content_type(filename: str, data: bytes) -> str | None:
    """The content type Discord would report for an upload (by magic number, then by name)."""
    if data.startswith(_PNG_SIGNATURE):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    guessed, _ = mimetypes.guess_type(filename)
    return guessed


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF, read from its header."""
    if data.startswith(_PNG_SIGNATURE) and len(data) >= 24 and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith((b"GIF87a", b"GIF89a")) and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    return None
