"""Stones games as SGF (FF[4], the Go game type GM[1]), both ways.

Placements are ordinary Go moves (`B[ee]`), so any SGF reader replays the board. A
Prisoner Return or a stake leaves the board as it is: it is written as a pass of that
player (`B[]`) carrying one of Tabula's own properties, which Go programs ignore:

- `XR[1]`: this turn returned a prisoner;
- `XS[ee]`: this turn staked at that point (beside the board);
- `XT[7]`, `XC[6]` (root): the `threshold` and `compensation` options (the board size is
  `SZ`);
- `XD[start,end]` (root): when the game started and ended, to the second (RFC 3339).

The root also has `GN` (the game's number), `PB`/`PW`, `DT` (the start date), `RE` (`B+R`
resignation, `B+T` time, `B+F` forfeit, `B+` any other win, `0` a draw, `Void` no
result; none while the game goes on), `GC` (why the game ended, in words), and `EV`/`RO`
for tournament games. Values escape `]` and `\\` with a backslash.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bot.records.transcript import (
    SITE,
    RecordError,
    Seat,
    Tournament,
    Transcript,
    Turn,
    parse_moment,
    read_options,
    rfc3339,
)
from bot.storage.repository import GameStatus
from rules import get_game
from rules.squares import format_point, parse_point

GAME = "stones"
"""The only game written as SGF."""
COLOURS = ("B", "W")
"""SGF's colour of seat 0 (Black, moves first) and seat 1."""
RESULT_CODES = (("resigned", "R"), ("ran out of time", "T"), ("withdrew", "F"))
"""How a reason maps to SGF's result code after `B+` / `W+`; other wins have none."""
_PROPERTY = re.compile(r"\s*([A-Z]+)\s*")
_NAME = re.compile(r"Tabula game (\d+)")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _point(notation: str, size: int) -> str:
    """SGF's two letters for a point: column from the left, row from the top."""
    col, row = parse_point(notation, size, size)
    return chr(ord("a") + col) + chr(ord("a") + size - 1 - row)


def _notation(point: str, size: int, where: str) -> str:
    if len(point) != 2 or not point.isalpha() or not point.islower():
        raise RecordError(f"{where}: {point!r} is not an SGF point")
    col, row = ord(point[0]) - ord("a"), size - 1 - (ord(point[1]) - ord("a"))
    if not (0 <= col < size and 0 <= row < size):
        raise RecordError(f"{where}: {point!r} is off the {size}×{size} board")
    return format_point(col, row)


def result_code(transcript: Transcript) -> str | None:
    """The SGF result (`RE`), or None while the game goes on."""
    if transcript.status is GameStatus.ACTIVE:
        return None
    if transcript.status is GameStatus.ABORTED:
        return "Void"
    if transcript.winner is None:
        return "0"
    reason = transcript.reason or ""
    code = next((code for phrase, code in RESULT_CODES if phrase in reason), "")
    return f"{COLOURS[transcript.winner]}+{code}"


def to_sgf(transcript: Transcript) -> str:
    """The record of a Stones game (finished or not) as SGF."""
    if transcript.game != GAME:
        raise ValueError("only Stones games are written as SGF")
    size = int(transcript.options["size"])
    root = [
        ("FF", "4"),
        ("GM", "1"),
        ("CA", "UTF-8"),
        ("AP", f"{SITE}:1"),
        ("SZ", str(size)),
        ("RU", "Stones"),
        ("XT", str(transcript.options["threshold"])),
        ("XC", str(transcript.options["compensation"])),
    ]
    if transcript.game_id is not None:
        root.append(("GN", f"{SITE} game {transcript.game_id}"))
    root += [("PB", transcript.seats[0].name), ("PW", transcript.seats[1].name)]
    root.append(("DT", transcript.started_at.strftime("%Y-%m-%d")))
    times = rfc3339(transcript.started_at)
    if transcript.ended_at is not None:
        times += "," + rfc3339(transcript.ended_at)
    root.append(("XD", times))
    if transcript.tournament is not None:
        root += [("EV", transcript.tournament.event), ("RO", transcript.tournament.round)]
    result = result_code(transcript)
    if result is not None:
        root.append(("RE", result))
    if transcript.reason is not None:
        root.append(("GC", transcript.reason))
    lines = ["(;" + "".join(f"{key}[{_escape(value)}]" for key, value in root)]
    for seat, move in transcript.moves():
        colour = COLOURS[seat]
        if move == "return":
            lines.append(f";{colour}[]XR[1]")
        elif move.startswith("stake "):
            lines.append(f";{colour}[]XS[{_point(move[6:], size)}]")
        else:
            lines.append(f";{colour}[{_point(move, size)}]")
    return "\n".join(lines) + ")\n"


# --- reading ---


def _values(text: str, start: int) -> tuple[list[str], int]:
    """The bracketed values from `start`; the position after them."""
    values = []
    at = start
    while at < len(text) and text[at] == "[":
        chars = []
        at += 1
        while True:
            if at >= len(text):
                raise RecordError("an SGF value is not closed with ]")
            char = text[at]
            if char == "\\":
                at += 1
                if at < len(text):
                    chars.append(text[at])
            elif char == "]":
                break
            else:
                chars.append(char)
            at += 1
        values.append("".join(chars))
        at += 1
        while at < len(text) and text[at].isspace():
            at += 1
    return values, at


def nodes(text: str) -> Iterator[dict[str, list[str]]]:
    """The nodes of the first game's main line, each as {property: values}."""
    at = text.find("(")
    if at < 0:
        raise RecordError("not an SGF record: it does not start with (")
    at += 1
    node: dict[str, list[str]] | None = None
    while at < len(text):
        char = text[at]
        if char == ";":
            if node is not None:
                yield node
            node = {}
            at += 1
        elif char in "()":
            break  # the main line ends at its first variation or its end
        elif char.isspace():
            at += 1
        else:
            match = _PROPERTY.match(text, at)
            if match is None or node is None:
                raise RecordError(f"unexpected {char!r} in the SGF record")
            values, at = _values(text, match.end())
            if not values:
                raise RecordError(f"the SGF property {match.group(1)} has no value")
            node[match.group(1)] = values
    if node is not None:
        yield node


def _winner(result: str | None) -> tuple[GameStatus, int | None]:
    if result is None or result.strip() in ("", "?"):
        raise RecordError("the SGF record has no result (RE): the game is not finished")
    result = result.strip()
    if result in ("0", "Draw"):
        return GameStatus.FINISHED, None
    if result == "Void":
        raise RecordError("the SGF record's result is Void: an aborted game has no result")
    if result[:2] in ("B+", "W+"):
        return GameStatus.FINISHED, COLOURS.index(result[0])
    raise RecordError(f"the SGF result {result!r} is not understood")


def from_sgf(text: str) -> Transcript:
    """Read a finished Stones game written as SGF."""
    found = list(nodes(text))
    if not found:
        raise RecordError("the SGF record has no node")
    root, moves = found[0], found[1:]

    def one(key: str) -> str | None:
        values = root.get(key)
        return None if values is None else values[0]

    if one("GM") not in (None, "1"):
        raise RecordError("the SGF record is not of a Go-type game (GM[1])")
    size = int(one("SZ") or "19")
    options = read_options(
        get_game(GAME),
        [f"size={size}"]
        + [f"{name}={one(key)}" for key, name in (("XT", "threshold"), ("XC", "compensation"))
           if one(key) is not None],
        "the SGF options",
    )  # fmt: skip
    status, winner = _winner(one("RE"))
    times = (one("XD") or "").split(",")
    if times[0]:
        started = parse_moment(times[0], "XD")
    else:
        started = parse_moment(f"{one('DT') or ''}T00:00:00Z", "DT")
    ended = parse_moment(times[1], "XD") if len(times) > 1 else started
    turns = []
    for number, node in enumerate(moves, start=1):
        colours = [c for c in COLOURS if c in node]
        if len(colours) != 1:
            raise RecordError(f"SGF move {number} must have one of B and W")
        colour = colours[0]
        point = node[colour][0]
        where = f"SGF move {number}"
        if "XR" in node:
            move = "return"
        elif "XS" in node:
            move = "stake " + _notation(node["XS"][0], size, where)
        elif point in ("", "tt"):
            raise RecordError(f"{where}: there is no pass in Stones")
        else:
            move = _notation(point, size, where)
        turns.append(Turn(COLOURS.index(colour), (move,)))
    event, round_ = one("EV"), one("RO")
    name = _NAME.fullmatch(one("GN") or "")
    return Transcript(
        game=GAME,
        options=options,
        seats=(Seat(one("PB") or "Black"), Seat(one("PW") or "White")),
        turns=tuple(turns),
        started_at=started,
        status=status,
        winner=winner,
        reason=one("GC"),
        ended_at=ended,
        tournament=None if event is None else Tournament(event, round_ or ""),
        game_id=int(name.group(1)) if name else None,
    )
