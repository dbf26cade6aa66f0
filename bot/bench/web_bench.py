"""`tabula bench web`: a game page's latency at a steady request rate, and many live
watchers of one game: the time from a move to every watcher, and memory per watcher.

The server runs in this process over a scratch SQLite database on loopback; the load (the
requests, the watchers' connections) comes from a second process, so that the figures
are the server's. Bounded: a few seconds of requests and a handful of moves.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import itertools
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp

from bot.bench.web_load import Load, percentile, run_load
from bot.config import Settings
from bot.services.announcing.notify import NullNotifier
from bot.services.clock import SystemClock
from bot.services.container import Services
from bot.services.games.players import Player
from bot.storage.sqlite import SqliteRepository
from bot.web.server import WebServer
from renderers.samples import random_game

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
    parser.add_argument(
        "--played", type=int, default=120, help="moves played before measuring (default: 120)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    figures = asyncio.run(_bench(args))
    if args.json:
        print(json.dumps(figures))
    else:
        print_figures(figures, args)
    return 0


def print_figures(figures: dict[str, Any], args: argparse.Namespace) -> None:
    """The figures as three lines for people: the machine, the page, the live watchers."""
    page = figures["page"]
    live = figures["live"]
    load = figures["load"]
    print(
        f"machine load (1-minute average): {load['start']:.1f} at the start, "
        f"{load['end']:.1f} at the end, on {os.cpu_count()} cores"
    )
    print(
        f"game page ({args.game}, {figures['board_kb']:.1f} KB of SVG, "
        f"{figures['board_gzip_kb']:.1f} KB gzipped): {page['requests']} "
        f"requests at {args.rate:g}/s: p50 {page['p50_ms']:.1f} ms, p99 {page['p99_ms']:.1f} ms, "
        f"max {page['max_ms']:.1f} ms (target p99 ≤ {TARGET_PAGE_P99_MS:g} ms); "
        f"{page['errors']} errors; server CPU {page['server_cpu_ms']:.1f} ms per page"
    )
    print(
        f"live: {live['watchers']} watchers, {live['moves']} moves: move → every watcher "
        f"p50 {live['p50_ms']:.1f} ms, p99 {live['p99_ms']:.1f} ms, max {live['max_ms']:.1f} ms "
        f"(target p99 ≤ {TARGET_MOVE_P99_MS:g} ms); memory {live['kb_per_watcher']:.1f} KB "
        f"per watcher; {live['missed']} updates missed; {live['event_bytes']:.0f} bytes per "
        f"watcher per move; server CPU {live['server_cpu_ms_per_move']:.0f} ms per move "
        "(the move and its fan-out)"
    )


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def _bench(args: argparse.Namespace) -> dict[str, Any]:
    start_load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="tabula-bench-web-") as folder:
        repository = await SqliteRepository.open(Path(folder) / "bench.sqlite3")
        services = Services.build(repository, SystemClock(), NullNotifier())
        server = WebServer(services, replace(Settings(), web_host="127.0.0.1"), port=0)
        try:
            await server.start()
            figures = await _measure(args, services, server)
            figures["load"] = {"start": start_load, "end": os.getloadavg()[0]}
            return figures
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
    states = random_game(args.game, seed=3, plies=args.played + args.moves)
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
    client = context.Process(target=run_load, args=(load, commands, results))
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
        sizes: list[int] = []
        missed = 0
        cpu_moves = time.process_time()
        for notation in notations[played : played + args.moves]:
            started = time.time()
            await play(notation)
            played += 1
            commands.put(("expect", played, started))
            report = await asyncio.to_thread(results.get, True, 60)
            delays += report["delays"]
            sizes += report["sizes"]
            missed += report["missed"]
        cpu_per_move = (time.process_time() - cpu_moves) * 1000 / max(1, args.moves)
        commands.put("stop")
    finally:
        client.join(timeout=30)
        if client.is_alive():
            client.kill()
    return {
        "board_kb": len(snapshot_board.encode()) / 1024,
        "board_gzip_kb": len(gzip.compress(snapshot_board.encode())) / 1024,
        "page": page,
        "live": {
            "watchers": ready,
            "moves": args.moves,
            "p50_ms": statistics.median(delays) if delays else float("nan"),
            "p99_ms": percentile(delays, 0.99),
            "max_ms": max(delays, default=float("nan")),
            "kb_per_watcher": (after - before) / max(1, ready),
            "missed": missed,
            "event_bytes": statistics.mean(sizes) if sizes else float("nan"),
            "server_cpu_ms_per_move": cpu_per_move,
        },
    }
