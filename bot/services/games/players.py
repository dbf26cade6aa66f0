"""Who is acting: a user as the services see them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Player:
    """A user taking part in a challenge or game."""

    id: int
    """The user's id (a Discord snowflake, or a console user's id)."""
    name: str
    """The name shown on boards and in messages."""
    is_bot: bool = False
    """True for bot accounts, which cannot be challenged."""
