"""Diffusion Chess (Alexandre Muñiz, 2000): stones move as far as their group is large.

The board is a 19×19 grid kept as `bytes`, one byte per cell: 0 empty, 1 White, 2 Black;
cell index = row * 19 + col, with a1 = 0 and t19 = 360. A second `bytes` holds, per cell,
the group size the stone on it had when the turn started (its *frozen* size), so the
recorded sizes travel with the stones as they move and swap.

A turn is several sub-moves by the same player; each sub-move is one `play()`. The turn
ends after five moves (four on White's first turn) or as soon as the player has no
legal move left; then the group sizes are frozen again for the other player.

Points the rule text leaves open, decided here:
- "Moved this turn" concerns the player to move only. The capturer counts as moved; the
  stone it captures belongs to the opponent, and every stone is fresh when its owner's
  turn starts, so being swapped never marks or blocks a stone.
- Recorded sizes belong to stones, not cells: a stone keeps its turn-start size through
  its own move and through being swapped, for the rest of the turn.
- A captured king is swapped like any stone (so `king()` still finds it); the game is
  over at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import pairwise

from rules.base import (
    DecodeError,
    Game,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Options,
    Outcome,
)
from rules.registry import register
from rules.squares import COLUMN_LETTERS, board_extent, diagram_grid, format_point, parse_point

SIZE = 19
CELLS = SIZE * SIZE
TURN_MOVES = 5
"""Moves in a turn."""
FIRST_TURN_MOVES = 4
"""Moves in White's very first turn."""
TURN_LIMIT = 32
"""The game ends once each player has completed this many turns."""
DIAMOND_RADIUS = 4
WHITE_CENTRE = "k5"
BLACK_CENTRE = "k15"

EMPTY = 0
KING_CAPTURED = "king captured"
"""The reason of a game won by capturing the king (the only ending encoded explicitly)."""
_COLOUR_NAMES = ("White", "Black")

_POINT = re.compile(r"([a-z])(\d{1,2})")
_SEPARATOR = re.compile(r"\s*-\s*")

# Step directions in the canonical tie-break order N, E, S, W (row 0 is at the bottom).
_DELTAS = (SIZE, 1, -SIZE, -1)


def _step_table() -> tuple[tuple[int, int, int, int], ...]:
    """Per cell, the neighbour in each direction N, E, S, W, or -1 off the board."""
    table = []
    for cell in range(CELLS):
        col, row = cell % SIZE, cell // SIZE
        table.append(
            (
                cell + SIZE if row < SIZE - 1 else -1,
                cell + 1 if col < SIZE - 1 else -1,
                cell - SIZE if row > 0 else -1,
                cell - 1 if col > 0 else -1,
            )
        )
    return tuple(table)


_STEPS = _step_table()
_NEIGHBOURS = tuple(tuple(n for n in steps if n >= 0) for steps in _STEPS)
"""Per cell, its on-board orthogonal neighbours in the order N, E, S, W."""
_BEHIND = tuple(tuple(n for n in (steps[2], steps[3]) if n >= 0) for steps in _STEPS)
"""Per cell, its neighbours below and to the left (each pair of neighbours is seen once)."""


def _cell(col: int, row: int) -> int:
    return row * SIZE + col


def _name(cell: int) -> str:
    return format_point(cell % SIZE, cell // SIZE)


def _point(cell: int) -> tuple[int, int]:
    return cell % SIZE, cell // SIZE


def _diamond(centre: str) -> list[int]:
    col, row = parse_point(centre, SIZE, SIZE)
    return [
        _cell(c, r)
        for r in range(SIZE)
        for c in range(SIZE)
        if abs(c - col) + abs(r - row) <= DIAMOND_RADIUS
    ]


def group_sizes(board: bytes) -> tuple[bytes, tuple[int, int]]:
    """Each cell's group size (0 where empty) and the number of groups of each seat.

    A union-find over the stones: linear in the number of stones, a few tens of
    microseconds on a full board.
    """
    parent = list(range(CELLS))
    stones = [cell for cell, value in enumerate(board) if value]
    for cell in stones:
        value = board[cell]
        for other in _BEHIND[cell]:
            if board[other] != value:
                continue
            a = cell
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            b = other
            while parent[b] != b:
                parent[b] = parent[parent[b]]
                b = parent[b]
            if a != b:
                parent[a] = b
    roots = []
    for cell in stones:
        root = cell
        while parent[root] != root:
            root = parent[root]
        roots.append(root)
    size_of = [0] * CELLS
    for root in roots:
        size_of[root] += 1
    sizes = bytearray(CELLS)
    for cell, root in zip(stones, roots, strict=True):
        sizes[cell] = size_of[root]
    counts = [0, 0, 0]
    for cell in stones:
        if parent[cell] == cell:
            counts[board[cell]] += 1
    return bytes(sizes), (counts[1], counts[2])


@dataclass(frozen=True, slots=True)
class DiffusionMove:
    """A normal move along `path` (cell indices, start first), or the echo (empty path)."""

    path: tuple[int, ...] = ()
    """The cells the stone moves through, its start first; empty for the echo move."""

    @property
    def is_echo(self) -> bool:
        """True for the echo move."""
        return not self.path

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """The path as 0-based (col, row) pairs; empty for the echo move."""
        return tuple(_point(cell) for cell in self.path)


ECHO = DiffusionMove()
"""The echo move: the stone that just moved repeats that move's steps."""


@dataclass(frozen=True, slots=True)
class _Resolved:
    """What a legal move does: the cells its stone passes through and what it captures."""

    trace: tuple[int, ...]
    """Cells the stone passes through, start first (for an echo, the steps it makes)."""
    captured: int
    """The cell of the captured stone before the swap, or -1."""


@dataclass(frozen=True, slots=True)
class DiffusionState(GameState[DiffusionMove]):
    """A Diffusion Chess position, in the middle of some player's turn."""

    board: bytes
    """Per cell index: 0 empty, 1 White stone, 2 Black stone."""
    frozen: bytes
    """Per cell index: the group size recorded at the turn's start for the stone now there."""
    kings: tuple[int, int]
    """The cell index of each seat's king, or -1 when it has none (hand-made positions)."""
    to_move: int
    ply: int
    last_move: DiffusionMove | None
    turn_number: int
    """The 1-based number of the current turn, counting both players' turns."""
    moves_left: int
    """Moves remaining in the current turn."""
    moved: int
    """Bitmask over cell indices of the stones that have moved this turn."""
    echo_path: tuple[int, ...]
    """The previous move's path when the rules allow an echo after it, else empty."""
    turn_moves: tuple[DiffusionMove, ...]
    """The moves made so far in the current turn."""
    turn_paths: tuple[tuple[tuple[int, int], ...], ...]
    """For each move of the current turn, the (col, row) cells its stone passed through."""
    previous_turn_moves: tuple[DiffusionMove, ...]
    """The moves of the last completed turn."""
    previous_turn_paths: tuple[tuple[tuple[int, int], ...], ...]
    """For each move of the last completed turn, the cells its stone passed through."""
    turn_captures: tuple[tuple[tuple[int, int, int], ...], ...]
    """For each move of the current turn, (col, row, seat) of what it captured (or ())."""
    previous_turn_captures: tuple[tuple[tuple[int, int, int], ...], ...]
    """For each move of the last completed turn, what it captured (or ())."""
    result: Outcome | None

    @property
    def game(self) -> DiffusionGame:
        return DIFFUSION

    @property
    def options(self) -> Options:
        return {}

    # --- board queries (for renderers, the bot and the AI) ---

    def stone_at(self, col: int, row: int) -> int | None:
        """The seat whose stone is on (col, row), or None when the cell is empty."""
        value = self.board[_cell(col, row)]
        return value - 1 if value else None

    def stones(self, seat: int) -> list[tuple[int, int]]:
        """The (col, row) of every stone of `seat`, in cell order."""
        value = seat + 1
        return [_point(cell) for cell, v in enumerate(self.board) if v == value]

    def king(self, seat: int) -> tuple[int, int] | None:
        """The (col, row) of `seat`'s king, or None when it has none."""
        cell = self.kings[seat]
        return None if cell < 0 else _point(cell)

    def frozen_size(self, col: int, row: int) -> int | None:
        """The turn-start group size of the stone now on (col, row), or None when empty."""
        cell = _cell(col, row)
        return self.frozen[cell] if self.board[cell] else None

    def group_count(self, seat: int) -> int:
        """The current number of groups of `seat`."""
        return group_sizes(self.board)[1][seat]

    def turns_completed(self, seat: int) -> int:
        """How many turns `seat` has completed."""
        return (self.turn_number - 1 + (1 - seat)) // 2

    @property
    def moved_this_turn(self) -> frozenset[tuple[int, int]]:
        """The current cells of the stones that have moved this turn."""
        return frozenset(_point(cell) for cell in _bits(self.moved))

    @property
    def echo_available(self) -> bool:
        """True when `echo` is a legal move now."""
        return self.result is None and len(self._echo()[0].trace) > 1

    @property
    def echo_preview(self) -> tuple[tuple[int, int], ...]:
        """The (col, row) cells an echo would pass through now, start first; () if illegal."""
        if not self.echo_available:
            return ()
        return tuple(_point(cell) for cell in self._echo()[0].trace)

    @property
    def last_path(self) -> tuple[tuple[int, int], ...]:
        """The cells the last move's stone passed through (for an echo, the steps it made)."""
        if self.turn_paths:
            return self.turn_paths[-1]
        if self.previous_turn_paths and self.last_move is not None:
            return self.previous_turn_paths[-1]
        return ()

    @property
    def captured_last(self) -> tuple[tuple[int, int, int], ...]:
        """(col, row, seat) of the stone the last move captured, where it stood before the
        swap; () when it captured nothing."""
        if self.turn_captures:
            return self.turn_captures[-1]
        if self.previous_turn_captures and self.last_move is not None:
            return self.previous_turn_captures[-1]
        return ()

    # --- moves ---

    def legal_moves(self) -> Iterator[DiffusionMove]:
        """The echo when legal, then one shortest path per (stone, destination).

        Among shortest paths the one whose step directions come first in the order
        N, E, S, W is listed; `play()` accepts every other legal path too.
        """
        if self.result is not None:
            return
        if self.echo_path and self.echo_available:
            yield ECHO
        board, frozen, moved = self.board, self.frozen, self.moved
        own = self.to_move + 1
        cell = board.find(own)
        while cell >= 0:
            if frozen[cell] > 1 and not moved >> cell & 1:
                for path in _paths_from(board, frozen, cell):
                    yield DiffusionMove(path)
            cell = board.find(own, cell + 1)

    def moves_from(self, col: int, row: int) -> list[DiffusionMove]:
        """The listed moves of the stone on (col, row), one per destination; [] if it cannot move.

        For pickers that choose a stone first and then a destination.
        """
        cell = _cell(col, row)
        if (
            self.result is not None
            or self.board[cell] != self.to_move + 1
            or self.frozen[cell] < 2
            or self.moved >> cell & 1
        ):
            return []
        return [DiffusionMove(path) for path in _paths_from(self.board, self.frozen, cell)]

    def _has_legal_move(self) -> bool:
        """True when the player to move has a legal move (cheaper than listing them)."""
        if self.echo_path and len(self._echo()[0].trace) > 1:
            return True
        board, frozen, moved = self.board, self.frozen, self.moved
        own = self.to_move + 1
        cell = board.find(own)
        while cell >= 0:
            size = frozen[cell]
            if size > 1 and not moved >> cell & 1:
                for near in _NEIGHBOURS[cell]:
                    other = board[near]
                    if other == EMPTY or (other != own and frozen[near] >= size):
                        return True
            cell = board.find(own, cell + 1)
        return False

    def format_move(self, move: DiffusionMove) -> str:
        if move.is_echo:
            return "echo"
        return "-".join(_name(cell) for cell in move.path)

    def parse_move(self, text: str) -> DiffusionMove:
        cleaned = text.strip().lower()
        move = ECHO if cleaned == "echo" else DiffusionMove(_parse_path(cleaned, text))
        self._resolve(move)
        return move

    def _resolve(self, move: DiffusionMove) -> _Resolved:
        """Return what `move` does here; raise `IllegalMoveError` saying why it is illegal."""
        if self.result is not None:
            raise IllegalMoveError("the game is over")
        if move.is_echo:
            return self._resolve_echo()
        path = move.path
        if len(path) < 2:
            raise IllegalMoveError("a move needs at least one step, like k9-k10")
        if any(not 0 <= cell < CELLS for cell in path):
            raise IllegalMoveError("the path leaves the board")
        board, frozen = self.board, self.frozen
        own = self.to_move + 1
        start = path[0]
        owner = board[start]
        if owner == EMPTY:
            raise IllegalMoveError(f"there is no stone on {_name(start)}")
        if owner != own:
            raise IllegalMoveError(f"{_name(start)} belongs to your opponent")
        if self.moved >> start & 1:
            raise IllegalMoveError(f"{_name(start)} already moved this turn")
        size = frozen[start]
        if size < 2:
            raise IllegalMoveError(
                f"your stone at {_name(start)} has group size {size} and is stranded"
            )
        steps = len(path) - 1
        if steps > size - 1:
            raise IllegalMoveError(
                f"that path is too long: your stone at {_name(start)} has group size {size}, "
                f"so it may take at most {size - 1} step{'s' if size > 2 else ''} "
                f"(this path takes {steps})"
            )
        seen = {start}
        last = len(path) - 1
        for index in range(1, len(path)):
            here, there = path[index - 1], path[index]
            if there not in _NEIGHBOURS[here]:
                raise IllegalMoveError(
                    f"{_name(here)} and {_name(there)} are not orthogonally adjacent: "
                    "each step goes one cell up, down, left or right"
                )
            if there in seen:
                raise IllegalMoveError(f"the path visits {_name(there)} twice")
            seen.add(there)
            occupant = board[there]
            if occupant == EMPTY:
                continue
            if occupant == own:
                raise IllegalMoveError(
                    f"the path runs into your own stone at {_name(there)}"
                    if index < last
                    else f"{_name(there)} holds your own stone"
                )
            if index < last:
                raise IllegalMoveError(
                    f"the path passes through the opponent stone at {_name(there)}: "
                    "a capture can only be the last step"
                )
            refusal = _capture_refusal(there, frozen[there], size)
            if refusal:
                raise IllegalMoveError(refusal)
            return _Resolved(path, there)
        return _Resolved(path, -1)

    def _resolve_echo(self) -> _Resolved:
        """What the echo does now; raise `IllegalMoveError` when it is not legal."""
        resolved, refusal = self._echo()
        if len(resolved.trace) < 2:
            raise IllegalMoveError(f"no echo: {refusal}")
        return resolved

    def _echo(self) -> tuple[_Resolved, str]:
        """The echo's effect (a one-cell trace when it cannot step) and why it stops."""
        if not self.echo_path:
            return _Resolved((), -1), self._no_echo_reason()
        path = self.echo_path
        board, frozen = self.board, self.frozen
        own = self.to_move + 1
        here = path[-1]
        size = frozen[here]
        trace = [here]
        reason = "its steps are done"
        for index in range(1, len(path)):
            direction = _DELTAS.index(path[index] - path[index - 1])
            there = _STEPS[here][direction]
            if there < 0:
                reason = f"the stone at {_name(here)} would leave the board"
                break
            occupant = board[there]
            if occupant == EMPTY:
                trace.append(there)
                here = there
                continue
            if occupant == own:
                reason = (
                    f"the stone at {_name(here)} is blocked by your own stone at {_name(there)}"
                )
                break
            refusal = _capture_refusal(there, frozen[there], size)
            if refusal:
                reason = refusal
                break
            trace.append(there)
            return _Resolved(tuple(trace), there), "it captured"
        return _Resolved(tuple(trace), -1), reason

    def _no_echo_reason(self) -> str:
        """Why the rules allow no echo after the previous move (or at the turn's start)."""
        if not self.turn_moves:
            return "an echo repeats the previous move of your turn, and you have made none yet"
        if self.turn_moves[-1].is_echo:
            return "the last move was an echo"
        if self.captured_last:
            return "the last move captured"
        return "the last move was made by your king"

    def play(self, move: DiffusionMove) -> DiffusionState:
        resolved = self._resolve(move)
        trace, captured = resolved.trace, resolved.captured
        mover = self.to_move
        own, opponent = mover + 1, 2 - mover
        board, frozen = bytearray(self.board), bytearray(self.frozen)
        start, end = trace[0], trace[-1]
        size = frozen[start]
        board[start] = EMPTY
        frozen[start] = 0
        kings = list(self.kings)
        captured_last: tuple[tuple[int, int, int], ...] = ()
        if captured >= 0:
            # The captured stone is swapped into the cell the capturer stepped from.
            swap_to = trace[-2]
            board[swap_to] = opponent
            frozen[swap_to] = frozen[captured]
            if kings[1 - mover] == captured:
                kings[1 - mover] = swap_to
            captured_last = ((captured % SIZE, captured // SIZE, 1 - mover),)
        board[end] = own
        frozen[end] = size
        moved_king = kings[mover] == start
        if moved_king:
            kings[mover] = end
        echo_path = () if move.is_echo or captured >= 0 or moved_king else move.path
        king_captured = captured >= 0 and captured == self.kings[1 - mover]
        state = DiffusionState(
            board=bytes(board),
            frozen=bytes(frozen),
            kings=(kings[0], kings[1]),
            to_move=mover,
            ply=self.ply + 1,
            last_move=move,
            turn_number=self.turn_number,
            moves_left=self.moves_left - 1,
            moved=(self.moved & ~(1 << start)) | (1 << end),
            echo_path=echo_path,
            turn_moves=(*self.turn_moves, move),
            turn_paths=(*self.turn_paths, tuple(_point(cell) for cell in trace)),
            previous_turn_moves=self.previous_turn_moves,
            previous_turn_paths=self.previous_turn_paths,
            turn_captures=(*self.turn_captures, captured_last),
            previous_turn_captures=self.previous_turn_captures,
            result=Outcome(mover, KING_CAPTURED) if king_captured else None,
        )
        if king_captured:
            return state
        if state.moves_left == 0 or not state._has_legal_move():
            return state._next_turn()
        return state

    def _next_turn(self) -> DiffusionState:
        """End the current turn: freeze the group sizes for the other player's turn."""
        turn_number = self.turn_number + 1
        state = replace(
            self,
            frozen=group_sizes(self.board)[0],
            to_move=1 - self.to_move,
            turn_number=turn_number,
            moves_left=_turn_length(turn_number),
            moved=0,
            echo_path=(),
            turn_moves=(),
            turn_paths=(),
            previous_turn_moves=self.turn_moves,
            previous_turn_paths=self.turn_paths,
            turn_captures=(),
            previous_turn_captures=self.turn_captures,
        )
        return state._with_result(state._judge_turn_start())

    def _with_result(self, result: Outcome | None) -> DiffusionState:
        return self if result is None else replace(self, result=result)

    def _judge_turn_start(self) -> Outcome | None:
        """The outcome when the game ends as this turn starts, else None."""
        if self.turns_completed(0) >= TURN_LIMIT and self.turns_completed(1) >= TURN_LIMIT:
            return self._by_groups(f"{TURN_LIMIT} turns each")
        if not self._has_legal_move():
            return self._by_groups(f"{_COLOUR_NAMES[self.to_move]} has no legal move")
        return None

    def _by_groups(self, why: str) -> Outcome:
        """The outcome decided by group counts: fewer groups wins, equal counts draw."""
        white, black = group_sizes(self.board)[1]
        if white == black:
            return Outcome(None, f"{why}, and both have {white} group{'s' if white != 1 else ''}")
        winner = 0 if white < black else 1
        fewer, more = sorted((white, black))
        return Outcome(
            winner, f"{why}, and {_COLOUR_NAMES[winner]} has fewer groups, {fewer} to {more}"
        )

    def outcome(self) -> Outcome | None:
        return self.result

    # --- text forms ---

    def encode(self) -> str:
        stones = [cell for cell, value in enumerate(self.board) if value]
        fields = [
            "1",
            str(self.turn_number),
            str(self.to_move),
            str(self.ply),
            str(self.moves_left),
            self.board.translate(_BOARD_LETTERS).decode(),
            ",".join(str(self.frozen[cell]) for cell in stones),
            ",".join("-" if cell < 0 else _name(cell) for cell in self.kings),
            ",".join(_name(cell) for cell in _bits(self.moved)),
            "-".join(_name(cell) for cell in self.echo_path),
            "" if self.last_move is None else self.format_move(self.last_move),
            " ".join(self.format_move(move) for move in self.turn_moves),
            " ".join(_path_text(path) for path in self.turn_paths),
            " ".join(self.format_move(move) for move in self.previous_turn_moves),
            " ".join(_path_text(path) for path in self.previous_turn_paths),
            " ".join(_captures_text(c) for c in self.turn_captures),
            " ".join(_captures_text(c) for c in self.previous_turn_captures),
            "k" if self.result is not None and self.result.reason == KING_CAPTURED else "",
        ]
        return ";".join(fields)

    def diagram(self) -> str:
        letters = ".wb"
        cells = [
            [letters[self.board[_cell(col, row)]] for col in range(SIZE)] for row in range(SIZE)
        ]
        for seat, cell in enumerate(self.kings):
            if cell >= 0:
                cells[cell // SIZE][cell % SIZE] = "WB"[seat]
        lines = [diagram_grid(cells)]
        lines.append(
            f"groups: White {self.group_count(0)}, Black {self.group_count(1)} "
            "(w/b stones, W/B kings)"
        )
        if self.result is None:
            lines.append(
                f"turn {self.turn_number}: {_COLOUR_NAMES[self.to_move]} to move, "
                f"{self.moves_left} move{'s' if self.moves_left > 1 else ''} left"
            )
        return "\n".join(lines)


_BOARD_LETTERS = bytes.maketrans(b"\x00\x01\x02", b".wb")


def _capture_refusal(target: int, target_size: int, size: int) -> str:
    """Why a stone of frozen `size` may not capture the stone on `target`, or ""."""
    if target_size >= size:
        return ""
    return (
        f"cannot capture {_name(target)}: its group ({target_size}) is smaller than yours ({size})"
    )


def _paths_from(board: bytes, frozen: bytes, start: int) -> list[tuple[int, ...]]:
    """One canonical shortest path to every cell the stone on `start` can reach.

    A breadth-first search bounded by the stone's frozen size. Neighbours are expanded
    in the order N, E, S, W from a queue kept in discovery order, so the first path to
    reach a cell is the shortest one whose directions come first in that order.
    """
    size = frozen[start]
    opponent = 3 - board[start]
    seen = {start}
    frontier: list[tuple[int, ...]] = [(start,)]
    found: list[tuple[int, ...]] = []
    for _ in range(size - 1):
        grown: list[tuple[int, ...]] = []
        for path in frontier:
            for near in _NEIGHBOURS[path[-1]]:
                if near in seen:
                    continue
                occupant = board[near]
                if occupant == EMPTY:
                    seen.add(near)
                    # Tuple concatenation is measurably faster here than unpacking.
                    grown.append(path + (near,))  # noqa: RUF005
                elif occupant == opponent and frozen[near] >= size:
                    seen.add(near)
                    found.append(path + (near,))  # noqa: RUF005
        if not grown:
            break
        found += grown
        frontier = grown
    return found


def _bits(mask: int) -> Iterator[int]:
    """Yield the index of every set bit, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _turn_length(turn_number: int) -> int:
    """The number of moves in turn `turn_number`."""
    return FIRST_TURN_MOVES if turn_number == 1 else TURN_MOVES


def _path_text(path: tuple[tuple[int, int], ...]) -> str:
    return "-".join(format_point(col, row) for col, row in path)


def _parse_path(cleaned: str, original: str) -> tuple[int, ...]:
    """The cell indices of a path written like `k9-k10-l10`; raise `InvalidMoveError`."""
    parts = _SEPARATOR.split(cleaned)
    if len(parts) < 2 or not all(parts):
        raise InvalidMoveError(
            f"{original.strip()!r} is not a Diffusion Chess move: write the path of a stone "
            "from its cell, like k9-k10-l10, or echo"
        )
    path = []
    for index, part in enumerate(parts):
        match = _POINT.fullmatch(part)
        if index and match is not None and match.group(1) != "i":
            col, row = COLUMN_LETTERS.index(match.group(1)), int(match.group(2)) - 1
            if col >= SIZE or not 0 <= row < SIZE:
                raise InvalidMoveError(
                    f"the path leaves the board at {part} ({board_extent(SIZE, SIZE)})"
                )
        col, row = parse_point(part, SIZE, SIZE)
        path.append(_cell(col, row))
    return tuple(path)


def _captures_text(captures: tuple[tuple[int, int, int], ...]) -> str:
    """One move's captures for `encode()`: `k10:1` (cell and seat), or `-` for none."""
    return ",".join(f"{format_point(c, r)}:{seat}" for c, r, seat in captures) or "-"


def _parse_captures(text: str) -> tuple[tuple[int, int, int], ...]:
    if text == "-":
        return ()
    captures = []
    for item in text.split(","):
        name, seat = item.split(":")
        if seat not in ("0", "1"):
            raise ValueError("bad seat")
        captures.append((*parse_point(name, SIZE, SIZE), int(seat)))
    return tuple(captures)


def _parse_recorded(text: str) -> DiffusionMove:
    """A move's notation read back without checking legality (for stored moves)."""
    if text == "echo":
        return ECHO
    return DiffusionMove(_parse_path(text, text))


def _parse_cells(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(parse_point(part, SIZE, SIZE) for part in text.split("-"))


class DiffusionGame(Game[DiffusionState]):
    """The rules and metadata of Diffusion Chess."""

    name = "diffusion"
    title = "Diffusion Chess"
    aliases = ("diffusion chess", "diffusionchess")
    colours = ("White", "Black")
    notation = (
        "the path of a stone, start first, one orthogonal step at a time, like k9-k10-l10 "
        "(end on an opponent stone to capture it); or echo"
    )
    summary = (
        "19×19 board; each player's 41 stones start as a diamond with the king in its "
        "centre. A turn is five moves (White's first turn four). Group sizes are recorded "
        "at the start of each turn and used all turn. A move takes a stone that has not "
        "moved this turn along 1 to (its group size − 1) orthogonal steps through empty "
        "cells, never visiting a cell twice; a lone stone is stranded. The last step may "
        "capture an opponent stone whose group was at least as large as yours: the two "
        "swap places. After a move that captured nothing and was not the king's, echo "
        "makes the same stone repeat those steps, stopping early at the edge, at a stone "
        "it cannot capture, or after a capture. Capturing the king wins; otherwise the "
        "game ends after 32 turns each, or when the player to move cannot move, and "
        "fewer groups wins (equal counts draw)."
    )
    quick_moves = ("echo",)

    def initial_state(self, options: Options) -> DiffusionState:
        white, black = _diamond(WHITE_CENTRE), _diamond(BLACK_CENTRE)
        return self._turn_start(
            white, black, _diamond_king(WHITE_CENTRE), _diamond_king(BLACK_CENTRE), 1
        )

    def position(
        self,
        white: Iterable[str],
        black: Iterable[str],
        *,
        white_king: str | None = None,
        black_king: str | None = None,
        to_move: int = 0,
        turn_number: int | None = None,
    ) -> DiffusionState:
        """A position at the start of a turn with stones on the named cells (for tests).

        A king's cell may be listed among its side's stones or not; kings may be left out.
        `turn_number` defaults to 3 for White and 2 for Black (full five-move turns). If
        the player to move has no legal move, the game is already over.
        """
        if turn_number is None:
            turn_number = 3 if to_move == 0 else 2
        if turn_number < 1 or (turn_number - 1) % 2 != to_move:
            raise ValueError(f"turn {turn_number} is not a turn of seat {to_move}")
        white_cells = {_cell(*parse_point(name, SIZE, SIZE)) for name in white}
        black_cells = {_cell(*parse_point(name, SIZE, SIZE)) for name in black}
        kings = [-1, -1]
        for seat, name, cells in ((0, white_king, white_cells), (1, black_king, black_cells)):
            if name is not None:
                kings[seat] = _cell(*parse_point(name, SIZE, SIZE))
                cells.add(kings[seat])
        if white_cells & black_cells:
            raise ValueError("a cell cannot hold two stones")
        return self._turn_start(
            sorted(white_cells), sorted(black_cells), kings[0], kings[1], turn_number
        )

    def _turn_start(
        self, white: list[int], black: list[int], white_king: int, black_king: int, turn_number: int
    ) -> DiffusionState:
        board = bytearray(CELLS)
        for cell in white:
            board[cell] = 1
        for cell in black:
            board[cell] = 2
        state = DiffusionState(
            board=bytes(board),
            frozen=group_sizes(bytes(board))[0],
            kings=(white_king, black_king),
            to_move=(turn_number - 1) % 2,
            ply=0,
            last_move=None,
            turn_number=turn_number,
            moves_left=_turn_length(turn_number),
            moved=0,
            echo_path=(),
            turn_moves=(),
            turn_paths=(),
            previous_turn_moves=(),
            previous_turn_paths=(),
            turn_captures=(),
            previous_turn_captures=(),
            result=None,
        )
        return state._with_result(state._judge_turn_start())

    def decode(self, text: str) -> DiffusionState:
        try:
            fields = text.split(";")
            if len(fields) != 18 or fields[0] != "1":
                raise ValueError("bad header")
            turn_number, to_move, ply, moves_left = (int(f) for f in fields[1:5])
            if (
                turn_number < 1
                or to_move != (turn_number - 1) % 2
                or ply < 0
                or not 0 <= moves_left <= TURN_MOVES
            ):
                raise ValueError("bad turn")
            letters = fields[5]
            if len(letters) != CELLS or set(letters) - set(".wb"):
                raise ValueError("bad board")
            board = letters.encode().translate(bytes.maketrans(b".wb", b"\x00\x01\x02"))
            stones = [cell for cell, value in enumerate(board) if value]
            sizes = [int(s) for s in fields[6].split(",")] if fields[6] else []
            if len(sizes) != len(stones) or any(not 1 <= s <= CELLS for s in sizes):
                raise ValueError("bad sizes")
            frozen = bytearray(CELLS)
            for cell, size in zip(stones, sizes, strict=True):
                frozen[cell] = size
            king_names = fields[7].split(",")
            if len(king_names) != 2:
                raise ValueError("bad kings")
            kings = tuple(
                -1 if name == "-" else _cell(*parse_point(name, SIZE, SIZE)) for name in king_names
            )
            for seat, cell in enumerate(kings):
                if cell >= 0 and board[cell] != seat + 1:
                    raise ValueError("a king is not on its side's stone")
            moved = 0
            for name in filter(None, fields[8].split(",")):
                moved |= 1 << _cell(*parse_point(name, SIZE, SIZE))
            echo_path = _parse_recorded(fields[9]).path if fields[9] else ()
            if echo_path and (
                board[echo_path[-1]] != to_move + 1
                or any(b not in _NEIGHBOURS[a] for a, b in pairwise(echo_path))
            ):
                raise ValueError("bad echo path")
            last_move = _parse_recorded(fields[10]) if fields[10] else None
            turn_moves = tuple(_parse_recorded(t) for t in fields[11].split())
            turn_paths = tuple(_parse_cells(t) for t in fields[12].split())
            previous_moves = tuple(_parse_recorded(t) for t in fields[13].split())
            previous_paths = tuple(_parse_cells(t) for t in fields[14].split())
            turn_captures = tuple(_parse_captures(t) for t in fields[15].split())
            previous_captures = tuple(_parse_captures(t) for t in fields[16].split())
            if not (
                len(turn_moves) == len(turn_paths) == len(turn_captures)
                and len(previous_moves) == len(previous_paths) == len(previous_captures)
            ):
                raise ValueError("bad turn record")
            if fields[17] not in ("", "k"):
                raise ValueError("bad result")
        except (ValueError, IndexError) as exc:
            raise DecodeError(f"not an encoded Diffusion Chess state: {exc}") from None
        state = DiffusionState(
            board=board,
            frozen=bytes(frozen),
            kings=(kings[0], kings[1]),
            to_move=to_move,
            ply=ply,
            last_move=last_move,
            turn_number=turn_number,
            moves_left=moves_left,
            moved=moved,
            echo_path=echo_path,
            turn_moves=turn_moves,
            turn_paths=turn_paths,
            previous_turn_moves=previous_moves,
            previous_turn_paths=previous_paths,
            turn_captures=turn_captures,
            previous_turn_captures=previous_captures,
            result=None,
        )
        if fields[17] == "k":
            return state._with_result(Outcome(to_move, KING_CAPTURED))
        if not turn_moves:
            return state._with_result(state._judge_turn_start())
        return state

    def max_plies(self, options: Options) -> int | None:
        return FIRST_TURN_MOVES + TURN_MOVES * (2 * TURN_LIMIT - 1)


def _diamond_king(centre: str) -> int:
    return _cell(*parse_point(centre, SIZE, SIZE))


DIFFUSION = DiffusionGame()
register(DIFFUSION)
