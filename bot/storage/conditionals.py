"""The records the repository keeps for conditional moves: trees and notes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class StoredTree:
    """A player's tree of conditional moves in a game, as it applies from one position."""

    game_id: int
    user_id: int
    ply: int
    """The game's ply when the opponent's turn began: where the tree's lines start."""
    tree: str
    """The tree as JSON (`bot.services.correspondence.conditional_lines.encode_tree`)."""
    created_at: datetime


@dataclass(frozen=True, slots=True)
class StoredNote:
    """Why a player's conditional moves were cleared, kept for their next command."""

    id: int
    user_id: int
    game_id: int
    data: Mapping[str, Any]
    """What to say (`bot.services.views.conditional_notes.ClearedNote.data`)."""
    created_at: datetime
