"""What the services return: plain data the front ends turn into messages and images."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.competition import RatingChange
from bot.storage.repository import ChallengeRecord, GameRecord, MoveRecord
from rules import AnyGame, GameState, Outcome, get_game


@dataclass(frozen=True, slots=True)
class GameView:
    """A game's record together with its current state."""

    record: GameRecord
    state: GameState[Any]
    rating_changes: tuple[RatingChange, ...] = ()
    """What the game did to its players' ratings; set on the view that reports its end."""

    @property
    def game(self) -> AnyGame:
        """The game's rules and metadata."""
        return get_game(self.record.game)

    @property
    def id(self) -> int:
        """The game's id."""
        return self.record.id

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended: the engine's outcome, or a resignation / agreed draw."""
        record = self.record
        if record.result_reason is not None:
            return Outcome(record.winner, record.result_reason)
        return self.state.outcome()

    @property
    def to_move_id(self) -> int | None:
        """The user id of the player to move (None for a computer seat)."""
        return self.record.players[self.state.to_move]

    def name(self, seat: int) -> str:
        """The name of the player in `seat`."""
        return self.record.names[seat]

    def colour(self, seat: int) -> str:
        """The colour `seat` plays, as the game calls it."""
        return self.game.colours[seat]

    def turn_info(self) -> str | None:
        """For multi-move games, how many moves are left in the current turn."""
        return None if self.outcome is not None else moves_left_text(self.state)


def moves_left_text(state: GameState[Any]) -> str | None:
    """For multi-move games, how many moves are left in `state`'s turn ("2 moves left in
    this turn"); None for games of one move a turn."""
    left = getattr(state, "moves_left", None)
    if not isinstance(left, int):
        return None
    return f"{left} move{'s' if left != 1 else ''} left in this turn"


@dataclass(frozen=True, slots=True)
class MoveResult:
    """A move that was played and committed."""

    view: GameView
    """The game after the move."""
    before: GameState[Any]
    """The state the move was played from."""
    move: MoveRecord
    """The move as logged (canonical notation)."""
    turn_complete: bool
    """True when the move ended the mover's turn (always, except in multi-move turns)."""
    turn_moves: Sequence[MoveRecord]
    """The moves of the mover's turn so far, this one included."""
    draw_offer_lapsed: bool = False
    """True when the move let the opponent's draw offer lapse."""
    reply: MoveResult | None = None
    """The opponent's conditional move, played at once in answer to this turn and stored
    with it (`GameService.responders`)."""

    @property
    def finished(self) -> bool:
        """True when the move ended the game."""
        return self.view.outcome is not None

    @property
    def last(self) -> MoveResult:
        """The last move stored: the conditional reply, if one was played, else this one."""
        return self.reply if self.reply is not None else self

    @property
    def turn_notation(self) -> str:
        """The turn's moves in notation, comma-separated."""
        return ", ".join(move.notation for move in self.turn_moves)


class DrawStatus(enum.Enum):
    """What an offer of a draw led to."""

    OFFERED = "offered"
    ACCEPTED = "accepted"
    DECLINED = "declined"


@dataclass(frozen=True, slots=True)
class DrawResult:
    """A draw offer made, accepted or declined."""

    view: GameView
    status: DrawStatus
    seat: int
    """The seat that acted."""


class UndoStatus(enum.Enum):
    """What a request to take back moves led to."""

    REQUESTED = "requested"
    """Waiting for the opponent's approval."""
    APPLIED = "applied"
    """The moves were taken back (approved, or the requester's own unfinished turn)."""
    DECLINED = "declined"


@dataclass(frozen=True, slots=True)
class UndoResult:
    """A request to take back moves, and what became of it."""

    view: GameView
    status: UndoStatus
    seat: int
    """The seat that asked for the undo."""
    moves: Sequence[MoveRecord]
    """The moves that would be or were taken back, oldest first."""
    allowed: bool = False
    """True when the opponent allowed the undo (it is announced to both); False for a
    request not answered yet, refused, or one's own unfinished turn taken back at once
    (which only the player sees)."""

    @property
    def notation(self) -> str:
        """The moves taken back, comma-separated."""
        return ", ".join(move.notation for move in self.moves)


@dataclass(frozen=True, slots=True)
class Accepted:
    """An accepted challenge and the game it started."""

    challenge: ChallengeRecord
    view: GameView
