"""The servers' docs pages say what the code does: every permission, the invite's number."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.discord_ui.permissions import NEEDED, PERMISSIONS, invite_permissions
from tests.fakediscord import permissions as fake_permissions

DOCS = Path(__file__).resolve().parents[1] / "docs" / "servers"


def test_every_permission_is_listed_in_the_docs_and_the_hint() -> None:
    """Each permission the bot uses is in the docs' table and in the hint players see,
    the docs give the invite's number, and the fake grants the bot exactly that."""
    page = (DOCS / "permissions.md").read_text()
    for needed in PERMISSIONS:
        assert f"| {needed.name} | {needed.why} |" in page
        assert needed.name in NEEDED
        assert getattr(discord.Permissions(invite_permissions()), needed.flag)
    assert f"`{invite_permissions()}`" in page
    assert invite_permissions() == fake_permissions.DEFAULT_BOT
    names = {
        "Manage Threads",
        "Read Message History",
        "Embed Links",
        "Attach Files",
        "Send Messages in Threads",
        "Create Public Threads",
    }
    assert names <= {needed.name for needed in PERMISSIONS}
