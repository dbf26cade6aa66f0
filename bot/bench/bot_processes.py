"""The real bot in child processes against the fake Discord (benchmarks, kill tests).

Each `BotProcess` runs `tabula run`'s bot (the sharded client when it has shards) in a
process of its own, optionally pinned to one CPU, pointed at the fake's REST and gateway
URLs. It answers "cpu" (its CPU time so far) and "stop" (a graceful close) over a pipe;
`kill()` ends it as `kill -9` would.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import discord
import yarl

from bot.client import create_bot
from bot.config import Settings
from bot.runtime import tune_garbage_collector
from bot.storage.opening import is_postgres_url, parse_location
from bot.storage.postgres import scratch_schema

T = TypeVar("T")


@dataclass(frozen=True)
class BotTarget:
    """Where a bot process connects, what it stores, its shards and the CPU it runs on."""

    api_url: str
    gateway_url: str
    token: str
    database: str
    """A SQLite file path or a PostgreSQL URL."""
    cpu: int | None = None
    """The CPU the bot may use; None leaves it unpinned."""
    synchronous: str = "FULL"
    shard_count: int = 1
    shard_ids: tuple[int, ...] | None = None
    tick_seconds: float = 5.0
    """How often its scheduler runs."""

    @classmethod
    def of(cls, fake: Any, database: object, **options: Any) -> BotTarget:
        """A target on the fake Discord `fake`."""
        return cls(fake.api_url, fake.gateway.url, fake.token, str(database), **options)


class BotProcess:
    """The bot in a child process, answering "cpu" and "stop" requests."""

    def __init__(self, target: BotTarget, *, name: str = "tabula-bot") -> None:
        context = multiprocessing.get_context("spawn")
        self.target = target
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve_bot, args=(child, target), name=name)
        self.process.start()

    async def cpu_time(self) -> float:
        """The bot process's CPU time so far (all its threads)."""
        self.conn.send("cpu")
        answer: float = await asyncio.to_thread(self.conn.recv)
        return answer

    async def stop(self) -> None:
        """Close the bot and wait for its process to end."""
        if self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send("stop")
            await asyncio.to_thread(self.process.join, 30)
        if self.process.is_alive():
            self.process.terminate()
            await asyncio.to_thread(self.process.join, 10)

    async def kill(self) -> None:
        """End the process at once, as `kill -9` does: nothing is closed or flushed."""
        self.process.kill()
        await asyncio.to_thread(self.process.join, 10)


def serve_bot(conn: Any, target: BotTarget) -> None:
    """The child process: point discord.py at the fake, pin to one CPU, run the bot."""
    if target.cpu is not None:
        os.sched_setaffinity(0, {target.cpu})
    logging.basicConfig(level=logging.WARNING)
    tune_garbage_collector()  # as `tabula run` does
    discord.http.Route.BASE = target.api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(target.gateway_url)
    asyncio.run(_serve(conn, target))


async def _serve(conn: Any, target: BotTarget) -> None:
    settings = Settings(
        token=target.token,
        database=parse_location(target.database),
        sqlite_synchronous=target.synchronous,
        shard_count=target.shard_count,
        shard_ids=target.shard_ids,
    )
    bot = create_bot(settings, tick_seconds=target.tick_seconds, guild_ready_timeout=0.05)
    await bot.login(target.token)  # `tabula sync-commands`, then the gateway (`tabula run`)
    await bot.sync_commands()
    task = asyncio.create_task(bot.connect())
    try:
        while not task.done():
            await asyncio.sleep(0.05)
            if conn.poll():
                request = conn.recv()
                if request == "cpu":
                    conn.send(time.process_time())
                elif request == "stop":
                    break
    finally:
        await bot.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


async def in_database(
    url: str | None, scratch_file: Path, prefix: str, work: Callable[[str], Awaitable[T]]
) -> T:
    """Run `work` on a database for one run: `scratch_file` (SQLite) without a URL, else a
    schema of its own in the PostgreSQL database at `url`, dropped afterwards (named
    `prefix` and a random part), so that a community's tables are never touched."""
    if url is None or not is_postgres_url(url):
        return await work(url or str(scratch_file))
    async with scratch_schema(url, prefix) as scratch:
        return await work(scratch)
