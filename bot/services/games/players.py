"""Who is acting: a user as the services see them."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.repository import GameRecord


@dataclass(frozen=True, slots=True)
class Player:
    """A user taking part in a challenge or game."""

    id: int
    """The user's id (a Discord snowflake, or a console user's id)."""
    name: str
    """The name shown on boards and in messages."""
    is_bot: bool = False
    """True for bot accounts, which cannot be challenged."""


def computer_seat(record: GameRecord) -> int | None:
    """The seat the computer plays in this game, or None when two people play."""
    for seat in (0, 1):
        if record.players[seat] is None and record.ai_levels[seat] is not None:
            return seat
    return None
