"""Shared pytest configuration: the fake Discord's fixtures are available to every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.logs import reset_logging

pytest_plugins = ["tests.fakediscord.fixtures", "tests.databases"]


@pytest.fixture(autouse=True)
def _reset_logging() -> Iterator[None]:
    """Commands configure logging for the whole process; undo that after each test."""
    yield
    reset_logging()


@pytest.fixture(autouse=True)
def _no_web_pages_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that read the environment (`tabula run`, `tabula console`) serve no web
    pages in tests, which would listen on the fixed default port; a test of the pages
    turns them on, on a free port."""
    monkeypatch.setenv("TABULA_WEB", "off")
