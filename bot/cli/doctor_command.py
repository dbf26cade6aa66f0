"""`tabula doctor`: check the configuration and the database, say what is wrong."""

from __future__ import annotations

import argparse

from bot.cli.startup import read
from bot.doctor import Status, format_report, run_checks


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `doctor` subcommand."""
    parser = subparsers.add_parser(
        "doctor",
        help="check the configuration, token, database and disk; exit 1 on any problem",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="PRAGMA quick_check instead of the full integrity check (for health checks)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print every check; 1 if any found a problem, else 0 (warnings do not count)."""
    checks = run_checks(read(args), quick=args.quick)
    print(format_report(checks))
    return 1 if any(check.status is Status.PROBLEM for check in checks) else 0
