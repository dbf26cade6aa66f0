"""The interface every game engine implements: games, states, options, outcomes, errors."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

OptionValue = int | str
"""The value of one game option: board sizes and thresholds are ints, variants are strings."""

Options = Mapping[str, OptionValue]
"""A complete, validated set of game options."""


class GameError(ValueError):
    """An error whose message can be shown to a player as it is."""


class InvalidMoveError(GameError):
    """Text that is not a move in the game's notation."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules forbid in this position."""


class InvalidOptionError(GameError):
    """An unknown game option, or a value outside the option's allowed set."""


class UnknownGameError(GameError):
    """A game name that is neither a registered name nor an alias."""


class DecodeError(GameError):
    """Text that is not a state encoded by the game's `encode()`."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended."""

    winner: int | None
    """The winning seat (0 or 1), or None for a draw."""
    reason: str
    """Why the game ended, in words a player understands ("all six stones connected")."""

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a game, with its default and its allowed values."""

    name: str
    """The option's key in `new_game(**options)`."""
    default: OptionValue
    """The value used when the option is not given."""
    description: str
    """One line telling a player what the option changes."""
    choices: tuple[OptionValue, ...] = ()
    """The allowed values, when the option takes one of a fixed set."""
    minimum: int | None = None
    """The smallest allowed value of an integer option with a range."""
    maximum: int | None = None
    """The largest allowed value of an integer option with a range."""
    limit: str | None = None
    """The largest value in words when other options bound it ("size × size"); `maximum`
    is then the largest it can ever be."""

    @property
    def is_int(self) -> bool:
        """True when the option takes integer values."""
        return isinstance(self.default, int)

    def allowed(self) -> str:
        """Describe the allowed values in words, for help texts and error messages."""
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.minimum is not None and self.maximum is not None:
            if self.limit is not None:
                return f"an integer from {self.minimum} to {self.limit} (at most {self.maximum})"
            return f"an integer from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"an integer of at least {self.minimum}"
        if self.maximum is not None:
            return f"an integer of at most {self.maximum}"
        return "an integer" if self.is_int else "any text"

    def validate(self, value: object) -> OptionValue:
        """Return `value` converted to the option's type, or raise `InvalidOptionError`."""
        error = InvalidOptionError(f"{self.name} must be {self.allowed()} (got {value!r})")
        converted: OptionValue
        if self.is_int:
            if isinstance(value, bool):
                raise error
            if isinstance(value, int):
                converted = value
            elif isinstance(value, str):
                try:
                    converted = int(value.strip())
                except ValueError:
                    raise error from None
            else:
                raise error
            if self.minimum is not None and converted < self.minimum:
                raise error
            if self.maximum is not None and converted > self.maximum:
                raise error
        else:
            if not isinstance(value, str):
                raise error
            converted = value.strip().lower()
        if self.choices and converted not in self.choices:
            raise error
        return converted


MoveT = TypeVar("MoveT", bound=Hashable)


class GameState(ABC, Generic[MoveT]):
    """One immutable position of a game, with the player to move.

    Subclasses are frozen: `play()` returns a new state and never changes `self`.
    Equal states compare equal and hash equally.
    """

    @property
    @abstractmethod
    def game(self) -> Game[Self]:
        """The game this state belongs to."""

    @property
    @abstractmethod
    def options(self) -> Options:
        """The validated options this game was started with."""

    # Plain attributes (dataclass fields in the subclasses), not abstract properties,
    # so that frozen dataclass subclasses can declare them as fields.
    to_move: int
    """The seat (0 or 1) whose move it is; it stays the same across a multi-move turn."""
    ply: int
    """The number of moves played since the start of the game."""
    last_move: MoveT | None
    """The move that led to this state, or None at the start."""

    @abstractmethod
    def legal_moves(self) -> Iterator[MoveT]:
        """Yield every legal move once; yield nothing when the game is over."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Return the legal move `text` names.

        Raises `InvalidMoveError` for text that is not in the game's notation and
        `IllegalMoveError` for a well-formed move the rules forbid here.
        """

    @abstractmethod
    def format_move(self, move: MoveT) -> str:
        """Return the notation of `move`; `parse_move` is its exact inverse for legal moves."""

    @abstractmethod
    def play(self, move: MoveT) -> Self:
        """Return the state after `move`; raise `IllegalMoveError` if it is not legal."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """Return how the game ended, or None while it goes on."""

    @abstractmethod
    def encode(self) -> str:
        """Return a compact text form of the state; `game.decode()` restores it exactly."""

    @abstractmethod
    def diagram(self) -> str:
        """Return a plain-text picture of the board, labelled as in the notation."""

    def is_game_over(self) -> bool:
        """True when the game has ended."""
        return self.outcome() is not None

    def play_text(self, text: str) -> Self:
        """Parse `text` and play it."""
        return self.play(self.parse_move(text))

    def legal_notations(self) -> list[str]:
        """Every legal move in notation, sorted."""
        return sorted(self.format_move(move) for move in self.legal_moves())


StateT_co = TypeVar("StateT_co", bound=GameState[Any], covariant=True)


class Game(ABC, Generic[StateT_co]):
    """A game's rules and metadata: its names, colours and options; it creates states."""

    name: ClassVar[str]
    """Canonical lower-case name, used in commands and storage."""
    title: ClassVar[str]
    """The name shown to players."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names `get_game()` accepts."""
    colours: ClassVar[tuple[str, str]]
    """The colour of seat 0 and of seat 1 (seat 0 moves first)."""
    option_specs: ClassVar[tuple[Option, ...]] = ()
    """The options `new_game()` accepts."""
    notation: ClassVar[str]
    """A short description of the move notation with examples, for help texts."""
    summary: ClassVar[str]
    """A short summary of the rules, for help texts."""
    quick_moves: ClassVar[tuple[str, ...]] = ()
    """Moves written without coordinates (Stones' `return`), offered as buttons when legal."""

    def option(self, name: str) -> Option:
        """Return the option called `name`, or raise `InvalidOptionError`."""
        for spec in self.option_specs:
            if spec.name == name:
                return spec
        known = ", ".join(spec.name for spec in self.option_specs) or "none"
        raise InvalidOptionError(f"{self.title} has no option {name!r} (options: {known})")

    def validate_options(self, options: Mapping[str, object]) -> dict[str, OptionValue]:
        """Return a complete option set: given values validated, missing ones defaulted."""
        for name in options:
            self.option(name)
        return {
            spec.name: spec.validate(options[spec.name]) if spec.name in options else spec.default
            for spec in self.option_specs
        }

    def new_game(self, **options: object) -> StateT_co:
        """Return the starting state for these options (defaults for those not given)."""
        return self.initial_state(self.validate_options(options))

    @abstractmethod
    def initial_state(self, options: Options) -> StateT_co:
        """Return the starting state for a complete, validated option set."""

    @abstractmethod
    def decode(self, text: str) -> StateT_co:
        """Restore a state from `encode()`; raise `DecodeError` for anything else."""

    def max_plies(self, options: Options) -> int | None:
        """The most moves a game with these options can last, when the rules bound it."""
        return None

    def __repr__(self) -> str:
        return f"<Game {self.name}>"
