"""`tabula bench web`: a game page's latency at a steady request rate, and many live
watchers of one game: the time from a move to every watcher, and memory per watcher.

The server runs in this process over a scratch SQLite database on loopback; the load (the
requests, the watchers' connections) comes from a second process, so that the figures
are the server's. Bounded: a few seconds of requests and a handful of moves.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp

from bot.config import Settings
from bot.services.clock import SystemClock
from bot.services.container import Services
from bot.services.delivery.notify import NullNotifier
from bot.services.games.players import Player
from bot.storage.sqlite import SqliteRepository
from bot.web.server import WebServer
from renderers.samples import random_game

PLY = re.compile(rb'"ply":(\d+)')
GUILD = 1
ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")
TARGET_PAGE_P99_MS = 50.0
TARGET_MOVE_P99_MS = 200.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench web`."""
    parser = subparsers.add_parser("web", help="web pages: page latency, live watchers")
    parser.add_argument("--rate", type=float, default=100.0, help="page requests per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to request pages")
    parser.add_argument("--watchers", type=int, default=500, help="live pages of one game")
    parser.add_argument("--moves", type=int, default=20, help="moves the watchers must see")
    parser.add_argument("--game", default="rekushu", help="the game shown (default: Rekushu)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    figures = asyncio.run(_bench(args))
    if args.json:
        print(json.dumps(figures))
        return 0
    page = figures["page"]
    live = figures["live"]
    print(
        f"game page ({args.game}, {figures['board_kb']:.1f} KB of SVG): {page['requests']} "
        f"requests at {args.rate:g}/s: p50 {page['p50_ms']:.1f} ms, p99 {page['p99_ms']:.1f} ms, "
        f"max {page['max_ms']:.1f} ms (target p99 ≤ {TARGET_PAGE_P99_MS:g} ms); "
        f"{page['errors']} errors; server CPU {page['server_cpu_ms']:.1f} ms per page"
    )
    print(
        f"live: {live['watchers']} watchers, {live['moves']} moves: move → every watcher "
        f"p50 {live['p50_ms']:.1f} ms, p99 {live['p99_ms']:.1f} ms, max {live['max_ms']:.1f} ms "
        f"(target p99 ≤ {TARGET_MOVE_P99_MS:g} ms); memory {live['kb_per_watcher']:.1f} KB "
        f"per watcher; {live['missed']} updates missed; server CPU "
        f"{live['server_cpu_ms_per_move']:.0f} ms per move (the move and its fan-out)"
    )
    return 0


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def _bench(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tabula-bench-web-") as folder:
        repository = await SqliteRepository.open(Path(folder) / "bench.sqlite3")
        services = Services.build(repository, SystemClock(), NullNotifier())
        server = WebServer(services, replace(Settings(), web_host="127.0.0.1"), port=0)
        try:
            await server.start()
            return await _measure(args, services, server)
        finally:
            await server.stop()
            await services.computer.close()
            await repository.close()


async def _measure(
    args: argparse.Namespace, services: Services, server: WebServer
) -> dict[str, Any]:
    await services.settings.update(GUILD, can_manage=True, web="public")
    challenge = await services.challenges.create(
        guild_id=GUILD, channel_id=1, challenger=ALICE, opponent=BOB, game=args.game,
        options=None, colour="white",
    )  # fmt: skip
    game = (await services.challenges.accept(challenge.id, BOB, guild_id=GUILD)).view.record
    states = random_game(args.game, seed=3, plies=120 + args.moves)
    notations = [
        before.format_move(after.last_move) for before, after in itertools.pairwise(states)
    ]
    played = 0

    async def play(notation: str) -> None:
        record = await services.games.record(game.id)
        mover = record.players[record.to_move]
        assert mover is not None
        await services.games.play(game.id, mover, notation)

    for notation in notations[: -args.moves]:
        await play(notation)
        played += 1
    url = f"{server.base}g/{game.id}"
    async with aiohttp.ClientSession() as http, http.get(f"{url}/state") as response:
        snapshot_board = str((await response.json())["board"])
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    commands = context.Queue()
    load = Load(url, args.rate, args.seconds, args.watchers)
    client = context.Process(target=_client, args=(load, commands, results))
    cpu_start = time.process_time()
    client.start()
    try:
        page = await asyncio.to_thread(results.get, True, args.seconds + 120)
        page["server_cpu_ms"] = (time.process_time() - cpu_start) * 1000 / page["requests"]
        before = _rss_kb()
        commands.put("watch")
        ready = await asyncio.to_thread(results.get, True, 120)
        after = _rss_kb()
        delays: list[float] = []
        missed = 0
        cpu_moves = time.process_time()
        for notation in notations[played : played + args.moves]:
            started = time.time()
            await play(notation)
            played += 1
            commands.put(("expect", played, started))
            report = await asyncio.to_thread(results.get, True, 60)
            delays += report["delays"]
            missed += report["missed"]
        cpu_per_move = (time.process_time() - cpu_moves) * 1000 / max(1, args.moves)
        commands.put("stop")
    finally:
        client.join(timeout=30)
        if client.is_alive():
            client.kill()
    return {
        "board_kb": len(snapshot_board.encode()) / 1024,
        "page": page,
        "live": {
            "watchers": ready,
            "moves": args.moves,
            "p50_ms": statistics.median(delays) if delays else float("nan"),
            "p99_ms": _percentile(delays, 0.99),
            "max_ms": max(delays, default=float("nan")),
            "kb_per_watcher": (after - before) / max(1, ready),
            "missed": missed,
            "server_cpu_ms_per_move": cpu_per_move,
        },
    }


async def _fetch_state(server: WebServer, game_id: int) -> Any:
    async def fetch() -> dict[str, Any]:
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{server.base}g/{game_id}/state") as r,
        ):
            return dict(await r.json())

    return fetch()


@dataclass(frozen=True)
class Load:
    """What the load process does: pages at `rate` for `seconds`, then `watchers`."""

    url: str
    rate: float
    seconds: float
    watchers: int


def _client(load: Load, commands: Any, results: Any) -> None:
    """The load, in its own process: paced page requests, then live watchers."""
    asyncio.run(_load(load, commands, results))


async def _load(load: Load, commands: Any, results: Any) -> None:
    url, watchers = load.url, load.watchers
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        results.put(await _pages(http, url, load.rate, load.seconds))
        await asyncio.to_thread(commands.get)
        seen: list[dict[int, float]] = [{} for _ in range(watchers)]
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
            delays = [(s[ply] - started) * 1000 for s in seen if ply in s]
            results.put({"delays": delays, "missed": watchers - len(delays)})
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
        "p99_ms": _percentile(latencies, 0.99),
        "max_ms": max(latencies),
        "errors": errors,
    }


async def _watch(
    http: aiohttp.ClientSession, url: str, seen: dict[int, float], opened: asyncio.Event
) -> None:
    async with http.get(url, timeout=aiohttp.ClientTimeout(total=None)) as response:
        async for line in response.content:
            if line.startswith(b"data: "):
                found = PLY.search(line)  # the game's ply comes first; no need to parse all
                assert found is not None
                ply = int(found[1])
                seen.setdefault(ply, time.time())
                opened.set()
