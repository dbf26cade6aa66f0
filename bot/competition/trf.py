"""FIDE Tournament Report Files (TRF, Handbook C.04 Annex 2): write a tournament, read one back.

A file is lines of text, each led by a three-character code. The `001` player lines have
fixed columns (counting from 1): the starting rank in 5-8, the name in 15-47, the rating
in 49-52, the points in 81-84, the rank in 86-89, then one ten-column block per round from
column 92: the opponent's starting rank (`0000` for none) in four columns, the colour
(`w`, `b` or `-`) two columns on, and the result two columns after that (`1`, `=`, `0`
for games played; `+`, `-` for forfeits; `U` for the pairing-allocated bye; `Z` for a
round without a game and no point). The number of rounds is written as `XXR` and as the
2026 revision's `142`; the initial colour (the top seed's in round one) as `XXC white1`
and as `152 W`. Tabula's first seat is white.

The reader takes the initial colour from `XXC white1`/`black1` or `152 W`/`B`; without
either, from round one (the highest seed who played it had the initial colour with an
odd starting rank, the other with an even one), and white for a file without games. It
refuses anything it cannot take whole with a `TrfError` whose message is one line saying
what and where, and files of more than `MAX_PLAYERS` players.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.competition.colours import FIRST, SECOND
from bot.competition.records import Pairing, PlayerId, Result
from bot.competition.scoring import SWISS_BYE_POINTS, records

ROUND_COLUMN = 91
"""Where round one's block starts (0-based)."""
BLOCK = 10
"""The width of one round's block."""
MIN_PLAYER_LINE = 84
"""A player line reaches at least to the points column."""
MAX_PLAYERS = 1_000
"""The most players a file may hold: pairing a round of more would take too long."""
_POINTS = re.compile(r"[0-9]{1,3}(\.[0-9]+)?")
"""Points as a TRF writes them: a plain decimal number."""


class TrfError(ValueError):
    """A TRF file that cannot be read; the message says what and where."""


@dataclass(frozen=True, slots=True)
class TrfEvent:
    """What a TRF file holds that pairing needs."""

    name: str
    players: tuple[int, ...]
    """Starting ranks (the pairing numbers), in order."""
    names: Mapping[int, str]
    ratings: Mapping[int, int]
    rounds: int | None
    """The planned number of rounds, when the file says."""
    pairings: tuple[Pairing, ...]
    """Every game and bye of the rounds played, players named by starting rank."""
    played_rounds: int
    absent: frozenset[int]
    """Players marked as not to be paired in the next round."""
    initial: int = FIRST
    """The seat of the initial colour: FIRST for white, SECOND for black."""


# --- writing ---------------------------------------------------------------------------


def _block(opponent: int | None, colour: str, result: str) -> str:
    number = "0000" if opponent is None else f"{opponent:4d}"
    return f"{number} {colour} {result}  "


def write_trf(
    *,
    name: str,
    players: Iterable[PlayerId],
    names: Mapping[PlayerId, str],
    ratings: Mapping[PlayerId, int],
    rounds: int,
    pairings: Iterable[Pairing],
    withdrawn: Iterable[PlayerId] = (),
) -> str:
    """The TRF text of an event: `players` in seed order (starting ranks from 1); only
    finished pairings are written. Players who withdrew are marked absent (`Z`) in every
    later round, up to the next one."""
    seeded = list(players)
    number = {player: index + 1 for index, player in enumerate(seeded)}
    finished = [p for p in pairings if p.is_finished]
    played = max((p.round for p in finished), default=0)
    gone = set(withdrawn)
    table = records(seeded, finished, bye_points=SWISS_BYE_POINTS)
    order = sorted(seeded, key=lambda p: (-table[p].points, number[p]))
    place = {player: index + 1 for index, player in enumerate(order)}
    blocks: dict[PlayerId, dict[int, str]] = {player: {} for player in seeded}
    for pairing in finished:
        if pairing.second is None:
            blocks[pairing.first][pairing.round] = _block(None, "-", "U")
            continue
        assert pairing.result is not None
        result = pairing.result
        for seat, player in enumerate(pairing.players):
            opponent = number[pairing.players[1 - seat]]
            colour = "w" if seat == 0 else "b"
            score = result.first_score if seat == 0 else result.second_score
            if result.is_forfeit:
                code = "+" if score else "-"
            else:
                code = {1.0: "1", 0.5: "=", 0.0: "0"}[score]
            blocks[player][pairing.round] = _block(opponent, colour, code)
    last = played + 1 if played < rounds else played
    lines = [f"012 {_clean(name)}", f"XXR {rounds}", f"142 {rounds}", "XXC white1", "152 W"]
    for player in seeded:
        cells = []
        for round_number in range(1, last + 1):
            cell = blocks[player].get(round_number)
            if cell is None and (round_number <= played or player in gone):
                cell = _block(None, "-", "Z")
            cells.append(cell or " " * BLOCK)
        head = (
            f"001 {number[player]:4d}      {_clean(names.get(player, str(player)))[:33]:<33} "
            f"{ratings.get(player, 0) or 0:4d}{'':28}"
            f"{table[player].points:4.1f} {place[player]:4d}"
        )
        lines.append((head + "  " + "".join(cells)).rstrip())
    return "\n".join(lines) + "\n"


def _clean(text: str) -> str:
    """One line of printable text."""
    return " ".join(text.split())


# --- reading ---------------------------------------------------------------------------

_RESULT_CODES = frozenset("10=+-UFZHWDL")


@dataclass(frozen=True, slots=True)
class _Cell:
    round: int
    opponent: int | None
    colour: str
    result: str


def read_trf(text: str) -> TrfEvent:
    """The event in a TRF file; `TrfError` with one line of explanation if it is not one."""
    name = ""
    rounds: int | None = None
    initial: int | None = None
    cells: dict[int, list[_Cell]] = {}
    names: dict[int, str] = {}
    ratings: dict[int, int] = {}
    points: dict[int, tuple[float, int]] = {}
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        code = line[:3]
        if code == "012":
            name = line[4:].strip()
        elif code in ("XXR", "142"):
            rounds = _rounds(line, line_number)
        elif code in ("XXC", "152"):
            initial = _initial(line, line_number, initial)
        elif code == "001":
            if len(cells) == MAX_PLAYERS:
                raise TrfError(
                    f"line {line_number}: more than {MAX_PLAYERS:,} players; "
                    f"Tabula pairs at most {MAX_PLAYERS:,}"
                )
            _player(line, line_number, cells=cells, names=names, ratings=ratings, points=points)
    if not cells:
        raise TrfError("no player lines (001): this is not a TRF file")
    for number, (stated, line_number) in points.items():
        scored = sum(_cell_points(cell) for cell in cells[number])
        if abs(scored - stated) > 1e-9:
            raise TrfError(
                f"line {line_number}: player {number} has {stated:g} points, "
                f"but the results add up to {scored:g}"
            )
    played_rounds = max(
        (c.round for row in cells.values() for c in row if c.result not in "ZH" or c.opponent),
        default=0,
    )
    pairings = _pairings(cells, played_rounds)
    absent = frozenset(
        number
        for number, row in cells.items()
        if any(
            c.round == played_rounds + 1 and c.result in "ZH-" and c.opponent is None for c in row
        )
    )
    if rounds is not None and played_rounds > rounds:
        raise TrfError(f"the file says {rounds} rounds but has results for {played_rounds}")
    return TrfEvent(
        name=name,
        players=tuple(sorted(cells)),
        names=names,
        ratings=ratings,
        rounds=rounds,
        pairings=pairings,
        played_rounds=played_rounds,
        absent=absent,
        initial=_first_round_colour(cells) if initial is None else initial,
    )


def _whole(text: str) -> bool:
    """True for a whole number written in plain digits (0-9: not ² or other digits)."""
    return text.isascii() and text.isdigit()


def _rounds(line: str, line_number: int) -> int:
    value = line[3:].strip()
    if not _whole(value) or int(value) < 1:
        raise TrfError(f"line {line_number}: the number of rounds {value!r} is not a whole number")
    return int(value)


def _initial(line: str, line_number: int, before: int | None) -> int | None:
    """The initial colour's seat from an `XXC` line (a `white1` or `black1` among its
    words; neither is fine) or a `152` line (`W` or `B`); one that contradicts an earlier
    line is refused."""
    words = line[3:].split()
    stated: int | None = None
    if line.startswith("152"):
        if words not in (["W"], ["B"]):
            raise TrfError(
                f"line {line_number}: the initial colour {line[3:].strip()!r} is not W or B"
            )
        stated = FIRST if words == ["W"] else SECOND
    elif "white1" in words or "black1" in words:
        stated = FIRST if "white1" in words else SECOND
    if stated is None:
        return before
    if before is not None and stated != before:
        raise TrfError(f"line {line_number}: the initial colour contradicts an earlier line")
    return stated


def _first_round_colour(cells: dict[int, list[_Cell]]) -> int:
    """The initial colour as round one shows it: the highest seed who played it took the
    initial colour with an odd starting rank (the other colour with an even one); white
    when nobody played."""
    for number in sorted(cells):
        for cell in cells[number]:
            if cell.round == 1 and cell.colour in "wb" and cell.opponent is not None:
                seat = FIRST if cell.colour == "w" else SECOND
                return seat if number % 2 else 1 - seat
    return FIRST


def _player(
    line: str,
    line_number: int,
    *,
    cells: dict[int, list[_Cell]],
    names: dict[int, str],
    ratings: dict[int, int],
    points: dict[int, tuple[float, int]],
) -> int:
    where = f"line {line_number}"
    if len(line) < MIN_PLAYER_LINE:
        raise TrfError(f"{where}: a 001 player line needs at least {MIN_PLAYER_LINE} columns")
    number_text = line[4:8].strip()
    if not _whole(number_text) or int(number_text) < 1:
        raise TrfError(
            f"{where}: the starting rank in columns 5-8 is {number_text!r}, not a number"
        )
    number = int(number_text)
    if number in cells:
        raise TrfError(f"{where}: starting rank {number} appears twice")
    rating_text = line[48:52].strip()
    if rating_text and not _whole(rating_text):
        raise TrfError(f"{where}: the rating in columns 49-52 is {rating_text!r}, not a number")
    points_text = line[80:84].strip()
    if not _POINTS.fullmatch(points_text):
        raise TrfError(f"{where}: the points in columns 81-84 are {points_text!r}, not a number")
    stated = float(points_text)
    row: list[_Cell] = []
    start = ROUND_COLUMN
    round_number = 1
    while start < len(line):
        block = line[start : start + BLOCK - 2].ljust(BLOCK - 2)
        start += BLOCK
        here = f"{where}, round {round_number}"
        if not block.strip():
            round_number += 1
            continue
        opponent_text, colour, result = block[0:4].strip(), block[5], block[7]
        if not _whole(opponent_text):
            raise TrfError(f"{here}: the opponent {opponent_text!r} is not a starting rank")
        if colour not in "wb-":
            raise TrfError(f"{here}: the colour {colour!r} is not w, b or -")
        result = result.upper()
        if result not in _RESULT_CODES:
            raise TrfError(f"{here}: the result {result!r} is not a TRF result code")
        opponent = int(opponent_text) or None
        if opponent is None and result not in "UFZH-+":
            raise TrfError(f"{here}: a result {result!r} without an opponent")
        if opponent is not None and result in "UFZH":
            raise TrfError(f"{here}: a bye ({result}) with an opponent")
        if opponent == number:
            raise TrfError(f"{here}: player {number} is their own opponent")
        row.append(_Cell(round_number, opponent, colour, result))
        round_number += 1
    cells[number] = row
    names[number] = line[14:47].strip()
    ratings[number] = int(rating_text) if rating_text else 0
    points[number] = (stated, line_number)
    return number


def _cell_points(cell: _Cell) -> float:
    return {"1": 1.0, "+": 1.0, "W": 1.0, "U": 1.0, "F": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}.get(
        cell.result, 0.0
    )


def _pairings(cells: dict[int, list[_Cell]], played_rounds: int) -> tuple[Pairing, ...]:
    """Games and byes from the player lines; each game must be told the same way by both."""
    by_round = {
        number: {cell.round: cell for cell in row if cell.round <= played_rounds}
        for number, row in cells.items()
    }
    made: list[Pairing] = []
    for round_number in range(1, played_rounds + 1):
        for number in sorted(cells):
            cell = by_round[number].get(round_number)
            if cell is None or cell.opponent is None:
                if cell is not None and cell.result in "UF":
                    made.append(Pairing(round_number, number, None))
                elif cell is not None and cell.result == "H":
                    raise TrfError(
                        f"round {round_number}: player {number} has a half-point bye, "
                        "which Tabula does not give"
                    )
                continue
            other = cell.opponent
            if other not in cells:
                raise TrfError(
                    f"round {round_number}: player {number}'s opponent {other} has no 001 line"
                )
            back = by_round[other].get(round_number)
            if back is None or back.opponent != number:
                raise TrfError(
                    f"round {round_number}: player {number} met {other}, "
                    f"but {other}'s line does not say so"
                )
            if other < number:
                continue
            made.append(_game(round_number, number, cell, other, back))
    return tuple(made)


def _game(round_number: int, number: int, cell: _Cell, other: int, back: _Cell) -> Pairing:
    """One game from both players' cells."""
    where = f"round {round_number}: players {number} and {other}"
    if {cell.colour, back.colour} not in ({"w", "b"}, {"-"}):
        raise TrfError(f"{where} do not have opposite colours")
    first, first_cell, second_cell = (
        (number, cell, back) if cell.colour != "b" else (other, back, cell)
    )
    second = other if first == number else number
    codes = first_cell.result + second_cell.result
    results = {
        "10": Result.FIRST_WINS,
        "01": Result.SECOND_WINS,
        "==": Result.DRAW,
        "WL": Result.FIRST_WINS,
        "LW": Result.SECOND_WINS,
        "DD": Result.DRAW,
        "+-": Result.FIRST_WINS_BY_FORFEIT,
        "-+": Result.SECOND_WINS_BY_FORFEIT,
        "--": Result.DOUBLE_FORFEIT,
    }
    if codes not in results:
        raise TrfError(
            f"{where} have results {cell.result!r} and {back.result!r} that do not agree"
        )
    if first_cell.colour == "-" and codes not in ("+-", "-+", "--"):
        raise TrfError(f"{where} played a game without colours")
    return Pairing(round_number, first, second, results[codes])
