"""The system's Chromium driven by Playwright (never a browser Playwright downloads)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

from bot.services.games.players import Player
from tests.web.conftest import Site

CHROMIUM = Path("/usr/bin/chromium")
WAIT_MS = 15_000
"""How long a page may take to show what is awaited (generous: the machine is shared)."""


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


async def open_as(
    browser: Browser, site: Site, player: Player | None, game_id: int, *, width: int = 800
) -> Page:
    """A page of its own (own cookies) on the game, signed in by `player`'s link."""
    context = await browser.new_context(viewport={"width": width, "height": 900})
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
