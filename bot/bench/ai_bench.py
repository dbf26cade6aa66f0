"""`tabula bench ai GAME`: matches between computer levels and other players,
(`--speed`) the search's iterations per second, (`--scaling`) how a move's search grows
with the workers, and (`--tactics`) the tactics suite solved on a clock.

Each match alternates seats game by game; games run in parallel worker processes.
Win rates and scores (a draw counts half) come with 95 % Wilson intervals; answer
times are wall-clock seconds measured around each computer turn (on this machine,
under whatever load it has).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from bot.ai import DEFAULT_SECONDS
from bot.bench.ai_match import PLAYERS, GameRecord, GameSpec, play_game, wilson
from bot.bench.ai_scaling import describe_scaling, measure_scaling
from bot.bench.ai_speed import describe_speed, measure_speed
from bot.bench.tactics_suite import describe_tactics, run_tactics
from bot.cli.options import add_option_argument, parse_options
from rules import get_game


@dataclass(frozen=True)
class Match:
    """Player `first` against player `second`, and the win rate `first` must reach."""

    first: str
    second: str
    target: float | None
    """The score (wins, and half the draws, per game) `first` must reach; None: it must win
    more games than `second`."""

    @property
    def label(self) -> str:
        return f"{self.first}-{self.second}"


MATCHES = {
    "hard-old": Match("hard", "old", 0.75),
    "hard-random": Match("hard", "random", 0.95),
    "easy-random": Match("easy", "random", 0.70),
    "hard-easy": Match("hard", "easy", None),
    "greedy-easy": Match("greedy", "easy", 0.05),
    "greedy-medium": Match("greedy", "medium", 0.05),
}
"""The matches that measure the levels: the new `hard` should score 75 % against the old
one; a 1-ply greedy beginner should beat `easy` and `medium` sometimes. Others can be
named as `A-B`."""
DEFAULT_MATCHES = ("hard-old", "hard-random", "easy-random", "hard-easy")


def parse_match(text: str) -> Match:
    """A match by name (`hard-random`) or as any two players (`medium-easy`)."""
    if text in MATCHES:
        return MATCHES[text]
    first, sep, second = text.partition("-")
    if not sep or first not in PLAYERS or second not in PLAYERS:
        raise argparse.ArgumentTypeError(
            f"a match is two players joined by '-', each one of {', '.join(PLAYERS)}"
        )
    return Match(first, second, None)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bench ai`."""
    parser = subparsers.add_parser(
        "ai", help="win rates and answer times of the computer player against others"
    )
    parser.add_argument("game", help="the game to play")
    parser.add_argument("--games", type=int, default=20, help="games per match (default 20)")
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"the hard level's seconds per answer (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--match",
        action="append",
        type=parse_match,
        metavar="A-B",
        help=f"a match to play (repeatable; default: {', '.join(DEFAULT_MATCHES)})",
    )
    parser.add_argument(
        "--speed",
        action="store_true",
        help="measure search iterations per CPU second instead (--budget seconds a position)",
    )
    parser.add_argument(
        "--tactics",
        action="store_true",
        help="have hard solve the game's tactics suite on a clock (--budget seconds a move)",
    )
    parser.add_argument(
        "--scaling",
        action="store_true",
        help="measure how a hard move's search grows with 1 to --workers processes searching "
        "it at once (--budget seconds a position)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=min(2, os.cpu_count() or 1),
        help="parallel games (with --scaling: the most workers)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON line per match")
    add_option_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the matches and print the figures."""
    game = get_game(args.game)
    options = parse_options(args.option)
    game.validate_options(options)
    if args.speed:
        print(describe_speed(game.name, measure_speed(game.name, options, args.budget)))
        return 0
    if args.tactics:
        solved = run_tactics(game.name, args.budget)
        print(describe_tactics(game.name, args.budget, solved))
        return 0 if all(figure.solved for figure in solved) else 1
    if args.scaling:
        scaling = measure_scaling(game.name, options, args.budget, max(1, args.workers))
        print(describe_scaling(game.name, scaling))
        return 0
    matches: list[Match] = args.match or [MATCHES[name] for name in DEFAULT_MATCHES]
    specs = {
        match.label: [
            GameSpec(
                game.name,
                options,
                (match.first, match.second) if i % 2 == 0 else (match.second, match.first),
                args.budget,
                args.seed * 100_000 + m * 1000 + i,
            )
            for i in range(args.games)
        ]
        for m, match in enumerate(matches)
    }
    records: dict[str, list[GameRecord]] = {label: [] for label in specs}
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        futures = {
            pool.submit(play_game, spec): label for label, group in specs.items() for spec in group
        }
        failed = 0
        for done, future in enumerate(as_completed(futures), 1):
            label = futures[future]
            try:
                record = future.result()
            except Exception:
                # One broken game must not lose the others' results: report it, go on.
                failed += 1
                print(f"[{done}/{len(futures)}] {label}: the game failed", file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
                continue
            records[label].append(record)
            print(
                f"[{done}/{len(futures)}] {label} {record.spec.seats}: "
                f"winner {record.winner} after {record.plies} plies ({record.reason})",
                file=sys.stderr,
                flush=True,
            )
    met = not failed
    for match in matches:
        report = summarise(match, records[match.label])
        met &= report["target_met"]
        print(json.dumps(report) if args.json else describe(game.name, report))
    if failed:
        print(f"{failed} game(s) failed: see the errors above", file=sys.stderr)
    return 0 if met else 1


def summarise(match: Match, records: list[GameRecord]) -> dict[str, Any]:
    """A match's results as plain data."""
    wins = draws = losses = 0
    times: dict[str, dict[str, list[float]]] = {}
    for record in records:
        first_seat = record.spec.seats.index(match.first)
        if match.first == match.second:
            first_seat = record.spec.seed % 2
        if record.winner is None:
            draws += 1
        elif record.winner == first_seat:
            wins += 1
        else:
            losses += 1
        for seat, seconds in record.turn_seconds.items():
            player = record.spec.seats[seat]
            entry = times.setdefault(player, {"turns": [], "moves": []})
            entry["turns"].extend(seconds)
            entry["moves"].extend(record.move_seconds[seat])
    games = len(records)
    low, high = wilson(wins, games)
    score = wins + draws / 2
    score_low, score_high = wilson(score, games)
    met = wins > losses if match.target is None else bool(games) and score / games >= match.target
    return {
        "match": match.label,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games if games else 0.0,
        "ci95": [low, high],
        "score": score / games if games else 0.0,
        "score_ci95": [score_low, score_high],
        "target": match.target,
        "target_met": met,
        "mean_plies": statistics.fmean(r.plies for r in records) if records else 0.0,
        "seconds": {
            player: {
                "turns": len(entry["turns"]),
                "turn_mean": statistics.fmean(entry["turns"]),
                "turn_max": max(entry["turns"]),
                "moves": len(entry["moves"]),
                "move_mean": statistics.fmean(entry["moves"]),
                "move_max": max(entry["moves"]),
            }
            for player, entry in times.items()
            if entry["turns"]
        },
    }


def describe(game: str, report: dict[str, Any]) -> str:
    """A match report in words."""
    first, second = report["match"].split("-")
    low, high = report["ci95"]
    if report["target"] is None:
        goal = f"target: more wins than {second}"
    else:
        goal = f"target: a score ≥ {report['target']:.0%}"
    lines = [
        f"{game}: {first} vs {second}: {report['games']} games, {first} won {report['wins']}, "
        f"drew {report['draws']}, lost {report['losses']}: win rate {report['win_rate']:.1%} "
        f"(95 % CI {low:.1%}–{high:.1%}); score {report['score']:.1%} "
        f"(95 % CI {report['score_ci95'][0]:.1%}–{report['score_ci95'][1]:.1%}); {goal}: "
        + ("met" if report["target_met"] else "NOT met")
        + f"; {report['mean_plies']:.0f} plies per game"
    ]
    for player, figures in report["seconds"].items():
        lines.append(
            f"  {player}: {figures['turn_mean']:.2f} s per answer "
            f"(max {figures['turn_max']:.2f} s, {figures['turns']} answers); "
            f"{figures['move_mean']:.3f} s per move "
            f"(max {figures['move_max']:.2f} s, {figures['moves']} moves)"
        )
    return "\n".join(lines)
