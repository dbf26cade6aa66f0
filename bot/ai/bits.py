"""Bitboard helpers shared by the per-game knowledge."""

from __future__ import annotations

from rules.bits import set_bits

__all__ = ["nth_bit", "set_bits"]


def nth_bit(bits: int, index: int) -> int:
    """The index of the set bit of `bits` at position `index` among them, lowest first
    (`set_bits(bits)[index]` without building the list)."""
    for _ in range(index):
        bits &= bits - 1
    return (bits & -bits).bit_length() - 1
