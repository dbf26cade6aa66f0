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
