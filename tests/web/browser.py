"""The system's Chromium driven by Playwright (never a browser Playwright downloads).

Starting Playwright and Chromium costs seconds, so a test module shares one browser
(`shared_browser`, with its tests in the module's event loop) and each test opens its
own contexts (own cookies) in it (`Pages`), closed after the test.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest
from playwright.async_api import Browser, BrowserContext, Page, Route, async_playwright

from bot.services.games.players import Player
from tests.web.conftest import Site

CHROMIUM = Path("/usr/bin/chromium")
WAIT_MS = 15_000
"""How long a page may take to show what is awaited (generous: the machine is shared)."""

ANSWERS_COUNTED = """
window.tabulaAnswers = 0;
const fetched = window.fetch;
window.fetch = async (...args) => {
    const response = await fetched(...args);
    const read = response.json.bind(response);
    response.json = async () => {
        try {
            return await read();
        } finally {
            // A task, so it runs after every promise chained on this answer.
            setTimeout(() => { window.tabulaAnswers += 1; }, 0);
        }
    };
    return response;
};
"""
"""Counts in `window.tabulaAnswers` the answers the page's script has read and acted on."""


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """Headless Chromium; without it, the test fails under CI and is skipped elsewhere."""
    if not CHROMIUM.exists():
        message = f"Chromium is missing at {CHROMIUM}: install it (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox"], headless=True
        )
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Pages:
    """Opens pages in a browser, each in a context of its own; `close` closes them all."""

    browser: Browser
    contexts: list[BrowserContext] = field(default_factory=list)

    async def open(
        self,
        site: Site,
        player: Player | None,
        game_id: int,
        *,
        width: int = 800,
        colours: Literal["light", "dark"] = "light",
    ) -> Page:
        """A page on the game, signed in by `player`'s link (None: a stranger)."""
        return await open_as(
            self.browser, site, player, game_id, width=width, colours=colours, opened=self
        )

    async def blank(self, *, width: int = 800) -> Page:
        """A page in a new context, at no address yet."""
        context = await self.browser.new_context(viewport={"width": width, "height": 900})
        self.contexts.append(context)
        return await context.new_page()

    async def close(self) -> None:
        """Close every context opened."""
        for context in self.contexts:
            await context.close()
        self.contexts.clear()


async def open_as(
    browser: Browser,
    site: Site,
    player: Player | None,
    game_id: int,
    *,
    width: int = 800,
    colours: Literal["light", "dark"] = "light",
    opened: Pages | None = None,
) -> Page:
    """A page of its own (own cookies) on the game, signed in by `player`'s link."""
    context = await browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=colours
    )
    if opened is not None:
        opened.contexts.append(context)
    page = await context.new_page()
    if player is None:
        await page.goto(f"{site.url}g/{game_id}")
    else:
        record = await site.services.games.record(game_id)
        await page.goto(site.server.links.sign_in(record, player.id, player.name))
    return page


async def click_cell(page: Page, cell: str) -> None:
    """Click a cell or point of the board."""
    await page.locator(f'#board [data-cell="{cell}"]').first.click()


async def click_button(page: Page, label: str) -> None:
    """Click the button with this label."""
    await page.get_by_role("button", name=label, exact=True).click()


async def wait_ply(page: Page, ply: int) -> None:
    """Wait until the page shows `ply` moves played."""
    await page.wait_for_selector(f'[data-ply="{ply}"]', timeout=WAIT_MS)


async def count_answers(page: Page) -> None:
    """Load `page` again, counting the server's answers its script reads and acts on."""
    await page.add_init_script(ANSWERS_COUNTED)
    await page.reload()


async def wait_answers(page: Page, answers: int) -> None:
    """Wait until `page` (under `count_answers`) has acted on `answers` answers."""
    await page.wait_for_function(f"() => window.tabulaAnswers >= {answers}", timeout=WAIT_MS)


async def hold_answers(page: Page, pattern: str) -> asyncio.Event:
    """Hold the server's answers to `page`'s requests to addresses matching `pattern`
    (each request reaches the server at once) until the event returned is set."""
    release = asyncio.Event()

    async def held(route: Route) -> None:
        answer = await route.fetch()
        await release.wait()
        await route.fulfill(response=answer)

    await page.route(pattern, held)
    return release
