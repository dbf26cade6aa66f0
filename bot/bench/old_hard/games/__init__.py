"""Per-game knowledge for the search; each module registers its game's policy."""

from __future__ import annotations

from bot.bench.old_hard.games import diffusion, groups, hexade, rekushu, stones

__all__ = ["diffusion", "groups", "hexade", "rekushu", "stones"]
