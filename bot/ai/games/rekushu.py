"""Knowledge of Rekushu: claim the largest rectangles, prepare new ones (double threats
first), spoil the opponent's, and judge positions by tiles, by the claim the player to move
has and by what the opponent's threats keep whichever one is spoiled."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

from bot.ai.bits import set_bits
from bot.ai.policy import Move, Policy, State, logistic, register_policy
from rules.rekushu import Rectangle, RekushuMove, RekushuState, mirror_cell

CLAIM_WEIGHT = 0.6
"""What the largest claim the player to move has is worth, per tile, in an evaluation."""
EXISTING_CLAIMS_TRIED = 3
"""Claims of rectangles already on the board offered per node, each with a few placements."""
SPOILERS_FIRST = 4
"""Cells spoiling the opponent's largest plan that are tried before one's own plans."""
ENDGAME_PLACEMENTS = 16
"""With at most this many placements left, every move is checked for an immediate win."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A rectangle a player has three or four corners of, with nothing in the way."""

    area: int
    rect: Rectangle
    missing: int
    """The bit of the empty fourth corner, or -1 when all four corners are there."""


class _Board:
    """The rows and columns of one position, for rectangle searches."""

    def __init__(self, state: RekushuState) -> None:
        n = self.n = state.size
        self.occupied = state.black | state.white
        self.claimed = state.black_tiles | state.white_tiles
        self.row_stones: list[list[int]] = [[] for _ in range(n)]
        self.column_stones: list[list[int]] = [[] for _ in range(n)]
        for p in set_bits(self.occupied):
            self.row_stones[p // n].append(p % n)
            self.column_stones[p % n].append(p // n)
        self.stack = [sum(1 << (j * n) for j in range(k + 1)) for k in range(n)]

    def closed(self, rect: Rectangle) -> int:
        """The intersections on the edges of `rect` and inside it."""
        span = (1 << (rect.right - rect.left + 1)) - 1
        return (span * self.stack[rect.top - rect.bottom]) << (rect.bottom * self.n + rect.left)

    def tiles(self, rect: Rectangle) -> int:
        """The tiles inside `rect`."""
        span = (1 << (rect.right - rect.left)) - 1
        return (span * self.stack[rect.top - rect.bottom - 1]) << (rect.bottom * self.n + rect.left)

    def neighbours(self, x: int, y: int) -> tuple[list[int], list[int]]:
        """The columns of the nearest stones left and right of (x, y) in its row, and
        the rows of the nearest stones below and above it in its column."""
        return _nearest(self.row_stones[y], x), _nearest(self.column_stones[x], y)

    def clear(self, rect: Rectangle, corners: int) -> bool:
        """True when only `corners` may hold stones in `rect` and no tile in it is claimed."""
        stones = self.occupied & self.closed(rect)
        return stones & ~corners == 0 and not self.claimed & self.tiles(rect)

    def corner_bits(self, rect: Rectangle) -> int:
        """The four corner intersections of `rect`."""
        n = self.n
        return (
            1 << (rect.bottom * n + rect.left)
            | 1 << (rect.bottom * n + rect.right)
            | 1 << (rect.top * n + rect.left)
            | 1 << (rect.top * n + rect.right)
        )


def _nearest(line: list[int], at: int) -> list[int]:
    """The nearest entries of the sorted `line` below and above `at` (not `at` itself)."""
    i = bisect_left(line, at)
    found = []
    if i > 0:
        found.append(line[i - 1])
    j = i + 1 if i < len(line) and line[i] == at else i
    if j < len(line):
        found.append(line[j])
    return found


def plans(board: _Board, own: int) -> list[Plan]:
    """Every rectangle `own`'s player has all four corners, or three and an empty fourth, of.

    As in the engine, the corner diagonal to the fourth is the stone whose nearest
    stones along its row and column are the two others.
    """
    n = board.n
    found: dict[Rectangle, Plan] = {}
    for p in set_bits(own):
        x, y = p % n, p // n
        columns, rows = board.neighbours(x, y)
        for x2 in columns:
            if not own >> (y * n + x2) & 1:
                continue
            for y2 in rows:
                if not own >> (y2 * n + x) & 1:
                    continue
                fourth = y2 * n + x2
                if own >> fourth & 1:
                    missing = -1
                elif board.occupied >> fourth & 1:
                    continue
                else:
                    missing = fourth
                rect = Rectangle.spanning((x, y), (x2, y2))
                if rect in found or not board.clear(rect, board.corner_bits(rect)):
                    continue
                found[rect] = Plan(rect.area, rect, missing)
    return sorted(found.values(), key=lambda plan: -plan.area)


def new_plans(board: _Board, own: int, placements: Iterable[int]) -> dict[int, list[Rectangle]]:
    """Per placement bit: the clear rectangles it would give three corners of, the fourth
    (across from it) empty: a threat to claim next turn."""
    n = board.n
    found: dict[int, list[Rectangle]] = {}
    # A placement needs one's stones along its row and its column to make a corner.
    stones = set_bits(own)
    own_rows = {q // n for q in stones}
    own_columns = {q % n for q in stones}
    for p in placements:
        x, y = p % n, p // n
        if y not in own_rows or x not in own_columns:
            continue
        columns, rows = board.neighbours(x, y)
        for x2 in columns:
            if not own >> (y * n + x2) & 1:
                continue
            for y2 in rows:
                if not own >> (y2 * n + x) & 1 or board.occupied >> (y2 * n + x2) & 1:
                    continue
                rect = Rectangle.spanning((x, y), (x2, y2))
                if board.clear(rect, board.corner_bits(rect)):
                    found.setdefault(p, []).append(rect)
    return found


Threat = tuple[int, int]
"""A rectangle a player could claim on their next turn: its area, and the free
intersections on which one opponent stone spoils it."""


def sure_gain(threats: list[Threat]) -> int:
    """The largest area the threatening player claims next turn whichever single
    intersection the opponent places on: a double threat counts, a lone one does not."""
    if not threats:
        return 0
    area, cells = max(threats)
    for c in set_bits(cells):
        bit = 1 << c
        area = min(area, max((a for a, spoil in threats if not spoil & bit), default=0))
        if not area:
            break
    return area


def threats_of(board: _Board, stones: int, forbidden: int) -> list[Threat]:
    """The threats of the player with `stones` (plans of three or four corners), with
    `forbidden` (a bit set: the spoiler's banned mirror cell) taken out of the spoiling cells."""
    free = ~board.occupied & ~forbidden
    return [(plan.area, board.closed(plan.rect) & free) for plan in plans(board, stones)]


class RekushuPolicy(Policy):
    """Claims first, then spoiling the opponent's rectangles and preparing new ones; new
    positions of the tree are judged by the evaluation alone."""

    # Quick games of random placements mostly spoil rectangles at random: judged at once,
    # a position keeps what its threats and claims are worth (34 of 40 games won at 1 s
    # against the old player, about 48 % with 12 quick moves; see the benchmarks page).
    playout_depth = 0
    widening = (2.0, 0.5)
    complete = False

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        assert isinstance(state, RekushuState)
        n = state.size
        placements = [y * n + x for x, y in state.legal_placements()]
        rng.shuffle(placements)
        board = _Board(state)
        own, other = (state.white, state.black) if state.to_move else (state.black, state.white)
        preparing = _preparing(state, board, own, placements)
        spoiling = _spoilers(board, threats_of(board, other, 0), set(placements))
        helpers = list(dict.fromkeys(spoiling[:3] + preparing[:3] + placements[:2]))
        claims = [move for _, move in sorted(_claims(state, board, helpers), key=lambda c: -c[0])]
        # The cells that spoil the most of the opponent's threats come first, then the
        # placements that make threats of one's own, double threats first.
        quiet = dict.fromkeys(spoiling[:SPOILERS_FIRST] + preparing + spoiling + placements)
        return claims + [RekushuMove(p % n, p // n) for p in quiet]

    def evaluate(self, state: State) -> float:
        assert isinstance(state, RekushuState)
        black, white = state.tile_counts
        existing, completions = state.claim_options()
        claim = max(
            [rect.area for rect in existing]
            + [rect.area for rects in completions.values() for rect in rects],
            default=0,
        )
        # The opponent's threats: the mover either claims and lets the largest one be
        # claimed next, or spoils and still loses what a double threat keeps.
        board = _Board(state)
        forbidden = state.forbidden_mirror_cell()
        banned = 0 if forbidden is None else 1 << (forbidden[1] * state.size + forbidden[0])
        threats = threats_of(board, state.black if state.to_move else state.white, banned)
        largest = max((area for area, _ in threats), default=0)
        gain = max(claim - largest, -sure_gain(threats))
        score = black - white + CLAIM_WEIGHT * gain * (-1 if state.to_move else 1)
        scale = (state.size - 1) ** 2 / 36
        return logistic(score / scale)

    def winning_candidates(self, state: State) -> Iterable[Move]:
        # The game ends only when the next player cannot place: near the very end.
        assert isinstance(state, RekushuState)
        if state.placement_bits().bit_count() <= ENDGAME_PLACEMENTS:
            return state.legal_moves()
        return ()

    def may_end_within(self, state: State, plies: int) -> bool:
        # The game ends when the next player cannot place. A ply usually takes one
        # placement away (a large claim may take more, which `winning_candidates()`
        # does not look for either): until the end is near, an exact search has
        # nothing to find, and it took a third of each move's time.
        assert isinstance(state, RekushuState)
        return state.placement_bits().bit_count() <= ENDGAME_PLACEMENTS + plies


def _spoilers(board: _Board, threats: list[Threat], legal: set[int]) -> list[int]:
    """Legal cells that spoil the opponent's threats (a stone inside or on the edge), the
    cell after which the opponent's largest remaining threat is smallest first."""
    cells = 0
    for _, spoil in threats:
        cells |= spoil
    left = {
        c: max((area for area, spoil in threats if not spoil >> c & 1), default=0)
        for c in set_bits(cells)
        if c in legal
    }
    return sorted(left, key=left.__getitem__)


def _preparing(state: RekushuState, board: _Board, own: int, placements: list[int]) -> list[int]:
    """Placements that give three corners of a clear rectangle, those making a threat the
    opponent cannot spoil with one stone (a double threat, or one only the banned mirror
    cell would spoil) first, then the largest."""
    n = state.size
    kind = state.mirror_types[1 - state.to_move]
    standing = threats_of(board, own, 0)
    ranked: dict[int, tuple[int, int]] = {}
    for p, rects in new_plans(board, own, placements).items():
        banned = 0
        if kind is not None:
            x, y = mirror_cell(p % n, p // n, n, kind)
            banned = 1 << (y * n + x)
        free = ~board.occupied & ~(1 << p) & ~banned
        threats = [(area, spoil & ~banned) for area, spoil in standing if not spoil >> p & 1]
        threats += [(rect.area, board.closed(rect) & free) for rect in rects]
        ranked[p] = (sure_gain(threats), max(rect.area for rect in rects))
    return sorted(ranked, key=lambda p: ranked[p], reverse=True)


def _claims(
    state: RekushuState, board: _Board, helpers: list[int]
) -> list[tuple[int, RekushuMove]]:
    """(area, move) for every claim completed by a placement, and for the largest
    rectangles ready on the board, each with a few useful placements outside it."""
    n = state.size
    existing, completions = state.claim_options()
    claims = [
        (rect.area, RekushuMove(x, y, rect))
        for (x, y), rects in completions.items()
        for rect in rects
    ]
    for rect in sorted(existing, key=lambda r: -r.area)[:EXISTING_CLAIMS_TRIED]:
        inside = board.closed(rect)
        claims.extend(
            (rect.area, RekushuMove(p % n, p // n, rect)) for p in helpers if not inside >> p & 1
        )
    return claims


register_policy("rekushu", RekushuPolicy)
