"""Shared pytest configuration: the fake Discord's fixtures are available to every test."""

from __future__ import annotations

pytest_plugins = ["tests.fakediscord.fixtures"]
