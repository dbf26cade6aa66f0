"""The `tabula` command line: one subcommand module per area."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.cli import (
    backup_command,
    bench_command,
    config_command,
    console_command,
    doctor_command,
    games_command,
    migrate_command,
    records_command,
    render_command,
    replay_command,
    restore_command,
    run_command,
    sync_command,
    tournament_command,
)
from bot.cli.moves_argv import split_moves

COMMAND_MODULES = (
    run_command,
    console_command,
    sync_command,
    doctor_command,
    backup_command,
    restore_command,
    migrate_command,
    config_command,
    games_command,
    replay_command,
    records_command,
    render_command,
    tournament_command,
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
    words = sys.argv[1:] if argv is None else list(argv)
    words, moves = split_moves(parser, words)
    args = parser.parse_args(words)
    if moves:
        getattr(args, args.trailing_positionals).extend(moves)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`tabula replay ... | head -c 200`): stop quietly, and point
        # stdout at nothing so that the interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status
