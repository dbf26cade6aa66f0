"""Fixtures of the web tests: the services over each backend, with the web server on a
free port, and visitors signed in (or not) by the same links the bot gives players."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot.config import Settings
from bot.services.clock import ManualClock
from bot.services.container import Services
from bot.services.games.players import Player
from bot.services.views.results import GameView
from bot.web.server import WebServer
from tests.databases import Backend
from tests.services.conftest import ALICE, BOB, CAROL, GUILD, Env, RecordingNotifier, build

__all__ = ["ALICE", "BOB", "CAROL", "GUILD", "Event", "Site", "Visitor", "next_event"]


@dataclass
class Visitor:
    """A browser without JavaScript: an HTTP client with its own cookies."""

    site: Site
    http: aiohttp.ClientSession
    csrf: str = ""
    origin: str = ""

    async def get(self, path: str) -> aiohttp.ClientResponse:
        """GET a path of the site (the body is read)."""
        response = await self.http.get(self.site.url + path.lstrip("/"), allow_redirects=True)
        await response.read()
        return response

    async def post(
        self, path: str, body: object, *, origin: str | None = None, csrf: str | None = None
    ) -> aiohttp.ClientResponse:
        """POST JSON as the page's script does (its origin and anti-forgery header)."""
        headers = {"Origin": self.site.url.rstrip("/") if origin is None else origin}
        headers["X-Tabula-CSRF"] = self.csrf if csrf is None else csrf
        response = await self.http.post(
            self.site.url + path.lstrip("/"), json=body, headers=headers
        )
        await response.read()
        return response


@dataclass(frozen=True)
class Event:
    """One Server-Sent Event as a page receives it."""

    kind: str
    """The event's name: `message` unless it says otherwise."""
    data: dict[str, Any]
    id: str | None
    size: int
    """Its bytes on the wire."""


async def next_event(response: aiohttp.ClientResponse) -> Event:
    """The next event of a live stream (keep-alives and the retry line skipped);
    `ConnectionError` if the stream ends first."""
    kind, data, event_id, size = "message", None, None, 0
    while True:
        line = await response.content.readline()
        if not line:
            raise ConnectionError("the stream ended")
        size += len(line)
        text = line.decode().rstrip("\n")
        if text.startswith("event: "):
            kind = text[7:]
        elif text.startswith("id: "):
            event_id = text[4:]
        elif text.startswith("data: "):
            data = json.loads(text[6:])
        elif not text and data is not None:
            return Event(kind, data, event_id, size)
        elif not text:
            kind, event_id, size = "message", None, 0


@dataclass
class Site:
    """The services and the web server over one test database."""

    env: Env
    server: WebServer
    url: str
    visitors: list[Visitor] = field(default_factory=list)

    @property
    def services(self) -> Services:
        """The services the pages use."""
        return self.env.services

    async def start_game(self, game: str = "groups", **kwargs: object) -> GameView:
        """Alice (White) challenges Bob, who accepts."""
        return await self.env.start(game, **kwargs)  # type: ignore[arg-type]

    async def visitor(self) -> Visitor:
        """A new browser, signed in as nobody."""
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        found = Visitor(self, http)
        self.visitors.append(found)
        return found

    async def signed_in(self, player: Player, game_id: int) -> Visitor:
        """A browser that opened `player`'s sign-in link for the game."""
        visitor = await self.visitor()
        record = await self.services.games.record(game_id)
        link = self.server.links.sign_in(record, player.id, player.name)
        response = await visitor.get(urlsplit(link).path + "?" + urlsplit(link).query)
        assert response.status == 200, await response.text()
        page = await response.text()
        marker = 'data-csrf="'
        start = page.index(marker) + len(marker)
        visitor.csrf = page[start : page.index('"', start)]
        return visitor


CHECK_SECONDS = 0.1
"""How often the tests' servers check open live pages against `/config web`."""


@asynccontextmanager
async def serving(backend: Backend) -> AsyncIterator[Site]:
    """The web server on a free port over services on `backend`."""
    repo = await backend.open()
    clock = ManualClock()
    notifier = RecordingNotifier()
    env = Env(backend, repo, clock, notifier, build(repo, clock, notifier))
    server = WebServer(
        env.services, Settings(), port=0, setting_seconds=0, check_seconds=CHECK_SECONDS
    )
    url = await server.start()
    found = Site(env, server, url)
    try:
        yield found
    finally:
        for visitor in found.visitors:
            await visitor.http.close()
        await found.server.stop()


@pytest.fixture
async def site(backend: Backend) -> AsyncIterator[Site]:
    """The web server on a free port over services on each backend."""
    async with serving(backend) as found:
        yield found
