"""Per-game knowledge for the search; each module registers its game's policy."""

from __future__ import annotations

from bot.ai.games import groups, hexade, rekushu

__all__ = ["groups", "hexade", "rekushu"]
