"""`tabula bench bot`: the real bot against the fake Discord, with many games at once.

Sets up `--games` games through /play and Accept, then measures two phases:

- **paced**: moves arrive at `--rate` per second in total (default 50, Discord's global
  request rate), spread over the games; reports latency from the interaction to the
  board's message (the interaction response the fake receives) at that load;
- **saturated**: `--concurrency` games (default 16) move again as soon as their previous
  move was answered; reports the most moves per second the bot sustains. (With all 200
  games at once every answer would queue behind 199 others, beyond Discord's 3 seconds.)

A move the bot answers by deferring first ("thinking…", when it is late) counts when its
follow-up arrives; a move not answered at all is an error.

With `--computer N`, N more players each play a game against the computer (at
`--computer-level`, `hard` by default) through both phases, answering each of its moves
at once, so that the latencies above are measured while the computer thinks: run it
with and without to see what the computer costs the other players.

The bot runs in its own process pinned to one CPU (`--cpu`), so it uses at most one
core; the fake Discord and the driver run in this process, on the other CPUs when there
are any. Each phase reports the bot process's CPU time per second of wall time. The
moves are random legal moves computed before measuring. Needs a source checkout (the
fake lives in `tests/fakediscord`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bench.bot_processes import BotProcess, BotTarget, in_database
from bot.services.records.audit import GameAudit, audit_games
from bot.storage.opening import is_postgres_url, open_repository, parse_location
from bot.storage.repository import Repository
from rules import get_game, list_games

ROOT = Path(__file__).resolve().parents[2]
GAMES_PER_CHANNEL = 5
"""Games set up in each channel (Discord limits thread creation per channel)."""


def _fake_module() -> Any:
    """`tests.fakediscord`, from the source checkout this package runs from."""
    if (ROOT / "tests" / "fakediscord").is_dir() and str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        return importlib.import_module("tests.fakediscord.fake")
    except ImportError as exc:
        raise SystemExit(
            "tabula bench bot needs the fake Discord in tests/fakediscord "
            f"(run it from a source checkout): {exc}"
        ) from exc


@dataclass
class Slot:
    """One game being played: its players, thread and the moves still to send."""

    game: str
    players: tuple[Any, Any]
    thread: Any = None
    moves: list[tuple[int, str]] = field(default_factory=list)
    """(seat, notation) of the moves to send, in order."""
    busy: bool = False


@dataclass
class ComputerGame:
    """A game against the computer, kept going through the phases by its player."""

    player: Any
    thread: Any = None
    game_id: int = 0
    answers: int = 0
    """The player's moves answered (each followed by the computer's search)."""
    errors: int = 0


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    seconds: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    deferred: int = 0
    cpu_seconds: float = 0.0

    def report(self) -> dict[str, Any]:
        """The figures as plain data (milliseconds for latencies)."""
        ordered = sorted(self.latencies)

        def pct(p: float) -> float:
            if not ordered:
                return 0.0
            return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000

        return {
            "phase": self.name,
            "moves": len(ordered),
            "moves_per_second": round(len(ordered) / self.seconds, 1),
            "p50_ms": round(pct(0.50), 1),
            "p90_ms": round(pct(0.90), 1),
            "p99_ms": round(pct(0.99), 1),
            "max_ms": round(ordered[-1] * 1000, 1) if ordered else 0.0,
            "mean_ms": round(statistics.fmean(ordered) * 1000, 1) if ordered else 0.0,
            "errors": self.errors,
            "deferred": self.deferred,
            "cpu_per_wall": round(self.cpu_seconds / self.seconds, 2),
        }


def random_moves(game: str, plies: int, rng: random.Random) -> list[tuple[int, str]]:
    """A random legal game of at most `plies` moves, stopping before the last one."""
    state = get_game(game).new_game()
    moves: list[tuple[int, str]] = []
    while len(moves) < plies:
        legal = list(state.legal_moves())
        if not legal:
            break
        move = rng.choice(legal)
        after = state.play(move)
        if after.is_game_over():
            break  # keep the game going for the whole measurement
        moves.append((state.to_move, state.format_move(move)))
        state = after
    return moves


class Driver:
    """Plays the users: sets up the games, sends moves, times the answers."""

    def __init__(self, fake: Any, slots: list[Slot]) -> None:
        self.fake = fake
        self.slots = slots
        self.answered: dict[int, float] = {}
        fake.add_listener(self._on_event)

    def _on_event(self, event: str, obj: Any) -> None:
        # A deferred answer is complete with its follow-up, which comes after the response.
        if event in ("interaction_response", "interaction_followup"):
            self.answered[id(obj)] = time.perf_counter()

    async def setup(self, channel: Any, slot: Slot) -> None:
        """/play by the first player, Accept by the second; remember the game's thread."""
        first, second = slot.players
        colour = get_game(slot.game).colours[0].lower()  # the challenger moves first
        options = {"game": slot.game, "opponent": second, "colour": colour}
        play = await self.fake.slash(first, channel, "play", options)
        challenge = (await play.response(timeout=60)).message
        accept = await self.fake.click(second, challenge, label="Accept")
        await accept.response(timeout=60)
        slot.thread = await self.fake.wait_for_thread(
            channel, lambda t: t.name.endswith(f"· {first.global_name} vs {second.global_name}"),
            timeout=60,
        )  # fmt: skip

    async def setup_computer(self, channel: Any, game: ComputerGame, name: str, level: str) -> None:
        """/play against the computer; remember the game's thread and number."""
        options = {"game": name, "opponent": self.fake.bot_user, "level": level}
        options["colour"] = get_game(name).colours[0].lower()
        play = await self.fake.slash(game.player, channel, "play", options)
        await play.response(timeout=60)
        game.thread = await self.fake.wait_for_thread(
            channel, lambda t: f"· {game.player.global_name} vs " in t.name, timeout=60
        )
        found = re.search(r"#(\d+)", game.thread.name)
        assert found is not None, game.thread.name
        game.game_id = int(found[1])

    async def keep_answering(
        self, game: ComputerGame, repository: Repository, stop: asyncio.Event, rng: random.Random
    ) -> None:
        """Answer each of the computer's moves at once with a random legal move, until
        `stop` (or the game's end)."""
        while not stop.is_set():
            record = await repository.get_game(game.game_id)
            if record is None or not record.is_active:
                return
            if record.to_move != record.seat_of(game.player.id):
                await asyncio.sleep(0.05)  # the computer thinks
                continue
            rules = get_game(record.game)
            state = rules.initial_state(rules.validate_options(record.options))
            for move in await repository.list_moves(record.id):
                state = state.play_text(move.notation)
            notation = rng.choice(list(state.legal_notations()))
            try:
                inter = await self.fake.slash(
                    game.player, game.thread, "move", {"notation": notation}
                )
                response = await inter.response(timeout=30)
                if response.type == 5:
                    await inter.followups(1, timeout=30)
                self.answered.pop(id(inter), None)
                game.answers += 1
            except Exception:
                game.errors += 1
                await asyncio.sleep(0.5)

    async def send(self, slot: Slot, phase: Phase) -> None:
        """Send the slot's next move and record how long the answer took."""
        seat, notation = slot.moves.pop(0)
        slot.busy = True
        try:
            start = time.perf_counter()
            inter = await self.fake.slash(
                slot.players[seat], slot.thread, "move", {"notation": notation}
            )
            response = await inter.response(timeout=30)
            if response.type == 5:
                phase.deferred += 1
                await inter.followups(1, timeout=30)
            answered = self.answered.pop(id(inter), time.perf_counter())
            if response.type not in (4, 5):
                phase.errors += 1
            else:
                phase.latencies.append(answered - start)
        except Exception:
            phase.errors += 1
            slot.moves.clear()
        finally:
            slot.busy = False

    async def paced(self, phase: Phase, rate: float) -> None:
        """Start moves at `rate` per second in total, each on an idle game, for the phase."""
        loop = asyncio.get_running_loop()
        tasks = set()
        start = loop.time()
        index = 0
        sent = 0
        while (now := loop.time()) < start + phase.seconds:
            due = int((now - start) * rate) + 1
            while sent < due:
                for step in range(len(self.slots)):
                    slot = self.slots[(index + step) % len(self.slots)]
                    if not slot.busy and slot.moves:
                        index = (index + step + 1) % len(self.slots)
                        task = asyncio.create_task(self.send(slot, phase))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                        break
                sent += 1
            await asyncio.sleep(max(0.0, start + sent / rate - loop.time()))
        if tasks:
            await asyncio.wait(tasks)

    async def saturated(self, phase: Phase, concurrency: int) -> None:
        """`concurrency` games at a time move again as soon as their last move was answered."""
        loop = asyncio.get_running_loop()
        end = loop.time() + phase.seconds
        waiting = [slot for slot in self.slots if slot.moves]

        async def keep_playing() -> None:
            while waiting and loop.time() < end:
                slot = waiting.pop(0)
                await self.send(slot, phase)
                if slot.moves:
                    waiting.append(slot)

        await asyncio.gather(*(keep_playing() for _ in range(concurrency)))


async def _timed(phase: Phase, bots: list[BotProcess], run: Callable[[], Any]) -> None:
    cpu = [await bot.cpu_time() for bot in bots]
    wall = time.perf_counter()
    await run()
    phase.seconds = time.perf_counter() - wall
    phase.cpu_seconds = sum([await bot.cpu_time() for bot in bots]) - sum(cpu)


async def measure(
    *,
    games: int,
    seconds: float,
    rate: float,
    concurrency: int,
    names: list[str],
    plies: int,
    seed: int,
    database: Path | str,
    cpus: list[int | None],
    synchronous: str = "FULL",
    computer: tuple[int, str, str] = (0, "groups", "hard"),
) -> dict[str, Any]:
    """Run both phases with one bot process per entry of `cpus` (the CPU it is pinned to,
    or None); with several, each runs one shard and has a server of its own. At the end
    every game is checked against its move log. `computer`: how many games against the
    computer run through the phases, their game and level. Return the report."""
    fake_module = _fake_module()
    rng = random.Random(seed)
    prepared = time.perf_counter()
    processes = len(cpus)
    slots = []
    async with fake_module.FakeDiscord(shards=processes) as fake:
        fake.install()
        guilds = [
            fake.add_guild(f"Bench {n}", shard=(n, processes) if processes > 1 else None)
            for n in range(processes)
        ]
        # Discord lets a bot start about 5 threads per 5 s in one channel: a busy server
        # spreads its games over channels, and so does the benchmark (5 games in each).
        channels = [
            guilds[n % processes].add_channel(f"games-{n}")
            for n in range((games + GAMES_PER_CHANNEL - 1) // GAMES_PER_CHANNEL)
        ]
        for i in range(games):
            pair = (
                fake.add_user(f"w{i}", global_name=f"W{i}"),
                fake.add_user(f"b{i}", global_name=f"B{i}"),
            )
            guild = channels[i // GAMES_PER_CHANNEL].guild
            for user in pair:
                guild.add_member(user)
            name = names[i % len(names)]
            slots.append(Slot(name, pair, moves=random_moves(name, plies, rng)))
        computer_games = []
        for i in range(computer[0]):
            player = fake.add_user(f"c{i}", global_name=f"C{i}")
            channels[i % len(channels)].guild.add_member(player)
            computer_games.append(ComputerGame(player))
        sharded: list[dict[str, Any]] = [
            {"shard_count": processes, "shard_ids": (n,)} if processes > 1 else {}
            for n in range(processes)
        ]
        bots = [
            BotProcess(
                BotTarget.of(fake, database, cpu=cpu, synchronous=synchronous, **sharded[n]),
                name=f"tabula-bench-bot-{n}",
            )
            for n, cpu in enumerate(cpus)
        ]
        try:
            await fake.wait_until_ready(timeout=60, shards=list(range(processes)))
            driver = Driver(fake, slots)
            setup_started = time.perf_counter()
            limit = asyncio.Semaphore(20)

            async def set_up(index: int, slot: Slot) -> None:
                async with limit:
                    await driver.setup(channels[index // GAMES_PER_CHANNEL], slot)

            await asyncio.gather(*(set_up(i, slot) for i, slot in enumerate(slots)))
            for i, versus in enumerate(computer_games):
                await driver.setup_computer(channels[i % len(channels)], versus, *computer[1:])
            setup_seconds = time.perf_counter() - setup_started
            reader = await open_repository(parse_location(str(database)))
            stop = asyncio.Event()
            answering = [
                asyncio.create_task(driver.keep_answering(versus, reader, stop, rng))
                for versus in computer_games
            ]
            try:
                paced = Phase("paced", seconds)
                await _timed(paced, bots, lambda: driver.paced(paced, rate))
                saturated = Phase("saturated", seconds)
                await _timed(saturated, bots, lambda: driver.saturated(saturated, concurrency))
            finally:
                stop.set()
                await asyncio.gather(*answering)
                await reader.close()
        finally:
            await asyncio.gather(*(bot.stop() for bot in bots))
    audit = await _audit(database)
    return {
        "games": games,
        "game_kinds": names,
        "database": "postgresql" if is_postgres_url(str(database)) else "sqlite",
        "processes": processes,
        "offered_rate": rate,
        "saturated_concurrency": concurrency,
        "sqlite_synchronous": synchronous,
        "setup_seconds": round(setup_seconds, 1),
        "preparation_seconds": round(setup_started - prepared, 1),
        "bot_cpus": cpus,
        "driver_cpus": sorted(os.sched_getaffinity(0)),
        "loadavg": os.getloadavg(),
        "phases": [paced.report(), saturated.report()],
        "computer_games": computer[0],
        "computer_level": computer[2] if computer[0] else None,
        "computer_answers": sum(versus.answers for versus in computer_games),
        "computer_errors": sum(versus.errors for versus in computer_games),
        "games_checked": audit.checked,
        "games_disagreeing": len(audit.problems),
        "disagreements": {str(k): v for k, v in list(audit.problems.items())[:5]},
    }


async def _audit(database: Path | str) -> GameAudit:
    """Every game of the run checked against its move log."""
    repository = await open_repository(parse_location(str(database)))
    try:
        return await audit_games(repository)
    finally:
        await repository.close()


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench bot`."""
    parser = subparsers.add_parser(
        "bot", help="the bot against the fake Discord: moves per second and latency"
    )
    parser.add_argument("--games", type=int, default=200, help="games played at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--rate", type=float, default=50.0, help="moves per second offered")
    parser.add_argument(
        "--concurrency", type=int, default=16, help="games moving at once when saturated"
    )
    parser.add_argument(
        "--game", default="all", help="the game every table plays, or `all` to mix the five"
    )
    parser.add_argument("--plies", type=int, default=40, help="random moves prepared per game")
    parser.add_argument(
        "--cpu", type=int, default=None, help="the CPU to pin one bot process to (default: first)"
    )
    parser.add_argument(
        "--database",
        default=None,
        help="a SQLite file or a postgresql:// URL (the bench works in a schema of its own, "
        "dropped afterwards); default: a temporary SQLite file",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each, each pinned to a CPU of its own while there "
        "are enough (more than 1 needs PostgreSQL)",
    )
    parser.add_argument(
        "--synchronous", default="FULL", choices=("FULL", "NORMAL"), help="SQLite durability"
    )
    parser.add_argument(
        "--computer",
        type=int,
        default=0,
        help="games against the computer played through the phases (its searches in the mix)",
    )
    parser.add_argument(
        "--computer-game", default="groups", help="the game played against the computer"
    )
    parser.add_argument(
        "--computer-level", default="hard", help="the computer's level in those games"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def bot_cpus(processes: int, cpu: int | None, allowed: set[int]) -> list[int | None]:
    """The CPU each bot process is pinned to: one each while the machine has enough
    (the fake and the driver then keep the others), else none."""
    if processes == 1:
        return [cpu if cpu is not None else min(allowed)]
    if len(allowed) >= processes:
        return list(sorted(allowed)[:processes])
    return [None] * processes


def run(args: argparse.Namespace) -> int:
    """Pin the bot processes, run the benchmark, print the figures; exit 1 when a game's
    row disagrees with its moves."""
    if args.processes < 1 or (args.processes > 1 and not is_postgres_url(str(args.database or ""))):
        print(
            "tabula: --processes above 1 needs --database postgresql://... (one process per "
            "SQLite file)",
            file=sys.stderr,
        )
        return 2
    allowed = os.sched_getaffinity(0)
    cpus = bot_cpus(args.processes, args.cpu, allowed)
    pinned = {cpu for cpu in cpus if cpu is not None}
    if allowed - pinned:
        os.sched_setaffinity(0, allowed - pinned)  # the fake and driver stay off the bots' CPUs
    logging.basicConfig(level=logging.WARNING)
    names = [g.name for g in list_games()] if args.game == "all" else [get_game(args.game).name]
    with tempfile.TemporaryDirectory(prefix="tabula-bench-") as folder:
        report = asyncio.run(
            in_database(
                args.database,
                Path(folder) / "bench.sqlite3",
                "tabula_bench",
                lambda database: measure(
                    games=args.games,
                    seconds=args.seconds,
                    rate=args.rate,
                    concurrency=args.concurrency,
                    names=names,
                    plies=args.plies,
                    seed=args.seed,
                    database=database,
                    cpus=cpus,
                    synchronous=args.synchronous,
                    computer=(args.computer, args.computer_game, args.computer_level),
                ),
            )
        )
    if args.json:
        print(json.dumps(report))
    else:
        _print(report, names)
    return 1 if report["games_disagreeing"] else 0


def _print(report: dict[str, Any], names: list[str]) -> None:
    where = f"{report['database']}, {report['processes']} process(es) on CPUs {report['bot_cpus']}"
    print(
        f"bot bench: {report['games']} games ({', '.join(names)}), {where}, set up in "
        f"{report['setup_seconds']} s; load average "
        f"{tuple(round(x, 1) for x in report['loadavg'])}"
    )
    for phase in report["phases"]:
        print(
            f"  {phase['phase']:9} {phase['moves_per_second']:7.1f} moves/s  "
            f"p50 {phase['p50_ms']:6.1f} ms  p90 {phase['p90_ms']:6.1f} ms  "
            f"p99 {phase['p99_ms']:6.1f} ms  max {phase['max_ms']:6.1f} ms  "
            f"({phase['moves']} moves, {phase['deferred']} deferred, {phase['errors']} errors, "
            f"bots' CPU/wall {phase['cpu_per_wall']})"
        )
    if report["computer_games"]:
        print(
            f"  meanwhile {report['computer_games']} games against the computer "
            f"({report['computer_level']}): {report['computer_answers']} of its moves answered, "
            f"{report['computer_errors']} errors"
        )
    print(
        f"  checked {report['games_checked']} games against their moves: "
        f"{report['games_disagreeing']} disagree"
    )
    for game, problem in report["disagreements"].items():
        print(f"    game #{game}: {problem}")
