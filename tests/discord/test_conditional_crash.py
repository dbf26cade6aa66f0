"""A bot process killed (SIGKILL) between the opponent's move and the conditional reply:
after a restart, the reply is played exactly once and each board posted exactly once.

The bot runs in a child process against the fake Discord of this process. The child is
stopped at one of three moments and killed there:

- `storing`: inside the transaction storing Bob's move, before the reply is stored
  (nothing is committed: Bob's command was never answered, and he plays again);
- `stored`: both moves committed, nothing posted yet;
- `answered`: Bob's board posted as his command's answer, the reply's board not yet.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.client import TabulaBot
from bot.config import Settings
from bot.storage.sqlite import SqliteRepository
from tests.discord.test_e2e import challenge_and_accept, move, private_reply
from tests.fakediscord.fixtures import FakeClub

TIMEOUT = 20.0
REPLY = "Move 3: Alice played **d3**, a conditional move stored in advance."


@dataclass(frozen=True)
class Target:
    """Where the child bot connects and what it stores; where it stops (None: nowhere)."""

    api_url: str
    gateway_url: str
    token: str
    database: Path
    stop_at: str | None


def _pause(conn: Any, stage: str) -> Any:
    """A coroutine function that tells the parent the child reached `stage`, then waits
    for ever (for the SIGKILL)."""

    async def pause(*args: Any, **kwargs: Any) -> Any:
        conn.send(stage)
        await asyncio.Event().wait()

    return pause


def _stop_at(conn: Any, stage: str | None) -> None:
    """Patch the child's bot so that it stops at `stage`."""
    if stage == "storing":
        from bot.services.games.games import GameService

        GameService._play_turn = _pause(conn, stage)  # type: ignore[method-assign]
    elif stage == "stored":
        from bot.discord_ui.flows import Flows

        announce_move = Flows.announce_move
        stop = _pause(conn, stage)

        async def stop_before_answering(self: Flows, reply: Any, result: Any, *rest: Any) -> Any:
            if result.reply is not None:
                await stop()
            return await announce_move(self, reply, result, *rest)

        Flows.announce_move = stop_before_answering  # type: ignore[method-assign,assignment]
    elif stage == "answered":
        from bot.discord_ui.delivery import DiscordNotifier

        move_played = DiscordNotifier.move_played
        pause = _pause(conn, stage)

        async def stop_before_the_reply(self: DiscordNotifier, notice: Any, **kwargs: Any) -> Any:
            if notice.conditional:
                await pause()
            return await move_played(self, notice, **kwargs)

        DiscordNotifier.move_played = stop_before_the_reply  # type: ignore[method-assign]


def run_bot(conn: Any, target: Target) -> None:
    """The child process: point discord.py at the fake, patch, run the bot until SIGTERM."""
    logging.basicConfig(level=logging.WARNING)
    discord.http.Route.BASE = target.api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(target.gateway_url)
    _stop_at(conn, target.stop_at)
    asyncio.run(_serve(target))


async def _serve(target: Target) -> None:
    settings = Settings(token=target.token, database=target.database)
    bot = TabulaBot(settings, tick_seconds=0.05, guild_ready_timeout=0.05)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []  # the loop keeps only weak references to tasks
    loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
    async with bot:
        try:
            await bot.login(target.token)
            await bot.sync_commands()
            await bot.connect()
        finally:
            await bot.close()  # connect() returns before the shutdown is done (as in `serve`)


class ChildBot:
    """The bot in a child process."""

    def __init__(self, club: FakeClub, database: Path, stop_at: str | None = None) -> None:
        fake = club.fake
        target = Target(fake.api_url, fake.gateway.url, fake.token, database, stop_at)
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=run_bot, args=(child, target), daemon=True)
        self.process.start()

    async def reached(self) -> str:
        """The stage the child stopped at."""
        ready = await asyncio.to_thread(self.conn.poll, TIMEOUT)
        assert ready, "the child bot did not reach its stopping point"
        stage: str = self.conn.recv()
        return stage

    async def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, an open transaction left as it is."""
        assert self.process.pid is not None
        os.kill(self.process.pid, signal.SIGKILL)
        await asyncio.to_thread(self.process.join, TIMEOUT)

    async def stop(self) -> None:
        """SIGTERM: a graceful shutdown."""
        self.process.terminate()
        await asyncio.to_thread(self.process.join, TIMEOUT)
        if self.process.is_alive():
            self.process.kill()


async def stored_moves(database: Path) -> list[str]:
    repo = await SqliteRepository.open(database)
    try:
        return [m.notation for m in await repo.list_moves(1)]
    finally:
        await repo.close()


@pytest.mark.parametrize("stage", ["storing", "stored", "answered"])
async def test_a_crash_between_the_move_and_the_reply(
    fake_club: FakeClub, tmp_path: Path, stage: str
) -> None:
    """Killed at `stage`, restarted: Bob's c5 and Alice's conditional d3 are each stored
    and posted once, in that order."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    database = tmp_path / "t.sqlite3"
    first = ChildBot(fake_club, database, stop_at=stage)
    try:
        await fake.wait_until_ready(TIMEOUT)
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        await move(fake, alice, thread, "c3")
        await private_reply(
            fake, fake.slash(alice, thread, "conditional add", {"game": 1, "line": "c5 d3"})
        )
        played = await fake.slash(bob, thread, "move", {"notation": "c5"})
        assert await first.reached() == stage
        await first.kill()
    finally:
        if first.process.is_alive():
            first.process.kill()
    assert await stored_moves(database) == (["c3"] if stage == "storing" else ["c3", "c5", "d3"])
    if stage == "answered":
        answer = (await played.response()).message
        assert answer is not None and "Move 2: Bob played **c5**." in answer.content
    else:
        assert not played.responded

    second = ChildBot(fake_club, database)
    try:
        await fake.wait_until_ready(TIMEOUT)
        if stage == "storing":
            again = (await move(fake, bob, thread, "c5")).message
            assert again is not None and "Move 2: Bob played **c5**." in again.content
        await fake.wait_for_message(thread, lambda m: REPLY in m.content, timeout=TIMEOUT)
        await asyncio.sleep(1.0)  # anything posted twice would come by now
        boards = [m.content.splitlines()[1] for m in thread.messages if "Move " in m.content]
        assert boards == ["Move 1: Alice played **c3**.", "Move 2: Bob played **c5**.", REPLY]
    finally:
        await second.stop()
    assert await stored_moves(database) == ["c3", "c5", "d3"]
