"""The web pages beside the real bot and the fake Discord: one board per move in the
thread whichever side played it, a Discord move on the page, /link and the Board button."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.client import TabulaBot
from bot.config import Settings
from bot.services.views.results import MoveResult
from tests.discord.test_e2e import challenge_and_accept, move
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser
from tests.web.browser import chromium, click_cell, wait_ply

LINK = re.compile(r"(http://\S+/signin\?t=\S+)")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def running(
    fake: FakeDiscord, database: Path, web_url: str | None = None
) -> AsyncIterator[TabulaBot]:
    """The bot with its web pages on a free port, connected to the fake."""
    settings = Settings(token=fake.token, database=database, web_port=free_port(), web_url=web_url)
    bot = TabulaBot(settings, web=True, tick_seconds=0.05, guild_ready_timeout=0.05)
    async with fake.run_client(bot):
        await bot.sync_commands()
        yield bot


async def link_of(fake: FakeDiscord, user: FakeUser, thread: FakeChannel) -> str:
    """/link in the game's thread: the private answer's sign-in link."""
    response = await (await fake.slash(user, thread, "link")).response()
    assert response.ephemeral and response.message is not None
    found = LINK.search(response.message.content)
    assert found, response.message.content
    return found[1]


SHOWN_AT = """() => {
    // When the page shows each number of moves played (the clock all processes share).
    window.shownAt = {};
    const ply = document.getElementById("ply");
    new MutationObserver(() => { window.shownAt[ply.dataset.ply] ??= Date.now(); })
        .observe(ply, { attributes: true });
}"""

LIVE_SECONDS = 1.0
"""How soon a move must show on an open page, from its commit."""


def board_link(message: FakeMessage) -> str | None:
    """The address of a board message's "Board" link button."""
    for component in message.iter_components():
        if component.get("label") == "Board":
            return str(component["url"])
    return None


async def test_moves_from_both_sides_reach_the_thread_once(
    fake_club: FakeClub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Clicks on the page and /move in Discord alternate: every move is one board in the
    thread, and each Discord move shows on the open page within a second of its commit
    (timed from the commit to the page's change, on the one clock of the machine: what
    is timed is the push and the page's work, not the test's polling)."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "w.sqlite3") as bot:
        assert bot.web is not None
        assert f"web: http://127.0.0.1:{bot.web.port}/" in capsys.readouterr().out.splitlines()
        published: list[float] = []  # when each commit changing a game was told, at once
        bot.services.repository.changes.subscribe(lambda _game: published.append(time.time()))
        committed: dict[int, float] = {}

        async def note_commit(result: MoveResult) -> None:
            committed[result.move.ply] = published[-1]  # the move's own commit, just told

        bot.services.games.move_hooks.insert(0, note_commit)
        first, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        assert board_link(first) == f"{bot.web.base}g/1"
        stranger = await (await fake.slash(fake_club.carol, thread, "link")).response()
        assert stranger.ephemeral and stranger.message is not None
        assert "You do not play in game #1" in stranger.message.content
        drops = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
        delays = []
        async with chromium() as browser:
            page = await (await browser.new_context()).new_page()
            await page.goto(await link_of(fake, alice, thread))
            await page.evaluate(SHOWN_AT)
            for ply, cell in enumerate(drops, 1):
                if ply % 2:
                    await click_cell(page, cell)  # Alice on the page
                    await wait_ply(page, ply)
                    continue
                response = await move(fake, bob, thread, cell)  # Bob in Discord
                assert not response.ephemeral
                await wait_ply(page, ply)
                shown = await page.evaluate(f"window.shownAt[{ply}]") / 1000
                delays.append(shown - committed[ply])
            await page.wait_for_selector("text=Alice wins", timeout=15_000)
        assert all(0 <= delay <= LIVE_SECONDS for delay in delays), delays
        await fake.wait_for_message(thread, lambda m: "Alice wins" in m.content, timeout=15)
        boards = [
            m
            for m in thread.messages
            if m.author.id == fake.bot_user.id and re.search(r"Move \d+:", m.content)
        ]
        played = [re.search(r"Move (\d+):", m.content)[1] for m in boards]  # type: ignore[index]
        assert sorted(played, key=int) == [str(n) for n in range(1, len(drops) + 1)]
        assert len(played) == len(set(played)) == len(drops)


async def test_config_web_and_the_board_button(
    fake_club: FakeClub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Behind a proxy (TABULA_WEB_URL) the Board button and /link use the public address,
    which the bot prints at start, and /link says how long what works; /config web:off
    removes the Board button from new boards and /link refuses."""
    fake = fake_club.fake
    public = "https://games.example.org/"
    async with running(fake, tmp_path / "c.sqlite3", web_url=public) as bot:
        assert bot.web is not None
        started = f"web: http://127.0.0.1:{bot.web.port}/ (links use {public})"
        assert started in capsys.readouterr().out.splitlines()
        board, thread = await challenge_and_accept(fake_club, {"game": "groups"})
        assert board_link(board) == f"{public}g/1"
        link = await (await fake.slash(fake_club.alice, thread, "link")).response()
        assert link.message is not None and link.ephemeral
        assert f"Your board for game #1: {public}signin?t=" in link.message.content
        assert "The link works for 10 minutes" in link.message.content
        assert "signs you in on that browser for 7 days" in link.message.content
        answer = await (
            await fake.slash(fake_club.carol, fake_club.channel, "config", {"web": "off"})
        ).response()
        assert answer.message is not None and "Web pages of games: off" in answer.message.content
        play = await fake.slash(
            fake_club.alice,
            fake_club.channel,
            "play",
            {"opponent": fake_club.bob, "game": "hexade"},
        )
        challenge = (await play.response()).message
        assert challenge is not None
        await fake.click(fake_club.bob, challenge, label="Accept")
        first = await fake.wait_for_message(
            None, lambda m: re.search(r"#2 · [^\n]*\nThe game begins", m.content) is not None
        )
        thread = first.channel
        assert "Board" not in [label for _, label, _ in first.buttons()]
        refused = await (await fake.slash(fake_club.alice, thread, "link")).response()
        assert refused.ephemeral and refused.message is not None
        assert "does not show its games on the web" in refused.message.content
