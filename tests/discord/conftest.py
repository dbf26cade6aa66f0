"""Fixtures of the end-to-end tests: a fake Discord with a server on each of two shards."""

from __future__ import annotations

import asyncio
import types
from collections.abc import AsyncIterator

import discord.webhook.async_
import pytest

from tests.discord.sharded import World, two_shards


@pytest.fixture
async def sharded_world() -> AsyncIterator[World]:
    """A fake Discord recommending two shards, with a server on each."""
    async with two_shards() as found:
        yield found


@pytest.fixture
def quick_webhook_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's interaction and webhook requests retry a server error four times,
    waiting 1, 3, 5 and 7 seconds: the same retries, without the waits (what a test
    checks is what the bot does once discord.py gives up, not discord.py's backoff)."""

    async def no_wait(_seconds: float, result: object = None) -> object:
        await asyncio.sleep(0)
        return result

    shim = types.SimpleNamespace(**{name: getattr(asyncio, name) for name in dir(asyncio)})
    shim.sleep = no_wait
    monkeypatch.setattr(discord.webhook.async_, "asyncio", shim)
