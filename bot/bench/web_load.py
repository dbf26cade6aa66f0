"""The load of `tabula bench web`, run in a process of its own: paced requests for a
game page, then live watchers of it. It imports little (aiohttp), so that it starts fast
and its figures are not the server's."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import dataclass
from typing import Any

import aiohttp


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nan for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@dataclass(frozen=True)
class Load:
    """What the load process does: pages at `rate` for `seconds`, then `watchers`."""

    url: str
    rate: float
    seconds: float
    watchers: int


def run_load(load: Load, commands: Any, results: Any) -> None:
    """The load, in its own process: paced page requests, then live watchers."""
    asyncio.run(_load(load, commands, results))


async def _load(load: Load, commands: Any, results: Any) -> None:
    url, watchers = load.url, load.watchers
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        results.put(await _pages(http, url, load.rate, load.seconds))
        await asyncio.to_thread(commands.get)
        seen: list[dict[int, tuple[float, int]]] = [{} for _ in range(watchers)]
        opened = [asyncio.Event() for _ in range(watchers)]
        tasks = [
            asyncio.create_task(_watch(http, f"{url}/events", seen[i], opened[i]))
            for i in range(watchers)
        ]
        for event in opened:
            await asyncio.wait_for(event.wait(), 60)
        results.put(watchers)
        while True:
            command = await asyncio.to_thread(commands.get)
            if command == "stop":
                break
            _, ply, started = command
            deadline = time.time() + 10
            while time.time() < deadline and not all(ply in s for s in seen):
                await asyncio.sleep(0.01)
            delays = [(s[ply][0] - started) * 1000 for s in seen if ply in s]
            sizes = [s[ply][1] for s in seen if ply in s]
            results.put({"delays": delays, "sizes": sizes, "missed": watchers - len(delays)})
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _pages(
    http: aiohttp.ClientSession, url: str, rate: float, seconds: float
) -> dict[str, Any]:
    latencies: list[float] = []
    errors = 0

    async def one() -> None:
        nonlocal errors
        began = time.perf_counter()
        try:
            async with http.get(url) as response:
                await response.read()
                if response.status != 200:
                    errors += 1
        except aiohttp.ClientError:
            errors += 1
        latencies.append((time.perf_counter() - began) * 1000)

    count = int(rate * seconds)
    start = time.perf_counter()
    tasks = []
    for n in range(count):
        delay = start + n / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one()))
    await asyncio.gather(*tasks)
    return {
        "requests": count,
        "p50_ms": statistics.median(latencies),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": max(latencies),
        "errors": errors,
    }


async def _watch(
    http: aiohttp.ClientSession,
    url: str,
    seen: dict[int, tuple[float, int]],
    opened: asyncio.Event,
) -> None:
    """One live page: when each ply arrived, and the size of the event that brought it
    (the first event is the whole game; the next ones are patches)."""
    async with http.get(url, timeout=aiohttp.ClientTimeout(total=None)) as response:
        async for line in response.content:
            if line.startswith(b"data: "):
                ply = json.loads(line[6:]).get("ply")
                if ply is not None and ply not in seen:
                    seen[ply] = (time.time(), len(line))
                opened.set()
