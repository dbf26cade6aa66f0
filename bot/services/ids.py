"""Ids people type or click: only those a database column can hold can name anything."""

from __future__ import annotations

MAX_ID = 2**63 - 1
"""The largest id a 64-bit signed column (SQLite, PostgreSQL BIGINT) holds."""


def storable(number: int) -> bool:
    """Whether `number` can be the id of a stored game, challenge or tournament."""
    return 0 < number <= MAX_ID
