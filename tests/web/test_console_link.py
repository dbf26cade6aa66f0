"""The console's /link: the typing user's sign-in link, which opens the game's page."""

from __future__ import annotations

import io
import re
from pathlib import Path

import aiohttp

from bot.config import Settings
from bot.console.app import ConsoleApp
from bot.services.clock import ManualClock
from bot.storage.sqlite import SqliteRepository
from bot.web.server import WebServer


async def test_console_link_signs_the_user_in(tmp_path: Path) -> None:
    """alice> /link prints Alice's link; a move on the page is printed by the console."""
    repo = await SqliteRepository.open(tmp_path / "c.sqlite3")
    out = io.StringIO()
    app = ConsoleApp(repo, ManualClock(), out=out)
    try:
        off = "alice> /link\n"
        await app.run(io.StringIO(off), prompt=False)
        assert "The web pages are not served (TABULA_WEB is off)." in out.getvalue()
        app.web = WebServer(app.services, Settings(), after_action=app.announce, port=0)
        await app.web.start()
        script = "alice> /play groups @bob start=drop colour=white\nbob> /accept\n"
        script += "carol> /link #1\nalice> /link\n"
        await app.run(io.StringIO(script), prompt=False)
        printed = out.getvalue()
        assert "(to carol) You are not playing in this game (alice vs bob)." in printed
        link = re.search(r"\(to alice\) Your board for game #1: (\S+)", printed)
        assert link, printed
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as http:
            async with http.get(link[1]) as page:
                assert page.status == 200
                text = await page.text()
            csrf = re.search(r'data-csrf="([^"]+)"', text)
            assert csrf
            origin = app.web.base.rstrip("/")
            headers = {"Origin": origin, "X-Tabula-CSRF": csrf[1]}
            body = {"moves": ["c3"], "ply": 0}
            async with http.post(f"{app.web.base}g/1/play", json=body, headers=headers) as r:
                assert r.status == 200
        assert "Move 1: alice played c3" in out.getvalue().replace("**", "")
    finally:
        if app.web is not None:
            await app.web.stop()
        await app.computer.close()
        await repo.close()
