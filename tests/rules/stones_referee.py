"""A slow, plain Stones referee written from the rules text, to cross-check the engine.

It shares no code with `rules/stones.py`: the board is a dict, groups are found by
breadth-first search, and the history is a set of complete positions (frozensets), so
superko is decided by comparing positions, never hashes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.squares import format_point

Point = tuple[int, int]
Position = frozenset[tuple[str, int, int, int]]


@dataclass
class Referee:
    """A Stones game in progress, judged the slow way."""

    size: int
    needs: tuple[int, int]
    """The lead each seat needs for a decisive move."""
    prisoners: list[int]
    board: dict[Point, int] = field(default_factory=dict)
    stakes: list[dict[Point, frozenset[Point]]] = field(default_factory=lambda: [{}, {}])
    """Per seat: stake point -> the stones of the groups it was attached to."""
    to_move: int = 0
    seen: set[Position] = field(default_factory=set)
    winner: int | None = None
    over: bool = False

    @classmethod
    def new(cls, size: int, threshold: int, compensation: int) -> Referee:
        """The start of a game."""
        referee = cls(size, (threshold - compensation, threshold + compensation), [0, compensation])
        referee.seen.add(referee.position(referee.board, referee.stakes))
        return referee

    def neighbours(self, point: Point) -> list[Point]:
        col, row = point
        near = [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]
        return [(c, r) for c, r in near if 0 <= c < self.size and 0 <= r < self.size]

    def group(self, board: dict[Point, int], start: Point) -> set[Point]:
        colour = board[start]
        found, todo = {start}, [start]
        while todo:
            for near in self.neighbours(todo.pop()):
                if board.get(near) == colour and near not in found:
                    found.add(near)
                    todo.append(near)
        return found

    def liberties(self, board: dict[Point, int], stones: set[Point]) -> set[Point]:
        return {near for p in stones for near in self.neighbours(p) if near not in board}

    def groups_of(self, seat: int) -> list[set[Point]]:
        groups: list[set[Point]] = []
        for point, colour in self.board.items():
            if colour == seat and not any(point in g for g in groups):
                groups.append(self.group(self.board, point))
        return groups

    @staticmethod
    def position(board: dict[Point, int], stakes: list[dict[Point, frozenset[Point]]]) -> Position:
        stones = {("stone", c, r, seat) for (c, r), seat in board.items()}
        staked = {("stake", c, r, seat) for seat in (0, 1) for (c, r) in stakes[seat]}
        return frozenset(stones | staked)

    def _placement(
        self, point: Point
    ) -> tuple[dict[Point, int], list[dict[Point, frozenset[Point]]], int, int] | None:
        """(board, stakes, loser, prisoners taken) after a placement, or None if illegal."""
        if point in self.board:
            return None
        seat = self.to_move
        board = dict(self.board)
        board[point] = seat
        removed: set[Point] = set()
        for near in self.neighbours(point):
            if board.get(near) == 1 - seat and near not in removed:
                group = self.group(board, near)
                if not self.liberties(board, group):
                    removed |= group
        loser = 1 - seat
        if not removed:
            own = self.group(board, point)
            if not self.liberties(board, own):
                removed, loser = own, seat
        for p in removed:
            del board[p]
        stakes = [dict(self.stakes[0]), dict(self.stakes[1])]
        lost = [p for p, anchors in stakes[loser].items() if anchors & removed]
        for p in lost:
            del stakes[loser][p]
        if self.position(board, stakes) in self.seen:
            return None
        return board, stakes, loser, len(removed) + len(lost)

    def stake_points(self) -> set[Point]:
        groups = self.groups_of(self.to_move)
        if not groups or any(len(self.liberties(self.board, g)) > 2 for g in groups):
            return set()
        points = set().union(*(self.liberties(self.board, g) for g in groups))
        return points - set(self.stakes[self.to_move])

    def legal(self) -> set[str]:
        """Every legal move in notation."""
        if self.over:
            return set()
        moves = {
            format_point(c, r)
            for c in range(self.size)
            for r in range(self.size)
            if self._placement((c, r)) is not None
        }
        if self.prisoners[self.to_move] > self.prisoners[1 - self.to_move]:
            moves.add("return")
        moves |= {f"stake {format_point(c, r)}" for c, r in self.stake_points()}
        return moves

    def play(self, text: str) -> None:
        """Play a legal move given in notation, then judge the end of the game."""
        seat = self.to_move
        if text == "return":
            self.prisoners[seat] -= 1
        elif text.startswith("stake "):
            point = _point(text[6:])
            anchors = frozenset().union(
                *(g for g in self.groups_of(seat) if point in self.liberties(self.board, g))
            )
            self.stakes[seat][point] = anchors
        else:
            result = self._placement(_point(text))
            assert result is not None, f"{text} is illegal"
            self.board, self.stakes, loser, taken = result
            self.prisoners[1 - loser] += taken
            lead = self.prisoners[seat] - self.prisoners[1 - seat]
            if loser != seat and taken >= 2 and lead >= self.needs[seat]:
                self.winner, self.over = seat, True
        self.seen.add(self.position(self.board, self.stakes))
        self.to_move = 1 - seat
        if not self.over and not self.legal():
            self.winner, self.over = seat, True


def _point(name: str) -> Point:
    letters = "abcdefghjklmnopqrst"
    return letters.index(name[0]), int(name[1:]) - 1
