"""Every permission the bot uses, why, and the number an invite asks for."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True, slots=True)
class Needed:
    """A permission the bot uses: its name in Discord's settings, its flag, and why."""

    name: str
    flag: str
    """The attribute of `discord.Permissions`."""
    why: str


PERMISSIONS = (
    Needed("View Channel", "view_channel", "see the channels where games are played"),
    Needed("Send Messages", "send_messages", "post challenges, boards and reminders"),
    Needed(
        "Send Messages in Threads",
        "send_messages_in_threads",
        "post each game's boards in its thread",
    ),
    Needed("Create Public Threads", "create_public_threads", "open a thread for each game"),
    Needed(
        "Manage Threads",
        "manage_threads",
        "unarchive a game's thread that archived while the game waited",
    ),
    Needed(
        "Read Message History",
        "read_message_history",
        "find a message it posted before a restart, so nothing is posted twice",
    ),
    Needed("Embed Links", "embed_links", "show histories and ratings as embeds"),
    Needed("Attach Files", "attach_files", "attach board pictures, replays and game records"),
)
"""What the bot's invite asks for, in the order Discord's settings list them."""


def invite_permissions() -> int:
    """The permissions number of the invite: exactly `PERMISSIONS`."""
    return discord.Permissions(**{p.flag: True for p in PERMISSIONS}).value


NEEDED = (
    "A moderator can give me "
    + ", ".join(p.name for p in PERMISSIONS[:-1])
    + f" and {PERMISSIONS[-1].name} in this channel."
)
"""The hint after Discord refused the bot something: every permission it uses."""
