"""The README's two commands and CI stay in step."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_the_test_command_builds_the_docs_strictly() -> None:
    """The docs are built with `--strict` and without `-q`: MkDocs' quiet flag silences
    the warnings that strict mode counts, so broken links would pass unnoticed."""
    words = readme_commands()[1].split()
    build = words.index("build")
    assert words[build - 1].endswith("mkdocs") and "--strict" in words[build:]
    mkdocs_options = words[build : words.index("&&", build)]
    assert "-q" not in mkdocs_options and "--quiet" not in mkdocs_options


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    """`.ci/run` executes the README's test command exactly."""
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci_lines


def test_the_readme_is_short_and_points_inside_the_repository() -> None:
    """The README is a one-minute read, and each of its links is a file of the repository."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    for target in re.findall(r"\]\(([^)]+)\)", text):
        assert not re.match(r"\w+:", target), target
        assert (ROOT / target.split("#", 1)[0]).is_file(), target
