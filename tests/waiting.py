"""Waiting in tests for the event itself, never for a number of event-loop turns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

PATIENCE = 30.0
"""Seconds before a test waiting for something gives up (generous: machines are busy)."""


async def until(condition: Callable[[], bool], what: str, *, patience: float = PATIENCE) -> None:
    """Return once `condition()` holds, looking again whenever other tasks have run;
    fail naming `what` after `patience` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"waited {patience:.0f} s for {what}")
        await asyncio.sleep(0.001)
