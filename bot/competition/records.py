"""What a tournament records: entrants, pairings and results, as plain frozen values.

Seats are the game's seats: the first player (seat 0) moves first, the second (seat 1)
replies; a player's "colour" in a tournament is the seat they had. Every value here is
made of ints and strings, so the services can store it as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

PlayerId = int
"""A player: a Discord user id."""


class Result(StrEnum):
    """The result of a pairing, from the first seat's side; stored by value."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "1/2-1/2"
    FIRST_WINS_BY_FORFEIT = "+/-"
    """The game was not played: the second player withdrew or did not show up."""
    SECOND_WINS_BY_FORFEIT = "-/+"
    """The game was not played: the first player withdrew or did not show up."""
    DOUBLE_FORFEIT = "-/-"
    """The game was not played and neither player scores."""

    @property
    def is_forfeit(self) -> bool:
        """True when the game was not played."""
        return self in _FORFEITS

    @property
    def first_score(self) -> float:
        """The first player's points: 1, ½ or 0."""
        return _FIRST_SCORES[self]

    @property
    def second_score(self) -> float:
        """The second player's points: 1, ½ or 0."""
        return 0.0 if self is Result.DOUBLE_FORFEIT else 1.0 - self.first_score

    @property
    def winner_seat(self) -> int | None:
        """The seat (0 or 1) that won, or None for a draw or a double forfeit."""
        if self in (Result.FIRST_WINS, Result.FIRST_WINS_BY_FORFEIT):
            return 0
        if self in (Result.SECOND_WINS, Result.SECOND_WINS_BY_FORFEIT):
            return 1
        return None

    @property
    def label(self) -> str:
        """The result as players write it: "1-0", "½-½", "+/-"."""
        return "½-½" if self is Result.DRAW else self.value

    @classmethod
    def from_winner(cls, winner_seat: int | None) -> Result:
        """The result of a played game won by a seat, or drawn (None), as in `rules.Outcome`."""
        if winner_seat is None:
            return cls.DRAW
        if winner_seat not in (0, 1):
            raise ValueError(f"a winning seat is 0 or 1, not {winner_seat}")
        return cls.FIRST_WINS if winner_seat == 0 else cls.SECOND_WINS

    @classmethod
    def forfeit(cls, first_absent: bool, second_absent: bool) -> Result:
        """The result of a game that cannot be played because one or both players are gone."""
        if first_absent and second_absent:
            return cls.DOUBLE_FORFEIT
        if first_absent:
            return cls.SECOND_WINS_BY_FORFEIT
        if second_absent:
            return cls.FIRST_WINS_BY_FORFEIT
        raise ValueError("a forfeit needs an absent player")


_FORFEITS = frozenset(
    {Result.FIRST_WINS_BY_FORFEIT, Result.SECOND_WINS_BY_FORFEIT, Result.DOUBLE_FORFEIT}
)
_FIRST_SCORES = {
    Result.FIRST_WINS: 1.0,
    Result.SECOND_WINS: 0.0,
    Result.DRAW: 0.5,
    Result.FIRST_WINS_BY_FORFEIT: 1.0,
    Result.SECOND_WINS_BY_FORFEIT: 0.0,
    Result.DOUBLE_FORFEIT: 0.0,
}


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament, with the rating used to seed them."""

    player: PlayerId
    """The player."""
    rating: float
    """The player's rating in the tournament's game when the tournament started."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round, or a player's bye; `result` is None until the game ends."""

    round: int
    """The round, counted from 1."""
    first: PlayerId
    """The player in the first seat, or the player who has the bye."""
    second: PlayerId | None = None
    """The player in the second seat; None for a bye."""
    result: Result | None = None
    """How the game ended; None while it is being played, and always for a bye."""

    def __post_init__(self) -> None:
        """Reject pairings that cannot happen."""
        if self.round < 1:
            raise ValueError(f"rounds are counted from 1, not {self.round}")
        if self.first == self.second:
            raise ValueError(f"player {self.first} cannot play themselves")
        if self.second is None and self.result is not None:
            raise ValueError("a bye has no result")

    @property
    def is_bye(self) -> bool:
        """True for a bye: a round without a game."""
        return self.second is None

    @property
    def is_finished(self) -> bool:
        """True once the game has a result; a bye is finished from the start."""
        return self.second is None or self.result is not None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The one or two players of the pairing, first seat first."""
        return (self.first,) if self.second is None else (self.first, self.second)

    def opponent(self, player: PlayerId) -> PlayerId | None:
        """The other player of the pairing (None for a bye)."""
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise ValueError(f"player {player} is not in this pairing")

    def seat(self, player: PlayerId) -> int:
        """The seat (0 or 1) `player` has in this pairing."""
        if player == self.first:
            return 0
        if player == self.second:
            return 1
        raise ValueError(f"player {player} is not in this pairing")

    def score(self, player: PlayerId) -> float | None:
        """The points `player` made in this game (None for a bye or while it is played)."""
        if self.result is None:
            return None
        return self.result.first_score if self.seat(player) == 0 else self.result.second_score

    def winner(self) -> PlayerId | None:
        """The player who won the game, if anyone did."""
        if self.result is None or self.result.winner_seat is None:
            return None
        return self.first if self.result.winner_seat == 0 else self.second

    def with_result(self, result: Result) -> Pairing:
        """The same pairing with the game's result."""
        return replace(self, result=result)


def seed(entrants: Iterable[Entrant]) -> tuple[Entrant, ...]:
    """Entrants in seed order: highest rating first, ties in the order they joined."""
    return tuple(sorted(entrants, key=lambda entrant: -entrant.rating))


def players_of(entrants: Sequence[Entrant]) -> tuple[PlayerId, ...]:
    """The players of `entrants`, in the same order."""
    return tuple(entrant.player for entrant in entrants)
