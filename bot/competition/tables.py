"""Plain-text standings and pairings tables, aligned for a Discord code block.

Widths are counted in terminal columns, so names with wide characters (CJK, most
emoji) still line up; long names are cut with an ellipsis.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.competition.records import Pairing, PlayerId
from bot.competition.standings import Standing
from bot.competition.tiebreaks import Tiebreak

NAME_WIDTH = 18
"""The widest a player's name may be in a table, in columns."""
_FRACTIONS = {0: "", 1: "¼", 2: "½", 3: "¾"}


def display_width(text: str) -> int:
    """The columns `text` takes in a monospaced font: wide characters take two."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def fit(text: str, width: int) -> str:
    """`text` cut to `width` columns (ending in "…" when cut) and padded with spaces."""
    if display_width(text) > width:
        kept = ""
        for char in text:
            if display_width(kept + char) > width - 1:
                break
            kept += char
        text = kept + "…"
    return text + " " * (width - display_width(text))


def format_points(value: float) -> str:
    """Points or a tie-break value with quarter fractions: "3", "2½", "½", "12¾"."""
    quarters = round(value * 4)
    whole, part = divmod(abs(quarters), 4)
    sign = "-" if quarters < 0 else ""
    if whole == 0 and part:
        return sign + _FRACTIONS[part]
    return f"{sign}{whole}{_FRACTIONS[part]}"


def standings_table(
    standings: Sequence[Standing],
    names: Mapping[PlayerId, str],
    *,
    tiebreaks: Sequence[Tiebreak] = (),
    points: bool = True,
) -> str:
    """The standings as aligned text: place, player, points, W D L, tie-breaks, notes.

    The wins tie-break has no column of its own: the W column shows it.
    """
    grid = standings_grid(standings, tiebreaks=tiebreaks, points=points)
    rows = [[row[0], _name(names, player), *row[1:]] for player, row in grid.rows]
    return _layout(grid.header, rows, list(grid.notes), left_columns=2)


@dataclass(frozen=True, slots=True)
class StandingsGrid:
    """The standings' cells for any layout: the header (with "Player" second) and, for
    each standing, the player and their cells but the name, and a note."""

    header: list[str]
    rows: list[tuple[PlayerId, list[str]]]
    notes: list[str]


def standings_grid(
    standings: Sequence[Standing], *, tiebreaks: Sequence[Tiebreak] = (), points: bool = True
) -> StandingsGrid:
    """The standings as cells: place, points, W D L, byes if any, tie-breaks; notes."""
    shown = [tiebreak for tiebreak in tiebreaks if tiebreak is not Tiebreak.WINS]
    byes = points and any(standing.byes for standing in standings)
    header = ["#", "Player"] + (["Pts"] if points else []) + ["W", "D", "L"]
    header += (["Bye"] if byes else []) + [tiebreak.value for tiebreak in shown]
    rows = []
    for standing in standings:
        values = dict(zip(tiebreaks, standing.tiebreaks, strict=False))
        row = [standing.rank_label]
        row += [format_points(standing.points)] if points else []
        row += [str(standing.wins), str(standing.draws), str(standing.losses)]
        row += [str(standing.byes)] if byes else []
        row += [format_points(values[tiebreak]) for tiebreak in shown]
        rows.append((standing.player, row))
    return StandingsGrid(header, rows, [_note(standing) for standing in standings])


def pairings_table(
    pairings: Iterable[Pairing],
    names: Mapping[PlayerId, str],
    *,
    points: Mapping[PlayerId, float] | None = None,
    seats: tuple[str, str] = ("First", "Second"),
) -> str:
    """A round's boards as aligned text: board, first seat, second seat, result.

    `seats` heads the two player columns (a game's colour names); a repeated pairing in
    the same round is marked as a replay.
    """
    rows = []
    notes = []
    seen: set[frozenset[PlayerId]] = set()
    board = 0
    for pairing in pairings:
        first = _name(names, pairing.first, points)
        if pairing.second is None:
            rows.append(["", first, "bye", ""])
            notes.append("")
            continue
        board += 1
        result = pairing.result.label if pairing.result is not None else "…"
        rows.append([str(board), first, _name(names, pairing.second, points), result])
        meeting = frozenset(pairing.players)
        notes.append("replay" if meeting in seen else "")
        seen.add(meeting)
    return _layout(["", *seats, ""], rows, notes, left_columns=3)


def _name(
    names: Mapping[PlayerId, str], player: PlayerId, points: Mapping[PlayerId, float] | None = None
) -> str:
    """A player's name cut to `NAME_WIDTH`, with their points in brackets if given."""
    name = names.get(player, str(player))
    if points is None:
        return fit(name, NAME_WIDTH).rstrip()
    suffix = f" ({format_points(points.get(player, 0.0))})"
    return fit(name, NAME_WIDTH - display_width(suffix)).rstrip() + suffix


def _note(standing: Standing) -> str:
    """The note after a standings line: the stage reached, and whether they withdrew."""
    parts = [standing.note] if standing.note else []
    if standing.withdrawn:
        parts.append("withdrawn")
    return ", ".join(parts)


def _layout(
    header: list[str], rows: list[list[str]], notes: list[str], *, left_columns: int
) -> str:
    """Columns padded to their widest cell; the first `left_columns` flush left."""
    widths = [
        max(display_width(cell) for cell in column) for column in zip(header, *rows, strict=True)
    ]
    lines = []
    for cells, note in [(header, ""), *zip(rows, notes, strict=True)]:
        padded = [
            fit(cell, width) if index < left_columns else " " * (width - display_width(cell)) + cell
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append(("  ".join(padded) + ("  " + note if note else "")).rstrip())
    return "\n".join(lines)
