"""`tabula bench pairing`: how long a Swiss round takes to pair, by field size; with
`--simulate`, how well many simulated Swiss tournaments keep the pairing rules."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from bot.bench import pairing_reference, pairing_simulation
from bot.competition.glicko2 import Rating, rate_game
from bot.competition.records import Result
from bot.competition.tournament import Format, Tournament

DEFAULT_FIELDS = (16, 33, 64, 128, 200)
"""Field sizes measured when none are given."""
_RESULTS = (Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW)


def measure_swiss(field: int, rounds: int, seed: int) -> dict[str, Any]:
    """Play a Swiss of `field` players with random results, timing pairing and standings
    (pairing also in CPU time: the process's own seconds, which other jobs on a shared
    machine do not stretch)."""
    rng = random.Random(seed)
    tournament = Tournament(Format.SWISS, tuple(range(1, field + 1)), rounds=rounds)
    pairing_ns: list[int] = []
    pairing_cpu_ns: list[int] = []
    standings_ns: list[int] = []
    while not tournament.is_finished:
        started, cpu = time.perf_counter_ns(), time.process_time_ns()
        made = tournament.advance()
        pairing_cpu_ns.append(time.process_time_ns() - cpu)
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
        "pairing_cpu_median_ms": statistics.median(pairing_cpu_ns) / 1e6,
        "pairing_cpu_max_ms": max(pairing_cpu_ns) / 1e6,
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
        "pairing",
        help="Swiss pairing and standings time by field size; Glicko-2 speed; "
        "--simulate: rule checks over many simulated Swiss tournaments",
    )
    parser.add_argument(
        "fields",
        nargs="*",
        type=int,
        help=f"field sizes (default {DEFAULT_FIELDS}; "
        f"with --simulate {pairing_simulation.DEFAULT_FIELDS})",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        help="Swiss rounds per field (default 7; with --simulate ⌈log₂ N⌉, the bot's default)",
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="play many random Swiss tournaments and count every broken pairing rule",
    )
    parser.add_argument(
        "--events", type=int, default=20, help="with --simulate: tournaments per field size"
    )
    parser.add_argument(
        "--reference",
        type=Path,
        metavar="PROGRAM",
        help="with --simulate: an independent Dutch-system program on this machine "
        "(run as PROGRAM --dutch IN.trf -p OUT.txt) whose pairing of every round is "
        "compared with Tabula's",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Measure (or, with --simulate, audit) every field size and print the figures."""
    if args.simulate:
        return simulate(args)
    for field in args.fields or DEFAULT_FIELDS:
        report = measure_swiss(field, args.rounds or 7, args.seed)
        if args.json:
            print(json.dumps(report))
            continue
        print(
            f"swiss {field} players, {report['rounds']} rounds: pairing median "
            f"{report['pairing_median_ms']:.1f} ms, worst {report['pairing_max_ms']:.1f} ms "
            f"(CPU {report['pairing_cpu_median_ms']:.1f} ms, "
            f"worst {report['pairing_cpu_max_ms']:.1f} ms); "
            f"standings median {report['standings_median_ms']:.2f} ms"
        )
    ratings = measure_ratings(0.5, args.seed)
    if args.json:
        print(json.dumps(ratings))
    else:
        print(f"glicko-2: {ratings['rated_games_per_second']:,.0f} rated games/s")
    return 0


SIMULATION_COLUMNS = (
    ("field", "field"),
    ("rounds", "rounds"),
    ("games", "games"),
    ("rematches", "rematches"),
    ("colour_breaks", "colour breaks"),
    ("second_byes", "second byes"),
    ("avoidable_floats", "avoidable floats"),
    ("unpairable_rounds", "unpairable"),
    ("single_winner_share", "single winner"),
    ("top_scorer_exceptions", "top-scorer exc."),
    ("withdrawals", "withdrawals"),
    ("seconds", "s"),
)
REFERENCE_COLUMNS = (
    ("compared", "compared"),
    ("same_pairs", "same pairs"),
    ("same_seats", "same seats"),
    ("refused", "ref. refused"),
)
"""Added with --reference: rounds compared with the program, and how many agreed."""
"""The table `--simulate` prints: (figure, heading)."""


def simulate(args: argparse.Namespace) -> int:
    """Audit simulated Swiss tournaments; exit 1 if an absolute rule that can be kept was
    broken."""
    fields = tuple(args.fields) or pairing_simulation.DEFAULT_FIELDS
    if any(field < 2 for field in fields) or args.events < 1:
        raise SystemExit("tabula bench pairing: fields need 2 players or more, --events 1 or more")
    rounds = "⌈log₂ N⌉" if args.rounds is None else str(args.rounds)
    columns = SIMULATION_COLUMNS + (REFERENCE_COLUMNS if args.reference is not None else ())
    if not args.json:
        print(
            f"Swiss simulation: {args.events} events per field, {rounds} rounds, "
            f"{pairing_simulation.DRAW_RATE:.0%} draws, "
            f"{pairing_simulation.WITHDRAW_RATE:.0%} of games abandoned by a withdrawal"
        )
        if args.reference is not None:
            print(f"compared with {args.reference}, round by round, through TRF files")
        print("  ".join(heading for _, heading in columns))
    broken = 0
    for field in fields:
        try:
            audit = pairing_simulation.simulate_field(
                field, args.events, args.seed, rounds=args.rounds, reference=args.reference
            )
        except pairing_reference.ReferenceError as error:
            raise SystemExit(f"tabula bench pairing: {error}") from None
        figures = audit.as_dict()
        # Avoidable floats are only told: the Dutch system pairs bracket by bracket from
        # the top and may float more players than the fewest a whole round could.
        broken += audit.rematches + audit.colour_breaks + audit.second_byes
        if args.json:
            print(json.dumps(figures))
            continue
        cells = []
        for key, heading in columns:
            value = figures[key]
            if key == "single_winner_share":
                text = f"{value:.0%}"
            elif key == "seconds":
                text = f"{value:.1f}"
            else:
                text = str(value)
            cells.append(text.rjust(len(heading)))
        print("  ".join(cells))
    return 1 if broken else 0
