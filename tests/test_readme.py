"""The README's two commands and CI stay in step."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from discord import app_commands

from bot.cli import build_parser
from bot.client import TabulaBot
from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    """The shell commands in the README's quick start, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", quick_start)


def test_readme_has_exactly_a_run_and_a_test_command() -> None:
    """The quick start gives two commands: run the bot, run the tests."""
    commands = readme_commands()
    assert len(commands) == 2
    assert commands[0].endswith("tabula run")
    assert "pytest" in commands[1] and "mypy" in commands[1] and "ruff" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    """`.ci/run` executes the README's test command exactly."""
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci_lines


def section(title: str) -> str:
    """The README's text under a `## ` heading, up to the next one."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's subcommands by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_subcommand_is_in_the_command_line_table() -> None:
    """Each `tabula` subcommand (and `bench` kind) has a row in "Command line"."""
    table = section("Command line")
    for name, sub in subcommands(build_parser()).items():
        names = [f"bench {kind}" for kind in subcommands(sub)] if name == "bench" else [name]
        for shown in names:
            assert f"| `tabula {shown}" in table, shown


async def test_every_slash_command_is_in_the_bot_table() -> None:
    """Each registered slash command (and sub-command) is in "The Discord bot" table."""
    bot = TabulaBot(Settings(token="x"), commands_only=True)
    await bot.setup_hook()
    table = section("The Discord bot").split("\n\n**", 1)[0]
    for command in bot.tree.get_commands():
        assert f"| `/{command.name}" in table, command.name
        if isinstance(command, app_commands.Group):
            rows = [row for row in table.splitlines() if row.startswith(f"| `/{command.name}")]
            for sub in command.commands:
                assert any(f"`/{command.name} {sub.name}" in r or f"`{sub.name}" in r
                           for r in rows), sub.name  # fmt: skip
