"""Discord permission bits and how a member's permissions in a channel are computed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord_ui.permissions import invite_permissions

if TYPE_CHECKING:
    from tests.fakediscord.state import FakeChannel, FakeGuild, FakeUser

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 51) - 1

THREAD_CREATION = CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS

DEFAULT_EVERYONE = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
"""What a new server's @everyone role may do."""

DEFAULT_BOT = invite_permissions()
"""What the bot's own (managed) role grants unless a test says otherwise: exactly what its
invite asks for, so no test passes on a permission the invite does not ask for."""

DM_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | MENTION_EVERYONE
    | USE_APPLICATION_COMMANDS
)
"""What anyone may do in a direct message."""


def guild_permissions(guild: FakeGuild, user: FakeUser) -> int:
    """A member's server-wide permissions: @everyone plus their roles (owner/admin: all)."""
    member = guild.members.get(user.id)
    if member is None:
        return 0
    if guild.owner_id == user.id:
        return ALL
    perms = guild.everyone.permissions
    for role in member.roles:
        perms |= role.permissions
    if perms & ADMINISTRATOR:
        return ALL
    return perms


def channel_permissions(channel: FakeChannel, user: FakeUser) -> int:
    """A user's permissions in a channel, thread or DM, with the channel's overwrites applied."""
    guild = channel.guild
    if guild is None:
        return DM_PERMISSIONS if user.id in channel.participant_ids() else 0
    perms = guild_permissions(guild, user)
    if perms == ALL:
        return ALL
    member = guild.members.get(user.id)
    if member is None:
        return 0
    target = channel.parent if channel.parent is not None else channel
    role_ids = {role.id for role in member.roles}
    allow_roles = deny_roles = 0
    for overwrite in target.overwrites:
        target_id = int(overwrite["id"])
        if overwrite["type"] == 0 and target_id == guild.id:
            perms = (perms & ~int(overwrite["deny"])) | int(overwrite["allow"])
        elif overwrite["type"] == 0 and target_id in role_ids:
            allow_roles |= int(overwrite["allow"])
            deny_roles |= int(overwrite["deny"])
    perms = (perms & ~deny_roles) | allow_roles
    for overwrite in target.overwrites:
        if overwrite["type"] == 1 and int(overwrite["id"]) == user.id:
            perms = (perms & ~int(overwrite["deny"])) | int(overwrite["allow"])
    if not perms & VIEW_CHANNEL:
        return 0
    outsider = user.id not in channel.thread_member_ids and not perms & MANAGE_THREADS
    if channel.is_private_thread and outsider:
        return 0
    return perms


def has(perms: int, required: int) -> bool:
    """Whether `perms` holds every bit of `required`."""
    return perms & required == required
