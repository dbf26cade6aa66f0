"""The computer player's worker processes end with the bot, even when it is killed.

A worker waits for work on a pipe that it holds open itself, so without help it would
outlive a bot killed with SIGKILL for ever (one more orphan per crash).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GONE_WITHIN = 10.0
"""Seconds the workers may take to end after the bot died (they take well under one)."""

BOT = """
import asyncio, multiprocessing, sys, time
from concurrent.futures import ProcessPoolExecutor
from bot.services.computer import runner as computer_runner
from bot.services.computer.runner import TurnRequest, TurnRunner
from rules import get_game

how = sys.argv[1]
if how == "runner":
    runner = TurnRunner(workers=2)
    request = TurnRequest("groups", get_game("groups").new_game().encode(), "hard", 0.3, 1)
    async def think_twice():
        await asyncio.gather(runner.choose(request), runner.choose(request))
    asyncio.run(think_twice())
else:
    pool = ProcessPoolExecutor(
        2, mp_context=multiprocessing.get_context("spawn"),
        initializer=getattr(computer_runner, how),
    )
    for future in [pool.submit(time.sleep, 0.3) for _ in range(2)]:
        future.result()
print("ready", flush=True)
time.sleep(600)
"""


def children_of(pid: int) -> dict[int, str]:
    """The processes whose parent is `pid`, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == pid:
            found[int(entry.name)] = command
    return found


def running(pids: set[int]) -> set[int]:
    """Those of `pids` that still run (a zombie waiting to be reaped has ended)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds processes in /proc")
@pytest.mark.parametrize(
    "how",
    [
        "runner",  # TurnRunner's pool: both ways together, as the bot runs them
        pytest.param(
            "kill_on_parent_death",
            marks=pytest.mark.skipif(sys.platform != "linux", reason="Linux only"),
        ),
        "watch_parent",  # the portable way alone
    ],
)
def test_workers_end_when_the_bot_is_killed(how: str) -> None:
    """Kill a process that started two workers with SIGKILL: every child it had ends."""
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT, how],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    children: dict[int, str] = {}
    try:
        assert bot.stdout is not None
        assert bot.stdout.readline() == "ready\n"
        children = children_of(bot.pid)
        workers = [pid for pid, command in children.items() if "spawn_main" in command]
        assert len(workers) == 2, children
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait()
        deadline = time.monotonic() + GONE_WITHIN
        while running(set(children)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert running(set(children)) == set()
    finally:
        bot.kill()
        bot.wait()
        for pid in running(set(children)):
            os.kill(pid, signal.SIGKILL)
