"""Knowledge of Diffusion Chess: keep one's stones in few groups and the king walled in,
capture the opponent's king when it is open; sample a few sensible moves, since a full
move list runs into thousands of paths.

Cells are indices row·19 + col, as in the engine's `board` and `frozen` bytes.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable
from itertools import islice, pairwise

from bot.ai.policy import Move, Policy, State, logistic, register_policy
from rules.diffusion import (
    ECHO,
    SIZE,
    TURN_LIMIT,
    TURN_MOVES,
    DiffusionMove,
    DiffusionState,
    group_sizes,
)

CELLS = SIZE * SIZE
EMPTY = 0
STONES_SAMPLED = 8
"""Stones whose destinations are listed at each node of the search tree."""
MOVES_PER_STONE = 3
"""The best destinations kept per sampled stone."""
RANDOM_MOVES = 4
"""Moves added at random to each node's candidates, for variety."""
WALKS = 4
"""Random walks a playout tries for one move before settling for any of them."""
MAX_WALK = 4
"""The longest random walk of a playout move."""
CHECKED = 24
"""Candidates per node whose effect on the group counts is worked out exactly."""
BRIDGE_WEIGHT = 0.25
"""The cost of each stone missing from a bridge between two of one's groups."""
OPEN_KING_WEIGHT = 0.6
"""The cost of each empty cell next to one's own king."""
KING_DANGER_WEIGHT = 16.0
"""The cost, in groups, of a king the opponent could take as things stand (see `exposed`)."""
STRANDED_PER_MOVE = 5
"""The most stones of one colour a single move can leave stranded (see `_may_end_by_groups`)."""
EVALUATION_SCALE = 0.35
"""How steeply a lead in (weighted) groups turns into a chance of winning: gentle, so
that a search still tells a lead of three groups from a lead of six."""


def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per cell: its orthogonal neighbours, and its eight surrounding cells in circular
    order starting north (-1 off the board)."""
    neighbours, rings = [], []
    for cell in range(CELLS):
        col, row = cell % SIZE, cell // SIZE
        near = []
        for dc, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE:
                near.append((row + dr) * SIZE + col + dc)
        neighbours.append(tuple(near))
        ring = []
        for dc, dr in ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)):
            inside = 0 <= col + dc < SIZE and 0 <= row + dr < SIZE
            ring.append((row + dr) * SIZE + col + dc if inside else -1)
        rings.append(tuple(ring))
    return tuple(neighbours), tuple(rings)


NEIGHBOURS, RINGS = _tables()


def keeps_group(board: bytes, cell: int) -> bool:
    """True when taking the stone off `cell` cannot split its group.

    Its neighbours of the same colour must all be linked around it, through the
    diagonal cells of its ring; then they stay connected without it.
    """
    return _orthogonal_runs(board, cell) <= 1


def _orthogonal_runs(board: bytes, cell: int) -> int:
    """The number of separate runs of same-coloured ring cells that hold an orthogonal
    neighbour of `cell` (runs connect orthogonally around the ring)."""
    own = board[cell]
    ring = RINGS[cell]
    present = [here >= 0 and board[here] == own for here in ring]
    if all(present):
        return 1
    start = present.index(False)
    runs = 0
    in_run = has_orthogonal = False
    for step in range(1, 9):
        index = (start + step) % 8
        if present[index]:
            in_run = True
            has_orthogonal |= index % 2 == 0
        else:
            if in_run and has_orthogonal:
                runs += 1
            in_run = has_orthogonal = False
    return runs


def friends(board: bytes, cell: int, own: int, origin: int) -> int:
    """The stones of colour `own` next to `cell`, not counting the one on `origin`."""
    return sum(1 for near in NEIGHBOURS[cell] if near != origin and board[near] == own)


def open_sides(board: bytes, cell: int) -> int:
    """The empty cells next to `cell` (0 when walled in, or for no king)."""
    if cell < 0:
        return 0
    return sum(1 for near in NEIGHBOURS[cell] if board[near] == EMPTY)


def _movable(state: DiffusionState) -> list[int]:
    """The cells of the stones of the player to move that may still move this turn."""
    board, frozen, moved = state.board, state.frozen, state.moved
    own = state.to_move + 1
    cells = []
    cell = board.find(own)
    while cell >= 0:
        if frozen[cell] > 1 and not moved >> cell & 1:
            cells.append(cell)
        cell = board.find(own, cell + 1)
    return cells


def _moves_of(state: DiffusionState, cell: int) -> list[DiffusionMove]:
    return state.moves_from(cell % SIZE, cell // SIZE)


def groups_of(board: bytes, colour: int) -> list[list[int]]:
    """The groups of stones of `colour` (1 White, 2 Black), largest first."""
    seen = bytearray(CELLS)
    groups = []
    cell = board.find(colour)
    while cell >= 0:
        if not seen[cell]:
            seen[cell] = 1
            group = [cell]
            for here in group:
                for near in NEIGHBOURS[here]:
                    if board[near] == colour and not seen[near]:
                        seen[near] = 1
                        group.append(near)
            groups.append(group)
        cell = board.find(colour, cell + 1)
    groups.sort(key=len, reverse=True)
    return groups


def scatter(board: bytes, colour: int) -> float:
    """How far a side is from one group: its number of groups, plus the stones it would
    take to bridge the gap between its largest group and each other one."""
    groups = groups_of(board, colour)
    if len(groups) <= 1:
        return float(len(groups))
    return len(groups) + BRIDGE_WEIGHT * _gaps(groups)


def _gaps(groups: list[list[int]]) -> int:
    """The stones missing between the first group and each other one, summed: each
    gap is the least taxicab distance less one, found row by row of the first group."""
    rows: dict[int, list[int]] = {}
    for cell in groups[0]:
        rows.setdefault(cell // SIZE, []).append(cell % SIZE)
    lines = [(row, sorted(columns)) for row, columns in rows.items()]
    gaps = 0
    for group in groups[1:]:
        best = CELLS
        for cell in group:
            x, y = cell % SIZE, cell // SIZE
            for row, columns in lines:
                dy = abs(y - row)
                if dy >= best:
                    continue
                i = bisect_left(columns, x)
                dx = columns[i] - x if i < len(columns) else CELLS
                if i:
                    dx = min(dx, x - columns[i - 1])
                best = min(best, dy + dx)
        gaps += best - 1
    return gaps


def exposed(board: bytes, king: int) -> bool:
    """True when the opponent could take the king on `king` with one move if its turn
    started on `board` (group sizes as they stand): a stone of a group no larger than
    the king's, of two or more, within its reach of the king over empty cells."""
    if king < 0:
        return False
    sizes = group_sizes(board)[0]
    target = sizes[king]
    enemy = 3 - board[king]
    hunters = [cell for cell in range(CELLS) if board[cell] == enemy and 2 <= sizes[cell] <= target]
    if not hunters:
        return False
    distance = _distances_to(board, king, max(sizes[cell] for cell in hunters) - 1)
    return any(_reaches(cell, king, distance, sizes[cell] - 1) for cell in hunters)


def _reaches(cell: int, king: int, distance: dict[int, int], reach: int) -> bool:
    """True when a stone on `cell` can step onto `king` within `reach` steps, given each
    empty cell's `distance` to the king over empty cells (see `_distances_to`)."""
    return any(near == king or distance.get(near, CELLS) < reach for near in NEIGHBOURS[cell])


def _distances_to(board: bytes, target: int, limit: int) -> dict[int, int]:
    """Steps from each empty cell to `target` over empty cells (1 next to it), up to `limit`."""
    frontier = [near for near in NEIGHBOURS[target] if board[near] == EMPTY]
    distance = dict.fromkeys(frontier, 1)
    steps = 1
    while frontier and steps < limit:
        steps += 1
        grown = []
        for here in frontier:
            for near in NEIGHBOURS[here]:
                if board[near] == EMPTY and near not in distance:
                    distance[near] = steps
                    grown.append(near)
        frontier = grown
    return distance


def king_captures(state: DiffusionState) -> list[DiffusionMove]:
    """Every listed move that captures the opponent's king."""
    king = state.kings[1 - state.to_move]
    # A walled-in king is still taken by a stone next to it (a one-step path).
    if king < 0 or state.result is not None:
        return []
    board, frozen = state.board, state.frozen
    target = frozen[king]
    distance = _distances_to(board, king, target)
    captures: list[DiffusionMove] = []
    for cell in _movable(state):
        size = frozen[cell]
        if size <= target and _reaches(cell, king, distance, size - 1):
            captures.extend(move for move in _moves_of(state, cell) if move.path[-1] == king)
    return captures


def _net_groups(state: DiffusionState, move: DiffusionMove) -> int:
    """The opponent's groups minus one's own after `move` (higher is better)."""
    counts = group_sizes(state.play(move).board)[1]
    mover = state.to_move
    return counts[1 - mover] - counts[mover]


class _GroupCounter:
    """The opponent's groups minus one's own after each of many moves of one position:
    worked out from the position's group labels for a quiet move (no capture, from a
    stone its group keeps), by playing the move otherwise."""

    def __init__(self, state: DiffusionState) -> None:
        self.state = state
        own = state.to_move + 1
        self.board = state.board
        self.labels = [-1] * CELLS
        groups = groups_of(state.board, own)
        for label, group in enumerate(groups):
            for cell in group:
                self.labels[cell] = label
        self.net = len(groups_of(state.board, 3 - own)) - len(groups)

    def after(self, move: DiffusionMove) -> int:
        """The opponent's groups minus one's own after `move`, as `_net_groups()`."""
        board, labels = self.board, self.labels
        start, end = move.path[0], move.path[-1]
        if board[end] != EMPTY or not keeps_group(board, start):
            return _net_groups(self.state, move)
        # The stone leaves a group that stays whole, or a group of its own, which goes.
        alone = all(labels[near] != labels[start] for near in NEIGHBOURS[start])
        joined = {labels[near] for near in NEIGHBOURS[end] if near != start and labels[near] >= 0}
        # It lands as a new group, or joins (and merges) the groups next to it.
        change = (1 - len(joined)) - (1 if alone else 0)
        return self.net - change


class DiffusionPolicy(Policy):
    """A few dozen sampled moves per node, checked by their effect on the group counts;
    playouts by short random walks that end next to one's own stones."""

    # One turn's worth: random walks degrade a position, so longer playouts mostly
    # add noise to the evaluation (hard beat easy 10-1-9 with 10 moves, 7-0-3 with 5).
    playout_depth = 5
    widening = (2.0, 0.5)

    def moves_left_in_turn(self, state: State) -> int:
        assert isinstance(state, DiffusionState)
        return state.moves_left

    complete = False

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        assert isinstance(state, DiffusionState)
        wins = king_captures(state)
        if wins:
            return wins[:1]
        movable = _movable(state)
        pool, others = self._pool(state, movable, rng)
        pool.sort(key=lambda pair: -pair[0])
        # The best by the cheap score are checked exactly: how the group counts change.
        counter = _GroupCounter(state)
        checked = [(counter.after(move) + 0.1 * cheap, move) for cheap, move in pool[:CHECKED]]
        checked.sort(key=lambda pair: -pair[0])
        ordered: list[Move] = [move for _, move in checked]
        ordered.extend(move for _, move in pool[CHECKED:])
        ordered.extend(rng.sample(others, min(RANDOM_MOVES, len(others))))
        if not ordered:
            # Only the king, its guards or stones holding a group together can move.
            for cell in movable:
                ordered.extend(_moves_of(state, cell))
        if state.echo_available:
            ordered.append(ECHO)
        return list(dict.fromkeys(ordered))

    @staticmethod
    def _pool(
        state: DiffusionState, movable: list[int], rng: random.Random
    ) -> tuple[list[tuple[float, DiffusionMove]], list[DiffusionMove]]:
        """(cheap score, move) for the best moves of a sample of stones, and the rest.

        Stones outside one's largest group come first: they are the ones to bring home.
        The king, the stones next to it and stones holding a group together stay.
        Captures are kept once per captured stone.
        """
        board = state.board
        own = state.to_move + 1
        king = state.kings[state.to_move]
        guards = set(NEIGHBOURS[king]) if king >= 0 else set()
        holes = {near for near in guards if board[near] == EMPTY}
        main = set(groups_of(board, own)[0]) if movable else set()
        free = [c for c in movable if c != king and c not in guards and keeps_group(board, c)]
        rng.shuffle(free)
        free.sort(key=lambda cell: cell in main)
        pool: list[tuple[float, DiffusionMove]] = []
        others: list[DiffusionMove] = []
        captured: set[int] = set()
        # Each destination's own neighbours, less the moving stone when it is one (=
        # friends()), counted once per destination: most cells are never one.
        near_own: dict[int, int] = {}
        for cell in free[:STONES_SAMPLED]:
            scored = []
            around = NEIGHBOURS[cell]
            for move in _moves_of(state, cell):
                end = move.path[-1]
                if board[end] != EMPTY:
                    if end not in captured:
                        captured.add(end)
                        pool.append((0.5, move))
                    continue
                friendly = near_own.get(end)
                if friendly is None:
                    friendly = near_own[end] = sum(board[near] == own for near in NEIGHBOURS[end])
                score = friendly - (end in around) + (3.0 if end in holes else 0.0)
                scored.append((score - 0.01 * len(move.path), move))
            scored.sort(key=lambda pair: -pair[0])
            pool.extend(scored[:MOVES_PER_STONE])
            others.extend(move for _, move in scored[MOVES_PER_STONE:])
        return pool, others

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        assert isinstance(state, DiffusionState)
        # An open king is taken: playouts then punish turns that leave one's king open.
        wins = king_captures(state)
        if wins:
            return wins[0]
        board, frozen = state.board, state.frozen
        own = state.to_move + 1
        king = state.kings[state.to_move]
        outside = [
            cell
            for cell in _movable(state)
            if cell != king and any(board[near] != own for near in NEIGHBOURS[cell])
        ]
        rng.shuffle(outside)
        fallback: tuple[int, ...] | None = None
        for tries, cell in enumerate(outside):
            if tries >= WALKS and fallback is not None:
                break
            if not keeps_group(board, cell):
                continue
            path = _walk(board, cell, min(frozen[cell] - 1, MAX_WALK), rng)
            if path is None:
                continue
            if friends(board, path[-1], own, cell):
                return DiffusionMove(path)
            fallback = fallback or path
        if fallback is not None:
            return DiffusionMove(fallback)
        # Only the king or stones holding a group together can move (or nothing can).
        moves = list(state.legal_moves())
        return rng.choice(moves) if moves else None

    def evaluate(self, state: State) -> float:
        assert isinstance(state, DiffusionState)
        if king_captures(state):
            return 1.0 - state.to_move  # the player to move takes the king
        board = state.board
        score = scatter(board, 2) - scatter(board, 1)
        score += OPEN_KING_WEIGHT * (
            open_sides(board, state.kings[1]) - open_sides(board, state.kings[0])
        )
        # The opponent's turn comes next: a king it could take as things stand is in
        # danger (the player to move has only its moves left this turn to save it).
        seat = state.to_move
        if exposed(board, state.kings[seat]):
            score += KING_DANGER_WEIGHT if seat else -KING_DANGER_WEIGHT
        # Group counts decide the game at the end: they weigh more as it nears.
        urgency = 0.5 + state.turn_number / (2 * TURN_LIMIT)
        return logistic(EVALUATION_SCALE * urgency * score)

    def may_end_within(self, state: State, plies: int) -> bool:
        return any(self.may_win_within(state, seat, plies) for seat in (0, 1))

    def may_win_within(self, state: State, seat: int, plies: int) -> bool:
        # Away from the game's ending by group counts, it is won only by taking a
        # king, on one's own turn, with a stone that can reach it.
        assert isinstance(state, DiffusionState)
        if state.result is not None or _may_end_by_groups(state, plies):
            return True
        if seat != state.to_move:
            return plies > state.moves_left
        return plies > state.moves_left + TURN_MOVES or _has_hunter(state)

    def winning_candidates(self, state: State) -> Iterable[Move]:
        assert isinstance(state, DiffusionState)
        captures: list[Move] = list(king_captures(state))
        if state.echo_available:
            captures.append(ECHO)  # an echo may run on into the king
        return captures

    def attacks(self, state: State, plies: int, rng: random.Random) -> list[Move]:
        assert isinstance(state, DiffusionState)
        if plies <= state.moves_left:
            # The rest of the search is this turn's: only a king hunt can win in it.
            return _hunt(state)
        # The sampled candidates, and every move that brings a stone which may take
        # the opponent's king (its group no larger) within one more move of it.
        moves: list[Move] = list(self.candidates(state, rng))
        king = state.kings[1 - state.to_move]
        if king >= 0 and state.moves_left > 1:
            frozen = state.frozen
            for cell in _movable(state):
                if frozen[cell] > frozen[king]:
                    continue
                for move in _moves_of(state, cell):
                    end = move.path[-1]
                    if _steps(end, king) <= frozen[cell] - 1:
                        moves.append(move)
        if state.echo_available:
            moves.append(ECHO)
        return list(dict.fromkeys(moves))

    def defences(self, state: State, attacker: int) -> list[Move]:
        # Thousands of paths are legal: the tactical search defends with the sampled
        # candidates (a fixed sample), so it may miss a defence but stays affordable.
        return self.candidates(state, random.Random(state.ply))


def _plies_to_the_end(state: DiffusionState) -> int:
    """The moves left before the game ends by its turn limit (turns that run their full
    length)."""
    return state.moves_left + TURN_MOVES * (2 * TURN_LIMIT - state.turn_number)


def _may_end_by_groups(state: DiffusionState, plies: int) -> bool:
    """False when the game cannot end by its group counts within `plies` plies: neither
    the turn limit is reached nor can a player be left without a move at the start of
    a turn (as far as stranding goes: a stone in a group of two or more walled in by
    stones it cannot take is not foreseen)."""
    if plies >= _plies_to_the_end(state):
        return True
    if plies < state.moves_left:
        return False
    sizes, board = group_sizes(state.board)[0], state.board
    mover, other = state.to_move + 1, 2 - state.to_move
    # A move strands at most five stones of a colour: the one it moves (or captures)
    # and the groups around that stone's cell, split into single stones.
    if _free_stones(board, sizes, other) <= STRANDED_PER_MOVE * state.moves_left:
        return True
    before = state.moves_left + TURN_MOVES
    return plies >= before and _free_stones(board, sizes, mover) <= STRANDED_PER_MOVE * before


def _free_stones(board: bytes, sizes: bytes, colour: int) -> int:
    """The stones of `colour` in groups of two or more (the ones that may move)."""
    return sum(1 for cell in range(CELLS) if board[cell] == colour and sizes[cell] > 1)


def _has_hunter(state: DiffusionState) -> bool:
    """True when the player to move may still take the opponent's king this turn: an
    echo is open, or a stone that may take the king (its group no larger) is within
    reach of it (a move and its echo: twice the move's reach; the king has no echo)."""
    king = state.kings[1 - state.to_move]
    if king < 0:
        return False
    if state.echo_available:
        return True
    frozen = state.frozen
    own_king = state.kings[state.to_move]
    for cell in _movable(state):
        reach = frozen[cell] - 1
        if frozen[cell] <= frozen[king] and _steps(cell, king) <= (
            reach if cell == own_king else 2 * reach
        ):
            return True
    return False


CLEARINGS_PER_STONE = 2
"""Moves tried per own stone standing in the way of a king hunt."""


def _hunt(state: DiffusionState) -> list[Move]:
    """The moves that may lead to taking the opponent's king within this turn.

    A stone moves once a turn and captures never open a path (the captured stone takes
    the capturer's last cell), so within a turn the king falls to a stone that may take
    it (its group no larger) reaching it in one move, after own stones standing in its
    way moved aside, or to a move followed by its echo. Listed: the moves whose echo
    would run into the king, the echo itself, and a few moves aside for each own stone
    within such a stone's reach of the king.
    """
    king = state.kings[1 - state.to_move]
    if king < 0:
        return []
    board, frozen = state.board, state.frozen
    movable = _movable(state)
    hunters = [cell for cell in movable if frozen[cell] <= frozen[king]]
    moves: list[Move] = []
    own_king = state.kings[state.to_move]
    for cell in hunters:
        reach = frozen[cell] - 1
        if cell == own_king or _steps(cell, king) > 2 * reach:
            continue  # a king's move has no echo; a move and its echo go twice its reach
        for move in _moves_of(state, cell):
            end, steps = move.path[-1], len(move.path) - 1
            if (
                board[end] == EMPTY
                and _steps(end, king) <= steps
                and _echo_reaches(board, move.path, king)
            ):
                moves.append(move)
    if state.echo_available:
        moves.append(ECHO)
    way = _in_the_way(hunters, frozen, king)
    for cell in movable:
        if cell in way:
            aside = (m for m in _moves_of(state, cell) if m.path[-1] not in way)
            moves.extend(islice(aside, CLEARINGS_PER_STONE))
    return list(dict.fromkeys(moves))


def _steps(a: int, b: int) -> int:
    """The taxicab distance between cells `a` and `b`."""
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


def _in_the_way(hunters: list[int], frozen: bytes, king: int) -> set[int]:
    """The cells on some shortest-enough way from a hunter to the king: within its reach
    counting the steps to the cell and on to the king (the hunters' own cells aside)."""
    col, row = king % SIZE, king // SIZE
    way: set[int] = set()
    for hunter in hunters:
        reach = frozen[hunter] - 1
        x0, y0 = hunter % SIZE, hunter // SIZE
        slack = (reach - abs(x0 - col) - abs(y0 - row)) // 2
        if slack < 0:
            continue
        # A detour of `slack` steps out of the box between the two, and back.
        for y in range(max(0, min(y0, row) - slack), min(SIZE, max(y0, row) + slack + 1)):
            for x in range(max(0, min(x0, col) - slack), min(SIZE, max(x0, col) + slack + 1)):
                cell = y * SIZE + x
                if (
                    cell != hunter
                    and abs(x - x0) + abs(y - y0) + abs(x - col) + abs(y - row) <= reach
                ):
                    way.add(cell)
    way.discard(king)
    return way


def _echo_reaches(board: bytes, path: tuple[int, ...], target: int) -> bool:
    """True when the echo of a quiet move along `path` would run into `target`: the
    same steps again from the path's end, stopped by the first cell not empty."""
    here = path[-1]
    x, y = here % SIZE, here // SIZE
    for before, after in pairwise(path):
        x += after % SIZE - before % SIZE
        y += after // SIZE - before // SIZE
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return False
        cell = y * SIZE + x
        if cell == target:
            return True
        if board[cell] != EMPTY and cell != path[0]:
            return False
    return False


def _walk(board: bytes, start: int, steps: int, rng: random.Random) -> tuple[int, ...] | None:
    """A random self-avoiding path of 1 to `steps` steps over empty cells from `start`."""
    if steps < 1:
        return None
    path = [start]
    for _ in range(rng.randint(1, steps)):
        options = [
            near for near in NEIGHBOURS[path[-1]] if board[near] == EMPTY and near not in path
        ]
        if not options:
            break
        path.append(rng.choice(options))
    return tuple(path) if len(path) > 1 else None


register_policy("diffusion", DiffusionPolicy)
