"""A bare HTTP client for the fake's REST API (fixture `api`), and request-body helpers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import aiohttp

from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.interactions import FakeInteraction, InteractionType
from tests.fakediscord.state import FakeChannel, FakeUser


class Api:
    """A bare HTTP client for the fake's REST API, authorised as the bot."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session
        self.auth = {"Authorization": f"Bot {fake.token}"}
        self.headers: Mapping[str, str] = {}
        """The headers of the last response."""

    async def call(
        self, method: str, path: str, body: Any = None, *, auth: bool = True, **kwargs: Any
    ) -> tuple[int, Any]:
        """Send a request; returns the status and the decoded JSON body (None if empty)."""
        headers = dict(self.auth) if auth else {}
        if body is not None:
            kwargs["json"] = body
        async with self.session.request(
            method, self.fake.api_url + path, headers=headers, **kwargs
        ) as response:
            raw = await response.read()
            self.headers = response.headers
            if raw:
                assert response.headers["Content-Type"] == "application/json"
            return response.status, json.loads(raw) if raw else None

    async def post_message(self, channel: FakeChannel, body: dict[str, Any]) -> tuple[int, Any]:
        """POST a message to a channel."""
        return await self.call("POST", f"/channels/{channel.id}/messages", body)


def command(user: FakeUser, channel: FakeChannel, fake: FakeDiscord) -> FakeInteraction:
    """An application command interaction the test answers itself (no bot involved)."""
    data = {"id": "1", "name": "play", "type": 1, "options": []}
    return FakeInteraction(fake.world, InteractionType.APPLICATION_COMMAND, user, channel, data)


def row(*buttons: dict[str, Any]) -> dict[str, Any]:
    """An action row."""
    return {"type": 1, "components": list(buttons)}


def button(custom_id: str, label: str = "Go", **extra: Any) -> dict[str, Any]:
    """A button."""
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def first_error(body: dict[str, Any]) -> tuple[list[str], str]:
    """The path and code of the first nested error of a 50035 body."""
    path: list[str] = []
    node = body["errors"]
    while "_errors" not in node:
        key = next(iter(node))
        path.append(key)
        node = node[key]
    return path, node["_errors"][0]["code"]
