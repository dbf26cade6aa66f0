"""Rekushu (John Herr, 2006): place stones on intersections and claim rectangles of tiles.

The board has N × N intersections and (N − 1) × (N − 1) tiles. Stones and tiles are
kept as bitboards in one layout: intersection (x, y) is bit y·N + x, and tile (x, y),
whose lower-left corner is intersection (x, y), is bit y·N + x too (x, y < N − 1).
With that layout the intersections touching a set of tiles are the set shifted by
0, 1, N and N + 1, and a rectangle's mask is one row span times a column pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

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
from rules.bits import set_bits
from rules.registry import register
from rules.squares import COLUMN_LETTERS, format_point, parse_point

SIZES = (8, 12, 14, 18, 20)
"""The allowed numbers of intersections per side (all even, so mirrors never coincide)."""
DEFAULT_SIZE = 20

MIRROR_TYPES = ("h", "v", "r")
"""Mirror types: h reflects left–right, v top–bottom, r rotates by 180°."""
MIRROR_WORDS = {"h": "left–right", "v": "top–bottom", "r": "by a half turn"}

_MOVE = re.compile(r"([a-z]\d{1,2})(?:\s*([a-z]\d{1,2})\s*-\s*([a-z]\d{1,2}))?")
_RECTANGLE_ONLY = re.compile(r"[a-z]\d{1,2}\s*-\s*[a-z]\d{1,2}")


@dataclass(frozen=True, slots=True)
class Rectangle:
    """A rectangle of tiles named by its corner intersections (left < right, bottom < top)."""

    left: int
    """Column of the left edge."""
    bottom: int
    """Row of the bottom edge."""
    right: int
    """Column of the right edge."""
    top: int
    """Row of the top edge."""

    @classmethod
    def spanning(cls, a: tuple[int, int], b: tuple[int, int]) -> Rectangle:
        """The rectangle with opposite corners `a` and `b`, given in any order."""
        return cls(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))

    def corners(self) -> tuple[tuple[int, int], ...]:
        """The four corners: lower-left, lower-right, upper-left, upper-right."""
        return (
            (self.left, self.bottom),
            (self.right, self.bottom),
            (self.left, self.top),
            (self.right, self.top),
        )

    def contains(self, x: int, y: int) -> bool:
        """True when intersection (x, y) lies on the rectangle's edges or inside it."""
        return self.left <= x <= self.right and self.bottom <= y <= self.top

    @property
    def area(self) -> int:
        """The number of tiles inside."""
        return (self.right - self.left) * (self.top - self.bottom)


@dataclass(frozen=True, slots=True)
class RekushuMove:
    """A placement on intersection (x, y), with the rectangle claimed afterwards, if any."""

    x: int
    """Column of the placed stone (0 = a)."""
    y: int
    """Row of the placed stone (0 = row 1)."""
    claim: Rectangle | None = None
    """The rectangle claimed in the same turn, or None."""


class _Geometry:
    """Precomputed masks and tables for one board size."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.row = (1 << n) - 1
        # stack[k] has one bit at the start of each of k + 1 consecutive rows.
        self.stack = [sum(1 << (j * n) for j in range(k + 1)) for k in range(n)]
        self.all_tiles = ((1 << (n - 1)) - 1) * self.stack[n - 2]
        self.placements = tuple(RekushuMove(p % n, p // n) for p in range(n * n))

    def closed_mask(self, r: Rectangle) -> int:
        """The intersections on the edges of `r` and inside it."""
        span = (1 << (r.right - r.left + 1)) - 1
        return (span * self.stack[r.top - r.bottom]) << (r.bottom * self.n + r.left)

    def tile_mask(self, r: Rectangle) -> int:
        """The tiles inside `r`."""
        span = (1 << (r.right - r.left)) - 1
        return (span * self.stack[r.top - r.bottom - 1]) << (r.bottom * self.n + r.left)

    def corner_mask(self, r: Rectangle) -> int:
        """The four corner intersections of `r`."""
        n = self.n
        return (
            1 << (r.bottom * n + r.left)
            | 1 << (r.bottom * n + r.right)
            | 1 << (r.top * n + r.left)
            | 1 << (r.top * n + r.right)
        )

    def touching(self, tiles: int) -> int:
        """The intersections that are a corner of at least one of `tiles`."""
        n = self.n
        return tiles | tiles << 1 | tiles << n | tiles << (n + 1)

    def transpose(self, bits: int) -> int:
        """The same intersections with x and y swapped (columns become rows)."""
        n = self.n
        return sum(1 << ((p % n) * n + p // n) for p in _indices(bits))


_GEOMETRY = {n: _Geometry(n) for n in SIZES}


def _indices(bits: int) -> list[int]:
    """The index of every set bit, lowest first."""
    if bits.bit_count() > SPARSE_BITS:
        return [i for i, digit in enumerate(reversed(bin(bits))) if digit == "1"]
    return set_bits(bits)


SPARSE_BITS = 60
"""Up to this many set bits, `_indices()` peels them off one by one (quicker than
reading the binary string, which costs the same however few are set)."""


def _seat_at(index: int, black: int, white: int) -> int | None:
    """0 when bit `index` is set in `black`, 1 when in `white`, else None."""
    if black >> index & 1:
        return 0
    if white >> index & 1:
        return 1
    return None


def mirror_cell(x: int, y: int, n: int, kind: str) -> tuple[int, int]:
    """The mirror of (x, y) of type `kind` on a board with `n` intersections per side."""
    if kind == "h":
        return n - 1 - x, y
    if kind == "v":
        return x, n - 1 - y
    return n - 1 - x, n - 1 - y


def _names(names: list[str], limit: int = 3) -> str:
    """Join names as a phrase: "d7", "d7 and e7", "d7, e7, f7 and 2 more"."""
    if len(names) > limit:
        return f"{', '.join(names[:limit])} and {len(names) - limit} more"
    if len(names) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]}"
    return names[0]


@dataclass(frozen=True, slots=True)
class RekushuState(GameState[RekushuMove]):
    """A Rekushu position."""

    size: int
    """Intersections per side."""
    black: int
    """Bitboard of Black's stones (seat 0)."""
    white: int
    """Bitboard of White's stones (seat 1)."""
    black_tiles: int
    """Bitboard of the tiles Black has claimed."""
    white_tiles: int
    """Bitboard of the tiles White has claimed."""
    to_move: int
    ply: int
    last_move: RekushuMove | None
    """The opponent's last move; its placement is what the mirror rule reflects."""
    mirror_types: tuple[str | None, str | None]
    """Per seat, the type of the mirror move made on that player's previous turn, or None."""
    result: Outcome | None
    occupied_columns: int = field(compare=False, repr=False)
    """All stones with x and y swapped, for fast searches along a column (derived)."""

    @property
    def game(self) -> RekushuGame:
        return REKUSHU

    @property
    def options(self) -> Options:
        return {"size": self.size}

    # --- board queries (for renderers and the bot) ---

    def stone_at(self, x: int, y: int) -> int | None:
        """The seat whose stone is on intersection (x, y), or None when it is empty."""
        return _seat_at(y * self.size + x, self.black, self.white)

    def tile_owner(self, x: int, y: int) -> int | None:
        """The seat that claimed tile (x, y) (lower-left corner at (x, y)), or None."""
        return _seat_at(y * self.size + x, self.black_tiles, self.white_tiles)

    @property
    def tile_counts(self) -> tuple[int, int]:
        """The number of tiles each seat has claimed."""
        return self.black_tiles.bit_count(), self.white_tiles.bit_count()

    def last_mirror_type(self, seat: int) -> str | None:
        """The type ('h', 'v', 'r') of the mirror move `seat` made on its previous turn, or None."""
        return self.mirror_types[seat]

    def mirror_cells(self) -> dict[str, tuple[int, int]]:
        """The h, v and r mirrors of the opponent's last placement (empty before any move)."""
        last = self.last_move
        if last is None:
            return {}
        return {kind: mirror_cell(last.x, last.y, self.size, kind) for kind in MIRROR_TYPES}

    def forbidden_mirror_cell(self) -> tuple[int, int] | None:
        """The empty intersection the player to move may not use because of the mirror rule.

        None when no mirror type is banned, when that mirror cell holds a stone anyway,
        or when the game is over.
        """
        kind = self.mirror_types[self.to_move]
        last = self.last_move
        if kind is None or last is None or self.result is not None:
            return None
        x, y = mirror_cell(last.x, last.y, self.size, kind)
        return None if self.stone_at(x, y) is not None else (x, y)

    @property
    def removed_last(self) -> tuple[tuple[int, int], ...]:
        """The corner stones removed by the claim of the last move (empty if it claimed none)."""
        claim = self.claimed_rectangle_last
        return () if claim is None else claim.corners()

    @property
    def claimed_last(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The rectangle the last move claimed, as its lower-left and upper-right corners."""
        claim = self.claimed_rectangle_last
        if claim is None:
            return None
        return (claim.left, claim.bottom), (claim.right, claim.top)

    @property
    def claimed_rectangle_last(self) -> Rectangle | None:
        """The rectangle the last move claimed, or None."""
        return None if self.last_move is None else self.last_move.claim

    def stones(self, seat: int) -> list[tuple[int, int]]:
        """The (x, y) of every stone of `seat`."""
        n = self.size
        return [(p % n, p // n) for p in _indices(self.white if seat else self.black)]

    def legal_placements(self) -> list[tuple[int, int]]:
        """Every intersection the player to move may place on, lowest row first."""
        if self.result is not None:
            return []
        n = self.size
        return [(p % n, p // n) for p in _indices(self._placement_mask())]

    def placement_bits(self) -> int:
        """The intersections the player to move may place on, as bits y·N + x."""
        return 0 if self.result is not None else self._placement_mask()

    def claims_after(self, x: int, y: int) -> list[Rectangle]:
        """The rectangles the player to move could claim after placing on (x, y).

        Empty when the placement itself is not legal.
        """
        if self.result is not None or not self._placement_mask() >> (y * self.size + x) & 1:
            return []
        existing, completions = self._claim_candidates()
        claims = [rect for rect, _ in existing if not rect.contains(x, y)]
        return claims + completions.get(y * self.size + x, [])

    def claim_options(
        self,
    ) -> tuple[tuple[Rectangle, ...], dict[tuple[int, int], tuple[Rectangle, ...]]]:
        """Every claim the player to move could make this turn, in one pass (for the AI).

        Returns the rectangles claimable as the board stands (together with any legal
        placement outside them), and, per legal placement (x, y), the rectangles that
        placement would complete as their fourth corner.
        """
        if self.result is not None:
            return (), {}
        existing, completions = self._claim_candidates()
        mask, n = self._placement_mask(), self.size
        return tuple(rect for rect, _ in existing), {
            (p % n, p // n): tuple(rects) for p, rects in completions.items() if mask >> p & 1
        }

    # --- rules internals ---

    @property
    def _geometry(self) -> _Geometry:
        return _GEOMETRY[self.size]

    def _forbidden_index(self) -> int:
        """The bit index of the forbidden mirror cell for the player to move, or -1."""
        kind = self.mirror_types[self.to_move]
        last = self.last_move
        if kind is None or last is None:
            return -1
        x, y = mirror_cell(last.x, last.y, self.size, kind)
        return y * self.size + x

    def _placement_mask(self) -> int:
        """The intersections where the player to move may place a stone."""
        geometry = self._geometry
        unclaimed = geometry.all_tiles & ~(self.black_tiles | self.white_tiles)
        mask = geometry.touching(unclaimed) & ~(self.black | self.white)
        forbidden = self._forbidden_index()
        if forbidden >= 0:
            mask &= ~(1 << forbidden)
        return mask

    def _claim_candidates(self) -> tuple[list[tuple[Rectangle, int]], dict[int, list[Rectangle]]]:
        """The mover's claims now, and the claims a placement would complete as fourth corner.

        Returns (rectangle, closed mask) for every rectangle claimable as the board
        stands, and for each empty intersection the rectangles it would complete. Both
        come from the mover's stones: in a claimable rectangle a corner's nearest stones
        along its row and its column are the two adjacent corners, so each stone has at
        most four candidates and no rectangle needs to be enumerated.
        """
        geometry = self._geometry
        n, full = self.size, geometry.row
        own = self.white if self.to_move else self.black
        occupied = self.black | self.white
        claimed = self.black_tiles | self.white_tiles
        rows = [(occupied >> (y * n)) & full for y in range(n)]
        own_rows = [(own >> (y * n)) & full for y in range(n)]
        columns = [(self.occupied_columns >> (x * n)) & full for x in range(n)]
        stack = geometry.stack
        existing: list[tuple[Rectangle, int]] = []
        completions: dict[int, list[Rectangle]] = {}
        for corner in _indices(own):
            y, x = divmod(corner, n)
            row, own_row = rows[y], own_rows[y]
            xs = []
            before = row & ((1 << x) - 1)
            if before and own_row >> (before.bit_length() - 1) & 1:
                xs.append(before.bit_length() - 1)
            after = row >> (x + 1)
            if after and own_row >> (x + (after & -after).bit_length()) & 1:
                xs.append(x + (after & -after).bit_length())
            if not xs:
                continue
            column = columns[x]
            ys = []
            before = column & ((1 << y) - 1)
            if before and own_rows[before.bit_length() - 1] >> x & 1:
                ys.append(before.bit_length() - 1)
            after = column >> (y + 1)
            if after and own_rows[y + (after & -after).bit_length()] >> x & 1:
                ys.append(y + (after & -after).bit_length())
            for x2 in xs:
                for y2 in ys:
                    if own_rows[y2] >> x2 & 1:
                        if x2 < x or y2 < y:
                            continue  # a complete rectangle is taken from its lower-left corner
                        fourth = -1
                    elif rows[y2] >> x2 & 1:
                        continue
                    else:
                        fourth = y2 * n + x2
                    left, right = (x, x2) if x < x2 else (x2, x)
                    bottom, top = (y, y2) if y < y2 else (y2, y)
                    shift = bottom * n + left
                    closed = (((1 << (right - left + 1)) - 1) * stack[top - bottom]) << shift
                    corners = (
                        1 << corner | 1 << (y * n + x2) | 1 << (y2 * n + x) | 1 << (y2 * n + x2)
                    )
                    if occupied & closed != corners & occupied:
                        continue
                    if claimed & ((((1 << (right - left)) - 1) * stack[top - bottom - 1]) << shift):
                        continue
                    rect = Rectangle(left, bottom, right, top)
                    if fourth < 0:
                        existing.append((rect, closed))
                    else:
                        completions.setdefault(fourth, []).append(rect)
        return existing, completions

    # --- moves ---

    def legal_moves(self) -> Iterator[RekushuMove]:
        if self.result is not None:
            return
        n = self.size
        mask = self._placement_mask()
        placements = _indices(mask)
        table = self._geometry.placements
        for p in placements:
            yield table[p]
        existing, completions = self._claim_candidates()
        for rect, closed in existing:
            for p in _indices(mask & ~closed):
                yield RekushuMove(p % n, p // n, rect)
        for p, rects in completions.items():
            if mask >> p & 1:
                for rect in rects:
                    yield RekushuMove(p % n, p // n, rect)

    def format_move(self, move: RekushuMove) -> str:
        point = format_point(move.x, move.y)
        claim = move.claim
        if claim is None:
            return point
        return (
            f"{point} {format_point(claim.left, claim.bottom)}-"
            f"{format_point(claim.right, claim.top)}"
        )

    def parse_move(self, text: str) -> RekushuMove:
        move = _parse_notation(text, self.size)
        self._check(move)
        return move

    def _check(self, move: RekushuMove) -> None:
        """Raise `IllegalMoveError` with the reason when `move` is not legal here."""
        if self.result is not None:
            raise IllegalMoveError("the game is over")
        n = self.size
        x, y = move.x, move.y
        if not (0 <= x < n and 0 <= y < n):
            raise IllegalMoveError("that point is not on the board")
        name = format_point(x, y)
        p = y * n + x
        if (self.black | self.white) >> p & 1:
            raise IllegalMoveError(f"{name} is occupied")
        if p == self._forbidden_index():
            raise IllegalMoveError(self._mirror_refusal(name))
        if not self._placement_mask() >> p & 1:
            raise IllegalMoveError(f"every tile around {name} is already claimed")
        if move.claim is not None:
            self._check_claim(move.claim, p)

    def _mirror_refusal(self, name: str) -> str:
        """Why the forbidden mirror cell `name` may not be used."""
        kind = self.mirror_types[self.to_move]
        assert kind is not None and self.last_move is not None
        opponent = self.game.colours[1 - self.to_move]
        last = format_point(self.last_move.x, self.last_move.y)
        return (
            f"{name} mirrors {opponent}'s last placement ({last}) {MIRROR_WORDS[kind]}, "
            f"the same mirror type ({kind}) as your previous move"
        )

    def _check_claim(self, rect: Rectangle, placed: int) -> None:
        """Raise `IllegalMoveError` unless `rect` is claimable once `placed` holds a stone."""
        n, geometry = self.size, self._geometry
        if not all(0 <= v < n for v in (rect.left, rect.bottom, rect.right, rect.top)):
            raise IllegalMoveError("that rectangle is not on the board")
        if rect.left > rect.right or rect.bottom > rect.top:
            raise IllegalMoveError("a rectangle is given by its lower-left and upper-right corners")
        if rect.left == rect.right or rect.bottom == rect.top:
            raise IllegalMoveError(
                "a claimed rectangle must be at least one tile wide and one tile high"
            )
        own = (self.white if self.to_move else self.black) | 1 << placed
        occupied = self.black | self.white | 1 << placed
        opponent = self.game.colours[1 - self.to_move]
        problems = []
        for cx, cy in rect.corners():
            q = cy * n + cx
            if own >> q & 1:
                continue
            name = format_point(cx, cy)
            problems.append(
                f"{name} holds a {opponent} stone" if occupied >> q & 1 else f"{name} is empty"
            )
        if problems:
            raise IllegalMoveError(
                "the four corners of a claimed rectangle must be your stones, but "
                + _names(problems, limit=4)
            )
        intruders = _indices(occupied & geometry.closed_mask(rect) & ~geometry.corner_mask(rect))
        on_edge: list[str] = []
        inside: list[str] = []
        for q in intruders:
            qx, qy = q % n, q // n
            edge = qx in (rect.left, rect.right) or qy in (rect.bottom, rect.top)
            (on_edge if edge else inside).append(format_point(qx, qy))
        if on_edge:
            stones = "a stone on its edge" if len(on_edge) == 1 else "stones on its edges"
            raise IllegalMoveError(f"that rectangle has {stones} at {_names(on_edge)}")
        if inside:
            stones = "a stone" if len(inside) == 1 else "stones"
            raise IllegalMoveError(f"that rectangle has {stones} inside it at {_names(inside)}")
        taken = _indices((self.black_tiles | self.white_tiles) & geometry.tile_mask(rect))
        if taken:
            t = taken[0]
            tx, ty = t % n, t // n
            owner = self.game.colours[0 if self.black_tiles >> t & 1 else 1]
            more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
            raise IllegalMoveError(
                f"the tile {format_point(tx, ty)}–{format_point(tx + 1, ty + 1)} inside that "
                f"rectangle is already claimed by {owner}{more}"
            )

    def play(self, move: RekushuMove) -> RekushuState:
        self._check(move)
        n, mover = self.size, self.to_move
        p = move.y * n + move.x
        own = (self.white if mover else self.black) | 1 << p
        columns = self.occupied_columns | 1 << (move.x * n + move.y)
        tiles = self.white_tiles if mover else self.black_tiles
        if move.claim is not None:
            geometry = self._geometry
            own &= ~geometry.corner_mask(move.claim)
            for cx, cy in move.claim.corners():
                columns &= ~(1 << (cx * n + cy))
            tiles |= geometry.tile_mask(move.claim)
        kinds = list(self.mirror_types)
        kinds[mover] = self._mirror_type(move)
        black, white = (self.black, own) if mover else (own, self.white)
        black_tiles, white_tiles = (self.black_tiles, tiles) if mover else (tiles, self.white_tiles)
        state = RekushuState(
            n,
            black,
            white,
            black_tiles,
            white_tiles,
            1 - mover,
            self.ply + 1,
            move,
            (kinds[0], kinds[1]),
            None,
            columns,
        )
        return state._with_result()

    def _mirror_type(self, move: RekushuMove) -> str | None:
        """The mirror type of `move`'s placement relative to the opponent's last one."""
        for kind, cell in self.mirror_cells().items():
            if cell == (move.x, move.y):
                return kind
        return None

    def _with_result(self) -> RekushuState:
        """Return this state with `result` decided: over when the mover cannot place."""
        if self._placement_mask():
            return self
        black, white = self.tile_counts
        stuck = self.game.colours[self.to_move]
        if black == white:
            outcome = Outcome(None, f"{stuck} cannot place a stone; {black} tiles each")
        else:
            winner = 0 if black > white else 1
            outcome = Outcome(
                winner,
                f"{stuck} cannot place a stone; {self.game.colours[winner]} has more tiles, "
                f"{max(black, white)} to {min(black, white)}",
            )
        return RekushuState(
            self.size,
            self.black,
            self.white,
            self.black_tiles,
            self.white_tiles,
            self.to_move,
            self.ply,
            self.last_move,
            self.mirror_types,
            outcome,
            self.occupied_columns,
        )

    def outcome(self) -> Outcome | None:
        return self.result

    # --- text forms ---

    def encode(self) -> str:
        """Size, ply, side, the four bitboards in hex, the last move and both mirror types."""
        boards = ";".join(
            f"{bits:x}" for bits in (self.black, self.white, self.black_tiles, self.white_tiles)
        )
        last = "-" if self.last_move is None else self.format_move(self.last_move).replace(" ", "")
        kinds = "".join(kind or "-" for kind in self.mirror_types)
        return f"1;{self.size};{self.ply};{self.to_move};{boards};{last};{kinds}"

    def diagram(self) -> str:
        """Stones as B and W on the intersections; claimed tiles as b and w between them."""
        n = self.size
        label = len(str(n))
        lines = [" " * (label + 1) + " ".join(COLUMN_LETTERS[:n])]
        for y in range(n - 1, -1, -1):
            stones = " ".join(_symbol(self.stone_at(x, y), "BW") for x in range(n))
            lines.append(f"{y + 1:>{label}} {stones}")
            if y > 0:
                tiles = " ".join(
                    _symbol(self.tile_owner(x, y - 1), "bw", " ") for x in range(n - 1)
                )
                lines.append((" " * (label + 2) + tiles).rstrip())
        return "\n".join(lines)


def _symbol(seat: int | None, symbols: str, empty: str = ".") -> str:
    """The diagram character for a seat's stone or tile, or `empty`."""
    return empty if seat is None else symbols[seat]


def _parse_notation(text: str, n: int) -> RekushuMove:
    """Parse a move's notation on an `n` × `n` board, without checking legality."""
    cleaned = text.strip().lower()
    match = _MOVE.fullmatch(cleaned)
    if match is None:
        if _RECTANGLE_ONLY.fullmatch(cleaned):
            raise InvalidMoveError(
                "a move starts with the point you place on: write it before the rectangle, "
                f"like d13 {cleaned}"
            )
        raise InvalidMoveError(
            f"{text.strip()!r} is not a Rekushu move: write the point you place on, like d13, "
            "then optionally two opposite corners of a rectangle to claim, like d13 c10-f13"
        )
    point, first, second = match.groups()
    x, y = parse_point(point, n, n)
    if first is None:
        return RekushuMove(x, y)
    a, b = parse_point(first, n, n), parse_point(second, n, n)
    return RekushuMove(x, y, Rectangle.spanning(a, b))


def _bits(names: Iterable[str], n: int) -> int:
    """The bitboard of the named intersections."""
    bits = 0
    for name in names:
        x, y = parse_point(name, n, n)
        bits |= 1 << (y * n + x)
    return bits


def _tile_bits(names: Iterable[str], n: int) -> int:
    """The bitboard of tiles named by their lower-left corner (c3) or spanned by corners (c3-f6)."""
    geometry = _GEOMETRY[n]
    bits = 0
    for name in names:
        if "-" in name:
            first, second = name.split("-")
            rect = Rectangle.spanning(parse_point(first, n, n), parse_point(second, n, n))
            if rect.area == 0:
                raise ValueError(f"{name} spans no tile")
            bits |= geometry.tile_mask(rect)
        else:
            x, y = parse_point(name, n, n)
            if x == n - 1 or y == n - 1:
                raise ValueError(f"there is no tile with lower-left corner {name}")
            bits |= 1 << (y * n + x)
    return bits


def _make_state(
    n: int,
    black: int,
    white: int,
    black_tiles: int,
    white_tiles: int,
    *,
    to_move: int,
    ply: int,
    last_move: RekushuMove | None,
    mirror_types: tuple[str | None, str | None],
) -> RekushuState:
    """A state with its derived fields (column bitboard, result) filled in."""
    columns = _GEOMETRY[n].transpose(black | white)
    state = RekushuState(
        n,
        black,
        white,
        black_tiles,
        white_tiles,
        to_move,
        ply,
        last_move,
        mirror_types,
        None,
        columns,
    )
    return state._with_result()


class RekushuGame(Game[RekushuState]):
    """The rules and metadata of Rekushu."""

    name = "rekushu"
    title = "Rekushu"
    aliases = ()
    colours = ("Black", "White")
    option_specs = (
        Option(
            "size",
            DEFAULT_SIZE,
            "intersections per side of the board",
            choices=SIZES,
        ),
    )
    notation = (
        "the intersection you place on, like d13; to claim a rectangle in the same turn, "
        "add two opposite corners: d13 c10-f13"
    )
    summary = (
        "Place a stone on an empty intersection that touches at least one unclaimed tile. "
        "Then you may claim one rectangle whose four corners are your stones, with no other "
        "stone on its edges or inside and no claimed tile inside: the corner stones are "
        "removed and its tiles become yours. Mirror rule: you may not place on the "
        "left–right (h), top–bottom (v) or half-turn (r) mirror of your opponent's last "
        "placement if your previous move was a mirror move of that same type. The game "
        "ends when the player to move cannot place; more tiles wins, equal is a draw."
    )

    def initial_state(self, options: Options) -> RekushuState:
        n = int(options["size"])
        return _make_state(
            n, 0, 0, 0, 0, to_move=0, ply=0, last_move=None, mirror_types=(None, None)
        )

    def position(
        self,
        *,
        size: int = DEFAULT_SIZE,
        black: Iterable[str] = (),
        white: Iterable[str] = (),
        black_tiles: Iterable[str] = (),
        white_tiles: Iterable[str] = (),
        to_move: int = 0,
        last_placement: str | None = None,
        mirror_types: tuple[str | None, str | None] = (None, None),
        ply: int = 0,
    ) -> RekushuState:
        """A hand-made position (for tests, the renderer and analysis).

        Tiles are named by their lower-left intersection (`c3`) or as all tiles of a
        rectangle (`c3-f6`). `last_placement` is the opponent's last placement, which
        the mirror rule reflects; `mirror_types` gives each seat's last mirror type.
        If the player to move cannot place, the game is already over.
        """
        if size not in SIZES:
            raise ValueError(f"size must be one of {SIZES}")
        black_bits, white_bits = _bits(black, size), _bits(white, size)
        black_tile_bits = _tile_bits(black_tiles, size)
        white_tile_bits = _tile_bits(white_tiles, size)
        if black_bits & white_bits:
            raise ValueError("an intersection cannot hold two stones")
        if black_tile_bits & white_tile_bits:
            raise ValueError("a tile cannot belong to both players")
        if any(kind not in (None, *MIRROR_TYPES) for kind in mirror_types):
            raise ValueError("mirror types are 'h', 'v', 'r' or None")
        last = None
        if last_placement is not None:
            last = RekushuMove(*parse_point(last_placement, size, size))
        return _make_state(
            size,
            black_bits,
            white_bits,
            black_tile_bits,
            white_tile_bits,
            to_move=to_move,
            ply=ply,
            last_move=last,
            mirror_types=(mirror_types[0], mirror_types[1]),
        )

    def decode(self, text: str) -> RekushuState:
        try:
            version, size, ply_text, side, *boards, last, kinds = text.split(";")
            n = int(size)
            if version != "1" or n not in SIZES or len(boards) != 4:
                raise ValueError("bad header")
            to_move, ply = int(side), int(ply_text)
            if to_move not in (0, 1) or ply < 0:
                raise ValueError("bad side or ply")
            black, white, black_tiles, white_tiles = (int(bits, 16) for bits in boards)
            if black & white or (black | white) >> (n * n):
                raise ValueError("bad stones")
            if black_tiles & white_tiles or (black_tiles | white_tiles) & ~_GEOMETRY[n].all_tiles:
                raise ValueError("bad tiles")
            if len(kinds) != 2 or set(kinds) - {*MIRROR_TYPES, "-"}:
                raise ValueError("bad mirror types")
            last_move = None if last == "-" else _parse_notation(last, n)
            mirror = tuple(None if kind == "-" else kind for kind in kinds)
        except (ValueError, InvalidMoveError) as exc:
            raise DecodeError(f"not an encoded Rekushu state: {exc}") from None
        return _make_state(
            n,
            black,
            white,
            black_tiles,
            white_tiles,
            to_move=to_move,
            ply=ply,
            last_move=last_move,
            mirror_types=(mirror[0], mirror[1]),
        )

    def max_plies(self, options: Options) -> int | None:
        """Every placement stays on the board unless a claim removes it, four per claim.

        A game therefore has at most N² stones left at the end plus four for each claim,
        and each claim takes at least one of the (N − 1)² tiles.
        """
        n = int(options["size"])
        return n * n + 4 * (n - 1) ** 2


REKUSHU = RekushuGame()
register(REKUSHU)
