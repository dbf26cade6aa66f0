"""`tabula bench crash`: the bot killed (or faulted) under load: is everything stored told?

The bot runs in a child process against the fake Discord (kept in this process, so it
survives the bot). Players start games (/play, Accept) and move at `--rate` actions per
second. `--kills` times the bot is killed with SIGKILL while they act, half of them
within 60 ms of a /move reaching it, and started again over the same database (the
players go on meanwhile: moves sent to a dead bot go unanswered, as on Discord). With
`--processes N` (a PostgreSQL `--database`) the bot runs as N processes, one shard each,
with a server on each shard; each kill takes one process (the one the last /move went
to), while the others go on serving their servers. With `--faults` it is not killed;
instead Discord fails: 429 and 5xx on interaction answers and channel posts, a 429 longer
than the interaction's 3 seconds, and the database locked by another process for 8
seconds (SQLite).

At the end, once the dispatcher has nothing pending, it counts from the database and
the fake's messages: moves acknowledged to players, stored, lost (acknowledged but not
stored), applied twice, unanswered because of a kill (and how many of those were
stored anyway), stored but never announced (a completed turn without its board
message), announced twice, and games without their first board; then SQLite's
`integrity_check`. The loss columns should all be 0. Needs a source checkout (the fake
lives in `tests/fakediscord`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import random
import re
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bench.bot_bench import _fake_module
from bot.bench.bot_processes import BotTarget, in_database, serve_bot
from bot.sharding import shard_of
from bot.storage.opening import (
    DatabaseLocation,
    is_postgres_url,
    open_repository,
    parse_location,
)
from bot.storage.repository import AnnouncementStatus, GameRecord, GameStatus, Repository
from rules import get_game

GAMES = ("groups", "hexade", "stones", "rekushu")
"""The games played (one move per turn, so every stored move completes a turn)."""
NEAR_A_MOVE = 0.060
"""A kill "near a move" comes at most this long after a /move reached the bot."""
BOARD = re.compile(r"#(?P<game>\d+) · [^\n]*\nMove (?P<ply>\d+):")
FIRST_BOARD = re.compile(r"#(?P<game>\d+) · [^\n]*\nThe game begins")
CHANNELS = 8
"""Channels games are started in (Discord limits thread creation per channel)."""


@dataclass
class Sent:
    """A /move the driver sent, and how it was answered."""

    game_id: int
    ply: int
    """The ply the move would have in the game."""
    notation: str
    acknowledged: bool = False
    answered: bool = False
    """Whether Discord had an answer to it (any answer) yet."""
    killed: bool = False
    """Whether the bot was killed after it was sent and before it was answered."""
    shard: int = 0
    """The shard of the game's server (the process it went to)."""


@dataclass
class Tally:
    """What the run did and found."""

    kills: int = 0
    near_moves: int = 0
    faults: int = 0
    restarts_seconds: list[float] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    games_started: int = 0
    refused: int = 0
    unanswered: int = 0


class BotChild:
    """The bot (or one shard of it) in a child process, which can be killed and started
    again."""

    def __init__(
        self, fake: Any, database: DatabaseLocation, shard: int = 0, shards: int = 1
    ) -> None:
        self.fake = fake
        self.database = database
        self.shard = shard
        self.shards = shards
        self.process: multiprocessing.process.BaseProcess | None = None
        self.conn: Any = None

    def start(self) -> None:
        """Start the bot (it connects and syncs its commands)."""
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        sharded = (
            {"shard_count": self.shards, "shard_ids": (self.shard,)} if self.shards > 1 else {}
        )
        target = BotTarget.of(self.fake, self.database, **sharded)
        self.process = context.Process(
            target=serve_bot, args=(child, target), name=f"tabula-crash-bot-{self.shard}"
        )
        self.process.start()

    async def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; whatever was in flight is cut. Returns once the
        fake Discord has seen the connection drop."""
        if self.process is None:
            return
        self.process.kill()
        await asyncio.to_thread(self.process.join, 10)
        with contextlib.suppress(Exception):
            await self.fake.wait_until_disconnected(timeout=30, shards=[self.shard])

    async def stop(self) -> None:
        """A clean stop."""
        if self.process is None:
            return
        with contextlib.suppress(Exception):
            self.conn.send("stop")
        await asyncio.to_thread(self.process.join, 30)
        if self.process.is_alive():
            self.process.kill()


class Driver:
    """The players: start games, move, and (sometimes) have the bot killed."""

    def __init__(
        self, fake: Any, bots: list[BotChild], repo: Repository, rng: random.Random
    ) -> None:
        self.fake = fake
        self.bots = bots
        self.repo = repo
        self.rng = rng
        self.tally = Tally()
        count = len(bots)
        self.guilds = [
            fake.add_guild(f"Crash {n}", shard=(n, count) if count > 1 else None)
            for n in range(count)
        ]
        self.channels = [self.guilds[n % count].add_channel(f"games-{n}") for n in range(CHANNELS)]
        self.users: dict[int, Any] = {}
        self.busy: set[int] = set()
        self.kill_after_move: asyncio.Event | None = None
        self.last_shard = 0
        """The shard of the server the last /move was sent in."""
        self._players = 0

    def live(self, guild_id: int | None) -> bool:
        """Whether a bot process serves this server now."""
        return bool(self.fake.gateway.deliverable_to(guild_id))

    def _pair(self) -> tuple[Any, Any]:
        pair = []
        for _ in range(2):
            self._players += 1
            user = self.fake.add_user(f"p{self._players}", global_name=f"P{self._players}")
            for guild in self.guilds:
                guild.add_member(user)
            self.users[user.id] = user
            pair.append(user)
        return pair[0], pair[1]

    async def new_game(self) -> None:
        """/play and Accept: a new game (its thread and first board come from the bot)."""
        channels = [c for c in self.channels if self.live(c.guild.id)]
        if not channels:
            return
        first, second = self._pair()
        game = self.rng.choice(GAMES)
        colour = get_game(game).colours[0].lower()
        channel = self.rng.choice(channels)
        play = await self.fake.slash(
            first, channel, "play", {"game": game, "opponent": second, "colour": colour}
        )
        challenge = (await play.response(timeout=10)).message
        if challenge is None or not challenge.buttons():
            return
        accept = await self.fake.click(second, challenge, label="Accept")
        await accept.response(timeout=10)
        self.tally.games_started += 1

    async def move(self, record: GameRecord) -> None:
        """The player to move plays a random legal move, as read from the database."""
        rules = get_game(record.game)
        state = rules.initial_state(rules.validate_options(record.options))
        for stored in await self.repo.list_moves(record.id):
            state = state.play_text(stored.notation)
        legal = list(state.legal_moves())
        user_id = record.players[state.to_move]
        if not legal or user_id is None or state.outcome() is not None:
            return
        notation = state.format_move(self.rng.choice(legal))
        channel = self.fake.world.channels[record.location]
        self.last_shard = shard_of(record.guild_id or 0, len(self.bots))
        sent = Sent(record.id, record.ply + 1, notation, shard=self.last_shard)
        self.tally.sent.append(sent)
        inter = await self.fake.slash(self.users[user_id], channel, "move", {"notation": notation})
        if self.kill_after_move is not None:
            self.kill_after_move.set()
        response = await inter.response(timeout=10)
        sent.answered = True
        if response.type == 4 and not response.ephemeral:
            sent.acknowledged = True
        elif response.type == 5:
            (followup,) = await inter.followups(1, timeout=30)
            sent.acknowledged = followup.content.startswith("Done:")
        else:
            self.tally.refused += 1

    async def act(self) -> None:
        """One action: usually a move in a game waiting for one, sometimes a new game."""
        games = [
            g
            for g in await self.repo.active_games()
            if g.id not in self.busy and self.live(g.guild_id)
        ]
        if len(games) < 6 or self.rng.random() < 0.08:
            await self.new_game()
            return
        record = self.rng.choice(games)
        self.busy.add(record.id)
        try:
            await self.move(record)
        finally:
            self.busy.discard(record.id)


async def _guarded(action: Any, tally: Tally) -> None:
    try:
        await action
    except Exception:
        tally.unanswered += 1


async def run_load(driver: Driver, rate: float, seconds: float) -> None:
    """Actions at `rate` per second for `seconds` (skipped while no bot is connected)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    tasks: set[asyncio.Task[None]] = set()
    while loop.time() < end:
        if driver.fake.gateway.deliverable:  # some shard has its process
            task = asyncio.create_task(_guarded(driver.act(), driver.tally))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.sleep(1 / rate)
    if tasks:
        await asyncio.wait(tasks, timeout=60)


async def restart(driver: Driver, bot: BotChild) -> None:
    """Start the bot (process) again and wait until it is connected."""
    started = time.perf_counter()
    bot.start()
    await driver.fake.wait_until_ready(timeout=120, shards=[bot.shard])
    driver.tally.restarts_seconds.append(time.perf_counter() - started)


async def kill_once(driver: Driver, near_move: bool) -> None:
    """Kill the bot (right after a /move reached it, if `near_move`: the process of that
    move's shard), then restart it; the load goes on meanwhile in the other shards."""
    bot = driver.rng.choice(driver.bots)
    if near_move:
        driver.kill_after_move = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(driver.kill_after_move.wait(), 10)
        driver.kill_after_move = None
        await asyncio.sleep(driver.rng.uniform(0, NEAR_A_MOVE))
        driver.tally.near_moves += 1
        bot = driver.bots[driver.last_shard]
    in_flight = [
        sent for sent in driver.tally.sent if not sent.answered and sent.shard == bot.shard
    ]
    await bot.kill()
    for sent in in_flight:
        sent.killed = True
    driver.tally.kills += 1
    await restart(driver, bot)


def lock_database(path: Path, seconds: float) -> threading.Thread:
    """Another process's write lock on the SQLite file for `seconds` (a thread with its
    own connection, as a backup tool or a second bot would hold it)."""

    def hold() -> None:
        connection = sqlite3.connect(path, timeout=30, isolation_level=None)
        try:
            connection.execute("BEGIN IMMEDIATE")
            time.sleep(seconds)
            connection.execute("COMMIT")
        finally:
            connection.close()

    thread = threading.Thread(target=hold, name="tabula-crash-lock", daemon=True)
    thread.start()
    return thread


def inject_fault(driver: Driver, kind: int, database: DatabaseLocation) -> None:
    """One of the faults, in turn: Discord failing answers and posts, or the database
    locked by another process."""
    fake = driver.fake
    driver.tally.faults += 1
    if kind == 0:
        fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", status=500, count=2)
    elif kind == 1:
        fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", status=429, retry_after=0.5)
    elif kind == 2:
        fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", status=429, retry_after=4.0)
    elif kind == 3:
        fake.fail_next("POST", r"/channels/\d+/messages", status=503, count=3)
    elif kind == 4:
        fake.fail_next("POST", r"/channels/\d+/messages", status=429, retry_after=1.0, count=2)
    elif isinstance(database, Path):
        lock_database(database, 8.0)


async def pending(repo: Repository) -> int:
    """Announcements not delivered (nor parked) yet."""
    counts = await repo.count_announcements()
    return counts[AnnouncementStatus.PENDING]


async def settle(repo: Repository, timeout: float) -> int:
    """Wait until the dispatcher has delivered everything; what is still pending."""
    deadline = time.monotonic() + timeout
    left = await pending(repo)
    while left and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        left = await pending(repo)
    return left


async def account(driver: Driver, database: DatabaseLocation) -> dict[str, Any]:
    """Count stored, acknowledged, lost, doubled and unannounced moves and games."""
    repo, fake, tally = driver.repo, driver.fake, driver.tally
    boards: Counter[tuple[int, int]] = Counter()
    first_boards: Counter[int] = Counter()
    for message in list(fake.world.messages.values()):
        if message.ephemeral or message.deleted or message.author.id != fake.bot_user.id:
            continue
        if found := BOARD.search(message.content):
            boards[int(found["game"]), int(found["ply"])] += 1
        if found := FIRST_BOARD.search(message.content):
            first_boards[int(found["game"])] += 1
    stored: dict[tuple[int, int], str] = {}
    games = await games_in(repo)
    for record in games:
        for move in await repo.list_moves(record.id):
            stored[record.id, move.ply] = move.notation
    sends: Counter[tuple[int, int, str]] = Counter(
        (s.game_id, s.ply, s.notation) for s in tally.sent
    )
    acknowledged = [s for s in tally.sent if s.acknowledged]
    lost = [s for s in acknowledged if stored.get((s.game_id, s.ply)) != s.notation]
    spurious = [key for key, notation in stored.items() if sends[(*key, notation)] == 0]
    unannounced = [key for key in stored if boards[key] == 0]
    doubled = [key for key in stored if boards[key] > 1]
    no_first = [record.id for record in games if first_boards[record.id] == 0]
    report: dict[str, Any] = {
        "kills": tally.kills,
        "kills_near_a_move": tally.near_moves,
        "faults": tally.faults,
        "games": len(games),
        "moves_sent": len(tally.sent),
        "moves_acknowledged": len(acknowledged),
        "moves_stored": len(stored),
        "lost": len(lost),
        "applied_twice": len(spurious),
        "stored_not_announced": len(unannounced),
        "announced_twice": len(doubled),
        "games_without_first_board": len(no_first),
        "refused_or_unanswered": tally.refused + tally.unanswered,
        "moves_unanswered_at_a_kill": sum(s.killed for s in tally.sent),
        "of_which_stored": sum(
            stored.get((s.game_id, s.ply)) == s.notation for s in tally.sent if s.killed
        ),
        "restart_seconds_max": round(max(tally.restarts_seconds, default=0.0), 1),
    }
    counts = await repo.count_announcements()
    report["announcements_parked"] = counts[AnnouncementStatus.PARKED]
    report["announcements_pending"] = counts[AnnouncementStatus.PENDING]
    report["integrity_check"] = integrity(database)
    report["examples"] = {
        "lost": [s.__dict__ for s in lost[:3]],
        "stored_not_announced": unannounced[:5],
        "announced_twice": doubled[:5],
        "without_first_board": no_first[:5],
    }
    return report


async def games_in(repo: Repository) -> list[GameRecord]:
    """Every game, finished or not (ids from 1 until none is found for a while)."""
    found: list[GameRecord] = []
    misses = 0
    game_id = 0
    while misses < 20:
        game_id += 1
        record = await repo.get_game(game_id)
        if record is None:
            misses += 1
            continue
        misses = 0
        if record.status is not GameStatus.ABORTED:
            found.append(record)
    return found


def integrity(database: DatabaseLocation) -> str:
    """SQLite's integrity check ("ok" when intact), or "n/a" for PostgreSQL."""
    if not isinstance(database, Path):
        return "n/a"
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        rows = db.execute("PRAGMA integrity_check").fetchall()
    return "; ".join(str(row[0]) for row in rows[:3])


async def measure(
    *,
    kills: int,
    faults: int,
    games: int,
    rate: float,
    seed: int,
    database: DatabaseLocation,
    processes: int = 1,
) -> dict[str, Any]:
    """Set up, load, kill or fault, settle, count."""
    rng = random.Random(seed)
    fake_module = _fake_module()
    async with fake_module.FakeDiscord(shards=processes) as fake:
        fake.install()
        bots = [BotChild(fake, database, shard, processes) for shard in range(processes)]
        driver: Driver | None = None
        repo: Repository | None = None
        try:
            repo = await open_repository(database)  # migrated once, before the bots start
            driver = Driver(fake, bots, repo, rng)
            for bot in bots:
                bot.start()
            await fake.wait_until_ready(timeout=120, shards=list(range(processes)))
            for _ in range(games):
                await _guarded(driver.new_game(), driver.tally)
            rounds = max(kills, faults, 1)
            for number in range(rounds):
                # The kill or fault lands while players act, so some moves are in flight.
                seconds = rng.uniform(1.5, 3.5)
                load = asyncio.create_task(run_load(driver, rate, seconds))
                await asyncio.sleep(rng.uniform(0.5, seconds - 0.5))
                if number < kills:
                    await kill_once(driver, near_move=number % 2 == 0)
                if number < faults:
                    inject_fault(driver, number % 6, database)
                await load
            await run_load(driver, rate, 3.0)
            left = await settle(repo, 180)
            report = await account(driver, database)
            report["pending_after_wait"] = left
            report["rate"] = rate
            report["processes"] = processes
            return report
        finally:
            await asyncio.gather(*(bot.stop() for bot in bots))
            if repo is not None:
                await repo.close()


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench crash`."""
    parser = subparsers.add_parser(
        "crash", help="the bot killed (or faulted) under load: is every stored move told?"
    )
    parser.add_argument("--kills", type=int, default=30, help="times the bot is killed")
    parser.add_argument(
        "--faults",
        type=int,
        default=0,
        help="instead of kills: Discord and database faults injected this many times",
    )
    parser.add_argument("--games", type=int, default=12, help="games started before the load")
    parser.add_argument("--rate", type=float, default=8.0, help="actions per second")
    parser.add_argument(
        "--database",
        default=None,
        help="a postgresql:// URL (the bench works in a schema of its own there, dropped "
        "afterwards); default: a temporary SQLite file",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each (more than 1 needs a PostgreSQL --database)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


LOSSES = (
    "lost",
    "applied_twice",
    "stored_not_announced",
    "announced_twice",
    "games_without_first_board",
)


def run(args: argparse.Namespace) -> int:
    """Run it; exit 1 when anything was lost, doubled or left untold."""
    logging.basicConfig(level=logging.ERROR)
    if args.processes < 1 or (args.processes > 1 and not is_postgres_url(args.database or "")):
        print("tabula: --processes above 1 needs --database postgresql://... (one process per "
              "SQLite file)", file=sys.stderr)  # fmt: skip
        return 2
    kills = 0 if args.faults else args.kills
    with tempfile.TemporaryDirectory(prefix="tabula-crash-") as folder:

        async def measured(database: str) -> dict[str, Any]:
            return await measure(
                kills=kills,
                faults=args.faults,
                games=args.games,
                rate=args.rate,
                seed=args.seed,
                database=parse_location(database),
                processes=args.processes,
            )

        report = asyncio.run(
            in_database(args.database, Path(folder) / "crash.sqlite3", "tabula_crash", measured)
        )
    if args.json:
        print(json.dumps(report))
    else:
        what = f"{report['kills']} kills" if kills else f"{report['faults']} faults"
        print(
            f"crash bench: {what} ({report['kills_near_a_move']} within 60 ms of a /move), "
            f"{report['processes']} bot process(es), "
            f"{report['games']} games, {report['rate']} actions/s; load average "
            f"{tuple(round(x, 1) for x in os.getloadavg())}"
        )
        for key in (
            "moves_sent",
            "moves_acknowledged",
            "moves_stored",
            *LOSSES,
            "refused_or_unanswered",
            "moves_unanswered_at_a_kill",
            "of_which_stored",
            "announcements_parked",
            "pending_after_wait",
            "integrity_check",
            "restart_seconds_max",
        ):
            print(f"  {key.replace('_', ' '):28} {report[key]}")
    failed = any(report[key] for key in LOSSES) or report["integrity_check"] not in ("ok", "n/a")
    return 1 if failed or report["pending_after_wait"] else 0
