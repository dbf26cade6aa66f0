"""Graceful shutdown in the services: the gate, the game locks behind it, the scheduler."""

from __future__ import annotations

import asyncio

import pytest

from bot.services.gate import RESTARTING, Gate, ShuttingDownError
from bot.services.scheduler import Scheduler
from tests.services.conftest import ALICE, BOB, Env
from tests.waiting import PATIENCE, until


async def test_the_gate_counts_work_and_refuses_new_work_once_closed() -> None:
    """Work in progress is counted; after close() new work gets the restarting message."""
    gate = Gate()
    async with gate.enter():
        assert gate.active == 1
        gate.close()
        async with gate.enter():  # part of work admitted before: goes on
            assert gate.active == 2
    assert gate.active == 0
    with pytest.raises(ShuttingDownError, match=RESTARTING):
        async with gate.enter():
            pass
    assert gate.active == 0


async def test_tasks_started_by_admitted_work_are_admitted_too() -> None:
    """A follow-up task (an AI reply, a notification) of admitted work is not cut off."""
    gate = Gate()
    done = asyncio.Event()

    async def follow_up() -> None:
        async with gate.enter():
            done.set()

    async with gate.enter():
        gate.close()
        task = asyncio.create_task(follow_up())
    await task
    assert done.is_set()


async def test_admitting_a_task_lasts_until_it_ends() -> None:
    """The command tree's way: the task counts until it finishes, whatever it awaits."""
    gate = Gate()
    release = asyncio.Event()

    async def handler() -> None:
        gate.admit_current_task()
        gate.admit_current_task()  # twice is once
        await release.wait()

    task = asyncio.create_task(handler())
    await until(lambda: gate.active == 1, "the handler admitted")
    gate.close()
    assert not await gate.wait_idle(0.01)
    release.set()
    await task
    assert await gate.wait_idle(1)
    assert gate.active == 0

    async def late() -> None:
        gate.admit_current_task()

    with pytest.raises(ShuttingDownError):
        await asyncio.create_task(late())


async def test_a_move_in_flight_is_committed_and_later_moves_are_refused(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shutdown while Alice's move is being stored: it completes and is in the database;
    a move in another game, and Bob's reply, are refused; then the database closes."""
    first = await env.start()
    second = await env.start()
    storing, release = asyncio.Event(), asyncio.Event()
    record_move = env.repo.record_move

    async def slow_record_move(*args: object, **kwargs: object) -> object:
        storing.set()
        await release.wait()
        return await record_move(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(env.repo, "record_move", slow_record_move)
    games, gate = env.services.games, env.services.gate
    in_flight = asyncio.create_task(games.play(first.id, ALICE.id, "d3-e2"))
    await storing.wait()
    gate.close()
    with pytest.raises(ShuttingDownError, match="Tabula is restarting"):
        await games.play(second.id, ALICE.id, "d3-e2")
    assert not await gate.wait_idle(0.02)
    release.set()
    result = await in_flight
    assert result.move.notation == "d3-e2"
    assert await gate.wait_idle(1)
    with pytest.raises(ShuttingDownError):
        await games.play(first.id, BOB.id, "e3-e1")
    await env.repo.close()
    reopened = await env.backend.open()
    assert [m.notation for m in await reopened.list_moves(first.id)] == ["d3-e2"]
    assert await reopened.list_moves(second.id) == []


async def test_the_scheduler_stops_after_its_tick() -> None:
    """stop() ends run_forever at once between ticks, and after the tick during one."""
    scheduler = Scheduler(interval=3600)
    ticking, release = asyncio.Event(), asyncio.Event()
    finished: list[str] = []

    async def job() -> None:
        ticking.set()
        await release.wait()
        finished.append("tick")

    scheduler.add("slow", job)
    task = asyncio.create_task(scheduler.run_forever())
    await ticking.wait()
    scheduler.stop()
    await asyncio.sleep(0.01)
    assert not task.done()
    release.set()
    await asyncio.wait_for(task, PATIENCE)
    assert finished == ["tick"]


async def test_an_idle_gate_is_idle_even_without_time_to_wait() -> None:
    """`wait_idle(0)` on an idle gate is True (a shutdown whose time is used up)."""
    assert await Gate().wait_idle(0)
