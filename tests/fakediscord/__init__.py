"""A small fake Discord (REST + gateway) that the real discord.py client runs against.

See README.md in this folder for the API and the subset of Discord it implements.
"""

from __future__ import annotations

from tests.fakediscord.errors import DiscordHTTPError, FakeDiscordError, FakeDiscordTimeout
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.interactions import FakeInteraction, FakeModal, FakeResponse
from tests.fakediscord.rest import FailureRule, HoldRule, RequestLog
from tests.fakediscord.state import (
    Button,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)

__all__ = [
    "Button",
    "DiscordHTTPError",
    "FailureRule",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeDiscordTimeout",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeModal",
    "FakeResponse",
    "FakeRole",
    "FakeUser",
    "HoldRule",
    "RequestLog",
]
