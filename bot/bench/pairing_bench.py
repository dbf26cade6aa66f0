"""`tabula bench pairing`: how long a Swiss round takes to pair, by field size."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from bot.competition.glicko2 import Rating, rate_game
from bot.competition.records import Result
from bot.competition.tournament import Format, Tournament

DEFAULT_FIELDS = (16, 33, 64, 128)
"""Field sizes measured when none are given."""
_RESULTS = (Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW)


def measure_swiss(field: int, rounds: int, seed: int) -> dict[str, Any]:
    """Play a Swiss of `field` players with random results, timing pairing and standings."""
    rng = random.Random(seed)
    tournament = Tournament(Format.SWISS, tuple(range(1, field + 1)), rounds=rounds)
    pairing_ns: list[int] = []
    standings_ns: list[int] = []
    while not tournament.is_finished:
        started = time.perf_counter_ns()
        made = tournament.advance()
        pairing_ns.append(time.perf_counter_ns() - started)
        tournament = tournament.with_pairings(made)
        for game in tournament.unfinished():
            tournament = tournament.with_result(game, rng.choice(_RESULTS))
        started = time.perf_counter_ns()
        tournament.standings()
        standings_ns.append(time.perf_counter_ns() - started)
    return {
        "field": field,
        "rounds": len(pairing_ns),
        "pairing_median_ms": statistics.median(pairing_ns) / 1e6,
        "pairing_max_ms": max(pairing_ns) / 1e6,
        "standings_median_ms": statistics.median(standings_ns) / 1e6,
    }


def measure_ratings(seconds: float, seed: int) -> dict[str, Any]:
    """Rate random games between random players for about `seconds`."""
    rng = random.Random(seed)
    games = 0
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    while time.perf_counter() < deadline:
        first = Rating(rng.uniform(1000, 2200), rng.uniform(40, 350))
        second = Rating(rng.uniform(1000, 2200), rng.uniform(40, 350))
        rate_game(first, second, rng.choice((0.0, 0.5, 1.0)))
        games += 1
    return {"rated_games_per_second": games / (time.perf_counter() - started)}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench pairing`."""
    parser = subparsers.add_parser(
        "pairing", help="Swiss pairing and standings time by field size; Glicko-2 speed"
    )
    parser.add_argument(
        "fields", nargs="*", type=int, help=f"field sizes (default {DEFAULT_FIELDS})"
    )
    parser.add_argument("--rounds", type=int, default=7, help="Swiss rounds per field")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Measure every field size, then the rating update, and print the figures."""
    for field in args.fields or DEFAULT_FIELDS:
        report = measure_swiss(field, args.rounds, args.seed)
        if args.json:
            print(json.dumps(report))
            continue
        print(
            f"swiss {field} players, {report['rounds']} rounds: pairing median "
            f"{report['pairing_median_ms']:.1f} ms, worst {report['pairing_max_ms']:.1f} ms; "
            f"standings median {report['standings_median_ms']:.2f} ms"
        )
    ratings = measure_ratings(0.5, args.seed)
    if args.json:
        print(json.dumps(ratings))
    else:
        print(f"glicko-2: {ratings['rated_games_per_second']:,.0f} rated games/s")
    return 0
