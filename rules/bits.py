"""Bit-set helpers shared by the engines and the computer player's game knowledge."""

from __future__ import annotations


def set_bits(bits: int) -> list[int]:
    """The index of every set bit of `bits`, lowest first."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found
