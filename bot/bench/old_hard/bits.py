"""Bitboard helpers shared by the per-game knowledge (the live ones: they behave the same)."""

from __future__ import annotations

from rules.bits import set_bits

__all__ = ["set_bits"]
