"""Groups' rules on bare bit masks, for playouts and move scoring: the engine's moves in
the engine's order and the engine's judgement of a finished game, without building and
checking a state per move. The tests hold both to the engine over random games.

A move is (origin, target), origin -1 for a drop.
"""

from __future__ import annotations

from bot.ai.bits import set_bits
from rules.groups import DROP_AREA, MOVE_LIMIT, REPETITIONS, SIZE, STONES, is_connected

CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
NOT_COL_A = sum(1 << (r * SIZE) for r in range(SIZE)) ^ FULL
NOT_COL_H = sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE)) ^ FULL
DROP_MASK = sum(1 << cell for cell in DROP_AREA)
ENGINE_DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""(column, row) steps in the order in which the engine lists a stone's moves."""

Move = tuple[int, int]


def ray_table(
    directions: tuple[tuple[int, int], ...],
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, per direction on the board: (neighbour, cell beyond it or -1)."""
    table = []
    for cell in range(CELLS):
        col, row = cell % SIZE, cell // SIZE
        rays = []
        for dc, dr in directions:
            if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE:
                c2, r2 = col + 2 * dc, row + 2 * dr
                beyond = r2 * SIZE + c2 if 0 <= c2 < SIZE and 0 <= r2 < SIZE else -1
                rays.append(((row + dr) * SIZE + col + dc, beyond))
        table.append(tuple(rays))
    return tuple(table)


ENGINE_RAYS = ray_table(ENGINE_DIRECTIONS)


def legal_moves(own: int, occupied: int) -> list[Move]:
    """Every legal move of the player whose stones are `own`, in the engine's order."""
    if own.bit_count() < STONES:
        return [(-1, cell) for cell in DROP_AREA if not occupied >> cell & 1]
    moves = []
    for cell in set_bits(own):
        for near, beyond in ENGINE_RAYS[cell]:
            if not occupied >> near & 1:
                moves.append((cell, near))
            elif beyond >= 0 and not occupied >> beyond & 1:
                moves.append((cell, beyond))
    return moves


def has_move(own: int, occupied: int) -> bool:
    """True when the player whose stones are `own` has a legal move."""
    if own.bit_count() < STONES:
        return bool(DROP_MASK & ~occupied)
    row = own | (own & NOT_COL_H) << 1 | (own & NOT_COL_A) >> 1
    if (row | row << SIZE | row >> SIZE) & ~occupied & FULL:
        return True
    # Every neighbour is taken: only a jump can move a stone.
    for cell in set_bits(own):
        for _, beyond in ENGINE_RAYS[cell]:
            if beyond >= 0 and not occupied >> beyond & 1:
                return True
    return False


def position_key(white: int, black: int, to_move: int) -> int:
    """The engine's key of a movement-phase position, for repetitions."""
    return white | black << CELLS | to_move << 2 * CELLS


def judge(white: int, black: int, to_move: int, ply: int, history: list[int]) -> float | None:
    """Seat 0's reward when the move that left `to_move` to play ended the game, else
    None; the engine's checks in the engine's order (`history` holds the position keys
    so far, the new position's included when both players have all their stones)."""
    mover = 1 - to_move
    mover_bits = black if mover else white
    if mover_bits.bit_count() == STONES and is_connected(mover_bits):
        return 1.0 - mover
    if history and history.count(history[-1]) >= REPETITIONS:
        return 0.5
    if ply >= MOVE_LIMIT:
        return 0.5
    if not has_move(white if mover else black, white | black):
        return 1.0 - mover
    return None
