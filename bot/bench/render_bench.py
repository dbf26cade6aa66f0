"""`tabula bench render`: CPU time of render + PNG per game (whole and after the previous
move), PNG and replay sizes."""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from renderers import BoardView, render_png, render_replay, rendered_games
from renderers import png as png_cache
from renderers.samples import random_game
from rules import GameState, list_games


@dataclass(frozen=True)
class RenderScenario:
    """One measured position: a game at its largest default board after random play."""

    game: str
    label: str
    options: dict[str, object] = field(default_factory=dict)
    plies: int = 100
    """Random moves played before the measured position, to fill the board."""


SCENARIOS = (
    RenderScenario("groups", "8x8", {}, 60),
    RenderScenario("stones", "19x19", {"size": 19}, 220),
    RenderScenario("rekushu", "20x20", {}, 160),
    RenderScenario("hexade", "size 12", {"size": 12}, 160),
    RenderScenario("hexade", "size 10", {}, 120),
    RenderScenario("diffusion", "19x19", {}, 90),
)
"""The positions measured; games without a renderer yet are skipped."""

REPLAY_PLIES = 300
VIEW = BoardView(players=("Ada Lovelace", "Grace Hopper"), clocks=("2d 3h left", None))


def measure(scenario: RenderScenario, repeat: int, replay: bool) -> dict[str, Any]:
    """Time `repeat` renders of the scenario's position; optionally size a 300-move replay.

    Two figures per position, in CPU time of this process: `cold`, the picture drawn and
    compressed whole (the first picture of a game, or after a restart), and `next`, the
    picture right after the previous position's (what the bot does at every move: only
    the bands that changed are drawn and compressed again).
    """
    states = random_game(scenario.game, scenario.options, seed=5, plies=scenario.plies)
    state, previous = states[-1], states[-2]
    render_png(state, VIEW)  # warm the caches of backgrounds, sprites, fonts and palette
    wall: list[float] = []
    cold: list[float] = []
    warm: list[float] = []
    png = b""
    for _ in range(repeat):
        png_cache.BANDS.clear()
        started, started_cpu = time.perf_counter(), time.process_time()
        png = render_png(state, VIEW)
        wall.append(time.perf_counter() - started)
        cold.append(time.process_time() - started_cpu)
        png_cache.BANDS.clear()
        render_png(previous, VIEW)
        started_cpu = time.process_time()
        render_png(state, VIEW)
        warm.append(time.process_time() - started_cpu)
    with Image.open(io.BytesIO(png)) as picture:
        size = picture.size
    report: dict[str, Any] = {
        "game": scenario.game,
        "scenario": scenario.label,
        "ply": state.ply,
        "median_ms": statistics.median(wall) * 1000,
        "best_ms": min(wall) * 1000,
        "cpu_median_ms": statistics.median(cold) * 1000,
        "cpu_next_ms": statistics.median(warm) * 1000,
        "png_kb": len(png) / 1024,
        "width": size[0],
        "height": size[1],
        "load": os.getloadavg()[0],
    }
    if replay:
        positions, games = replay_positions(scenario)
        started, started_cpu = time.perf_counter(), time.process_time()
        data = render_replay(positions, VIEW)
        report["replay_moves"] = len(positions) - 1
        report["replay_games"] = games
        report["replay_mb"] = len(data) / 1024 / 1024
        report["replay_seconds"] = time.perf_counter() - started
        report["replay_cpu_seconds"] = time.process_time() - started_cpu
    return report


def replay_positions(scenario: RenderScenario) -> tuple[list[GameState[Any]], int]:
    """301 positions (300 moves) of random play, and how many games they come from.

    Random games that end sooner are followed by further ones, so every game is sized
    at 300 moves (a jump between games costs a full frame: a little worse than real).
    """
    positions: list[GameState[Any]] = []
    seed = 9
    while len(positions) <= REPLAY_PLIES:
        positions += random_game(
            scenario.game, scenario.options, seed=seed, plies=REPLAY_PLIES + 1 - len(positions)
        )
        seed += 1
    return positions[: REPLAY_PLIES + 1], seed - 9


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench render`."""
    parser = subparsers.add_parser("render", help="board picture speed and sizes")
    parser.add_argument("game", nargs="?", help="one game (default: all with a renderer)")
    parser.add_argument("--repeat", type=int, default=40, help="renders timed per scenario")
    parser.add_argument("--no-replay", action="store_true", help="skip the 300-move replay")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Benchmark the renderers and print the figures."""
    drawn = set(rendered_games()) & {game.name for game in list_games()}
    if args.game:
        drawn &= {args.game.lower()}
    for scenario in SCENARIOS:
        if scenario.game not in drawn:
            continue
        report = measure(scenario, max(1, args.repeat), not args.no_replay)
        if args.json:
            print(json.dumps(report))
            continue
        line = (
            f"{scenario.game} ({scenario.label}, ply {report['ply']}): render+PNG cpu "
            f"{report['cpu_median_ms']:.1f} ms whole, {report['cpu_next_ms']:.1f} ms after "
            f"the previous move (wall median {report['median_ms']:.1f}, best "
            f"{report['best_ms']:.1f}); PNG {report['png_kb']:.1f} KB, "
            f"{report['width']}x{report['height']}"
        )
        if "replay_mb" in report:
            line += (
                f"; replay of {report['replay_moves']} moves ({report['replay_games']} "
                f"game{'s' if report['replay_games'] > 1 else ''}) {report['replay_mb']:.2f} MB "
                f"in {report['replay_seconds']:.1f} s (cpu {report['replay_cpu_seconds']:.1f} s)"
            )
        print(line + f"; load {report['load']:.2f}")
    return 0
