"""Stones (Iowa Go Society, 2025): Go without passing or scoring, won by captures.

Points are indexed `row * size + col` (a1 = 0). The stones are two bitboards (Python
ints, one per seat); a table of groups with their stones, liberties and Zobrist hash is
updated incrementally by every placement, so that judging a placement only looks at the
point's neighbours and the stones it removes.

Stakes. A stake sits at a liberty point and belongs to the groups of its owner that had
that point as a liberty when it was placed; it records their stones (`Stake.anchors`).
Stones leave the board only when their whole group is captured, so the groups a stake
belongs to are, at any later time, the groups holding any of its anchor stones: it
follows merges, and it is captured (and counts as a prisoner for the capturer) the first
time any of those groups is captured, self-capture included. Nothing else moves a stake:
when its point is filled by either player, or a new group of its owner later touches the
point, the stake keeps its place and its groups. A player has at most one stake per point
for as long as that stake exists.

Superko. A position is the stones plus the stakes (prisoner counts are not part of it)
and is identified by a 64-bit Zobrist hash. The hashes of every earlier position are kept
in a `PositionHistory`; see its docstring for how states share it.
"""

from __future__ import annotations

import base64
import hashlib
import re
import struct
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import NamedTuple

from rules.base import (
    DecodeError,
    Game,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    Option,
    Options,
    OptionValue,
    Outcome,
)
from rules.position_history import PositionHistory
from rules.registry import register
from rules.squares import diagram_grid, format_point, parse_point

MIN_SIZE = 5
MAX_SIZE = 19
DEFAULT_SIZE = 9
DEFAULT_COMPENSATION = 6
MAX_OPTION_VALUE = MAX_SIZE * MAX_SIZE
"""The largest threshold or compensation accepted: the area of the largest board."""
STAKE_LIBERTIES = 2
"""A player may stake while every one of their groups has at most this many liberties."""

_POINT_TEXT = re.compile(r"[a-z]\d{1,2}")
_STAKE_TEXT = re.compile(r"stake(?:\s+(\S*))?")


def default_threshold(size: int) -> int:
    """The Lead Threshold used when none is given: round(7·N²/81), 7 on 9×9, 31 on 19×19."""
    return round(7 * size * size / 81)


# --- moves ---


class MoveKind(Enum):
    """The three kinds of turn."""

    PLACE = "place"
    RETURN = "return"
    STAKE = "stake"


@dataclass(frozen=True, slots=True)
class StonesMove:
    """A placement or a stake at `point`, or a Prisoner Return (point None)."""

    kind: MoveKind
    """What the move does."""
    point: int | None = None
    """Point index `row * size + col` of a placement or stake; None for a return."""


RETURN = StonesMove(MoveKind.RETURN)
"""The Prisoner Return."""
_PLACE = tuple(StonesMove(MoveKind.PLACE, p) for p in range(MAX_OPTION_VALUE))
_STAKE = tuple(StonesMove(MoveKind.STAKE, p) for p in range(MAX_OPTION_VALUE))


def place(point: int) -> StonesMove:
    """The placement of a stone at point index `point`."""
    return _PLACE[point]


def stake(point: int) -> StonesMove:
    """The stake at point index `point`."""
    return _STAKE[point]


# --- board geometry and Zobrist keys ---


def _zobrist_key(kind: str, seat: int, col: int, row: int) -> int:
    """A fixed 64-bit key; derived from a hash so that stored histories stay valid."""
    text = f"stones/{kind}/{seat}/{col}/{row}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


class _Geometry:
    """Precomputed tables for one board size."""

    __slots__ = (
        "area",
        "full",
        "neighbours",
        "not_first_col",
        "not_last_col",
        "size",
        "stake_keys",
        "stone_keys",
    )

    def __init__(self, size: int) -> None:
        self.size = size
        self.area = size * size
        self.full = (1 << self.area) - 1
        first_col = sum(1 << (row * size) for row in range(size))
        self.not_first_col = self.full ^ first_col
        self.not_last_col = self.full ^ (first_col << (size - 1))
        neighbours = []
        for p in range(self.area):
            col, row = p % size, p // size
            near = []
            if row > 0:
                near.append(p - size)
            if col > 0:
                near.append(p - 1)
            if col < size - 1:
                near.append(p + 1)
            if row < size - 1:
                near.append(p + size)
            neighbours.append(tuple(near))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        self.stone_keys = tuple(self._keys("stone", seat) for seat in (0, 1))
        self.stake_keys = tuple(self._keys("stake", seat) for seat in (0, 1))

    def _keys(self, kind: str, seat: int) -> tuple[int, ...]:
        return tuple(
            _zobrist_key(kind, seat, p % self.size, p // self.size) for p in range(self.area)
        )

    def adjacent(self, bits: int) -> int:
        """The points orthogonally next to any point of `bits` (may include `bits` itself)."""
        size = self.size
        return (
            ((bits << size) & self.full)
            | (bits >> size)
            | ((bits & self.not_last_col) << 1)
            | ((bits & self.not_first_col) >> 1)
        )

    def name(self, point: int) -> str:
        """The notation of a point index."""
        return format_point(point % self.size, point // self.size)


@cache
def _geometry(size: int) -> _Geometry:
    return _Geometry(size)


def _points(bits: int) -> Iterator[int]:
    """Yield the index of every set bit, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _lowest(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


class _Group(NamedTuple):
    """A maximal set of connected stones of one seat."""

    seat: int
    stones: int
    libs: int
    zhash: int
    """XOR of the Zobrist keys of its stones."""


# --- stakes ---


@dataclass(frozen=True, slots=True)
class Stake:
    """A stone staked beside the board at a liberty point of its owner's groups."""

    point: int
    """The point index where the stake sits."""
    anchors: int
    """Bitboard of the stones of the groups the stake was attached to when placed."""


# --- the state ---


@dataclass(frozen=True, slots=True)
class StonesState(GameState[StonesMove]):
    """A Stones position: stones, stakes, prisoners and the history of positions."""

    size: int
    """The board has size × size points."""
    base_threshold: int
    """The `threshold` option (before compensation)."""
    compensation: int
    """The `compensation` option."""
    black: int
    """Bitboard of Black's stones (seat 0)."""
    white: int
    """Bitboard of White's stones (seat 1)."""
    staked: tuple[tuple[Stake, ...], tuple[Stake, ...]]
    """Each seat's stakes, sorted by point."""
    prisoners: tuple[int, int]
    """Prisoners held by seat 0 and by seat 1 (stones and stakes captured, minus returns)."""
    to_move: int
    ply: int
    last_move: StonesMove | None
    removed: tuple[int, int]
    """Bitboards of the stones of seat 0 and of seat 1 that the last move removed."""
    stakes_removed: tuple[int, int]
    """Bitboards of the points of the stakes of seat 0 and of seat 1 the last move took."""
    history: PositionHistory
    """Every position of the game so far, the current one included."""
    result: Outcome | None
    zhash: int = field(compare=False)
    """Zobrist hash of the current position (stones and stakes)."""
    group_of: tuple[int, ...] = field(compare=False, repr=False)
    """Per point, the id of the group on it (a point of that group), or -1 when empty."""
    groups: Mapping[int, _Group] = field(compare=False, repr=False)
    """The groups on the board by id; never changed after the state is made."""
    geometry: _Geometry = field(compare=False, repr=False)

    @property
    def game(self) -> StonesGame:
        return STONES

    @property
    def options(self) -> Options:
        return {
            "size": self.size,
            "threshold": self.base_threshold,
            "compensation": self.compensation,
        }

    # --- queries for renderers, the bot and the AI ---

    def stone_at(self, col: int, row: int) -> int | None:
        """The seat whose stone is on (col, row), or None when the point is empty."""
        p = row * self.size + col
        if self.black >> p & 1:
            return 0
        if self.white >> p & 1:
            return 1
        return None

    def stones(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The (col, row) of every stone of `seat`."""
        return self._coords(self.white if seat else self.black)

    def lead(self, seat: int) -> int:
        """Prisoners held by `seat` minus those held by the opponent."""
        return self.prisoners[seat] - self.prisoners[1 - seat]

    def threshold(self, seat: int) -> int:
        """The lead `seat` needs for a decisive move: threshold ∓ compensation."""
        if seat:
            return self.base_threshold + self.compensation
        return self.base_threshold - self.compensation

    def stakes(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The (col, row) of the liberty points where `seat`'s stakes sit."""
        return tuple((s.point % self.size, s.point // self.size) for s in self.staked[seat])

    @property
    def captured_last(self) -> tuple[tuple[int, int, int], ...]:
        """(col, row, seat) of every stone the last move removed (captures, self-captures)."""
        return self._removed_triples(self.removed)

    @property
    def stakes_captured_last(self) -> tuple[tuple[int, int, int], ...]:
        """(col, row, seat) of every stake the last move captured, at its point."""
        return self._removed_triples(self.stakes_removed)

    @property
    def last_point(self) -> tuple[int, int] | None:
        """(col, row) of the last placement or stake; None after a return or at the start."""
        move = self.last_move
        if move is None or move.point is None:
            return None
        return move.point % self.size, move.point // self.size

    def liberties(self, col: int, row: int) -> int:
        """The number of liberties of the group on (col, row); 0 for an empty point."""
        gid = self.group_of[row * self.size + col]
        return 0 if gid < 0 else self.groups[gid].libs.bit_count()

    def can_return(self) -> bool:
        """True when the player to move may return a prisoner."""
        seat = self.to_move
        return self.result is None and self.prisoners[seat] > self.prisoners[1 - seat]

    def _coords(self, bits: int) -> tuple[tuple[int, int], ...]:
        size = self.size
        return tuple((p % size, p // size) for p in _points(bits))

    def _removed_triples(self, masks: tuple[int, int]) -> tuple[tuple[int, int, int], ...]:
        size = self.size
        return tuple(
            sorted((p % size, p // size, seat) for seat in (0, 1) for p in _points(masks[seat]))
        )

    # --- legality ---

    def _placement_hash(self, p: int) -> int:
        """The hash of the position after the player to move places at empty point `p`."""
        seat = self.to_move
        geometry = self.geometry
        group_of = self.group_of
        groups = self.groups
        bit = 1 << p
        key = self.zhash ^ geometry.stone_keys[seat][p]
        captured = 0
        has_liberty = False
        doomed: list[_Group] = []
        for q in geometry.neighbours[p]:
            gid = group_of[q]
            if gid < 0:
                has_liberty = True
                continue
            group = groups[gid]
            if group.seat == seat:
                if group.libs != bit:
                    has_liberty = True
                elif group not in doomed:
                    doomed.append(group)
            elif group.libs == bit and not captured & group.stones:
                captured |= group.stones
                key ^= group.zhash
        if captured:
            return key ^ self._stake_hash(1 - seat, captured)
        if has_liberty:
            return key
        # Self-capture: the new stone goes again, with every group it joined.
        key ^= geometry.stone_keys[seat][p]
        stones = bit
        for group in doomed:
            key ^= group.zhash
            stones |= group.stones
        return key ^ self._stake_hash(seat, stones)

    def _stake_hash(self, seat: int, stones: int) -> int:
        """XOR of the keys of `seat`'s stakes that are lost with `stones`."""
        key = 0
        for item in self.staked[seat]:
            if item.anchors & stones:
                key ^= self.geometry.stake_keys[seat][item.point]
        return key

    def _stake_points(self) -> int:
        """Bitboard of the points where the player to move may stake (0 when they may not)."""
        seat = self.to_move
        points = 0
        for group in self.groups.values():
            if group.seat == seat:
                if group.libs.bit_count() > STAKE_LIBERTIES:
                    return 0
                points |= group.libs
        for item in self.staked[seat]:
            points &= ~(1 << item.point)
        return points

    def may_place(self, p: int) -> bool:
        """Whether placing at point index `p` (row·size + col) is legal: the game goes
        on, the point is empty and the position it makes is new."""
        if self.result is not None or (self.black | self.white) >> p & 1:
            return False
        return self.history.is_new(self._placement_hash(p))

    def legal_moves(self) -> Iterator[StonesMove]:
        if self.result is not None:
            return
        seat = self.to_move
        geometry = self.geometry
        own, other = (self.white, self.black) if seat else (self.black, self.white)
        empty = geometry.full ^ (own | other)
        in_atari = 0
        for group in self.groups.values():
            libs = group.libs
            if not libs & (libs - 1):
                in_atari |= libs
        # A point that is no group's last liberty and touches an empty point or one of the
        # mover's stones captures nothing and keeps a liberty: only the hash can object.
        simple = empty & ~in_atari & geometry.adjacent(empty | own)
        keys = geometry.stone_keys[seat]
        current = self.zhash
        is_new = self.history.is_new
        bits = simple
        while bits:
            low = bits & -bits
            p = low.bit_length() - 1
            bits ^= low
            if is_new(current ^ keys[p]):
                yield _PLACE[p]
        for p in _points(empty & ~simple):
            if self.history.is_new(self._placement_hash(p)):
                yield _PLACE[p]
        if self.prisoners[seat] > self.prisoners[1 - seat]:
            yield RETURN
        for p in _points(self._stake_points()):
            yield _STAKE[p]

    def _has_legal_move(self) -> bool:
        """Whether the player to move has any legal move (the game not yet decided)."""
        seat = self.to_move
        if self.prisoners[seat] > self.prisoners[1 - seat]:
            return True
        geometry = self.geometry
        empty = geometry.full ^ (self.black | self.white)
        roomy = empty & geometry.adjacent(empty)
        for p in _points(roomy):
            if self.history.is_new(self._placement_hash(p)):
                return True
        for p in _points(empty ^ roomy):
            if self.history.is_new(self._placement_hash(p)):
                return True
        return self._stake_points() != 0

    def _check(self, move: StonesMove) -> None:
        """Raise `IllegalMoveError` with the reason when `move` is not legal here."""
        if self.result is not None:
            raise IllegalMoveError("the game is over")
        geometry = self.geometry
        seat = self.to_move
        kind, p = move.kind, move.point
        if kind is MoveKind.RETURN:
            if p is not None:
                raise IllegalMoveError("a prisoner return names no point")
            if self.prisoners[seat] <= self.prisoners[1 - seat]:
                mine, theirs = self.prisoners[seat], self.prisoners[1 - seat]
                raise IllegalMoveError(
                    "you may return a prisoner only while you hold more prisoners than "
                    f"your opponent (you hold {mine}, {self.game.colours[1 - seat]} "
                    f"holds {theirs})"
                )
            return
        if p is None or not 0 <= p < geometry.area:
            raise IllegalMoveError("that point is not on the board")
        name = geometry.name(p)
        if kind is MoveKind.STAKE:
            self._check_stake(p, name)
            return
        if (self.black | self.white) >> p & 1:
            raise IllegalMoveError(f"{name} is occupied")
        key = self._placement_hash(p)
        if key == self.zhash:
            raise IllegalMoveError(
                f"a stone on {name} would be captured at once without capturing anything, "
                "which repeats the position"
            )
        ply = self.history.ply_of(key)
        if ply is not None:
            when = "the starting position" if ply == 0 else f"the position after move {ply}"
            raise IllegalMoveError(f"{name} would repeat {when} (superko)")

    def _check_stake(self, p: int, name: str) -> None:
        seat = self.to_move
        own = [group for group in self.groups.values() if group.seat == seat]
        if not own:
            raise IllegalMoveError("you have no group on the board to stake")
        for group in own:
            count = group.libs.bit_count()
            if count > STAKE_LIBERTIES:
                where = self.geometry.name(_lowest(group.stones))
                raise IllegalMoveError(
                    f"you may stake only while each of your groups has at most "
                    f"{STAKE_LIBERTIES} liberties, and your group at {where} has {count}"
                )
        if not any(group.libs >> p & 1 for group in own):
            raise IllegalMoveError(f"{name} is not a liberty of any of your groups")
        if any(item.point == p for item in self.staked[seat]):
            raise IllegalMoveError(f"you already have a stake on {name}")

    # --- notation ---

    def parse_move(self, text: str) -> StonesMove:
        cleaned = " ".join(text.strip().lower().split())
        if cleaned == "return":
            move = RETURN
        elif cleaned == "pass":
            raise InvalidMoveError(
                "there is no pass in Stones: place a stone, return a prisoner or stake a group"
            )
        elif (match := _STAKE_TEXT.fullmatch(cleaned)) is not None:
            if not match.group(1):
                raise InvalidMoveError("name the liberty to stake at, like stake e5")
            move = _STAKE[self._parse_point(match.group(1))]
        else:
            move = _PLACE[self._parse_point(cleaned)]
        self._check(move)
        return move

    def _parse_point(self, text: str) -> int:
        if not _POINT_TEXT.fullmatch(text):
            raise InvalidMoveError(
                f"{text!r} is not a Stones move: write a point like e5, return, or stake e5"
            )
        col, row = parse_point(text, self.size, self.size)
        return row * self.size + col

    def format_move(self, move: StonesMove) -> str:
        if move.kind is MoveKind.RETURN or move.point is None:
            return "return"
        name = self.geometry.name(move.point)
        return f"stake {name}" if move.kind is MoveKind.STAKE else name

    # --- playing ---

    def play(self, move: StonesMove) -> StonesState:
        self._check(move)
        if move.kind is MoveKind.PLACE:
            assert move.point is not None
            state = self._place(move.point)
        elif move.kind is MoveKind.STAKE:
            assert move.point is not None
            state = self._stake(move.point)
        else:
            state = self._return()
        return state._with_result()

    def _successor(
        self,
        move: StonesMove,
        *,
        black: int | None = None,
        white: int | None = None,
        staked: tuple[tuple[Stake, ...], tuple[Stake, ...]] | None = None,
        prisoners: tuple[int, int] | None = None,
        removed: tuple[int, int] = (0, 0),
        stakes_removed: tuple[int, int] = (0, 0),
        zhash: int | None = None,
        group_of: tuple[int, ...] | None = None,
        groups: Mapping[int, _Group] | None = None,
    ) -> StonesState:
        """The state after `move`, with the other player to move and no result yet."""
        key = self.zhash if zhash is None else zhash
        return StonesState(
            self.size,
            self.base_threshold,
            self.compensation,
            self.black if black is None else black,
            self.white if white is None else white,
            self.staked if staked is None else staked,
            self.prisoners if prisoners is None else prisoners,
            1 - self.to_move,
            self.ply + 1,
            move,
            removed,
            stakes_removed,
            self.history.with_position(key, self.ply + 1),
            None,
            key,
            self.group_of if group_of is None else group_of,
            self.groups if groups is None else groups,
            self.geometry,
        )

    def _return(self) -> StonesState:
        seat = self.to_move
        prisoners = list(self.prisoners)
        prisoners[seat] -= 1
        return self._successor(RETURN, prisoners=(prisoners[0], prisoners[1]))

    def _stake(self, p: int) -> StonesState:
        seat = self.to_move
        anchors = 0
        for group in self.groups.values():
            if group.seat == seat and group.libs >> p & 1:
                anchors |= group.stones
        own = tuple(sorted((*self.staked[seat], Stake(p, anchors)), key=lambda s: s.point))
        staked = (own, self.staked[1]) if seat == 0 else (self.staked[0], own)
        zhash = self.zhash ^ self.geometry.stake_keys[seat][p]
        return self._successor(_STAKE[p], staked=staked, zhash=zhash)

    def _place(self, p: int) -> StonesState:
        """Put a stone on `p` and resolve captures and self-capture (legality checked)."""
        seat = self.to_move
        other = 1 - seat
        geometry = self.geometry
        neighbours = geometry.neighbours
        old_group_of = self.group_of
        groups = dict(self.groups)
        group_of = list(old_group_of)
        bit = 1 << p
        zhash = self.zhash ^ geometry.stone_keys[seat][p]

        own_ids: list[int] = []
        other_ids: list[int] = []
        stones, libs, group_hash = bit, 0, geometry.stone_keys[seat][p]
        for q in neighbours[p]:
            gid = old_group_of[q]
            if gid < 0:
                libs |= 1 << q
            elif groups[gid].seat == seat:
                if gid not in own_ids:
                    own_ids.append(gid)
            elif gid not in other_ids:
                other_ids.append(gid)

        # Merge the new stone with the mover's groups around it; keep the biggest group's id.
        new_id = p
        if own_ids:
            new_id = max(own_ids, key=lambda gid: groups[gid].stones.bit_count())
            for gid in own_ids:
                group = groups.pop(gid)
                stones |= group.stones
                libs |= group.libs
                group_hash ^= group.zhash
            relabel = stones & ~self.groups[new_id].stones
        else:
            relabel = bit
        for q in _points(relabel):
            group_of[q] = new_id
        libs &= ~bit
        groups[new_id] = _Group(seat, stones, libs, group_hash)

        # Opponent groups lose the liberty; those left without one are captured.
        captured = 0
        for gid in other_ids:
            group = groups[gid]
            remaining = group.libs & ~bit
            if remaining:
                groups[gid] = _Group(group.seat, group.stones, remaining, group.zhash)
            else:
                del groups[gid]
                captured |= group.stones
                zhash ^= group.zhash

        black, white = self.black, self.white
        removed = [0, 0]
        loser = other
        if captured:
            self._free(captured, group_of, groups)
            removed[other] = captured
        elif not libs:
            # Self-capture: the mover's new group has no liberty and goes to the opponent.
            del groups[new_id]
            zhash ^= group_hash
            self._free(stones, group_of, groups)
            removed[seat] = stones
            loser = seat
        gone = removed[loser]
        if seat == 0:
            black |= bit
        else:
            white |= bit
        black &= ~removed[0]
        white &= ~removed[1]

        staked = self.staked
        prisoners = self.prisoners
        stakes_removed = [0, 0]
        if gone:
            kept: list[Stake] = []
            taken = 0
            for item in staked[loser]:
                if item.anchors & gone:
                    taken |= 1 << item.point
                    zhash ^= geometry.stake_keys[loser][item.point]
                else:
                    kept.append(item)
            if taken:
                stakes_removed[loser] = taken
                staked = (tuple(kept), staked[1]) if loser == 0 else (staked[0], tuple(kept))
            gain = [0, 0]
            gain[1 - loser] = gone.bit_count() + taken.bit_count()
            prisoners = (prisoners[0] + gain[0], prisoners[1] + gain[1])

        return self._successor(
            _PLACE[p],
            black=black,
            white=white,
            staked=staked,
            prisoners=prisoners,
            removed=(removed[0], removed[1]),
            stakes_removed=(stakes_removed[0], stakes_removed[1]),
            zhash=zhash,
            group_of=tuple(group_of),
            groups=groups,
        )

    def _free(self, stones: int, group_of: list[int], groups: dict[int, _Group]) -> None:
        """Empty the points of removed `stones`; groups around them gain those liberties."""
        neighbours = self.geometry.neighbours
        gains: dict[int, int] = {}
        for q in _points(stones):
            group_of[q] = -1
        for q in _points(stones):
            for r in neighbours[q]:
                gid = group_of[r]
                if gid >= 0:
                    gains[gid] = gains.get(gid, 0) | 1 << q
        for gid, gained in gains.items():
            group = groups[gid]
            groups[gid] = _Group(group.seat, group.stones, group.libs | gained, group.zhash)

    def _with_result(self) -> StonesState:
        """Return this state with `result` decided, the other player having just moved."""
        result = _judge(self)
        if result is None:
            return self
        return StonesState(
            self.size,
            self.base_threshold,
            self.compensation,
            self.black,
            self.white,
            self.staked,
            self.prisoners,
            self.to_move,
            self.ply,
            self.last_move,
            self.removed,
            self.stakes_removed,
            self.history,
            result,
            self.zhash,
            self.group_of,
            self.groups,
            self.geometry,
        )

    def outcome(self) -> Outcome | None:
        return self.result

    # --- text forms ---

    def _board_text(self) -> str:
        cells = ["."] * self.geometry.area
        for p in _points(self.black):
            cells[p] = "B"
        for p in _points(self.white):
            cells[p] = "W"
        return "".join(cells)

    def encode(self) -> str:
        stakes = [
            ",".join(f"{self.geometry.name(s.point)}:{s.anchors:x}" for s in seats) or "-"
            for seats in self.staked
        ]
        last = "-" if self.last_move is None else self.format_move(self.last_move)
        removed = ",".join(f"{mask:x}" for mask in (*self.removed, *self.stakes_removed))
        entries = sorted(self.history.entries())
        keys, plies = [key for key, _ in entries], [ply for _, ply in entries]
        packed = struct.pack(f">{len(keys)}Q{len(plies)}I", *keys, *plies)
        history = base64.urlsafe_b64encode(packed).decode()
        return (
            f"1;{self.size};{self.base_threshold};{self.compensation};{self.ply};"
            f"{self.to_move};{self._board_text()};{self.prisoners[0]},{self.prisoners[1]};"
            f"{stakes[0]};{stakes[1]};{last};{removed};{history}"
        )

    def diagram(self) -> str:
        board = self._board_text()
        size = self.size
        cells = [list(board[row * size : (row + 1) * size]) for row in range(size)]
        lines = [diagram_grid(cells)]
        for seat, colour in enumerate(self.game.colours):
            staked = " ".join(self.geometry.name(s.point) for s in self.staked[seat]) or "none"
            lines.append(
                f"{colour}: {prisoners_text(self.prisoners[seat])}, {lead_text(self.lead(seat))} "
                f"(a capture of two or more wins when {goal_text(self.threshold(seat))}), "
                f"stakes {staked}"
            )
        return "\n".join(lines)


def _judge(state: StonesState) -> Outcome | None:
    """Decide whether the game is over, the player not to move having made the last move."""
    mover = 1 - state.to_move
    colours = state.game.colours
    last = state.last_move
    if last is not None and last.kind is MoveKind.PLACE:
        stones = state.removed[state.to_move].bit_count()
        stakes = state.stakes_removed[state.to_move].bit_count()
        lead, needed = state.lead(mover), state.threshold(mover)
        if stones + stakes >= 2 and lead >= needed:
            taken = _count(stones, "stone") + (f" and {_count(stakes, 'stake')}" if stakes else "")
            return Outcome(
                mover,
                f"decisive capture of {taken} while {lead_text(lead)}; "
                f"{colours[mover]} needed to be {goal_text(needed)}",
            )
    if not state._has_legal_move():
        return Outcome(mover, f"{colours[state.to_move]} has no legal move")
    return None


def prisoners_text(count: int) -> str:
    """ "1 prisoner", "6 prisoners"."""
    return f"{count} prisoner{'' if count == 1 else 's'}"


def lead_text(lead: int) -> str:
    """A lead in words: "3 ahead", "level", "6 behind"."""
    if lead > 0:
        return f"{lead} ahead"
    return "level" if lead == 0 else f"{-lead} behind"


def goal_text(needed: int) -> str:
    """The lead a decisive capture needs, in words: "2 or more ahead", "level or ahead",
    "at most 4 behind"."""
    if needed > 0:
        return f"{needed} or more ahead"
    return "level or ahead" if needed == 0 else f"at most {-needed} behind"


def _count(number: int, noun: str) -> str:
    """ "1 stone", "2 stones"."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _build_groups(
    geometry: _Geometry, black: int, white: int
) -> tuple[tuple[int, ...], dict[int, _Group]]:
    """Find every group of a board from scratch (for set-up and decoding)."""
    group_of = [-1] * geometry.area
    groups: dict[int, _Group] = {}
    empty = geometry.full ^ (black | white)
    for seat, own in enumerate((black, white)):
        for start in _points(own):
            if group_of[start] >= 0:
                continue
            stones = 1 << start
            while True:
                grown = (stones | geometry.adjacent(stones)) & own
                if grown == stones:
                    break
                stones = grown
            zhash = 0
            for q in _points(stones):
                group_of[q] = start
                zhash ^= geometry.stone_keys[seat][q]
            libs = geometry.adjacent(stones) & empty
            groups[start] = _Group(seat, stones, libs, zhash)
    return tuple(group_of), groups


def _position_hash(
    geometry: _Geometry, black: int, white: int, staked: tuple[tuple[Stake, ...], ...]
) -> int:
    key = 0
    for seat, own in enumerate((black, white)):
        for p in _points(own):
            key ^= geometry.stone_keys[seat][p]
        for item in staked[seat]:
            key ^= geometry.stake_keys[seat][item.point]
    return key


class StonesGame(Game[StonesState]):
    """The rules and metadata of Stones."""

    name = "stones"
    title = "Stones"
    aliases = ("stone",)
    colours = ("Black", "White")
    option_specs = (
        Option(
            "size",
            DEFAULT_SIZE,
            "the board has size × size points",
            minimum=MIN_SIZE,
            maximum=MAX_SIZE,
        ),
        Option(
            "threshold",
            default_threshold(DEFAULT_SIZE),
            "the Lead Threshold before compensation; when not given it follows the size: "
            "round(7·N²/81), so 5→2, 7→4, 9→7, 11→10, 13→15, 15→19, 17→25, 19→31",
            minimum=1,
            maximum=MAX_OPTION_VALUE,
            limit="size × size",
        ),
        Option(
            "compensation",
            DEFAULT_COMPENSATION,
            "Black prisoners White starts with; White's threshold rises and Black's "
            "falls by this much",
            minimum=0,
            maximum=MAX_OPTION_VALUE,
            limit="size × size",
        ),
    )
    notation = "a point to place a stone, like e5; return (give back a prisoner); stake e5"
    summary = (
        "Go without passing or scoring: you win by capturing. Place a stone on an empty "
        "point; opponent groups left without liberties are captured first, then your own "
        "group if it has none (self-capture: its stones become your opponent's "
        "prisoners). A placement may not recreate any earlier position (stones and "
        "stakes). Instead of placing you may return a prisoner while you hold more than "
        "your opponent, or stake (stake e5) while each of your groups has at most 2 "
        "liberties: a stone beside the board at a liberty, lost with its group. White "
        "starts with 6 prisoners (compensation). A placement that captures 2 or more "
        "and brings your lead to your threshold wins (9×9: Black needs a lead of 1, "
        "White 13). A player with no legal move loses."
    )
    quick_moves = ("return",)

    def validate_options(self, options: Mapping[str, object]) -> dict[str, OptionValue]:
        """Validate as usual, but a missing threshold follows the board size, and the
        threshold and compensation are at most the board's number of points (a lead
        beyond it could never be reached)."""
        validated = super().validate_options(options)
        size = int(validated["size"])
        if "threshold" not in options:
            validated["threshold"] = default_threshold(size)
        area = size * size
        for name in ("threshold", "compensation"):
            if int(validated[name]) > area:
                raise InvalidOptionError(
                    f"{name} must be at most {area} on a {size}×{size} board (its number "
                    f"of points), not {validated[name]}"
                )
        return validated

    def initial_state(self, options: Options) -> StonesState:
        size = int(options["size"])
        return self._state(
            size,
            int(options["threshold"]),
            int(options["compensation"]),
            black=0,
            white=0,
            staked=((), ()),
            prisoners=(0, int(options["compensation"])),
            to_move=0,
        )

    def _state(
        self,
        size: int,
        threshold: int,
        compensation: int,
        *,
        black: int,
        white: int,
        staked: tuple[tuple[Stake, ...], tuple[Stake, ...]],
        prisoners: tuple[int, int],
        to_move: int,
        ply: int = 0,
        last_move: StonesMove | None = None,
        removed: tuple[int, int] = (0, 0),
        stakes_removed: tuple[int, int] = (0, 0),
        history: PositionHistory | None = None,
    ) -> StonesState:
        """A state built from scratch, with its groups found and its result judged."""
        geometry = _geometry(size)
        group_of, groups = _build_groups(geometry, black, white)
        zhash = _position_hash(geometry, black, white, staked)
        if history is None:
            history = PositionHistory.of([(zhash, ply)])
        state = StonesState(
            size,
            threshold,
            compensation,
            black,
            white,
            staked,
            prisoners,
            to_move,
            ply,
            last_move,
            removed,
            stakes_removed,
            history,
            None,
            zhash,
            group_of,
            groups,
            geometry,
        )
        return state._with_result()

    def position(
        self,
        black: Iterable[str] = (),
        white: Iterable[str] = (),
        *,
        to_move: int = 0,
        prisoners: tuple[int, int] | None = None,
        black_stakes: Iterable[str] = (),
        white_stakes: Iterable[str] = (),
        **options: object,
    ) -> StonesState:
        """A hand-made position (for tests, the renderer and analysis).

        Stones and stakes are given by point name; `options` are the game options.
        Prisoners default to those of a new game (White holds the compensation). Each
        stake belongs to the groups of its owner that have its point as a liberty. The
        position is the first of the game's history; if the player to move has no legal
        move, the game is already over.
        """
        validated = self.validate_options(options)
        size = int(validated["size"])
        geometry = _geometry(size)
        masks = [0, 0]
        for seat, names in enumerate((black, white)):
            for name in names:
                col, row = parse_point(name, size, size)
                masks[seat] |= 1 << (row * size + col)
        if masks[0] & masks[1]:
            raise ValueError("a point cannot hold two stones")
        _, groups = _build_groups(geometry, masks[0], masks[1])
        for group in groups.values():
            if not group.libs:
                where = geometry.name(_lowest(group.stones))
                raise ValueError(f"the group at {where} has no liberty")
        staked: list[tuple[Stake, ...]] = []
        for seat, names in enumerate((black_stakes, white_stakes)):
            items: dict[int, Stake] = {}
            for name in names:
                col, row = parse_point(name, size, size)
                p = row * size + col
                anchors = 0
                for group in groups.values():
                    if group.seat == seat and group.libs >> p & 1:
                        anchors |= group.stones
                if not anchors:
                    raise ValueError(f"{name} is not a liberty of a group of seat {seat}")
                if p in items:
                    raise ValueError(f"two stakes of seat {seat} on {name}")
                items[p] = Stake(p, anchors)
            staked.append(tuple(items[p] for p in sorted(items)))
        compensation = int(validated["compensation"])
        return self._state(
            size,
            int(validated["threshold"]),
            compensation,
            black=masks[0],
            white=masks[1],
            staked=(staked[0], staked[1]),
            prisoners=(0, compensation) if prisoners is None else prisoners,
            to_move=to_move,
        )

    def decode(self, text: str) -> StonesState:
        try:
            fields = text.split(";")
            if len(fields) != 13 or fields[0] != "1":
                raise ValueError("bad header")
            size, threshold, compensation, ply, to_move = (int(f) for f in fields[1:6])
            options = self.validate_options(
                {"size": size, "threshold": threshold, "compensation": compensation}
            )
            board = fields[6]
            if to_move not in (0, 1) or ply < 0 or len(board) != size * size:
                raise ValueError("bad size, ply or side")
            if set(board) - set("BW."):
                raise ValueError("bad board")
            black = sum(1 << p for p, ch in enumerate(board) if ch == "B")
            white = sum(1 << p for p, ch in enumerate(board) if ch == "W")
            first, second = (int(n) for n in fields[7].split(","))
            if first < 0 or second < 0:
                raise ValueError("negative prisoners")
            staked = (_decode_stakes(fields[8], size), _decode_stakes(fields[9], size))
            masks = tuple(int(m, 16) for m in fields[11].split(","))
            if len(masks) != 4:
                raise ValueError("bad removed stones")
            history = _decode_history(fields[12])
            last = None if fields[10] == "-" else _parse_recorded(fields[10], size)
        except (ValueError, struct.error) as exc:
            raise DecodeError(f"not an encoded Stones state: {exc}") from None
        state = self._state(
            int(options["size"]),
            int(options["threshold"]),
            int(options["compensation"]),
            black=black,
            white=white,
            staked=staked,
            prisoners=(first, second),
            to_move=to_move,
            ply=ply,
            last_move=last,
            removed=(masks[0], masks[1]),
            stakes_removed=(masks[2], masks[3]),
            history=history,
        )
        if any(not group.libs for group in state.groups.values()):
            raise DecodeError("not an encoded Stones state: a group has no liberty")
        if state.zhash not in state.history:
            raise DecodeError("not an encoded Stones state: the position is not in its history")
        return state


def _decode_history(text: str) -> PositionHistory:
    """The history `encode()` packed: every position hash, then every ply, in hash order."""
    packed = base64.urlsafe_b64decode(text)
    count, extra = divmod(len(packed), 12)
    if extra or not count:
        raise ValueError("bad history")
    values = struct.unpack(f">{count}Q{count}I", packed)
    return PositionHistory.of(zip(values[:count], values[count:], strict=True))


def _decode_stakes(text: str, size: int) -> tuple[Stake, ...]:
    if text == "-":
        return ()
    items = []
    for part in text.split(","):
        name, anchors = part.split(":")
        col, row = parse_point(name, size, size)
        items.append(Stake(row * size + col, int(anchors, 16)))
    return tuple(sorted(items, key=lambda s: s.point))


def _parse_recorded(text: str, size: int) -> StonesMove:
    """Parse a move's notation without checking legality (for the stored last move)."""
    if text == "return":
        return RETURN
    if text.startswith("stake "):
        col, row = parse_point(text[6:], size, size)
        return _STAKE[row * size + col]
    col, row = parse_point(text, size, size)
    return _PLACE[row * size + col]


STONES = StonesGame()
register(STONES)
