"""One renderer per game; importing a module registers it."""

from __future__ import annotations

from renderers.games import groups

__all__ = ["groups"]
