"""`tabula config`: the settings in use and where each came from, or the reference."""

from __future__ import annotations

import argparse

from bot.cli.startup import CONFIG_STATUS, read
from bot.config_docs import effective_table, env_example, markdown_table, toml_example

FORMATS = {"env": env_example, "toml": toml_example, "markdown": markdown_table}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `config` subcommand."""
    parser = subparsers.add_parser(
        "config", help="show the settings in use (the token hidden) and where they come from"
    )
    parser.add_argument(
        "--format",
        choices=["current", *FORMATS],
        default="current",
        help="current: the values in use (default); env, toml: an example file with every "
        "setting; markdown: the table of docs/operating/settings.md",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the chosen view; exit 2 when the configuration has problems."""
    if args.format != "current":
        print(FORMATS[args.format](), end="")
        return 0
    report = read(args)
    print(effective_table(report), end="")
    return CONFIG_STATUS if report.problems else 0
