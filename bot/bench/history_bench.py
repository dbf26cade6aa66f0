"""`tabula bench history`: what a large community's history costs.

Fills a database with `--games` finished games (through the repository, in bulk: the
rows, and `--moves` stand-in moves each) among `--players` players of one server, a
rating per player and game,
and some games in progress; then measures, through the services, what /history (first
page and count), /games, /leaderboard and /move ask of the database, as p50/p99 over
random players, with the CPU time of an answer and the machine's load (a tail far above
the CPU time is waiting for a core); and start-up: opening the filled database the way
the bot does (the start-up checks, migrations, query statistics) in a fresh process,
with its time and peak memory (RSS). The Discord side of these commands does not grow
with the history and is measured by `tabula bench bot`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.bench.bot_processes import in_database
from bot.competition.glicko2 import Rating
from bot.services.announcing.notify import NullNotifier
from bot.services.clock import SystemClock
from bot.services.container import Services
from bot.storage.competition import PlayerRating, RatingChange
from bot.storage.opening import is_postgres_url, open_repository
from bot.storage.repository import GameRecord, GameStatus, MoveRecord, NewGame, Repository
from rules import get_game

GUILD = 1_000_001
CHANNEL = 2_000_001
FIRST_USER = 3_000_000
BATCH = 5_000
"""Games stored per transaction while filling."""
GAMES = ("groups", "hexade", "stones")
"""The games the filled history is made of (two opening moves each for /move)."""


@dataclass(frozen=True, slots=True)
class Figures:
    """One command's answer times, in milliseconds: wall-clock p50 and p99, and the
    median CPU time the process spent on an answer (all its threads). A p99 far above
    the CPU time is time spent waiting: for a core, the disk, or the database server."""

    p50: float
    p99: float
    samples: int
    cpu_p50: float = 0.0

    @classmethod
    def of(cls, times: list[float], cpu: list[float] | None = None) -> Figures:
        """p50 and p99 of the times (seconds) as milliseconds."""
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        cpu_p50 = statistics.median(cpu) * 1000 if cpu else 0.0
        return cls(statistics.median(ordered) * 1000, p99 * 1000, len(ordered), cpu_p50)


def _player(index: int) -> int:
    return FIRST_USER + index


def placeholder_moves(game_id: int, record: GameRecord, count: int) -> list[MoveRecord]:
    """`count` stand-in moves of a stored game, to give the file a real history's size
    (what start-up must not read whole); nothing replays them."""
    moment = record.finished_at or record.created_at
    return [
        MoveRecord(game_id, ply, (ply - 1) % 2, record.players[(ply - 1) % 2], "a1-b2", moment)
        for ply in range(1, count + 1)
    ]


def finished_games(count: int, players: int, rng: random.Random) -> list[GameRecord]:
    """`count` finished games between random pairs of `players`, one a minute."""
    start = datetime(2020, 1, 1, tzinfo=UTC)
    games = []
    for number in range(count):
        first, second = rng.sample(range(players), 2)
        moment = start + timedelta(minutes=number)
        winner = rng.choice((0, 1, None))
        games.append(
            GameRecord(
                game=GAMES[number % len(GAMES)],
                options={},
                guild_id=GUILD,
                channel_id=CHANNEL,
                players=(_player(first), _player(second)),
                names=(f"Player {first}", f"Player {second}"),
                created_at=moment,
                rated=True,
                status=GameStatus.FINISHED,
                ply=40,
                winner=winner,
                result_reason="resignation" if winner is not None else "draw agreed",
                updated_at=moment,
                finished_at=moment,
            )
        )
    return games


async def fill(
    repository: Repository,
    *,
    games: int,
    players: int,
    active: int = 50,
    moves: int = 0,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[int]:
    """Store `games` finished games among `players` in an empty database (with `moves`
    stand-in moves each); rate each player in each game once (at the first game they
    played of it), so that every leaderboard is full; start `active` games. The ids of
    the games in progress.

    The database is empty, so the games get the ids 1, 2, 3, ... in the order stored."""
    if await repository.game_ids():
        raise ValueError("the database must be empty to be filled")
    rng = random.Random(seed)
    rated: dict[int, list[tuple[int, int, GameRecord]]] = {}
    seen: set[tuple[int, str]] = set()
    done = 0
    while done < games:
        batch = finished_games(min(BATCH, games - done), players, rng)
        for offset, record in enumerate(batch):
            for seat, user in enumerate(record.players):
                if user is not None and (user, record.game) not in seen:
                    seen.add((user, record.game))
                    rated.setdefault(done + offset + 1, []).append((seat, user, record))
        logs = [
            move
            for offset, record in enumerate(batch)
            for move in placeholder_moves(done + offset + 1, record, moves)
        ]
        await repository.store_finished_games(batch, logs)
        done += len(batch)
        if progress is not None:
            progress(done)
    async with repository.atomic():
        for game_id, seats in rated.items():
            changes, ratings = [], []
            for seat, user, record in seats:
                rating = Rating(1500 + rng.uniform(-400, 400), 60 + rng.uniform(0, 100), 0.06)
                moment = record.finished_at or record.created_at
                name = record.names[seat]
                changes.append(
                    RatingChange(
                        game_id, user, seat, name, record.game, GUILD, 1.0, rating, rating, moment
                    )
                )
                ratings.append(PlayerRating(user, record.game, name, rating, 1, 1, 0, 0, moment))
            await repository.record_ratings(changes, ratings)
    now = datetime.now(UTC)
    ids = []
    for number in range(active):
        first, second = rng.sample(range(players), 2)
        record = await repository.create_game(
            NewGame(
                game="groups",
                options=get_game("groups").validate_options({}),
                guild_id=GUILD,
                channel_id=CHANNEL + 1 + number,
                players=(_player(first), _player(second)),
                names=(f"Player {first}", f"Player {second}"),
                created_at=now,
            )
        )
        ids.append(record.id)
    return ids


async def _timed(calls: int, call: Callable[[int], Awaitable[Any]]) -> Figures:
    times, cpu = [], []
    for number in range(calls):
        started, started_cpu = time.perf_counter(), time.process_time()
        await call(number)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return Figures.of(times, cpu)


async def measure(
    repository: Repository, *, players: int, active: list[int], calls: int, seed: int = 2
) -> dict[str, Figures]:
    """p50/p99 of /history, /games, /leaderboard and /move over the filled database."""
    services = Services.build(repository, SystemClock(), NullNotifier())
    rng = random.Random(seed)
    users = [_player(rng.randrange(players)) for _ in range(calls)]

    async def history(number: int) -> None:
        user = users[number]
        await services.records.history(user, viewer=user, guild_id=GUILD, page=1)

    async def listing(number: int) -> None:
        await services.notifications.dashboard(users[number])

    async def leaderboard(number: int) -> None:
        await services.ratings.leaderboard(GUILD, GAMES[number % len(GAMES)])

    records = {game_id: await repository.get_game(game_id) for game_id in active}
    opening = ("d3-e2", "e3-e1")
    moves = [
        (game_id, record.players[ply % 2], opening[ply])
        for ply in range(2)
        for game_id, record in records.items()
        if record is not None and record.players[ply % 2] is not None
    ]

    async def move(number: int) -> None:
        game_id, user, notation = moves[number]
        await services.games.play(game_id, int(user or 0), notation)

    return {
        "/history": await _timed(calls, history),
        "/games": await _timed(calls, listing),
        "/leaderboard": await _timed(calls, leaderboard),
        "/move": await _timed(len(moves), move),
    }


STARTUP_SCRIPT = """
import asyncio, json, resource, sys, time
from bot.cli.startup import database_problem
from bot.storage.opening import open_repository, parse_location
location = parse_location(sys.argv[1])
started = time.perf_counter()
problem = database_problem(location)
checked = time.perf_counter()
async def main():
    repository = await open_repository(location)
    await repository.close()
asyncio.run(main())
seconds = time.perf_counter() - started
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:  # Linux keeps the parent's peak in ru_maxrss across exec; VmHWM is this program's
    with open("/proc/self/status") as status:
        rss = int(next(line for line in status if line.startswith("VmHWM:")).split()[1])
except (OSError, StopIteration, ValueError):
    pass
print(json.dumps({
    "seconds": round(seconds, 3),
    "check_seconds": round(checked - started, 3),
    "rss_kib": rss,
    "problem": problem,
}))
"""


def startup(location: str) -> dict[str, Any]:
    """Check and open the database as the bot's start-up does (`tabula run` checks it,
    then `setup_hook` opens it), in a fresh process: the seconds it takes (imports not
    included; `check_seconds` of them the check, which opens and closes the database
    once too) and the process's peak RSS in KiB."""
    done = subprocess.run(
        [sys.executable, "-c", STARTUP_SCRIPT, location],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def load_average() -> list[float]:
    """The machine's load average over 1, 5 and 15 minutes (what else wanted its cores)."""
    return [round(load, 2) for load in os.getloadavg()]


async def run(
    location: str, *, games: int, players: int, calls: int, moves: int = 0
) -> dict[str, Any]:
    """Fill the (empty) database at `location` and measure it."""
    report: dict[str, Any] = {"database": "postgresql" if is_postgres_url(location) else "sqlite"}
    report["cores"] = os.cpu_count()
    repository = await open_repository(location)
    try:
        started = time.perf_counter()
        active = await fill(repository, games=games, players=players, moves=moves)
        await repository.optimize()  # as the bot's hourly job (or autovacuum) would by now
        report["fill_seconds"] = round(time.perf_counter() - started, 1)
        report["games"] = games
        report["moves_per_game"] = moves
        report["players"] = players
        report["load_before"] = load_average()
        figures = await measure(repository, players=players, active=active, calls=calls)
        report["load_after"] = load_average()
    finally:
        await repository.close()
    report["commands"] = {
        name: {
            "p50_ms": round(f.p50, 2),
            "p99_ms": round(f.p99, 2),
            "cpu_p50_ms": round(f.cpu_p50, 2),
            "samples": f.samples,
        }
        for name, f in figures.items()
    }
    if not is_postgres_url(location):
        report["database_mib"] = round(Path(location).stat().st_size / 1024**2, 1)
    report["startup"] = startup(location)
    report["bench_rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return report


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench history`."""
    parser = subparsers.add_parser(
        "history",
        help="a large history (100,000 finished games): /history, /games, /leaderboard, "
        "/move and start-up",
    )
    parser.add_argument(
        "--database",
        default=None,
        help="a postgresql:// URL (the bench works in a schema of its own there, dropped "
        "afterwards); default: a temporary SQLite file",
    )
    parser.add_argument("--games", type=int, default=100_000, help="finished games stored")
    parser.add_argument("--players", type=int, default=2_000, help="players of the server")
    parser.add_argument("--calls", type=int, default=300, help="answers measured per command")
    parser.add_argument(
        "--moves",
        type=int,
        default=0,
        help="stand-in moves stored per finished game, for a file of a real history's size "
        "(40 makes about 300 MiB at 100,000 games); default 0: the game rows only",
    )
    parser.set_defaults(func=run_command)


def run_command(args: argparse.Namespace) -> int:
    """Fill, measure, print the figures as JSON."""
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="tabula-history-") as folder:

        async def work(location: str) -> dict[str, Any]:
            return await run(
                location,
                games=args.games,
                players=args.players,
                calls=args.calls,
                moves=args.moves,
            )

        report = asyncio.run(
            in_database(args.database, Path(folder) / "history.sqlite3", "bench_history", work)
        )
    print(json.dumps(report, indent=2))
    return 0
