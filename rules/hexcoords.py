"""Hex coordinates for hexagonal boards of hexagonal cells, as Havannah names them.

A board with `size` cells per side has 2·size−1 columns and 2·size−1 rows, numbered
from 0. Cell (q, r) is column q, row r and exists exactly when |q − r| ≤ size − 1.
Cells are written as the column letter (a, b, c, …, *not* skipping `i`) followed by
the row counted from 1: `f7` is (5, 6). On the default board (size 10) a1 and s19 are
opposite corners and j10 is the centre.
"""

from __future__ import annotations

import re

from rules.base import InvalidMoveError

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
"""Column letters from the left; unlike square boards, `i` is not skipped."""

AXES = ((1, 0), (0, 1), (1, 1))
"""The three line directions of the board."""

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1))
"""The six steps from a cell to its neighbours."""

_CELL = re.compile(r"([a-z])(\d{1,2})")


def span(size: int) -> int:
    """The number of columns (and of rows) of a board with `size` cells per side."""
    return 2 * size - 1


def cell_count(size: int) -> int:
    """The number of cells of a board with `size` cells per side (271 for size 10)."""
    return 3 * size * (size - 1) + 1


def on_board(q: int, r: int, size: int) -> bool:
    """True when (q, r) is a cell of a board with `size` cells per side."""
    last = 2 * size - 2
    return 0 <= q <= last and 0 <= r <= last and abs(q - r) <= size - 1


def board_cells(size: int) -> tuple[tuple[int, int], ...]:
    """Every cell (q, r) of the board, row by row from row 1, each row from the left."""
    last = 2 * size - 2
    return tuple((q, r) for r in range(last + 1) for q in range(last + 1) if abs(q - r) <= size - 1)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The number of steps between two cells."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dq), abs(dr), abs(dq - dr))


def column_rows(q: int, size: int) -> tuple[int, int]:
    """The lowest and highest 0-based row of column `q`."""
    return max(0, q - size + 1), min(2 * size - 2, q + size - 1)


def format_cell(q: int, r: int) -> str:
    """The name of cell (q, r): (5, 6) is f7."""
    return f"{COLUMN_LETTERS[q]}{r + 1}"


def parse_cell(text: str, size: int) -> tuple[int, int]:
    """Return (q, r) of a cell name such as `f7` (any case, surrounding spaces ignored).

    Raises `InvalidMoveError` for text that is not a cell of a board with `size` cells
    per side, saying what is wrong.
    """
    name = text.strip().lower()
    match = _CELL.fullmatch(name)
    if match is None:
        raise InvalidMoveError(
            f"{text.strip()!r} is not a cell: write a column letter and a row number, like f7"
        )
    letter, digits = match.groups()
    q = COLUMN_LETTERS.index(letter)
    r = int(digits) - 1
    last = 2 * size - 2
    if q > last:
        raise InvalidMoveError(
            f"{name} is off the board: the columns run from a to {COLUMN_LETTERS[last]}"
        )
    if not on_board(q, r, size):
        low, high = column_rows(q, size)
        raise InvalidMoveError(
            f"{name} is off the board: column {letter} runs from "
            f"{format_cell(q, low)} to {format_cell(q, high)}"
        )
    return q, r
