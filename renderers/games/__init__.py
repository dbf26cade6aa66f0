"""One renderer per game; importing a module registers it."""

from __future__ import annotations

from renderers.games import diffusion, groups, hexade, rekushu, stones

__all__ = ["diffusion", "groups", "hexade", "rekushu", "stones"]
