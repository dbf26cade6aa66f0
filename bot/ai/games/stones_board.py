"""Stones boards for the computer player: a read-only view of a position's groups, and a
mutable board that plays a whole playout on itself.

`PlayoutBoard` resolves moves as the engine does (captures, self-capture, stakes,
positional superko, decisive captures, a player without a legal move) without building
a state per move; the tests hold it to the engine over random games.
"""

from __future__ import annotations

from functools import cache

from bot.ai.bits import set_bits
from rules.stones import (
    RETURN,
    STAKE_LIBERTIES,
    MoveKind,
    Stake,
    StonesMove,
    StonesState,
    stake,
)


@cache
def around_of(size: int) -> tuple[tuple[int, ...], ...]:
    """Per point index: the up to eight points around it (diagonals included)."""
    table = []
    for p in range(size * size):
        col, row = p % size, p // size
        table.append(
            tuple(
                (row + dy) * size + col + dx
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
                if (dx or dy) and 0 <= col + dx < size and 0 <= row + dy < size
            )
        )
    return tuple(table)


def last_placement(state: StonesState) -> int | None:
    """The point of the last move when it was a placement."""
    move = state.last_move
    if move is None or move.kind is not MoveKind.PLACE:
        return None
    return move.point


class StonesBoard:
    """The groups around each point of one position, from the side of the player to move.

    `groups` maps a group's id to (seat, stones, liberties, hash) and `group_of` gives
    each point's group id (-1 when empty), as in the engine's state.
    """

    def __init__(self, state: StonesState) -> None:
        self.state = state
        self.neighbours = state.geometry.neighbours
        self.full = (1 << (state.size * state.size)) - 1
        self.group_of: list[int] | tuple[int, ...] = state.group_of
        self.groups: dict[int, list[int]] = {
            gid: [group.seat, group.stones, group.libs, group.zhash]
            for gid, group in state.groups.items()
        }
        self.seat = state.to_move
        self.black, self.white = state.black, state.white
        self._orient()

    def _orient(self) -> None:
        """Set `own`, `other` and `empty` for the player to move."""
        self.own, self.other = (self.white, self.black) if self.seat else (self.black, self.white)
        self.empty = self.full ^ (self.black | self.white)

    def shortfall(self, seat: int) -> int:
        """How far `seat`'s lead is from the lead its decisive capture needs."""
        return self.state.threshold(seat) - self.state.lead(seat)

    def libs_of(self, p: int) -> int:
        """The liberties of the group on point `p` (a stone must be there)."""
        return self.groups[self.group_of[p]][2]

    def liberties_after(self, p: int) -> int:
        """The liberties the mover's group through `p` would have after placing there,
        not counting any capture the placement makes."""
        bit = 1 << p
        libs = 0
        for q in self.neighbours[p]:
            if self.empty >> q & 1:
                libs |= 1 << q
            elif self.own >> q & 1:
                libs |= self.libs_of(q)
        return (libs & ~bit).bit_count()

    def captures(self, p: int) -> int:
        """The opponent stones a placement on `p` would capture."""
        taken = 0
        for q in self.neighbours[p]:
            if self.other >> q & 1:
                group = self.groups[self.group_of[q]]
                if group[2] == 1 << p:
                    taken |= group[1]
        return taken.bit_count()

    def is_own_eye(self, p: int) -> bool:
        """True when every neighbour of `p` is the mover's stone."""
        return all(self.own >> q & 1 for q in self.neighbours[p])

    def sensible(self, p: int) -> bool:
        """True when `p` is empty, keeps two liberties and does not fill one's own eye."""
        return bool(self.empty >> p & 1) and self.liberties_after(p) >= 2 and not self.is_own_eye(p)

    def atari_points(self, seat: int) -> dict[int, int]:
        """The last liberty of each group of `seat` in atari, with the stones at stake."""
        return self.ataris()[seat]

    def ataris(self) -> tuple[dict[int, int], dict[int, int]]:
        """`atari_points()` of seat 0 and of seat 1, from one look at the groups."""
        points: tuple[dict[int, int], dict[int, int]] = ({}, {})
        for seat, stones, libs, _ in self.groups.values():
            if libs and not libs & (libs - 1):
                p = libs.bit_length() - 1
                mine = points[seat]
                mine[p] = mine.get(p, 0) + stones.bit_count()
        return points

    def threatened(self) -> dict[int, int]:
        """Points that put an opponent group with two liberties in atari, with its size."""
        threats: dict[int, int] = {}
        for seat, stones, libs, _ in self.groups.values():
            if seat != self.seat and libs.bit_count() == 2:
                for p in set_bits(libs):
                    threats[p] = threats.get(p, 0) + stones.bit_count()
        return threats


class PlayoutBoard(StonesBoard):
    """A position that changes in place as moves are played on it (a playout's board)."""

    def __init__(self, state: StonesState) -> None:
        super().__init__(state)
        geometry = state.geometry
        self.group_of: list[int] = list(state.group_of)
        self.adjacent = geometry.adjacent
        self.stone_keys = geometry.stone_keys
        self.stake_keys = geometry.stake_keys
        self.staked = [list(state.staked[0]), list(state.staked[1])]
        self.prisoners = list(state.prisoners)
        self.thresholds = (state.threshold(0), state.threshold(1))
        self.zhash = state.zhash
        self.history = state.history
        self.seen: set[int] = set()
        """The positions the playout made (the game's own are in `history`)."""
        self.last = last_placement(state)
        self.winner = None if state.result is None else state.result.winner
        self.over = state.result is not None

    def is_new(self, key: int) -> bool:
        """True when position `key` has not occurred in the game or the playout."""
        return key not in self.seen and self.history.is_new(key)

    def may_place(self, p: int) -> bool:
        """Whether placing at `p` is legal: the game goes on, `p` is empty and the position
        it makes is new."""
        return not self.over and bool(self.empty >> p & 1) and self.is_new(self.placement_hash(p))

    def lead(self, seat: int) -> int:
        """Prisoners held by `seat` minus those held by the opponent."""
        return self.prisoners[seat] - self.prisoners[1 - seat]

    def shortfall(self, seat: int) -> int:
        return self.thresholds[seat] - self.lead(seat)

    # --- legality, as the engine's `_placement_hash`, `legal_moves` and `_has_legal_move`

    def placement_hash(self, p: int) -> int:
        """The hash of the position after the player to move places at empty point `p`."""
        seat = self.seat
        bit = 1 << p
        key = self.zhash ^ self.stone_keys[seat][p]
        captured = 0
        has_liberty = False
        doomed: list[list[int]] = []
        groups, group_of = self.groups, self.group_of
        for q in self.neighbours[p]:
            gid = group_of[q]
            if gid < 0:
                has_liberty = True
                continue
            group = groups[gid]
            if group[0] == seat:
                if group[2] != bit:
                    has_liberty = True
                elif group not in doomed:
                    doomed.append(group)
            elif group[2] == bit and not captured & group[1]:
                captured |= group[1]
                key ^= group[3]
        if captured:
            return key ^ self._stake_hash(1 - seat, captured)
        if has_liberty:
            return key
        key ^= self.stone_keys[seat][p]
        stones = bit
        for group in doomed:
            key ^= group[3]
            stones |= group[1]
        return key ^ self._stake_hash(seat, stones)

    def _stake_hash(self, seat: int, stones: int) -> int:
        """XOR of the keys of `seat`'s stakes that are lost with `stones`."""
        key = 0
        for item in self.staked[seat]:
            if item.anchors & stones:
                key ^= self.stake_keys[seat][item.point]
        return key

    def stake_points(self) -> int:
        """Bitboard of the points where the player to move may stake."""
        points = 0
        for seat, _, libs, _ in self.groups.values():
            if seat == self.seat:
                if libs.bit_count() > STAKE_LIBERTIES:
                    return 0
                points |= libs
        for item in self.staked[self.seat]:
            points &= ~(1 << item.point)
        return points

    def legal_moves(self) -> tuple[list[int], list[StonesMove]]:
        """The legal placement points and the other legal moves, in the engine's order."""
        in_atari = 0
        for _, _, libs, _ in self.groups.values():
            if not libs & (libs - 1):
                in_atari |= libs
        empty = self.empty
        simple = empty & ~in_atari & self.adjacent(empty | self.own)
        keys, current = self.stone_keys[self.seat], self.zhash
        points = [p for p in set_bits(simple) if self.is_new(current ^ keys[p])]
        points += [p for p in set_bits(empty & ~simple) if self.is_new(self.placement_hash(p))]
        rest = [RETURN] if self.lead(self.seat) > 0 else []
        rest += [stake(p) for p in set_bits(self.stake_points())]
        return points, rest

    def has_legal_move(self) -> bool:
        """Whether the player to move has any legal move."""
        if self.lead(self.seat) > 0:
            return True
        empty = self.empty
        roomy = empty & self.adjacent(empty)
        return self._any_new(roomy) or self._any_new(empty ^ roomy) or self.stake_points() != 0

    def _any_new(self, points: int) -> bool:
        """True when a placement on one of `points` makes a new position (lowest first,
        stopping at the first)."""
        while points:
            low = points & -points
            if self.is_new(self.placement_hash(low.bit_length() - 1)):
                return True
            points ^= low
        return False

    # --- moves, as the engine's `play`

    def play(self, move: StonesMove) -> None:
        """Play a legal `move` and judge the game as the engine does."""
        mover = self.seat
        taken = 0
        if move.kind is MoveKind.PLACE:
            assert move.point is not None
            taken = self._place(move.point)
            self.last = move.point
        else:
            if move.kind is MoveKind.STAKE:
                assert move.point is not None
                self._stake(move.point)
            else:
                self.prisoners[mover] -= 1
            self.last = None
        self.seen.add(self.zhash)
        self.seat = 1 - mover
        self._orient()
        # A decisive capture wins, and so does leaving the opponent without a move.
        decisive = taken >= 2 and self.lead(mover) >= self.thresholds[mover]
        if decisive or not self.has_legal_move():
            self.over, self.winner = True, mover

    def _stake(self, p: int) -> None:
        seat = self.seat
        anchors = 0
        for owner, stones, libs, _ in self.groups.values():
            if owner == seat and libs >> p & 1:
                anchors |= stones
        self.staked[seat].append(Stake(p, anchors))
        self.zhash ^= self.stake_keys[seat][p]

    def _place(self, p: int) -> int:
        """Put a stone on `p`, resolve captures and self-capture; return the stones and
        stakes of the opponent it captured."""
        seat, other = self.seat, 1 - self.seat
        groups, neighbours = self.groups, self.neighbours
        group_of = self.group_of
        bit = 1 << p
        key = self.stone_keys[seat][p]
        self.zhash ^= key
        own_ids: list[int] = []
        other_ids: list[int] = []
        stones, libs, group_hash = bit, 0, key
        for q in neighbours[p]:
            gid = group_of[q]
            if gid < 0:
                libs |= 1 << q
            elif groups[gid][0] == seat:
                if gid not in own_ids:
                    own_ids.append(gid)
            elif gid not in other_ids:
                other_ids.append(gid)
        # The engine keeps the biggest group's id and puts the merged group last.
        new_id = p
        if own_ids:
            new_id = max(own_ids, key=lambda gid: groups[gid][1].bit_count())
            relabel = ~groups[new_id][1]
            for gid in own_ids:
                group = groups.pop(gid)
                stones |= group[1]
                libs |= group[2]
                group_hash ^= group[3]
            relabel &= stones
        else:
            relabel = bit
        for q in set_bits(relabel):
            group_of[q] = new_id
        libs &= ~bit
        groups[new_id] = [seat, stones, libs, group_hash]

        captured = 0
        for gid in other_ids:
            group = groups[gid]
            group[2] &= ~bit
            if not group[2]:
                del groups[gid]
                captured |= group[1]
                self.zhash ^= group[3]
        loser = other
        if captured:
            self._free(captured)
            gone = captured
        elif not libs:
            del groups[new_id]
            self.zhash ^= group_hash
            self._free(stones)
            gone, loser = stones, seat
        else:
            gone = 0
        if seat:
            self.white |= bit
        else:
            self.black |= bit
        if loser:
            self.white &= ~gone
        else:
            self.black &= ~gone
        if not gone:
            return 0
        kept, lost = [], 0
        for item in self.staked[loser]:
            if item.anchors & gone:
                lost += 1
                self.zhash ^= self.stake_keys[loser][item.point]
            else:
                kept.append(item)
        self.staked[loser] = kept
        self.prisoners[1 - loser] += gone.bit_count() + lost
        return gone.bit_count() + lost if loser == other else 0

    def _free(self, stones: int) -> None:
        """Empty the points of removed `stones`; groups around them gain those liberties."""
        groups, group_of, neighbours = self.groups, self.group_of, self.neighbours
        for q in set_bits(stones):
            group_of[q] = -1
        for q in set_bits(stones):
            for r in neighbours[q]:
                gid = group_of[r]
                if gid >= 0:
                    groups[gid][2] |= 1 << q
