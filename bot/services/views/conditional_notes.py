"""Why a player's conditional moves were cleared: what they are told, as data.

The note goes by direct message where the player accepts them (an outbox announcement),
else it waits for their next command. Front ends word it (`bot.texts.conditionals`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.storage.repository import GameRecord


class ClearReason(enum.StrEnum):
    """Why conditional moves were cleared instead of played."""

    DEVIATED = "deviated"
    """The opponent played a turn none of the lines expected."""
    GAME_ENDED = "game_ended"
    """The opponent's turn ended the game."""
    UNDO_REQUESTED = "undo_requested"
    """A request to take back moves was open when the opponent's turn came."""
    DRAW_OFFERED = "draw_offered"
    """The opponent's draw offer waits for the player's answer."""
    VACATION = "vacation"
    """The player is on vacation."""
    TAKEN_BACK = "taken_back"
    """Moves were taken back, and the tree does not fit the position any more."""
    UNPLAYABLE = "unplayable"
    """The reply could not be played (the rules or a check refused it)."""


@dataclass(frozen=True, slots=True)
class ClearedNote:
    """A player's conditional moves in a game were cleared, and why."""

    user_id: int
    game_id: int
    reason: ClearReason
    turn: str = ""
    """The opponent's turn that came (stored form: moves joined by ","), if any."""
    asker: int | None = None
    """For `UNDO_REQUESTED`: the seat that asked to take back moves."""
    detail: str = ""
    """For `UNPLAYABLE`: why the reply was refused."""

    def data(self) -> dict[str, Any]:
        """The note as stored (JSON)."""
        return {
            "user": self.user_id,
            "game": self.game_id,
            "reason": self.reason.value,
            "turn": self.turn,
            "asker": self.asker,
            "detail": self.detail,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ClearedNote:
        """A stored note."""
        return cls(
            data["user"],
            data["game"],
            ClearReason(data["reason"]),
            data["turn"],
            data["asker"],
            data["detail"],
        )


@dataclass(frozen=True, slots=True)
class ClearedNotice:
    """A note with its game, ready to be worded."""

    note: ClearedNote
    record: GameRecord
    note_id: int | None = None
    """The stored note it was read from (one kept for the player's next command)."""

    @property
    def seat(self) -> int | None:
        """The seat of the player told."""
        return self.record.seat_of(self.note.user_id)
