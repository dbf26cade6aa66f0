"""Bitboard helpers shared by the per-game knowledge."""

from __future__ import annotations


def set_bits(bits: int) -> list[int]:
    """The index of every set bit of `bits`, lowest first."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found


def nth_bit(bits: int, index: int) -> int:
    """The index of the set bit of `bits` at position `index` among them, lowest first
    (`set_bits(bits)[index]` without building the list)."""
    for _ in range(index):
        bits &= bits - 1
    return (bits & -bits).bit_length() - 1
