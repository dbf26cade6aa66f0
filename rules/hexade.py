"""Hexade (Christian Freeling, 1992): make a six that survives the opponent's reply.

The board is kept as two bitboards, one per colour. Cell (q, r) is bit r·W + q of the
(2·size−1)² grid, W = 2·size−1; bits of the grid's two off-board corners are never set.
That layout lets a whole board be searched for sixes with a few dozen shifts and ANDs:
a six of one shape anchored at bit a is the AND of the board shifted by each of the
shape's offsets. No shape can wrap from one row of the grid into the next, because the
wrapped cells would lie in the off-board corners (`tests/rules/test_hexade.py` checks
this for every size).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.base import (
    DecodeError,
    Game,
    GameState,
    IllegalMoveError,
    Option,
    Options,
    Outcome,
)
from rules.hexcoords import (
    COLUMN_LETTERS,
    DIRECTIONS,
    board_cells,
    distance,
    format_cell,
    on_board,
    parse_cell,
    span,
)
from rules.registry import register

__all__ = [
    "HEXADE",
    "SHAPES",
    "HexadeGame",
    "HexadeMove",
    "HexadeState",
    "format_cell",
    "parse_cell",
]

DEFAULT_SIZE = 10
MIN_SIZE = 5
MAX_SIZE = 12
MOVE_LIMIT_PER_CELL = 4
"""The game is drawn after this many moves per cell of the board."""
SECOND_STONE_DISTANCE = 3
"""White's second stone must be at least this far from White's first."""
SURVIVED = "a six survived the opponent's reply"

SHAPES: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("row", tuple((k, 0) for k in range(6))),
    ("row", tuple((0, k) for k in range(6))),
    ("row", tuple((k, k) for k in range(6))),
    ("triangle", ((0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2))),
    ("triangle", ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))),
    ("ring", ((0, 0), (1, 0), (0, 1), (2, 1), (1, 2), (2, 2))),
)
"""Every kind of six as (name, cell offsets from its anchor): the rows along the three
axes in line order, both compact triangles, and the ring around the anchor + (1, 1)."""


@dataclass(frozen=True, slots=True, order=True)
class HexadeMove:
    """A stone placed on cell (q, r)."""

    q: int
    """The 0-based column."""
    r: int
    """The 0-based row."""


class _Board:
    """The precomputed tables of one board size, shared by all its states."""

    __slots__ = (
        "bit_at",
        "bits",
        "captures",
        "cell_at",
        "cells",
        "full",
        "move_limit",
        "moves",
        "names",
        "near",
        "shape_offsets",
        "size",
        "stride",
    )

    def __init__(self, size: int) -> None:
        self.size = size
        self.stride = stride = span(size)
        self.cells = board_cells(size)
        self.move_limit = MOVE_LIMIT_PER_CELL * len(self.cells)
        self.bits = tuple(r * stride + q for q, r in self.cells)
        self.bit_at = dict(zip(self.cells, self.bits, strict=True))
        self.cell_at = dict(zip(self.bits, self.cells, strict=True))
        self.full = sum(1 << bit for bit in self.bits)
        self.moves = {bit: HexadeMove(q, r) for (q, r), bit in self.bit_at.items()}
        self.names = {bit: format_cell(q, r) for (q, r), bit in self.bit_at.items()}
        self.captures = {bit: self._capture_rays(q, r) for (q, r), bit in self.bit_at.items()}
        reach = range(1 - SECOND_STONE_DISTANCE, SECOND_STONE_DISTANCE)
        steps = [
            (dq, dr)
            for dq in reach
            for dr in reach
            if 1 <= distance((0, 0), (dq, dr)) < SECOND_STONE_DISTANCE
        ]
        self.near = {
            bit: self.mask_of((q + dq, r + dr) for dq, dr in steps)
            for (q, r), bit in self.bit_at.items()
        }
        self.shape_offsets = tuple(
            tuple(dq + dr * stride for dq, dr in offsets) for _, offsets in SHAPES
        )

    def _capture_rays(self, q: int, r: int) -> tuple[tuple[int, int], ...]:
        """Per direction from (q, r) with three cells on the board: (pair mask, closer mask)."""
        rays = []
        for dq, dr in DIRECTIONS:
            if on_board(q + 3 * dq, r + 3 * dr, self.size):
                near, far, closer = (self.bit_at[q + k * dq, r + k * dr] for k in (1, 2, 3))
                rays.append(((1 << near) | (1 << far), 1 << closer))
        return tuple(rays)

    def mask(self, names: Iterable[str]) -> int:
        """Bitboard of the named cells; raises `InvalidMoveError` for a name off the board."""
        return self.mask_of(parse_cell(name, self.size) for name in names)

    def mask_of(self, cells: Iterable[tuple[int, int]]) -> int:
        """Bitboard of the given (q, r), leaving out those off the board."""
        bits = 0
        for cell in cells:
            bit = self.bit_at.get(cell)
            if bit is not None:
                bits |= 1 << bit
        return bits

    def bit_of(self, move: object) -> int:
        """The bit of a move's cell, or -1 when it is not a move to a cell of this board."""
        if not isinstance(move, HexadeMove):
            return -1
        return self.bit_at.get((move.q, move.r), -1)

    def six_anchors(self, stones: int, offsets: tuple[int, ...]) -> int:
        """The anchor bits of every six of one shape among `stones`."""
        anchors = stones
        for offset in offsets[1:]:
            anchors &= stones >> offset
            if not anchors:
                break
        return anchors

    def has_six(self, stones: int) -> bool:
        """True when `stones` include a six of any shape."""
        return any(self.six_anchors(stones, offsets) for offsets in self.shape_offsets)

    def cells_of(self, stones: int) -> Iterator[tuple[int, int]]:
        """Yield (q, r) of every set bit, lowest first."""
        return (self.cell_at[bit] for bit in _bits(stones))


def _bits(stones: int) -> Iterator[int]:
    """Yield the index of every set bit, lowest first."""
    while stones:
        low = stones & -stones
        yield low.bit_length() - 1
        stones ^= low


_BOARDS: dict[int, _Board] = {}


def _board(size: int) -> _Board:
    """The tables of board `size`, built on first use."""
    board = _BOARDS.get(size)
    if board is None:
        board = _BOARDS[size] = _Board(size)
    return board


def _judge(board: _Board, white: int, black: int, to_move: int, ply: int) -> Outcome | None:
    """Decide the game after a move that left `to_move` to play (the perfect-six rule).

    Only the player to move can win now: their six has survived the reply just made.
    The mover's own new six wins only if it survives the next reply.
    """
    if board.has_six(black if to_move else white):
        return Outcome(to_move, SURVIVED)
    if white | black == board.full:
        return Outcome(None, "the board is full")
    if ply >= board.move_limit:
        return Outcome(None, f"no winner after {board.move_limit} moves")
    return None


@dataclass(frozen=True, slots=True)
class HexadeState(GameState[HexadeMove]):
    """A Hexade position."""

    size: int
    """Cells on each side of the board."""
    white: int
    """Bitboard of White's stones (bit r·(2·size−1) + q)."""
    black: int
    """Bitboard of Black's stones."""
    to_move: int
    ply: int
    last_move: HexadeMove | None
    captured: int
    """Bitboard of the stones the last move captured (they belonged to `to_move`)."""
    result: Outcome | None

    @property
    def game(self) -> HexadeGame:
        return HEXADE

    @property
    def options(self) -> Options:
        return {"size": self.size}

    # --- board queries (for renderers and the bot) ---

    def cells(self) -> tuple[tuple[int, int], ...]:
        """Every cell (q, r) of the board, row by row from row 1."""
        return _board(self.size).cells

    def stone_at(self, q: int, r: int) -> int | None:
        """The seat whose stone is on (q, r), or None when it is empty or off the board."""
        bit = _board(self.size).bit_at.get((q, r))
        if bit is None:
            return None
        if self.white >> bit & 1:
            return 0
        if self.black >> bit & 1:
            return 1
        return None

    def stones(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The (q, r) of every stone of `seat`."""
        return tuple(_board(self.size).cells_of(self.black if seat else self.white))

    def has_six(self, seat: int) -> bool:
        """True when `seat` has a six on the board (a full search of the board)."""
        return _board(self.size).has_six(self.black if seat else self.white)

    def sixes(self) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        """(seat, its six cells) for every six on the board; a row's cells in line order.

        A row longer than six yields each six it contains.
        """
        board = _board(self.size)
        found = []
        for seat, stones in ((0, self.white), (1, self.black)):
            for offsets in board.shape_offsets:
                for anchor in _bits(board.six_anchors(stones, offsets)):
                    found.append((seat, tuple(board.cell_at[anchor + o] for o in offsets)))
        return tuple(found)

    @property
    def captured_last(self) -> tuple[tuple[int, int, int], ...]:
        """(q, r, seat) of every stone the last move captured."""
        return tuple((q, r, self.to_move) for q, r in _board(self.size).cells_of(self.captured))

    def forbidden_cells(self) -> frozenset[tuple[int, int]]:
        """The cells White may not take while placing its second stone; otherwise empty.

        They are the cells at distance 1 or 2 from White's first stone, occupied or not.
        """
        return frozenset(_board(self.size).cells_of(self._forbidden()))

    def format_cell(self, q: int, r: int) -> str:
        """The name of cell (q, r), like f7."""
        return format_cell(q, r)

    def _forbidden(self) -> int:
        """Bitboard of the cells White may not take now (nonzero only for its second stone)."""
        if self.ply != 2 or self.to_move != 0:
            return 0
        near = _board(self.size).near
        forbidden = 0
        for bit in _bits(self.white):
            forbidden |= near[bit]
        return forbidden

    # --- moves ---

    def legal_moves(self) -> Iterator[HexadeMove]:
        if self.result is not None:
            return
        board = _board(self.size)
        blocked = self.white | self.black | self._forbidden()
        moves = board.moves
        for bit in board.bits:
            if not blocked >> bit & 1:
                yield moves[bit]

    def format_move(self, move: HexadeMove) -> str:
        return format_cell(move.q, move.r)

    def parse_move(self, text: str) -> HexadeMove:
        q, r = parse_cell(text, self.size)
        board = _board(self.size)
        bit = board.bit_at[q, r]
        self._check(board, bit)
        return board.moves[bit]

    def _check(self, board: _Board, bit: int) -> None:
        """Raise `IllegalMoveError` with the reason when a stone may not go on `bit`."""
        if self.result is not None:
            raise IllegalMoveError("the game is over")
        if bit < 0:
            raise IllegalMoveError("that cell is not on the board")
        if (self.white | self.black) >> bit & 1:
            raise IllegalMoveError(f"{board.names[bit]} is occupied")
        if self._forbidden() >> bit & 1:
            cell = board.cell_at[bit]
            first = min(board.cells_of(self.white), key=lambda other: distance(cell, other))
            raise IllegalMoveError(
                f"White's second stone must be at least {SECOND_STONE_DISTANCE} cells away "
                f"from White's first stone on {format_cell(*first)}; {board.names[bit]} is "
                f"only {distance(cell, first)} away"
            )

    def play(self, move: HexadeMove) -> HexadeState:
        board = _board(self.size)
        bit = board.bit_of(move)
        self._check(board, bit)
        mover = self.to_move
        stone = 1 << bit
        if mover:
            own, opponent = self.black | stone, self.white
        else:
            own, opponent = self.white | stone, self.black
        captured = 0
        for pair, closer in board.captures[bit]:
            if opponent & pair == pair and own & closer:
                captured |= pair
        opponent ^= captured
        white, black = (opponent, own) if mover else (own, opponent)
        to_move, ply = 1 - mover, self.ply + 1
        result = _judge(board, white, black, to_move, ply)
        return HexadeState(
            self.size, white, black, to_move, ply, board.moves[bit], captured, result
        )

    def outcome(self) -> Outcome | None:
        return self.result

    # --- text forms ---

    def encode(self) -> str:
        board = _board(self.size)
        cells = "".join(
            "w" if self.white >> bit & 1 else "b" if self.black >> bit & 1 else "."
            for bit in board.bits
        )
        last = "-" if self.last_move is None else self.format_move(self.last_move)
        captured = ",".join(format_cell(q, r) for q, r in board.cells_of(self.captured)) or "-"
        return f"1;{self.size};{self.ply};{self.to_move};{cells};{last};{captured}"

    def diagram(self) -> str:
        """The board with rows drawn level and columns running up to the left.

        Row numbers stand at the left end of each row; column letters stand below the
        first cell of each column, along the bottom and lower-right edges.
        """
        size, last = self.size, 2 * self.size - 2
        label = len(str(last + 1))
        margin = size - 1 + label + 1  # text column of x = 0
        lines: list[list[str]] = [[] for _ in range(last + 2)]

        def put(line: int, x: int, text: str) -> None:
            row = lines[line]
            row.extend(" " * (x + len(text) - len(row)))
            row[x : x + len(text)] = text

        for q, r in _board(size).cells:
            stone = self.stone_at(q, r)
            put(last - r, margin + 2 * q - r, "." if stone is None else "WB"[stone])
        for r in range(last + 1):
            first = max(0, r - size + 1)
            put(last - r, margin + 2 * first - r - label - 1, f"{r + 1:>{label}}")
        for q in range(last + 1):
            if q < size:
                put(last + 1, margin + 2 * q + 1, COLUMN_LETTERS[q])
            else:
                put(last - (q - size), margin + q + size, COLUMN_LETTERS[q])
        return "\n".join("".join(row).rstrip() for row in lines)


class HexadeGame(Game[HexadeState]):
    """The rules and metadata of Hexade."""

    name = "hexade"
    title = "Hexade"
    aliases = ("perfect six",)
    colours = ("White", "Black")
    option_specs = (
        Option(
            "size",
            DEFAULT_SIZE,
            "cells on each side of the hexagonal board (10: 271 cells)",
            minimum=MIN_SIZE,
            maximum=MAX_SIZE,
        ),
    )
    notation = (
        "a cell: column letter and row number, like j10 (columns a, b, c, … do not skip i; "
        "columns run diagonally, rows level)"
    )
    summary = (
        "Place one stone of your colour on an empty cell per turn; White starts, and "
        "White's second stone must be at least 3 cells from its first. A stone that "
        "sandwiches exactly two enemy stones in a line against another of yours captures "
        "them, in all six directions at once; completing your own pair between two enemy "
        "stones is safe. Make a six (six in a row, a compact triangle of six, or the six cells "
        "around one cell): it wins once it survives your opponent's next move. A full "
        "board, or 4 moves per cell without a winner, is a draw."
    )

    def initial_state(self, options: Options) -> HexadeState:
        size = int(options["size"])
        return HexadeState(size, 0, 0, 0, 0, None, 0, None)

    def position(
        self,
        white: Iterable[str],
        black: Iterable[str],
        *,
        to_move: int | None = None,
        ply: int | None = None,
        size: int = DEFAULT_SIZE,
    ) -> HexadeState:
        """A position with stones on the named cells (for tests, renderers and analysis).

        By default the side with fewer stones moves (White when equal) and the ply is
        the number of stones. If the player to move already holds a six, they have won.
        """
        size = int(self.option("size").validate(size))
        board = _board(size)
        white_bits, black_bits = board.mask(white), board.mask(black)
        if white_bits & black_bits:
            raise ValueError("a cell cannot hold two stones")
        if to_move is None:
            to_move = int(white_bits.bit_count() > black_bits.bit_count())
        if ply is None:
            ply = white_bits.bit_count() + black_bits.bit_count()
        result = _judge(board, white_bits, black_bits, to_move, ply)
        return HexadeState(size, white_bits, black_bits, to_move, ply, None, 0, result)

    def decode(self, text: str) -> HexadeState:
        try:
            version, size_text, ply_text, to_move_text, cells, last, captured_text = text.split(";")
            size, ply, to_move = int(size_text), int(ply_text), int(to_move_text)
            if version != "1" or not MIN_SIZE <= size <= MAX_SIZE:
                raise ValueError("bad header")
            if to_move not in (0, 1) or ply < 0:
                raise ValueError("bad side or ply")
            board = _board(size)
            if len(cells) != len(board.bits) or set(cells) - set("wb."):
                raise ValueError("bad board")
            white = sum(1 << bit for bit, ch in zip(board.bits, cells, strict=True) if ch == "w")
            black = sum(1 << bit for bit, ch in zip(board.bits, cells, strict=True) if ch == "b")
            last_move = None if last == "-" else board.moves[board.bit_at[parse_cell(last, size)]]
            captured = 0 if captured_text == "-" else board.mask(captured_text.split(","))
            if captured & (white | black):
                raise ValueError("a captured cell holds a stone")
        except ValueError as exc:  # InvalidMoveError included
            raise DecodeError(f"not an encoded Hexade state: {exc}") from None
        result = _judge(board, white, black, to_move, ply)
        return HexadeState(size, white, black, to_move, ply, last_move, captured, result)

    def max_plies(self, options: Options) -> int | None:
        return _board(int(options["size"])).move_limit


HEXADE = HexadeGame()
register(HEXADE)
