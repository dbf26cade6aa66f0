"""The documentation's generated command tables match the code, and every command is documented."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot.command_docs import (
    TABLES,
    cli_commands,
    markers,
    registered_commands,
    slash_commands,
    tables,
)
from bot.config import SETTINGS
from bot.console.help import CONSOLE_COMMANDS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REFERENCE = DOCS / "reference" / "commands.md"
REGENERATE = os.environ.get("TABULA_REGENERATE_DOCS") == "1"
"""Set to 1 to rewrite the generated tables from the code."""


def written_docs() -> str:
    """Every documentation page except the generated reference, as one text."""
    return "\n".join(
        path.read_text(encoding="utf-8") for path in sorted(DOCS.rglob("*.md")) if path != REFERENCE
    )


async def test_the_reference_tables_are_generated_from_the_code() -> None:
    """`docs/reference/commands.md` holds exactly what the code generates."""
    text = REFERENCE.read_text(encoding="utf-8")
    generated = await tables()
    for name in TABLES:
        start, end = markers(name)
        before, rest = text.split(start, 1)
        table, after = rest.split(end, 1)
        if REGENERATE:
            text = before + start + generated[name] + end + after
            continue
        assert table == generated[name], (
            f"the {name} table is out of date: TABULA_REGENERATE_DOCS=1 pytest {__file__}"
        )
    if REGENERATE:
        REFERENCE.write_text(text, encoding="utf-8")


def test_every_cli_subcommand_is_explained_in_the_docs() -> None:
    """Each `tabula` subcommand is named in backticks on a written page."""
    docs = written_docs()
    missing = [name for name, _, _ in cli_commands() if f"`{name}" not in docs]
    assert not missing, f"not in the docs: {missing}"


def listed_with_its_group(name: str, docs: str) -> bool:
    """A sub-command named on a line with its group: `/vacation start|end` or
    `/tournament join`, `leave`."""
    group, _, sub = name.partition(" ")
    if not sub:
        return False
    return any(
        f"`{group} " in line and re.search(rf"(`|\||`{re.escape(group)} ){re.escape(sub)}\b", line)
        for line in docs.splitlines()
    )


async def test_every_slash_command_is_explained_in_the_docs() -> None:
    """Each slash command and sub-command is named in backticks on a written page."""
    docs = written_docs()
    missing = []
    for name, _, _ in slash_commands(await registered_commands()):
        if f"`{name}" not in docs and not listed_with_its_group(name, docs):
            missing.append(name)
    assert not missing, f"not in the docs: {missing}"


def test_every_console_command_is_explained_in_the_docs() -> None:
    """Each console command is named in backticks on a written page."""
    docs = written_docs()
    names = {word for usage, _ in CONSOLE_COMMANDS for word in re.findall(r"/\w+", usage)}
    missing = sorted(name for name in names if f"`{name}" not in docs)
    assert not missing, f"not in the docs: {missing}"


@pytest.mark.parametrize("entry", SETTINGS, ids=lambda entry: entry.env)
def test_every_setting_is_in_the_docs(entry) -> None:
    """Each setting's variable appears on a documentation page."""
    assert f"`{entry.env}`" in written_docs()
