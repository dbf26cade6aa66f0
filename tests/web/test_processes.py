"""Live pages across processes (PostgreSQL LISTEN/NOTIFY) and across a restart."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from bot.config import Settings
from bot.services.clock import ManualClock
from bot.services.container import Services
from bot.web.server import WebServer
from tests.databases import Backend
from tests.services.conftest import ALICE, BOB, GUILD, RecordingNotifier
from tests.web.browser import chromium, open_as, wait_ply
from tests.web.conftest import Site


async def _states(response: aiohttp.ClientResponse) -> dict[str, object]:
    while True:
        line = (await response.content.readline()).decode()
        if not line:
            raise ConnectionError("the stream ended")
        if line.startswith("data: "):
            return dict(json.loads(line[6:]))


async def test_a_move_in_one_process_reaches_the_pages_of_another(
    postgres_backend: Backend,
) -> None:
    """Two processes over one PostgreSQL database: a move stored by the first is pushed
    to a page watching through the second, by the database's notification."""
    clock = ManualClock()
    first = Services.build(await postgres_backend.open(), clock, RecordingNotifier())
    second = Services.build(await postgres_backend.open(), clock, RecordingNotifier())
    await first.settings.update(GUILD, can_manage=True, web="public")
    challenge = await first.challenges.create(
        guild_id=GUILD, channel_id=1, challenger=ALICE, opponent=BOB, game="groups",
        options={"start": "drop"}, colour="white",
    )  # fmt: skip
    game = (await first.challenges.accept(challenge.id, BOB, guild_id=GUILD)).view.record
    server = WebServer(second, Settings(), port=0)
    url = await server.start()
    try:
        async with aiohttp.ClientSession() as http, http.get(f"{url}g/{game.id}/events") as events:
            assert (await asyncio.wait_for(_states(events), 15))["ply"] == 0
            await first.games.play(game.id, ALICE.id, "c3")
            assert (await asyncio.wait_for(_states(events), 15))["ply"] == 1
            await first.games.play(game.id, BOB.id, "c5")
            assert (await asyncio.wait_for(_states(events), 15))["ply"] == 2
    finally:
        await server.stop()


async def test_a_page_reconnects_after_a_restart_and_catches_up(site: Site) -> None:
    """The server stops; a move is made meanwhile; a new server on the same port: the
    open page reconnects by itself and shows the move."""
    view = await site.start_game("groups", options={"start": "drop"})
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        await wait_ply(alice, 0)
        port = site.server.port
        await site.server.stop()
        await site.services.games.play(view.id, ALICE.id, "c3")
        site.server = WebServer(site.services, Settings(), port=port)
        await site.server.start()
        await wait_ply(alice, 1)
