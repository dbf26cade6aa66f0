"""Go-style coordinates for square boards: column letters skipping `i`, rows from 1."""

from __future__ import annotations

import re

from rules.base import InvalidMoveError

COLUMN_LETTERS = "abcdefghjklmnopqrstuvwxyz"
"""Column letters from the left; `i` is skipped as on a Go board."""

_POINT = re.compile(r"([a-z])(\d{1,2})")


def column_letter(col: int) -> str:
    """The letter of 0-based column `col`."""
    return COLUMN_LETTERS[col]


def format_point(col: int, row: int) -> str:
    """The name of the cell at 0-based (`col`, `row`), row 0 at the bottom: (3, 12) is d13."""
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def board_extent(width: int, height: int) -> str:
    """Describe a board's columns and rows, for error messages: "columns a–h, rows 1–8"."""
    return f"columns a–{COLUMN_LETTERS[width - 1]}, rows 1–{height}"


def parse_point(text: str, width: int, height: int) -> tuple[int, int]:
    """Return 0-based (col, row) of a cell name such as `d13` (any case).

    Raises `InvalidMoveError` for text that is not a cell of a `width` × `height` board.
    """
    name = text.strip().lower()
    match = _POINT.fullmatch(name)
    if match is None:
        raise InvalidMoveError(
            f"{text.strip()!r} is not a point: write a column letter and a row number, like d4"
        )
    letter, digits = match.groups()
    if letter == "i":
        raise InvalidMoveError("there is no column i: columns skip i, as on a Go board")
    col = COLUMN_LETTERS.index(letter)
    row = int(digits) - 1
    if col >= width or not 0 <= row < height:
        raise InvalidMoveError(f"{name} is off the board ({board_extent(width, height)})")
    return col, row


def diagram_grid(cells: list[list[str]]) -> str:
    """Draw rows of one-character cells (row 0 at the bottom) with Go-style labels."""
    height = len(cells)
    width = len(cells[0]) if cells else 0
    label_width = len(str(height))
    header = " " * (label_width + 1) + " ".join(COLUMN_LETTERS[:width])
    lines = [header]
    for row in range(height - 1, -1, -1):
        lines.append(f"{row + 1:>{label_width}} " + " ".join(cells[row]))
    return "\n".join(lines)
