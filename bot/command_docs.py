"""The documentation's command tables, generated from the commands themselves.

`docs/reference/commands.md` holds three tables between markers: the `tabula` command
line (from its argument parser), the slash commands (from the bot's command tree) and the
console's commands (from its /help). A test regenerates or compares them, as it does the
settings table (`bot/config_docs.py`).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from discord import app_commands

from bot.cli import build_parser
from bot.client import TabulaBot
from bot.config import Settings
from bot.console.competition import TOURNAMENT_HELP
from bot.console.help import CONSOLE_COMMANDS

TABLES = ("cli", "slash", "console")
"""The generated tables' names, as written in their markers."""


def markers(name: str) -> tuple[str, str]:
    """The start and end markers around a generated table."""
    return f"<!-- {name}-table:start -->\n", f"<!-- {name}-table:end -->"


def cell(text: str) -> str:
    """Text made safe for one cell of a Markdown table."""
    return " ".join(text.split()).replace("|", "\\|")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's subcommands by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The one-line help of each of a parser's subcommands."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {}


def cli_commands(
    parser: argparse.ArgumentParser | None = None, prefix: str = "tabula"
) -> Iterator[tuple[str, str, str]]:
    """(name, usage, help) of every `tabula` subcommand, nested ones included."""
    parser = parser or build_parser()
    helps = _helps(parser)
    for name, sub in _subparsers(parser).items():
        full = f"{prefix} {name}"
        nested = _subparsers(sub)
        if nested:
            yield from cli_commands(sub, full)
            continue
        usage = sub.format_usage().removeprefix("usage: ").replace(" [-h]", "").strip()
        yield full, usage, helps.get(name, "")


def cli_table() -> str:
    """The command line's table: each subcommand's usage and what it does."""
    rows = ["| command | what it does |", "|---|---|"]
    rows += [f"| `{cell(usage)}` | {cell(what)} |" for _, usage, what in cli_commands()]
    return "\n".join(rows) + "\n"


def _parameters(command: app_commands.Command[Any, ..., Any]) -> str:
    """A slash command's options as typed: `game [opponent]`."""
    words = []
    for parameter in command.parameters:
        words.append(parameter.name if parameter.required else f"[{parameter.name}]")
    return " ".join(words)


def slash_commands(
    tree: list[app_commands.Command[Any, ..., Any] | app_commands.Group],
) -> Iterator[tuple[str, str, str]]:
    """(name, usage, description) of every slash command and sub-command of a tree."""
    for command in sorted(tree, key=lambda c: c.name):
        if isinstance(command, app_commands.Group):
            for sub in sorted(command.commands, key=lambda c: c.name):
                if isinstance(sub, app_commands.Command):
                    name = f"/{command.name} {sub.name}"
                    yield name, f"{name} {_parameters(sub)}".strip(), sub.description
        elif isinstance(command, app_commands.Command):
            name = f"/{command.name}"
            yield name, f"{name} {_parameters(command)}".strip(), command.description


async def registered_commands() -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """The slash commands the bot registers with Discord, built without connecting."""
    bot = TabulaBot(Settings(token="x"), commands_only=True)
    await bot.setup_hook()
    commands = [
        command
        for command in bot.tree.get_commands()
        if isinstance(command, app_commands.Command | app_commands.Group)
    ]
    await bot.close()
    return commands


async def slash_table() -> str:
    """The slash commands' table: each command's options and description."""
    rows = ["| command | what it does |", "|---|---|"]
    for _, usage, what in slash_commands(await registered_commands()):
        rows.append(f"| `{cell(usage)}` | {cell(what)} |")
    return "\n".join(rows) + "\n"


def console_table() -> str:
    """The console's commands as its /help lists them."""
    rows = ["| command | what it does |", "|---|---|"]
    for usage, what in CONSOLE_COMMANDS:
        rows.append(f"| `{cell(usage.format(computer='Tabula'))}` | {cell(what)} |")
    rows.append(f"| `/tournament ...` | {cell(TOURNAMENT_HELP)} |")
    return "\n".join(rows) + "\n"


async def tables() -> dict[str, str]:
    """Every generated table by name."""
    return {"cli": cli_table(), "slash": await slash_table(), "console": console_table()}
