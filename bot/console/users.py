"""Console users: names typed at the prompt, each with a stable id."""

from __future__ import annotations

import hashlib
import re

from bot.services.errors import InvalidInputError
from bot.services.games.players import Player

NAME = re.compile(r"[^\W\d_][\w.-]{0,31}")
"""A console user name: a letter (of any alphabet), then letters, digits, `_`, `.` or `-`
(up to 32)."""


def user_id(name: str) -> int:
    """A stable id for a name (case-insensitive), so a database outlives the session."""
    digest = hashlib.sha256(name.lower().encode()).digest()
    return int.from_bytes(digest[:6], "big") + 1


class ConsoleUsers:
    """The users seen so far in this session."""

    def __init__(self) -> None:
        self._by_id: dict[int, Player] = {}

    def get(self, name: str) -> Player:
        """The user called `name`, created on first use."""
        cleaned = name.strip().lstrip("@")
        if not NAME.fullmatch(cleaned):
            shown = cleaned if len(cleaned) <= 40 else cleaned[:39] + "…"
            raise InvalidInputError(
                f"{shown!r} is not a user name: a name is a letter, then up to 31 letters, "
                "digits, _ . or -"
            )
        player = self._by_id.get(user_id(cleaned))
        if player is None:
            player = Player(user_id(cleaned), cleaned)
            self._by_id[player.id] = player
        return player

    def name(self, user: int | None, fallback: str) -> str:
        """The name of a known user id, else `fallback`."""
        player = self._by_id.get(user) if user is not None else None
        return player.name if player else fallback

    def all(self) -> list[Player]:
        """Every user seen, by name."""
        return sorted(self._by_id.values(), key=lambda p: p.name.lower())
