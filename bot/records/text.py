"""The plain-text record, for pasting: a header of `Key: value` lines, a blank line, then
one line per turn, `12. White: d3-e2` (a Diffusion Chess turn lists its moves separated
by a comma and a space). It reads back exactly as written.

```
Tabula game record
Game: Groups
Options: start=standard
White: alice
Black: Tabula (hard) (computer: hard)
Result: White wins
Reason: all six stones connected
Started: 2025-03-01T09:30:00Z
Ended: 2025-03-01T09:41:07Z
Rated: no
Time control: none
Site: Tabula, game 12

1. White: d3-e2
2. Black: e3-e1
```

`Result` is `White wins`, `Black wins`, `Draw`, `Aborted` (no result) or `In progress`
(then there is no `Reason` or `Ended`). Tournament games add `Event` and `Round`.

A value that would not read back as itself (one with a control character, with spaces at
either end, starting with `"`, or a name ending like the computer's mark) is written
quoted, as a JSON string: `White: "  alice "`. A name can therefore never forge a line.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator

from bot.records.limits import (
    MAX_PLIES,
    UNREADABLE,
    excerpt,
    free_text,
    hidden,
    too_many_moves,
    turn_moves,
)
from bot.records.transcript import (
    MAX_OPTION,
    SITE,
    RecordError,
    Seat,
    Tournament,
    Transcript,
    Turn,
    options_line,
    parse_moment,
    read_options,
    rfc3339,
)
from bot.storage.repository import GameStatus
from rules import AnyGame, GameError, get_game

TITLE = "Tabula game record"
IN_PROGRESS = "In progress"
ABORTED = "Aborted"
DRAW = "Draw"
_COMPUTER = re.compile(r"(?P<name>.*) \(computer: (?P<level>\w+)\)")
_MARK = re.compile(r" \(computer: (?P<level>\w+)\)")
_TURN = re.compile(r"(?P<number>[0-9]{1,9})\. (?P<colour>\w+): (?P<moves>.+)")
_SITE = re.compile(rf"{SITE}, game (?P<id>[0-9]{{1,18}})")
_DECODER = json.JSONDecoder()
_BLANK_LINES = re.compile(r"[ \t\f\v\n]*\n")


def _shown_escaped(char: str) -> bool:
    """Whether the text record writes `char` as a JSON escape: a control character, a line
    separator or a hidden formatting character (which a reader could not see)."""
    return unicodedata.category(char) in UNREADABLE or hidden(char)


def _escaped(char: str) -> str:
    if char in '"\\':
        return "\\" + char
    if _shown_escaped(char):
        return json.dumps(char)[1:-1]
    return char


def quote(value: str, *, name: bool = False) -> str:
    """`value` as written after `Key: `: as it is when it reads back as itself, else as a
    JSON string (control and hidden formatting characters escaped)."""
    plain = (
        value
        and value == value.strip()
        and not value.startswith('"')
        and not any(_shown_escaped(char) for char in value)
        and not (name and _COMPUTER.fullmatch(value))
    )
    return value if plain else '"' + "".join(_escaped(char) for char in value) + '"'


def _unquote(value: str, where: str) -> tuple[str, str]:
    """The value at the start of `value` (quoted or not) and what follows a quoted one."""
    if not value.startswith('"'):
        return value, ""
    try:
        found, end = _DECODER.raw_decode(value)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: {excerpt(value)} is not a quoted text ({exc.msg})") from None
    if not isinstance(found, str):
        raise RecordError(f"{where}: {excerpt(value)} is not a quoted text")
    return found, value[end:]


def _seat_text(seat: Seat) -> str:
    name = quote(seat.name, name=True)
    return name if seat.level is None else f"{name} (computer: {seat.level})"


def _result_text(transcript: Transcript) -> str:
    if transcript.status is GameStatus.ACTIVE:
        return IN_PROGRESS
    if transcript.status is GameStatus.ABORTED:
        return ABORTED
    if transcript.winner is None:
        return DRAW
    return f"{transcript.rules.colours[transcript.winner]} wins"


def to_text(transcript: Transcript) -> str:
    """The record as plain text (any game, finished or not)."""
    game = transcript.rules
    lines = [
        TITLE,
        f"Game: {game.title}",
        f"Options: {', '.join(options_line(game, transcript.options)) or 'none'}",
    ]
    lines += [f"{game.colours[seat]}: {_seat_text(transcript.seats[seat])}" for seat in (0, 1)]
    lines.append(f"Result: {_result_text(transcript)}")
    if transcript.reason is not None:
        lines.append(f"Reason: {quote(transcript.reason)}")
    lines.append(f"Started: {rfc3339(transcript.started_at)}")
    if transcript.ended_at is not None:
        lines.append(f"Ended: {rfc3339(transcript.ended_at)}")
    lines.append(f"Rated: {'yes' if transcript.rated else 'no'}")
    lines.append(f"Time control: {quote(transcript.time_control)}")
    if transcript.tournament is not None:
        tournament = transcript.tournament
        lines += [f"Event: {quote(tournament.event)}", f"Round: {quote(tournament.round)}"]
    if transcript.game_id is not None:
        lines.append(f"Site: {SITE}, game {transcript.game_id}")
    lines.append("")
    lines += [
        f"{number}. {game.colours[turn.seat]}: {turn.notation}"
        for number, turn in enumerate(transcript.turns, start=1)
    ]
    return "\n".join(lines) + "\n"


QUOTED = ("Reason", "Event", "Round", "Time control")
"""Header fields whose value may be written quoted (the players' too, see `_seat`)."""
KEYS = (
    "Game",
    "Options",
    "White",
    "Black",
    "Result",
    "Reason",
    "Started",
    "Ended",
    "Rated",
    "Time control",
    "Event",
    "Round",
    "Site",
)
"""Every header field a text record may have (White and Black are the players' colours
in every game)."""


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line of `text` and its number (1 for the first), one at a time, a run of blank
    lines given as its first line only: a line ends with LF, CR LF or a CR alone. Nothing
    is built for the whole file, so a file of millions of short lines costs no more
    memory than one of a few long ones."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    start, number = 0, 1
    while start <= len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        line = text[start:end]
        yield number, line
        start, number = end + 1, number + 1
        if not line.strip():
            blanks = _BLANK_LINES.match(text, start)
            if blanks is not None:
                number += text.count("\n", start, blanks.end())
                start = blanks.end()


def _header(lines: Iterator[tuple[int, str]]) -> dict[str, str]:
    """The `Key: value` lines up to the first blank line (or the end), consumed from
    `lines`."""
    fields: dict[str, str] = {}
    for number, line in lines:
        if not line.strip():
            break
        key, sep, value = line.partition(": ")
        if not sep:
            raise RecordError(f"line {number}: {excerpt(line)} is not a header line (Key: value)")
        key = key.strip()
        if key not in KEYS:
            raise RecordError(
                f"line {number}: {excerpt(key)} is not a field of a text record "
                f"(the fields: {', '.join(KEYS)})"
            )
        if key in fields:
            raise RecordError(f"line {number}: a second {excerpt(key)} line")
        if key in QUOTED:
            value, rest = _unquote(value.strip(), key)
            if rest.strip():
                raise RecordError(f"line {number}: {excerpt(rest)} follows the quoted {key}")
            value = free_text(value, key)
        fields[key] = value if key in QUOTED else value.strip(" \t")
    return fields


def _game(fields: dict[str, str]) -> AnyGame:
    if "Game" not in fields:
        raise RecordError("the record has no Game line")
    try:
        return get_game(free_text(fields["Game"], "Game", limit=MAX_OPTION))
    except GameError as exc:
        raise RecordError(f"Game: {exc}") from None


def _outcome(fields: dict[str, str], game: AnyGame) -> tuple[GameStatus, int | None]:
    result = fields.get("Result")
    if result is None:
        raise RecordError("the record has no Result line")
    if result == DRAW:
        return GameStatus.FINISHED, None
    if result == ABORTED:
        return GameStatus.ABORTED, None
    if result == IN_PROGRESS:
        return GameStatus.ACTIVE, None
    for seat, colour in enumerate(game.colours):
        if result == f"{colour} wins":
            return GameStatus.FINISHED, seat
    raise RecordError(f"Result: {excerpt(result)} is not a result of {game.title}")


def _seat(fields: dict[str, str], colour: str) -> Seat:
    text = fields.get(colour)
    if text is None:
        raise RecordError(f"the record has no {colour} line")
    name, rest = _unquote(text, colour)
    level = None
    if not text.startswith('"'):
        computer = _COMPUTER.fullmatch(text)
        if computer is not None:
            name, level = computer["name"], computer["level"]
    elif rest:
        mark = _MARK.fullmatch(rest)
        if mark is None:
            raise RecordError(f"{colour}: {excerpt(rest)} follows the quoted name")
        level = mark["level"]
    return Seat(free_text(name, colour, name=True), level=level)


def from_text(text: str) -> Transcript:
    """Read a plain-text record."""
    lines = numbered_lines(text)
    _, first = next(lines)
    if first.strip() != TITLE:
        raise RecordError(
            f"the file is not a game record: a text record starts with the line {TITLE!r}, "
            f"this one with {excerpt(first.strip())}"
        )
    fields = _header(lines)
    game = _game(fields)
    options = fields.get("Options", "none")
    # No more pairs than the game has options (and one for the rest, which is refused).
    pairs = [] if options == "none" else options.split(", ", len(game.option_specs))
    status, winner = _outcome(fields, game)
    turns: list[Turn] = []
    plies = 0
    for at, line in lines:
        if not line.strip():
            continue
        match = _TURN.fullmatch(line.strip())
        number = len(turns) + 1
        if number > MAX_PLIES:
            raise too_many_moves(number)
        if match is None or int(match["number"]) != number:
            raise RecordError(
                f"line {at}: {excerpt(line.strip())} is not turn {number} "
                f"written '{number}. Colour: move'"
            )
        if match["colour"] not in game.colours:
            raise RecordError(f"line {at}: {excerpt(match['colour'])} does not play {game.title}")
        seat = game.colours.index(match["colour"])
        moves = turn_moves(match["moves"], plies)
        plies += len(moves)
        turns.append(Turn(seat, moves))
    site = _SITE.fullmatch(fields.get("Site", ""))
    event, round_ = fields.get("Event"), fields.get("Round")
    return Transcript(
        game=game.name,
        options=read_options(game, pairs, "Options"),
        seats=(_seat(fields, game.colours[0]), _seat(fields, game.colours[1])),
        turns=tuple(turns),
        started_at=parse_moment(fields.get("Started", ""), "Started"),
        status=status,
        winner=winner,
        reason=fields.get("Reason"),
        ended_at=parse_moment(fields["Ended"], "Ended") if "Ended" in fields else None,
        rated=fields.get("Rated") == "yes",
        time_control=fields.get("Time control", "none"),
        tournament=None if event is None else Tournament(event, round_ or ""),
        game_id=int(site["id"]) if site else None,
    )
