"""The `tabula` command line: one subcommand module per area."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from bot.cli import (
    backup_command,
    bench_command,
    config_command,
    console_command,
    doctor_command,
    games_command,
    records_command,
    render_command,
    replay_command,
    restore_command,
    run_command,
    sync_command,
)

COMMAND_MODULES = (
    run_command,
    console_command,
    sync_command,
    doctor_command,
    backup_command,
    restore_command,
    config_command,
    games_command,
    replay_command,
    records_command,
    render_command,
    bench_command,
)
"""Each module adds its subcommands with `register(subparsers)`."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="tabula", description="Tabula: abstract strategy games on Discord."
    )
    parser.add_argument(
        "--env-file",
        type=Path,
        metavar="PATH",
        help="read settings from this environment file instead of .env in the working "
        "directory (e.g. the service's /etc/tabula/tabula.env)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    # Moves may follow options (`replay groups --option start=drop c3 c5`); argparse
    # leaves such trailing positionals unparsed, so commands that take them opt in.
    args, extras = parser.parse_known_args(argv)
    if extras:
        if not getattr(args, "trailing_positionals", None) or any(
            extra.startswith("-") and len(extra) > 1 for extra in extras
        ):
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
        getattr(args, args.trailing_positionals).extend(extras)
    if args.command is None:
        parser.print_help()
        return 2
    status: int = args.func(args)
    return status
