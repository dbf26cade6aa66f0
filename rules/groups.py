"""Groups (Richard Hutnik, 1998): connect all six of your stones orthogonally.

The board is kept as two 64-bit bitboards, one per colour; cell index = row * 8 + col,
with a1 = 0 and h8 = 63.
"""

from __future__ import annotations

import base64
import re
import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.base import (
    DecodeError,
    Game,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Option,
    Options,
    Outcome,
)
from rules.registry import register
from rules.squares import diagram_grid, format_point, parse_point

SIZE = 8
CELLS = SIZE * SIZE
STONES = 6
MOVE_LIMIT = 400
REPETITIONS = 3

_FULL = (1 << CELLS) - 1
_NOT_COL_A = sum(1 << (r * SIZE) for r in range(SIZE)) ^ _FULL
_NOT_COL_H = sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE)) ^ _FULL
_DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

WHITE_START = ("d3", "c4", "e4", "d5", "f5", "e6")
BLACK_START = ("e3", "d4", "f4", "c5", "e5", "d6")
DROP_AREA = tuple(row * SIZE + col for row in range(2, 6) for col in range(2, 6))
"""The cells of the central square c3–f6, where stones are dropped with `start=drop`."""
_DROP_MASK = sum(1 << sq for sq in DROP_AREA)
_CELL_TEXT = re.compile(r"[a-z]\d{1,2}")
"""What one cell of a move looks like; `parse_point` then names a bad column or row."""


def _rays() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each cell, per direction: (neighbour, cell beyond it or -1), on-board only."""
    table = []
    for sq in range(CELLS):
        col, row = sq % SIZE, sq // SIZE
        rays = []
        for dc, dr in _DIRECTIONS:
            c1, r1, c2, r2 = col + dc, row + dr, col + 2 * dc, row + 2 * dr
            if not (0 <= c1 < SIZE and 0 <= r1 < SIZE):
                continue
            beyond = r2 * SIZE + c2 if 0 <= c2 < SIZE and 0 <= r2 < SIZE else -1
            rays.append((r1 * SIZE + c1, beyond))
        table.append(tuple(rays))
    return tuple(table)


_RAYS = _rays()


def _squares(bits: int) -> Iterator[int]:
    """Yield the index of every set bit."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _mask(*names: str) -> int:
    bits = 0
    for name in names:
        col, row = parse_point(name, SIZE, SIZE)
        bits |= 1 << (row * SIZE + col)
    return bits


def is_connected(bits: int) -> bool:
    """True when the stones in `bits` form one orthogonally connected group."""
    if not bits:
        return False
    reach = bits & -bits
    while True:
        grown = (
            reach
            | (reach << SIZE)
            | (reach >> SIZE)
            | ((reach & _NOT_COL_H) << 1)
            | ((reach & _NOT_COL_A) >> 1)
        ) & bits
        if grown == reach:
            return reach == bits
        reach = grown


@dataclass(frozen=True, slots=True)
class GroupsMove:
    """A step or jump from `origin` to `target`, or a drop on `target` (origin None)."""

    origin: int | None
    """Cell index the stone leaves, or None for a drop."""
    target: int
    """Cell index the stone arrives on."""


def _cell_name(sq: int) -> str:
    return format_point(sq % SIZE, sq // SIZE)


def _position_key(white: int, black: int, to_move: int) -> int:
    return white | (black << CELLS) | (to_move << (2 * CELLS))


@dataclass(frozen=True, slots=True)
class GroupsState(GameState[GroupsMove]):
    """A Groups position."""

    start: str
    """The start option: `standard` or `drop`."""
    white: int
    """Bitboard of White's stones."""
    black: int
    """Bitboard of Black's stones."""
    to_move: int
    ply: int
    last_move: GroupsMove | None
    history: tuple[int, ...]
    """Keys of every movement-phase position so far, this one included (for repetition)."""
    result: Outcome | None

    @property
    def game(self) -> GroupsGame:
        return GROUPS

    @property
    def options(self) -> Options:
        return {"start": self.start}

    # --- board queries (for renderers and the bot) ---

    def stone_at(self, col: int, row: int) -> int | None:
        """The seat whose stone is on (col, row), or None when the cell is empty."""
        bit = 1 << (row * SIZE + col)
        if self.white & bit:
            return 0
        if self.black & bit:
            return 1
        return None

    def stones(self, seat: int) -> list[tuple[int, int]]:
        """The (col, row) of every stone of `seat`."""
        bits = self.black if seat else self.white
        return [(sq % SIZE, sq // SIZE) for sq in _squares(bits)]

    @property
    def in_drop_phase(self) -> bool:
        """True while the player to move still has stones to drop."""
        own = self.black if self.to_move else self.white
        return own.bit_count() < STONES

    # --- moves ---

    def legal_moves(self) -> Iterator[GroupsMove]:
        if self.result is not None:
            return
        occupied = self.white | self.black
        if self.in_drop_phase:
            for sq in DROP_AREA:
                if not occupied >> sq & 1:
                    yield GroupsMove(None, sq)
            return
        own = self.black if self.to_move else self.white
        for sq in _squares(own):
            for near, beyond in _RAYS[sq]:
                if not occupied >> near & 1:
                    yield GroupsMove(sq, near)
                elif beyond >= 0 and not occupied >> beyond & 1:
                    yield GroupsMove(sq, beyond)

    def _has_legal_move(self) -> bool:
        return next(self.legal_moves(), None) is not None

    def format_move(self, move: GroupsMove) -> str:
        if move.origin is None:
            return _cell_name(move.target)
        return f"{_cell_name(move.origin)}-{_cell_name(move.target)}"

    def parse_move(self, text: str) -> GroupsMove:
        parts = [p for p in re.split(r"\s*-\s*", text.strip()) if p]
        if (
            len(parts) not in (1, 2)
            or text.count("-") != len(parts) - 1
            or not all(_CELL_TEXT.fullmatch(p.lower()) for p in parts)
        ):
            raise InvalidMoveError(
                f"{text.strip()!r} is not a Groups move: write a step or jump like d3-e2, "
                "or a drop like d4"
            )
        cells = [parse_point(p, SIZE, SIZE) for p in parts]
        squares = [row * SIZE + col for col, row in cells]
        move = GroupsMove(None, squares[0]) if len(squares) == 1 else GroupsMove(*squares)
        self._check(move)
        return move

    def _check(self, move: GroupsMove) -> None:
        """Raise `IllegalMoveError` with the reason when `move` is not legal here."""
        if self.result is not None:
            raise IllegalMoveError("the game is over")
        colour = self.game.colours[self.to_move]
        occupied = self.white | self.black
        own = self.black if self.to_move else self.white
        target = move.target
        if not 0 <= target < CELLS or (move.origin is not None and not 0 <= move.origin < CELLS):
            raise IllegalMoveError("that cell is not on the board")
        if move.origin is None:
            if not self.in_drop_phase:
                raise IllegalMoveError("the drop phase is over: move a stone, like d3-e2")
            if not _DROP_MASK >> target & 1:
                raise IllegalMoveError("stones are dropped on the central square c3–f6")
            if occupied >> target & 1:
                raise IllegalMoveError(f"{_cell_name(target)} is occupied")
            return
        origin = move.origin
        if self.in_drop_phase:
            raise IllegalMoveError(f"{colour} still has stones to drop: place one, like d4")
        if not own >> origin & 1:
            if occupied >> origin & 1:
                raise IllegalMoveError(f"the stone on {_cell_name(origin)} is not yours")
            raise IllegalMoveError(f"there is no stone on {_cell_name(origin)}")
        if target == origin:
            raise IllegalMoveError(
                f"{self.format_move(move)} does not move the stone: name the cell it moves to"
            )
        if occupied >> target & 1:
            raise IllegalMoveError(f"{_cell_name(target)} is occupied")
        dc = target % SIZE - origin % SIZE
        dr = target // SIZE - origin // SIZE
        if max(abs(dc), abs(dr)) == 1:
            return
        if {abs(dc), abs(dr)} <= {0, 2}:
            middle = origin + (dr // 2) * SIZE + dc // 2
            if occupied >> middle & 1:
                return
            raise IllegalMoveError(
                f"a jump must pass over a stone, and {_cell_name(middle)} is empty"
            )
        raise IllegalMoveError(
            f"{self.format_move(move)} is neither a step to a neighbouring cell "
            "nor a jump over one stone in a straight line"
        )

    def play(self, move: GroupsMove) -> GroupsState:
        self._check(move)
        mover = self.to_move
        bits = 1 << move.target
        if move.origin is not None:
            bits |= 1 << move.origin
        white, black = (
            (self.white ^ bits, self.black)
            if mover == 0
            else (
                self.white,
                self.black ^ bits,
            )
        )
        to_move = 1 - mover
        history = self.history
        if white.bit_count() == STONES and black.bit_count() == STONES:
            history = (*history, _position_key(white, black, to_move))
        state = GroupsState(self.start, white, black, to_move, self.ply + 1, move, history, None)
        return state._with_result(mover)

    def _with_result(self, mover: int) -> GroupsState:
        """Return this state with `result` decided, `mover` having just moved."""
        result = _judge(self, mover)
        if result is None:
            return self
        return GroupsState(
            self.start,
            self.white,
            self.black,
            self.to_move,
            self.ply,
            self.last_move,
            self.history,
            result,
        )

    def outcome(self) -> Outcome | None:
        return self.result

    # --- text forms ---

    def encode(self) -> str:
        board = "".join(
            "W" if self.white >> sq & 1 else "B" if self.black >> sq & 1 else "."
            for sq in range(CELLS)
        )
        last = "-" if self.last_move is None else self.format_move(self.last_move)
        packed = b"".join(
            struct.pack(">QQB", k & _FULL, k >> CELLS & _FULL, k >> 2 * CELLS) for k in self.history
        )
        history = base64.urlsafe_b64encode(zlib.compress(packed, 9)).decode()
        return f"1;{self.start};{self.ply};{self.to_move};{board};{last};{history}"

    def diagram(self) -> str:
        cells = [
            [
                "W"
                if self.white >> (row * SIZE + col) & 1
                else "B"
                if self.black >> (row * SIZE + col) & 1
                else "."
                for col in range(SIZE)
            ]
            for row in range(SIZE)
        ]
        return diagram_grid(cells)


def _judge(state: GroupsState, mover: int) -> Outcome | None:
    """Decide whether the game is over after `mover` made the move leading to `state`."""
    mover_bits = state.black if mover else state.white
    if mover_bits.bit_count() == STONES and is_connected(mover_bits):
        return Outcome(mover, "all six stones connected")
    if state.history and state.history.count(state.history[-1]) >= REPETITIONS:
        return Outcome(None, "the same position occurred three times")
    if state.ply >= MOVE_LIMIT:
        return Outcome(None, f"no winner after {MOVE_LIMIT} moves")
    if not state._has_legal_move():
        loser = state.game.colours[state.to_move]
        return Outcome(mover, f"{loser} has no legal move")
    return None


class GroupsGame(Game[GroupsState]):
    """The rules and metadata of Groups."""

    name = "groups"
    title = "Groups"
    aliases = ("group",)
    colours = ("White", "Black")
    option_specs = (
        Option(
            "start",
            "standard",
            "standard: the twelve stones start in the centre; drop: players place them first",
            choices=("standard", "drop"),
        ),
    )
    notation = "a step or jump from one cell to another, like d3-e2; a drop like d4"
    summary = (
        "Move one of your six stones a step in any of the 8 directions, or jump over an "
        "adjacent stone to the empty cell beyond. Connect all six of your stones "
        "orthogonally to win. A player with no legal move loses; a position repeated "
        "three times, or 400 moves without a winner, is a draw."
    )

    def initial_state(self, options: Options) -> GroupsState:
        start = str(options["start"])
        if start == "drop":
            return GroupsState(start, 0, 0, 0, 0, None, (), None)
        white, black = _mask(*WHITE_START), _mask(*BLACK_START)
        return GroupsState(start, white, black, 0, 0, None, (_position_key(white, black, 0),), None)

    def position(self, white: Iterable[str], black: Iterable[str], to_move: int = 0) -> GroupsState:
        """A standard-game position with stones on the named cells (for tests and analysis).

        The position counts as the first of the game's history; if the player to move has
        no legal move, the game is already over.
        """
        white_bits, black_bits = _mask(*white), _mask(*black)
        if white_bits & black_bits:
            raise ValueError("a cell cannot hold two stones")
        key = _position_key(white_bits, black_bits, to_move)
        state = GroupsState("standard", white_bits, black_bits, to_move, 0, None, (key,), None)
        return state._with_result(1 - to_move)

    def decode(self, text: str) -> GroupsState:
        try:
            version, start, ply_text, to_move_text, board, last, history_text = text.split(";")
            if version != "1" or start not in ("standard", "drop") or len(board) != CELLS:
                raise ValueError("bad header")
            white = sum(1 << sq for sq, ch in enumerate(board) if ch == "W")
            black = sum(1 << sq for sq, ch in enumerate(board) if ch == "B")
            if set(board) - set("WB."):
                raise ValueError("bad board")
            to_move, ply = int(to_move_text), int(ply_text)
            if to_move not in (0, 1) or ply < 0:
                raise ValueError("bad side")
            packed = zlib.decompress(base64.urlsafe_b64decode(history_text))
            history = tuple(
                _position_key(w, b, side) for w, b, side in struct.iter_unpack(">QQB", packed)
            )
            last_move = None if last == "-" else _parse_recorded(last)
        except (ValueError, struct.error, zlib.error) as exc:
            raise DecodeError(f"not an encoded Groups state: {exc}") from None
        state = GroupsState(start, white, black, to_move, ply, last_move, history, None)
        return state._with_result(1 - to_move)

    def max_plies(self, options: Options) -> int | None:
        return MOVE_LIMIT


def _parse_recorded(text: str) -> GroupsMove:
    """Parse a move's notation without checking legality (for the stored last move)."""
    squares = []
    for part in text.split("-"):
        col, row = parse_point(part, SIZE, SIZE)
        squares.append(row * SIZE + col)
    return GroupsMove(None, squares[0]) if len(squares) == 1 else GroupsMove(*squares)


GROUPS = GroupsGame()
register(GROUPS)
