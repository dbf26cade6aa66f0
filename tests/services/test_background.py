"""Background: work after the request, awaited by settle(), failures logged."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

import pytest

from bot.services.background import Background


async def test_work_runs_as_tasks_and_settle_waits_for_follow_ups() -> None:
    """Work starts at once; settle() also waits for work that work started."""
    background = Background()
    done: list[str] = []

    async def second() -> None:
        await asyncio.sleep(0.01)
        done.append("second")

    async def first() -> None:
        await asyncio.sleep(0)
        done.append("first")
        background.run("second", second)

    background.run("first", first)
    assert background.pending == 1 and done == []
    await background.settle()
    assert done == ["first", "second"] and background.pending == 0


async def test_deferred_work_waits_for_settle_in_order() -> None:
    """Deferred work (the console) runs only in settle(), in the order it was given."""
    background = Background(deferred=True)
    done: list[int] = []

    async def note(value: int) -> None:
        done.append(value)

    for value in (1, 2, 3):
        background.run(f"note {value}", partial(note, value))
    await asyncio.sleep(0.01)
    assert done == [] and background.pending == 3
    await background.settle()
    assert done == [1, 2, 3]


async def test_a_failure_is_logged_and_the_rest_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    """A failing piece of work is logged with its traceback and does not stop others."""
    background = Background()
    done: list[str] = []

    async def broken() -> None:
        raise RuntimeError("boom")

    async def fine() -> None:
        done.append("fine")

    with caplog.at_level(logging.ERROR):
        background.run("broken work", broken)
        background.run("fine work", fine)
        await background.settle()
    assert done == ["fine"]
    assert "background work 'broken work' failed" in caplog.text and "boom" in caplog.text


async def test_close_cancels_running_work() -> None:
    """At shutdown, running work is cancelled and queued work dropped."""
    background = Background()
    started = asyncio.Event()

    async def slow() -> None:
        started.set()
        await asyncio.sleep(10)

    background.run("slow", slow)
    await started.wait()
    await background.close()
    assert background.pending == 0
