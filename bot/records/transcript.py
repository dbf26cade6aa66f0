"""`Transcript`: everything a game record file says about a game, in one plain value.

The record formats (`ap_json`, `sgf`, `text`) turn a transcript into text and back;
`transcript_of` builds one from a stored game and its moves. Moves are grouped by turn:
one move per turn in most games, up to five in a Diffusion Chess turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.storage.repository import GameRecord, GameStatus, MoveRecord
from rules import AnyGame, GameError, OptionValue, get_game

SITE = "Tabula"
"""The name records give for where the game was played."""
TURN_SEPARATOR = ", "
"""Between the moves of one turn (no game's notation contains it)."""
MAX_OPTION = 40
"""The longest option value, level or time control a record may give, in characters."""


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A player as a record names them."""

    name: str
    user_id: int | None = None
    """The Discord user id, when the record carries one."""
    level: str | None = None
    """The computer's level (`easy`, `medium`, `hard`) when the computer played this seat."""


@dataclass(frozen=True, slots=True)
class Turn:
    """The moves one player made before the other was to move, in notation."""

    seat: int
    moves: tuple[str, ...]

    @property
    def notation(self) -> str:
        """The turn as one string: its moves joined by `TURN_SEPARATOR`."""
        return TURN_SEPARATOR.join(self.moves)


@dataclass(frozen=True, slots=True)
class Tournament:
    """The tournament a game was played in: its name and the round."""

    event: str
    round: str


@dataclass(frozen=True, slots=True)
class Transcript:
    """A game as records describe it: who, what, when, how it ended, and the moves."""

    game: str
    """The game's registry name (`stones`)."""
    options: Mapping[str, OptionValue]
    """The complete, validated options."""
    seats: tuple[Seat, Seat]
    turns: tuple[Turn, ...]
    started_at: datetime
    status: GameStatus = GameStatus.FINISHED
    winner: int | None = None
    """The winning seat; None for a draw (or while the game goes on)."""
    reason: str | None = None
    """Why the game ended, as Tabula says it ("alice resigned")."""
    ended_at: datetime | None = None
    rated: bool = False
    time_control: str = "none"
    tournament: Tournament | None = None
    game_id: int | None = None
    """The game's number where it was played."""

    @property
    def rules(self) -> AnyGame:
        """The game's rules and metadata."""
        return get_game(self.game)

    @property
    def finished(self) -> bool:
        """True when the game ended with a result (won, lost or drawn)."""
        return self.status is GameStatus.FINISHED

    def moves(self) -> list[tuple[int, str]]:
        """Every move as (seat, notation), in order."""
        return [(turn.seat, move) for turn in self.turns for move in turn.moves]

    def result_word(self, seat: int) -> str:
        """ "won", "lost" or "drew" for the player in `seat` of a finished game."""
        if self.winner is None:
            return "drew"
        return "won" if self.winner == seat else "lost"


def turns_of(moves: Sequence[tuple[int, str]]) -> tuple[Turn, ...]:
    """Group moves (seat, notation) into turns: runs of moves by the same seat."""
    turns: list[Turn] = []
    for seat, notation in moves:
        if turns and turns[-1].seat == seat:
            turns[-1] = Turn(seat, (*turns[-1].moves, notation))
        else:
            turns.append(Turn(seat, (notation,)))
    return tuple(turns)


def public_moves(record: GameRecord, moves: Sequence[MoveRecord]) -> list[MoveRecord]:
    """The moves everyone has seen: in a game in progress, the moves of a turn not yet
    complete (Diffusion Chess shows them only to their player) are left out."""
    shown = list(moves)
    if record.is_active:
        while shown and shown[-1].seat == record.to_move:
            shown.pop()
    return shown


def transcript_of(
    record: GameRecord,
    moves: Sequence[MoveRecord],
    *,
    tournament: Tournament | None = None,
    rated: bool | None = None,
) -> Transcript:
    """The transcript of a stored game; `rated` overrides the record's (imported games)."""
    seats = tuple(
        Seat(record.names[seat], record.players[seat], record.ai_levels[seat]) for seat in (0, 1)
    )
    finished = record.status is not GameStatus.ACTIVE
    return Transcript(
        game=record.game,
        options=get_game(record.game).validate_options(record.options),
        seats=(seats[0], seats[1]),
        turns=turns_of([(move.seat, move.notation) for move in public_moves(record, moves)]),
        started_at=record.created_at,
        status=record.status,
        winner=record.winner if finished else None,
        reason=record.result_reason if finished else None,
        ended_at=record.finished_at if finished else None,
        rated=record.rated if rated is None else rated,
        time_control=record.time_control,
        tournament=tournament,
        game_id=record.id,
    )


def rfc3339(moment: datetime) -> str:
    """A moment in UTC to the second, as records write it: `2025-03-01T09:30:00Z`."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_moment(text: str, what: str) -> datetime:
    """An RFC 3339 date-time (seconds kept, fractions dropped), in UTC."""
    try:
        moment = datetime.fromisoformat(text.strip()) if len(text) <= 64 else None
    except ValueError:
        moment = None
    if moment is None:
        raise RecordError(f"{what} is not a date and time like 2025-03-01T09:30:00Z")
    if moment.tzinfo is None:
        raise RecordError(f"{what} has no time zone (write Z for UTC)")
    try:
        return moment.astimezone(UTC).replace(microsecond=0)
    except OverflowError:
        raise RecordError(f"{what} is out of the range of dates") from None


def changed_options(
    game: AnyGame, options: Mapping[str, OptionValue]
) -> list[tuple[str, OptionValue]]:
    """The options that differ from their defaults, in the game's order.

    A default may depend on the other options (Stones' threshold follows the size), so
    each option is compared with what it would be if it were left out.
    """
    changed = []
    for spec in game.option_specs:
        if spec.name not in options:
            continue
        others = {name: value for name, value in options.items() if name != spec.name}
        try:
            default = game.validate_options(others).get(spec.name, spec.default)
        except GameError:
            default = spec.default
        if options[spec.name] != default:
            changed.append((spec.name, options[spec.name]))
    return changed


def options_line(game: AnyGame, options: Mapping[str, OptionValue]) -> list[str]:
    """Every option as `key=value`, in the game's order."""
    return [f"{spec.name}={options[spec.name]}" for spec in game.option_specs]


def read_options(game: AnyGame, pairs: Sequence[str], where: str) -> dict[str, OptionValue]:
    """Options written as `key=value`, validated by the game (missing ones defaulted)."""
    given: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        shown = repr(pair if len(pair) <= MAX_OPTION else pair[: MAX_OPTION - 1] + "…")
        if not sep or not key.strip():
            raise RecordError(f"{where}: {shown} is not an option written key=value")
        if len(pair) > MAX_OPTION:
            raise RecordError(f"{where}: {shown} is too long to be an option")
        if key.strip() in given:
            raise RecordError(f"{where}: {key.strip()!r} is given twice")
        given[key.strip()] = value.strip()
    try:
        return game.validate_options(given)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None
