"""Fixtures of the end-to-end tests: a fake Discord with a server on each of two shards."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord.sharded import World, two_shards


@pytest.fixture
async def sharded_world() -> AsyncIterator[World]:
    """A fake Discord recommending two shards, with a server on each."""
    async with two_shards() as found:
        yield found
