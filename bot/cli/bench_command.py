"""`tabula bench KIND`: run one of the benchmarks."""

from __future__ import annotations

import argparse

from bot.bench import (
    ai_bench,
    bot_bench,
    crash_bench,
    history_bench,
    pairing_bench,
    render_bench,
    rules_bench,
    web_bench,
)

BENCHMARKS = (
    rules_bench,
    render_bench,
    pairing_bench,
    ai_bench,
    bot_bench,
    crash_bench,
    history_bench,
    web_bench,
)
"""Each benchmark module adds its own `bench` subcommand with `register(subparsers)`."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `bench` subcommand and its kinds."""
    parser = subparsers.add_parser(
        "bench", help="measure speed and strength (rules, render, pairing, ai)"
    )
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    for module in BENCHMARKS:
        module.register(kinds)
