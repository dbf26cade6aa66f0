"""The web pages beside the real bot and the fake Discord: one board per move in the
thread whichever side played it, a Discord move on the page, /link and the Board button."""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.client import TabulaBot
from bot.config import Settings
from tests.discord.test_e2e import challenge_and_accept, move
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel, FakeUser
from tests.web.browser import chromium, click_cell, wait_ply

LINK = re.compile(r"(http://\S+/signin\?t=\S+)")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def running(fake: FakeDiscord, database: Path) -> AsyncIterator[TabulaBot]:
    """The bot with its web pages on a free port, connected to the fake."""
    settings = Settings(token=fake.token, database=database, web_port=free_port())
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


async def test_moves_from_both_sides_reach_the_thread_once(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Clicks on the page and /move in Discord alternate: every move is one board in the
    thread, and the page shows the Discord moves live."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "w.sqlite3") as bot:
        assert bot.web is not None
        first, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        assert "Board" in [label for _, label, _ in first.buttons()]
        stranger = await (await fake.slash(fake_club.carol, thread, "link")).response()
        assert stranger.ephemeral and stranger.message is not None
        assert "You do not play in game #1" in stranger.message.content
        drops = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
        async with chromium() as browser:
            page = await (await browser.new_context()).new_page()
            await page.goto(await link_of(fake, alice, thread))
            for ply, cell in enumerate(drops):
                if ply % 2 == 0:
                    await click_cell(page, cell)  # Alice on the page
                else:
                    response = await move(fake, bob, thread, cell)  # Bob in Discord
                    assert not response.ephemeral
                await wait_ply(page, ply + 1)
            await page.wait_for_selector("text=Alice wins", timeout=15_000)
        await fake.wait_for_message(thread, lambda m: "Alice wins" in m.content, timeout=15)
        boards = [
            m
            for m in thread.messages
            if m.author.id == fake.bot_user.id and re.search(r"Move \d+:", m.content)
        ]
        played = [re.search(r"Move (\d+):", m.content)[1] for m in boards]  # type: ignore[index]
        assert sorted(played, key=int) == [str(n) for n in range(1, len(drops) + 1)]
        assert len(played) == len(set(played)) == len(drops)


async def test_config_web_and_the_board_button(fake_club: FakeClub, tmp_path: Path) -> None:
    """/config web:off removes the Board button from new boards and /link refuses."""
    fake = fake_club.fake
    async with running(fake, tmp_path / "c.sqlite3"):
        answer = await (
            await fake.slash(fake_club.carol, fake_club.channel, "config", {"web": "off"})
        ).response()
        assert answer.message is not None and "Web pages of games: off" in answer.message.content
        first, thread = await challenge_and_accept(fake_club, {"game": "hexade"})
        assert "Board" not in [label for _, label, _ in first.buttons()]
        refused = await (await fake.slash(fake_club.alice, thread, "link")).response()
        assert refused.ephemeral and refused.message is not None
        assert "does not show its games on the web" in refused.message.content
