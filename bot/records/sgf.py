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

Reading follows FF[4]: the main line of the first game tree (the first variation at each
branch) is the game; other variations and games are counted and noted. A record that is
not of a Stones game (no `RU[Stones]`, komi, handicap, setup stones, a score) is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.records.limits import MAX_PLIES, excerpt, free_text, line_at, too_many_moves
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
_NAME = re.compile(r"Tabula game ([0-9]{1,18})")


_LINE_BREAKS = str.maketrans("\t\n\r\v\f", "     ")


def _escape(key: str, value: str) -> str:
    """A value as FF[4] writes it: `\\` and `]` escaped; in SimpleText a tab or line break
    written as the space every FF[4] reader would read there anyway."""
    if key not in TEXT_PROPERTIES:
        value = value.translate(_LINE_BREAKS)
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
    lines = ["(;" + "".join(f"{key}[{_escape(key, value)}]" for key, value in root)]
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

_TOKEN = re.compile(
    r"""(?P<value>\[(?:[^\\\]]|\\.)*+\])  # possessive: no backtracking memory
      | (?P<ident>[A-Za-z]+)
      | (?P<mark>[();])
      | (?P<space>\s+)
      | (?P<open>\[)
      | (?P<other>.)""",
    re.VERBOSE | re.DOTALL,
)
_VALUES = re.compile(r"\[(?:[^\\\]]|\\.)*+\]", re.DOTALL)
_OUTSIDE = re.compile(r"[^A-Za-z\s();]")
_OPEN, _CLOSE = b"()"
_NOT_PARENTHESIS_BYTES = bytes(code for code in range(128) if code not in (_OPEN, _CLOSE))
MAX_VALUES = 50_000
"""The most property values the main line may hold (a record of ours writes one or two
for each move; Go editors add comments, times and marks, never thousands per move)."""
_NEWLINE = re.compile(r"\r\n|\n\r|\r|\n")
_ESCAPE = re.compile(r"\\(.)|(\n)", re.DOTALL)
_WHITESPACE = str.maketrans("\t\v\f", "   ")
TEXT_PROPERTIES = ("GC", "C")
"""Properties of FF[4]'s Text type (line breaks kept); the others Tabula reads are
SimpleText (a line break reads as a space)."""
SETUP = ("AB", "AW", "AE")
"""Setup properties: in Stones no stone is placed other than by a move."""
WIN_CODES = ("", "R", "Resign", "T", "Time", "F", "Forfeit")
"""What may follow `B+` / `W+` in a Stones result (Stones has no score)."""
_DATE = re.compile(r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?")
_SIZE = re.compile(r"[0-9]{1,3}")
_RECTANGLE = re.compile(r"[0-9]+\s*:\s*[0-9]+")


def text_value(raw: str, *, simple: bool = True) -> str:
    """An SGF value as FF[4] reads it: a soft line break (a backslash before a line break)
    vanishes, a backslash escapes the next character, a tab is a space, and a line break
    is a space in SimpleText (kept in Text)."""
    raw = _NEWLINE.sub("\n", raw).translate(_WHITESPACE)

    def one(match: re.Match[str]) -> str:
        escaped = match.group(1)
        if escaped is not None:
            return "" if escaped == "\n" else escaped
        return " " if simple else "\n"

    return _ESCAPE.sub(one, raw)


@dataclass(frozen=True, slots=True)
class SgfReading:
    """The nodes of the first game's main line, and what else the file held."""

    nodes: list[dict[str, list[str]]]
    """Each node as {property: its raw values}."""
    variations: int
    """Game trees of the first game off its main line (left out)."""
    other_games: int
    """Games of the collection after the first (left out)."""


def _at(text: str, index: int) -> str:
    number, line, column = line_at(text, index)
    return f"line {number}: {excerpt(line, column)}"


class _Parser:
    """FF[4]'s grammar read in one pass over the tokens, with no recursion: the main line
    is the first game tree at each branch, so it ends where its first leaf closes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.main: list[dict[str, list[str]]] = []
        self.node: dict[str, list[str]] | None = None
        self.collecting = False
        self.depth = self.variations = self.games = self.values = 0
        self.last_mark = ""
        self.key: str | None = None
        self.key_at = 0
        self.valued = False

    def fail(self, what: str, index: int) -> RecordError:
        return RecordError(f"{what} ({_at(self.text, index)})")

    def end_property(self) -> None:
        if self.key is not None and not self.valued:
            raise self.fail(f"the SGF property {self.key} has no value", self.key_at)
        self.key = None

    def value(self, raw: str, at: int) -> None:
        if self.key is None or self.node is None:
            raise self.fail("an SGF value without a property name before it", at)
        self.valued = True
        if self.collecting:
            self.values += 1
            if self.values > MAX_VALUES:
                raise RecordError(
                    f"the SGF record's main line holds more than {MAX_VALUES:,} values; a game "
                    f"record of {MAX_PLIES:,} moves holds a few for each"
                )
            self.node[self.key].append(raw)

    def ident(self, name: str, at: int) -> None:
        self.end_property()
        if self.node is None:
            raise self.fail(f"the property {excerpt(name)} is outside a node (;)", at)
        if not name.isupper():
            capitals = "".join(char for char in name if char.isupper())
            raise self.fail(
                f"the property name {excerpt(name)} has lowercase letters, an old FF[3] form; "
                f"FF[4] names are capitals only ({capitals or 'none here'})",
                at,
            )
        if name in self.node:
            raise self.fail(f"the property {name} appears twice in one node", at)
        self.node[name] = []
        self.key, self.key_at, self.valued = name, at, False

    def mark(self, mark: str, at: int) -> None:
        self.end_property()
        if mark == ";":
            if self.depth == 0:
                raise self.fail("a node (;) outside any game tree", at)
            if self.last_mark == ")":
                raise self.fail("a node (;) after a variation; nodes come before them", at)
            self.node = {}
            if self.collecting:
                self.main.append(self.node)
                if len(self.main) > MAX_PLIES + 1:
                    raise too_many_moves(len(self.main) - 1)
        elif self.last_mark == "(":
            raise self.fail("a game tree without a node: '(' must be followed by ';'", at)
        elif mark == "(":
            self.depth += 1
            if self.depth == 1:
                self.games += 1
                self.collecting = self.games == 1
            elif self.games == 1 and not self.collecting:
                self.variations += 1
            self.node = None
        else:
            if self.depth == 0:
                raise self.fail("a ')' that closes no game tree", at)
            self.collecting = False
            self.depth -= 1
            self.node = None
        self.last_mark = mark

    def read(self) -> SgfReading:
        for token in _TOKEN.finditer(self.text):
            kind, found, at = token.lastgroup, token.group(), token.start()
            if kind == "value":
                self.value(found[1:-1], at)
            elif kind == "ident":
                self.ident(found, at)
            elif kind == "mark":
                self.mark(found, at)
                if found == ")" and self.games == 1 and not self.collecting:
                    self.skim(token.end())
                    break
            elif kind == "open":
                raise self.fail(
                    f"an unterminated value: the value of {self.key or 'a property'} is not "
                    "closed with ]",
                    at,
                )
            elif kind == "other":
                raise self.fail(f"unexpected {found!r} in the SGF record", at)
        self.end_property()
        if self.games == 0:
            raise RecordError("not an SGF record: it holds no game tree '(;…)'")
        if self.depth:
            raise RecordError(
                f"the SGF record ends with {self.depth:,} game tree"
                f"{'s' if self.depth != 1 else ''} not closed with ')'"
            )
        return SgfReading(self.main, self.variations, self.games - 1)

    def skim(self, start: int) -> None:
        """Check the syntax after the main line and count its variations and games, fast:
        their values are removed at once, then only the parentheses are followed."""
        rest = _VALUES.sub("", self.text[start:])
        if "[" in rest:
            raise RecordError(
                "an unterminated value after the main line: a value is not closed with ]"
            )
        odd = _OUTSIDE.search(rest)
        if odd is not None:
            raise RecordError(f"unexpected {odd.group()!r} in the SGF record, after the main line")
        # Only letters, white space, ';' and parentheses are left: keep the parentheses
        # (as the bytes 40 and 41) at the speed of one C loop, not one Python step each.
        marks = rest.encode().translate(None, _NOT_PARENTHESIS_BYTES)
        depth = self.depth
        for mark in marks:
            if mark == _OPEN:
                depth += 1
                if depth == 1:
                    self.games += 1
                elif self.games == 1:
                    self.variations += 1
            elif mark != _CLOSE:
                continue  # a byte of white space outside ASCII
            elif depth == 0:
                raise RecordError("a ')' that closes no game tree, after the main line")
            else:
                depth -= 1
        self.depth = depth


def parse(text: str) -> SgfReading:
    """Read the first game's main line (the first variation at each branch, as FF[4]
    says), checking the whole file's syntax; `RecordError` naming the line otherwise."""
    return _Parser(text).read()


def _winner(result: str | None) -> tuple[GameStatus, int | None]:
    if result is None or result.strip() in ("", "?"):
        raise RecordError("the SGF record has no result (RE): the game is not finished")
    result = result.strip()
    if result in ("0", "Draw"):
        return GameStatus.FINISHED, None
    if result == "Void":
        raise RecordError("the SGF record's result is Void: an aborted game has no result")
    if result[:2] in ("B+", "W+"):
        if result[2:] not in WIN_CODES:
            raise RecordError(
                f"RE[{excerpt(result)[1:-1]}]: a Stones result is B+ or W+, with R, T or F "
                "after it for a resignation, time or forfeit (Stones has no score)"
            )
        return GameStatus.FINISHED, COLOURS.index(result[0])
    raise RecordError(f"the SGF result RE[{excerpt(result)[1:-1]}] is not understood")


class _Root:
    """The root node's properties, read as FF[4] reads their types."""

    def __init__(self, node: dict[str, list[str]]) -> None:
        self.node = node

    def __contains__(self, key: str) -> bool:
        return key in self.node

    def get(self, key: str) -> str | None:
        values = self.node.get(key)
        if values is None:
            return None
        if len(values) != 1:
            raise RecordError(f"{key} has {len(values)} values; it takes one")
        return text_value(values[0], simple=key not in TEXT_PROPERTIES)

    def shown(self, key: str) -> str:
        return f"{key}[{excerpt(self.get(key) or '')[1:-1]}]"


def _check_stones(root: _Root, moves: list[dict[str, list[str]]], text: str) -> None:
    """Refuse, saying why, an SGF that is not a record of a Stones game."""
    if root.get("GM") not in (None, "1"):
        raise RecordError(f"{root.shown('GM')}: not a Go-type game (GM[1]), so not Stones")
    if "CA" in root:
        charset = (root.get("CA") or "").strip().lower().replace("_", "-")
        if charset not in ("utf-8", "utf8") and not text.isascii():
            raise RecordError(f"{root.shown('CA')}: Tabula reads SGF written in UTF-8 only")
    rules = root.get("RU")
    if rules is None or rules.strip().lower() != GAME:
        go = [root.shown(key) for key in ("KM", "HA") if key in root]
        said = "RU[Stones] is missing" if rules is None else f"it says {root.shown('RU')}"
        signs = f" and it has {' and '.join(go)}" if go else ""
        raise RecordError(
            f"not a Stones record: {said}{signs}; it reads as a Go game, and Tabula imports "
            "Go-type records of Stones games only"
        )
    for key, why in (("KM", "komi"), ("HA", "handicap")):
        if key in root:
            raise RecordError(f"{root.shown(key)}: Stones has no {why}")
    for number, node in enumerate([root.node, *moves]):
        setup = [key for key in SETUP if key in node]
        if setup:
            where = "the root node" if number == 0 else f"SGF move {number}"
            raise RecordError(
                f"{where} places stones with {setup[0]}: Stones places stones by moves only"
            )
    moved = [colour for colour in COLOURS if colour in root]
    if moved:
        raise RecordError(
            f"the root node holds a move ({moved[0]}); Stones moves are the nodes after the root"
        )


def _size(root: _Root) -> int:
    text = root.get("SZ")
    if text is None:
        return 19
    text = text.strip()
    if _SIZE.fullmatch(text):
        return int(text)
    if _RECTANGLE.fullmatch(text):
        raise RecordError(
            f"{root.shown('SZ')}: a board of columns:rows; Stones boards are square, and FF[4] "
            "writes a square board's size as one number (SZ[9])"
        )
    raise RecordError(f"{root.shown('SZ')}: the board size must be a number, like SZ[9]")


def _started(root: _Root) -> datetime:
    date = root.get("DT")
    if date is None:
        raise RecordError("the SGF record has no date: DT (when the game was played) is missing")
    found = _DATE.match(date.strip())
    try:
        if found is None:
            raise ValueError
        year, month, day = (int(part or 1) for part in found.groups())
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        raise RecordError(f"{root.shown('DT')} is not a date like DT[2025-03-01]") from None


def _times(root: _Root) -> tuple[datetime, datetime]:
    """When the game started and ended: Tabula's `XD`, else the date `DT`."""
    times = root.get("XD")
    if times is None:
        started = _started(root)
        return started, started
    parts = times.split(",")
    if len(parts) > 2:
        raise RecordError(f"{root.shown('XD')} must be the start, or the start,end")
    started = parse_moment(parts[0], "XD")
    return started, parse_moment(parts[1], "XD") if len(parts) > 1 else started


def _name(root: _Root, key: str, default: str) -> str:
    name = root.get(key)
    return default if name is None else free_text(name, key, name=True)


def _optional(root: _Root, key: str) -> str | None:
    value = root.get(key)
    return None if value is None else free_text(value, key)


def _move(node: dict[str, list[str]], number: int, size: int) -> Turn:
    where = f"SGF move {number}"
    colours = [c for c in COLOURS if c in node]
    if len(colours) != 1:
        raise RecordError(f"{where} must have one of B and W")
    colour = colours[0]
    for key in (colour, "XS", "XR"):
        if len(node.get(key, [""])) != 1:
            raise RecordError(f"{where}: {key} has {len(node[key])} values; it takes one")
    point = node[colour][0]
    if "XR" in node:
        move = "return"
    elif "XS" in node:
        move = "stake " + _notation(node["XS"][0], size, where)
    elif point in ("", "tt"):
        raise RecordError(f"{where}: there is no pass in Stones")
    else:
        move = _notation(point, size, where)
    return Turn(COLOURS.index(colour), (move,))


def read_sgf(text: str) -> tuple[Transcript, tuple[str, ...]]:
    """Read a finished Stones game written as SGF: the transcript of the first game's main
    line, and notes on what was left out (other variations, other games)."""
    reading = parse(text)
    if not reading.nodes:
        raise RecordError("the SGF record has no node")
    root, moves = _Root(reading.nodes[0]), reading.nodes[1:]
    _check_stones(root, moves, text)
    size = _size(root)
    options = read_options(
        get_game(GAME),
        [f"size={size}"]
        + [f"{name}={root.get(key)}" for key, name in (("XT", "threshold"), ("XC", "compensation"))
           if root.get(key) is not None],
        "the SGF options",
    )  # fmt: skip
    status, winner = _winner(root.get("RE"))
    started, ended = _times(root)
    turns = tuple(_move(node, number, size) for number, node in enumerate(moves, start=1))
    event, round_ = _optional(root, "EV"), _optional(root, "RO")
    name = _NAME.fullmatch(root.get("GN") or "")
    transcript = Transcript(
        game=GAME,
        options=options,
        seats=(Seat(_name(root, "PB", "Black")), Seat(_name(root, "PW", "White"))),
        turns=turns,
        started_at=started,
        status=status,
        winner=winner,
        reason=_optional(root, "GC"),
        ended_at=ended,
        tournament=None if event is None else Tournament(event, round_ or ""),
        game_id=int(name.group(1)) if name else None,
    )
    notes = []
    if reading.variations:
        many = reading.variations != 1
        notes.append(
            f"the SGF record has {reading.variations:,} variation{'s' if many else ''} beside "
            "its main line; only the main line (the first variation at each branch) was read"
        )
    if reading.other_games:
        others = reading.other_games
        rest = "the second was" if others == 1 else f"the other {others:,} were"
        notes.append(
            f"the file holds {others + 1:,} games; only the first was read, {rest} left out"
        )
    return transcript, tuple(notes)


def from_sgf(text: str) -> Transcript:
    """Read a finished Stones game written as SGF (the first game's main line)."""
    return read_sgf(text)[0]
