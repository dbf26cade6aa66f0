"""`tabula bench rules`: random-playout speed of every rules engine."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules import GameState, get_game, list_games
from rules.diffusion import DiffusionState, group_sizes
from rules.hexade import HexadeState
from rules.rekushu import RekushuState

Probe = tuple[str, Callable[[GameState[Any]], object]]
"""A named extra call timed on every measured position, e.g. ("win check", fn)."""


@dataclass(frozen=True)
class Scenario:
    """One benchmarked configuration of a game."""

    label: str
    """Shown in the report, e.g. `19x19`."""
    options: dict[str, object] = field(default_factory=dict)
    """Game options for `new_game`."""
    prefix_plies: int = 0
    """Random moves played, unmeasured, before timing starts (for mid-game figures)."""
    measured_plies: int | None = None
    """Moves measured per game after the prefix; None plays each game to its end."""
    probes: tuple[Probe, ...] = ()
    """Extra calls timed on every measured position; their medians are reported."""


def _diffusion_group_sizes(state: GameState[Any]) -> object:
    """Recount every group of a Diffusion Chess board, as each turn start does."""
    assert isinstance(state, DiffusionState)
    return group_sizes(state.board)


_DIFFUSION_PROBES: tuple[Probe, ...] = (("turn-start group sizes", _diffusion_group_sizes),)


def _hexade_win_check(state: GameState[Any]) -> object:
    """Search the whole board for sixes of both players, from scratch."""
    assert isinstance(state, HexadeState)
    return state.has_six(0), state.has_six(1)


def _hexade_sixes(state: GameState[Any]) -> object:
    """List every six on the board, as the renderer asks for them."""
    assert isinstance(state, HexadeState)
    return state.sixes()


def _rekushu_claim_search(state: GameState[Any]) -> object:
    """The claims open after one legal placement: the search a move's check needs."""
    assert isinstance(state, RekushuState)
    placements = state.legal_placements()
    return placements and state.claims_after(*placements[len(placements) // 2])


_REKUSHU_PROBES: tuple[Probe, ...] = (("claims_after", _rekushu_claim_search),)

SCENARIOS: dict[str, list[Scenario]] = {
    "groups": [Scenario("standard"), Scenario("drop start", {"start": "drop"})],
    "diffusion": [
        Scenario("opening position", measured_plies=1, probes=_DIFFUSION_PROBES),
        Scenario(
            "mid-game, after 80 random moves",
            prefix_plies=80,
            measured_plies=10,
            probes=_DIFFUSION_PROBES,
        ),
        Scenario("whole random games"),
    ],
    "hexade": [
        Scenario(
            "size 10",
            probes=(("full win check", _hexade_win_check), ("sixes()", _hexade_sixes)),
        ),
        Scenario("size 5", {"size": 5}),
    ],
    "rekushu": [
        Scenario("20x20 whole games", probes=_REKUSHU_PROBES),
        Scenario("20x20 after 400 plies", prefix_plies=400, probes=_REKUSHU_PROBES),
    ],
    "stones": [
        Scenario("9x9"),
        Scenario("19x19", {"size": 19}),
        Scenario("19x19 from move 150", {"size": 19}, prefix_plies=150, measured_plies=150),
    ],
}
"""Per-game scenarios; a game not listed is measured once with its default options."""


@dataclass
class Measurement:
    """Counts and timings gathered by playing random games."""

    game: str
    label: str
    play_ns: list[int] = field(default_factory=list)
    legal_ns: list[int] = field(default_factory=list)
    probe_ns: dict[str, list[int]] = field(default_factory=dict)
    playouts: int = 0
    wall_seconds: float = 0.0

    def report(self) -> dict[str, Any]:
        """The figures as plain data."""
        play_total = sum(self.play_ns) / 1e9 or 1e-9
        legal_total = sum(self.legal_ns) / 1e9 or 1e-9
        return {
            "game": self.game,
            "scenario": self.label,
            "plays": len(self.play_ns),
            "plays_per_second": len(self.play_ns) / play_total,
            "play_median_us": _median_us(self.play_ns),
            "legal_moves_generations": len(self.legal_ns),
            "legal_moves_per_second": len(self.legal_ns) / legal_total,
            "legal_moves_median_us": _median_us(self.legal_ns),
            "playouts": self.playouts,
            "playouts_per_second": self.playouts / (self.wall_seconds or 1e-9),
            **{f"{name}_median_us": _median_us(ns) for name, ns in self.probe_ns.items()},
        }


def _median_us(samples: list[int]) -> float:
    return statistics.median(samples) / 1000 if samples else 0.0


def measure(game_name: str, scenario: Scenario, seconds: float, seed: int) -> Measurement:
    """Play seeded random games of one scenario for about `seconds`, timing every call."""
    game = get_game(game_name)
    rng = random.Random(seed)
    result = Measurement(game.name, scenario.label)
    result.probe_ns = {name: [] for name, _ in scenario.probes}
    clock = time.perf_counter_ns
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.new_game(**scenario.options)
        for _ in range(scenario.prefix_plies):
            moves = list(state.legal_moves())
            if not moves:
                break
            state = state.play(rng.choice(moves))
        finished = False
        measured = 0
        while time.perf_counter() < deadline:
            for name, probe in scenario.probes:
                t0 = clock()
                probe(state)
                result.probe_ns[name].append(clock() - t0)
            t0 = clock()
            moves = list(state.legal_moves())
            t1 = clock()
            result.legal_ns.append(t1 - t0)
            if not moves:
                finished = True
                break
            move = rng.choice(moves)
            t2 = clock()
            state = state.play(move)
            result.play_ns.append(clock() - t2)
            measured += 1
            if scenario.measured_plies is not None and measured >= scenario.measured_plies:
                break
        result.playouts += finished
    result.wall_seconds = time.perf_counter() - started
    return result


def scenarios_for(game_name: str) -> list[Scenario]:
    """The scenarios benchmarked for one game."""
    return SCENARIOS.get(game_name, [Scenario("default options")])


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench rules`."""
    parser = subparsers.add_parser("rules", help="random-playout speed of the rules engines")
    parser.add_argument("game", nargs="?", help="one game (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Benchmark one game or all of them and print the figures."""
    names = [get_game(args.game).name] if args.game else [g.name for g in list_games()]
    for name in names:
        for scenario in scenarios_for(name):
            report = measure(name, scenario, args.seconds, args.seed).report()
            if args.json:
                print(json.dumps(report))
                continue
            print(
                f"{name} ({scenario.label}): "
                f"{report['plays_per_second']:,.0f} play()/s "
                f"(median {report['play_median_us']:.1f} µs); "
                f"{report['legal_moves_per_second']:,.0f} legal_moves()/s "
                f"(median {report['legal_moves_median_us']:.1f} µs); "
                f"{report['playouts_per_second']:,.1f} playouts/s"
                + "".join(
                    f"; {name} median {report[f'{name}_median_us']:.1f} µs"
                    for name, _ in scenario.probes
                )
            )
    return 0
