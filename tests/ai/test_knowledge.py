"""The per-game knowledge's board helpers, checked against plain brute force."""

from __future__ import annotations

import math
import random

import pytest

from bot.ai.bits import nth_bit, set_bits
from bot.ai.games import diffusion, groups, hexade_bits, rekushu, stones, stones_board
from rules import IllegalMoveError
from rules.diffusion import DIFFUSION, KING_CAPTURED, TURN_LIMIT, DiffusionState, group_sizes
from rules.groups import GroupsState
from rules.hexade import SHAPES, HexadeState
from rules.hexcoords import board_cells
from rules.rekushu import Rectangle, RekushuState
from rules.squares import format_point, parse_point
from rules.stones import STONES, MoveKind, StonesMove, StonesState, place
from tests.ai.conftest import random_position


@pytest.mark.parametrize("seed", range(6))
def test_hexade_windows_match_brute_force(seed: int) -> None:
    """Open windows by own-stone count equal a count over every placement of every shape."""
    state = random_position("hexade", 10 + 6 * seed, seed)
    assert isinstance(state, HexadeState)
    tables = hexade_bits.tables_for(state.size)
    cells = set(board_cells(state.size))
    white = set(state.stones(0))
    black = set(state.stones(1))
    for own, other, bits in (
        (white, black, (state.white, state.black)),
        (black, white, (state.black, state.white)),
    ):
        expected = [0] * 7
        for _, offsets in SHAPES:
            for q, r in cells:
                window = [(q + dq, r + dr) for dq, dr in offsets]
                if all(c in cells for c in window) and not any(c in other for c in window):
                    expected[sum(c in own for c in window)] += 1
        found = hexade_bits.windows(tables, *bits)
        assert [found.count(k) for k in range(7)] == expected


@pytest.mark.parametrize("seed", range(4))
def test_hexade_capture_cells_are_exactly_the_capturing_moves(seed: int) -> None:
    """capture_cells() marks the empty cells whose placement removes opponent stones."""
    state = random_position("hexade", 30 + 5 * seed, seed)
    assert isinstance(state, HexadeState)
    tables = hexade_bits.tables_for(state.size)
    own, other = (state.black, state.white) if state.to_move else (state.white, state.black)
    marked = hexade_bits.capture_cells(tables, own, other, tables.full & ~(own | other))
    for move in state.legal_moves():
        bit = move.r * (2 * state.size - 1) + move.q
        assert bool(marked >> bit & 1) == bool(state.play(move).captured), move


def test_groups_group_count_and_scatter() -> None:
    """Two orthogonal groups, diagonal contact not counted; a compact six scatters least."""
    from rules.groups import GROUPS

    state = GROUPS.position(["a1", "a2", "b3", "c3", "h8", "h7"], ["d5", "e5"])
    assert isinstance(state, GroupsState)
    assert groups.group_count(state.white) == 3
    block = GROUPS.position(["c3", "d3", "c4", "d4", "c5", "d5"], ["h8"]).white
    line = GROUPS.position(["a1", "b1", "c1", "d1", "e1", "f1"], ["h8"]).white
    assert groups.group_count(block) == groups.group_count(line) == 1
    assert groups.scatter(block) < groups.scatter(line)


@pytest.mark.parametrize("seed", range(8))
def test_diffusion_keeps_group_never_splits_a_group(seed: int) -> None:
    """Whenever keeps_group() says a stone may leave, its group stays in one piece."""
    state = random_position("diffusion", 20 + 10 * seed, seed)
    assert isinstance(state, DiffusionState)
    board = state.board
    for cell, value in enumerate(board):
        if not value or not diffusion.keeps_group(board, cell):
            continue
        without = bytearray(board)
        without[cell] = 0
        before = group_sizes(board)[1][value - 1]
        after = group_sizes(bytes(without))[1][value - 1]
        alone = all(board[near] != value for near in diffusion.NEIGHBOURS[cell])
        assert after == before - alone


@pytest.mark.parametrize("seed", range(4))
def test_diffusion_groups_of_matches_the_engine(seed: int) -> None:
    """groups_of() finds as many groups, of the same sizes, as the engine's group_sizes()."""
    state = random_position("diffusion", 40 * seed, seed)
    assert isinstance(state, DiffusionState)
    counts = group_sizes(state.board)[1]
    for colour in (1, 2):
        found = diffusion.groups_of(state.board, colour)
        assert len(found) == counts[colour - 1]
        assert sum(len(group) for group in found) == state.board.count(colour)
        assert [len(group) for group in found] == sorted((len(g) for g in found), reverse=True)


@pytest.mark.parametrize("seed", range(6))
def test_diffusion_group_counter_agrees_with_playing_each_move(seed: int) -> None:
    """The group counts worked out from labels equal those of the position each move makes."""
    state = random_position("diffusion", 8 + 25 * seed, seed)
    assert isinstance(state, DiffusionState)
    counter = diffusion._GroupCounter(state)
    moves = list(state.legal_moves())
    assert moves
    for move in moves:
        if move != diffusion.ECHO:
            assert counter.after(move) == diffusion._net_groups(state, move), move


@pytest.mark.parametrize("seed", range(6))
def test_diffusion_scatter_measures_gaps_by_brute_force(seed: int) -> None:
    """scatter(): groups, plus a quarter per stone missing between the largest group and
    each other one, the gap measured over every pair of cells."""
    state = random_position("diffusion", 30 + 30 * seed, seed)
    assert isinstance(state, DiffusionState)
    size = diffusion.SIZE
    for colour in (1, 2):
        found = diffusion.groups_of(state.board, colour)
        gaps = sum(
            min(
                abs(a % size - b % size) + abs(a // size - b // size) - 1
                for a in group
                for b in found[0]
            )
            for group in found[1:]
        )
        expected = len(found) + diffusion.BRIDGE_WEIGHT * gaps if len(found) > 1 else len(found)
        assert diffusion.scatter(state.board, colour) == expected


def _near_the_king(seed: int) -> DiffusionState:
    """White to move with small groups scattered around Black's king's group."""
    rng = random.Random(seed)
    size = diffusion.SIZE
    taken: set[int] = set()

    def blob(stones: int, near: int | None) -> list[str]:
        def spot() -> int:
            if near is None:
                return rng.randrange(size * size)
            x = min(size - 1, max(0, near % size + rng.randint(-4, 4)))
            y = min(size - 1, max(0, near // size + rng.randint(-4, 4)))
            return y * size + x

        start = spot()
        while start in taken:
            start = rng.randrange(size * size)
        cells = [start]
        taken.add(start)
        for _ in range(200):
            if len(cells) >= stones:
                break
            here = rng.choice(cells)
            x, y = here % size, here // size
            dx, dy = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
            cell = (y + dy) * size + x + dx
            if 0 <= x + dx < size and 0 <= y + dy < size and cell not in taken:
                cells.append(cell)
                taken.add(cell)
        return [format_point(c % size, c // size) for c in cells]

    black = blob(rng.randint(5, 12), None)
    king = parse_point(black[0], size, size)
    for _ in range(4):
        black += blob(rng.randint(2, 6), None)
    white: list[str] = []
    for _ in range(9):
        white += blob(rng.randint(3, 8), king[1] * size + king[0])
    return DIFFUSION.position(white, black, white_king=white[0], black_king=black[0])


@pytest.mark.parametrize("seed", [0, 14, 31, 61, 116])
def test_diffusion_hunt_lists_a_move_to_every_king_capture_within_the_turn(seed: int) -> None:
    """Where some move lets the mover take the king with its next move of the same turn
    (found by trying every legal move), the hunt lists at least one such move."""
    state = _near_the_king(seed)
    assert not diffusion.king_captures(state)
    winning = [
        move
        for move in state.legal_moves()
        if (after := state.play(move)).to_move == state.to_move and diffusion.king_captures(after)
    ]
    assert winning
    hunt = diffusion._hunt(state)
    assert set(hunt) & set(winning)
    assert len(hunt) < len(winning) + 60  # a short list: the exact search stays affordable
    # The exact search tries the hunt while its plies stay within the turn, not after.
    policy = diffusion.DiffusionPolicy()
    assert policy.attacks(state, state.moves_left, random.Random(1)) == hunt
    assert policy.attacks(state, state.moves_left + 1, random.Random(1)) != hunt


@pytest.mark.parametrize(("seed", "plies"), [(36, 60), (38, 120), (36, 200), (35, 260)])
def test_diffusion_without_a_hunter_the_king_survives_the_next_two_moves(
    seed: int, plies: int
) -> None:
    """Where no stone of the mover can reach the opponent's king this turn, no legal move
    takes it, nor any move after another of the same turn (every first move tried)."""
    state = random_position("diffusion", plies, seed)
    assert isinstance(state, DiffusionState)
    assert state.outcome() is None
    assert not diffusion._has_hunter(state)
    for move in state.legal_moves():
        after = state.play(move)
        outcome = after.outcome()
        assert outcome is None or outcome.reason != KING_CAPTURED
        if after.to_move == state.to_move:
            assert not diffusion.king_captures(after)
            if after.echo_available:
                echoed = after.play(diffusion.ECHO).outcome()
                assert echoed is None or echoed.reason != KING_CAPTURED


def test_diffusion_wins_come_only_on_ones_own_turn_before_the_last_turns() -> None:
    """Before the turn limit is in sight, the opponent cannot win before its turn, and
    the mover cannot win this turn without a stone in reach of the king; near the
    limit, either may (by the group counts)."""
    policy = diffusion.DiffusionPolicy()
    state = _near_the_king(0)
    mover, other = state.to_move, 1 - state.to_move
    assert diffusion._has_hunter(state)
    assert policy.may_win_within(state, mover, 1)
    assert not policy.may_win_within(state, other, state.moves_left - 1)
    assert policy.may_win_within(state, other, state.moves_left + 1)
    # Two blocks of 30 far apart, each king in a pair: no stone may take a king.
    columns = "abcdefghjk"
    quiet = DIFFUSION.position(
        [f"{c}{r}" for c in columns for r in (1, 2, 3)] + ["t2"],
        [f"{c}{r}" for c in columns for r in (15, 16, 17)] + ["t18"],
        white_king="t1",
        black_king="t19",
    )
    assert not diffusion._has_hunter(quiet)
    assert not policy.may_win_within(quiet, quiet.to_move, quiet.moves_left + 4)
    assert policy.may_win_within(quiet, quiet.to_move, quiet.moves_left + 6)
    assert not policy.may_end_within(quiet, quiet.moves_left)
    # A side whose stones are all stranded has no move when its turn starts: the game
    # ends there, by the group counts.
    stranded = DIFFUSION.position(
        [f"{c}{r}" for c in columns for r in (1, 2, 3)] + ["t2"],
        ["b10", "d12", "f10", "h12", "m12"],
        white_king="t1",
        black_king="r12",
    )
    assert not diffusion._has_hunter(stranded)
    assert policy.may_win_within(stranded, 0, stranded.moves_left)
    assert not policy.may_win_within(stranded, 0, stranded.moves_left - 1)
    late = DIFFUSION.position(["a1", "a2"], ["t19", "t18"], to_move=1, turn_number=64)
    assert policy.may_win_within(late, 0, late.moves_left)
    assert not policy.may_win_within(late, 0, late.moves_left - 1)


def _turn_start(state: DiffusionState, to_move: int) -> DiffusionState:
    """The start of a turn of `to_move` on the board of `state`."""
    names: dict[int, list[str]] = {1: [], 2: []}
    for cell, value in enumerate(state.board):
        if value:
            names[value].append(format_point(cell % diffusion.SIZE, cell // diffusion.SIZE))
    kings = [format_point(k % diffusion.SIZE, k // diffusion.SIZE) for k in state.kings]
    return DIFFUSION.position(
        names[1], names[2], white_king=kings[0], black_king=kings[1], to_move=to_move
    )


def test_diffusion_exposed_kings_are_the_ones_the_opponent_could_take() -> None:
    """exposed(): the king the opponent could take with one move were its turn to start
    on the same board, as the engine's move lists tell (random positions, and kings
    among many small enemy groups; both answers occur)."""
    positions = [random_position("diffusion", 40 + 25 * seed, seed) for seed in range(6)]
    positions += [_near_the_king(seed) for seed in range(12)]
    seen = set()
    for state in positions:
        assert isinstance(state, DiffusionState)
        for seat in (0, 1):
            turn = _turn_start(state, 1 - seat)
            if turn.outcome() is not None:
                continue
            takes = any(move.path[-1] == state.kings[seat] for move in turn.legal_moves())
            assert diffusion.exposed(state.board, state.kings[seat]) == takes
            seen.add(takes)
    assert seen == {True, False}


def _log_odds(p: float) -> float:
    """The log-odds of a probability (the evaluations' logistic undone)."""
    return math.log(p / (1 - p))


def test_diffusion_evaluation_counts_an_exposed_king_as_groups_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A king the opponent could take as things stand costs its side KING_DANGER_WEIGHT
    groups in the evaluation (the same position judged with the weight at 0)."""
    policy = diffusion.DiffusionPolicy()
    state = _turn_start(_near_the_king(8), 1)
    assert diffusion.exposed(state.board, state.kings[1])
    assert not diffusion.king_captures(state)
    judged = policy.evaluate(state)
    weight = diffusion.KING_DANGER_WEIGHT
    assert weight > 0
    monkeypatch.setattr(diffusion, "KING_DANGER_WEIGHT", 0.0)
    unworried = policy.evaluate(state)
    assert judged > unworried  # better for White, whose turn would take Black's king
    urgency = 0.5 + state.turn_number / (2 * TURN_LIMIT)
    shift = diffusion.EVALUATION_SCALE * urgency * weight
    assert math.isclose(_log_odds(judged) - _log_odds(unworried), shift)


@pytest.mark.parametrize("seed", range(4))
def test_diffusion_cells_in_a_hunters_way_match_brute_force(seed: int) -> None:
    """_in_the_way(): the cells (other than the hunter's and the king's) from which a
    hunter's reach still covers the steps to the cell and on to the king."""
    rng = random.Random(seed)
    size = diffusion.SIZE
    cells = rng.sample(range(size * size), 6)
    king, hunters = cells[0], cells[1:]
    frozen = bytearray(size * size)
    for cell in cells:
        frozen[cell] = rng.randint(2, 16)

    def steps(a: int, b: int) -> int:
        return abs(a % size - b % size) + abs(a // size - b // size)

    expected = {
        cell
        for hunter in hunters
        for cell in range(size * size)
        if cell not in (hunter, king)
        and steps(cell, hunter) + steps(cell, king) <= frozen[hunter] - 1
    }
    assert diffusion._in_the_way(hunters, bytes(frozen), king) == expected


@pytest.mark.parametrize("seed", [0, 31, 61])
def test_diffusion_echo_reaches_the_king_as_the_engine_plays_it(seed: int) -> None:
    """_echo_reaches() agrees with playing the move and then its echo, for every quiet
    move of a stone that may take the king."""
    state = _near_the_king(seed)
    king = state.kings[1]
    board, frozen = state.board, state.frozen
    tried = 0
    for cell in diffusion._movable(state):
        if cell == state.kings[0] or frozen[cell] > frozen[king]:
            continue
        for move in diffusion._moves_of(state, cell):
            if board[move.path[-1]] != 0:
                continue
            after = state.play(move)
            try:
                outcome = after.play(diffusion.ECHO).outcome()
            except IllegalMoveError:
                outcome = None  # the echo cannot make a single step
            takes = outcome is not None and outcome.winner == 0
            assert diffusion._echo_reaches(board, move.path, king) == takes, move
            tried += 1
    assert tried > 50


@pytest.mark.parametrize("seed", range(6))
def test_rekushu_complete_plans_are_the_engines_claims(seed: int) -> None:
    """Plans with four corners are exactly the rectangles the engine lets the mover claim."""
    rng = random.Random(seed)
    state = random_position("rekushu", 20 + 8 * seed, seed)
    assert isinstance(state, RekushuState)
    board = rekushu._Board(state)
    own = state.white if state.to_move else state.black
    complete = {plan.rect for plan in rekushu.plans(board, own) if plan.missing < 0}
    existing, _ = state.claim_options()
    assert complete == set(existing)
    # Three-corner plans: the fourth corner completes the claim in the engine.
    for plan in rekushu.plans(board, own):
        if plan.missing >= 0 and rng.random() < 0.5:
            x, y = plan.missing % state.size, plan.missing // state.size
            if (x, y) in state.legal_placements():
                assert plan.rect in state.claims_after(x, y)


def test_rekushu_new_plans_find_three_corner_rectangles() -> None:
    """With e2 and b6 placed, e6 would give three corners of b2-e6 (b2 is still free), and
    so would b2 (e6 is free); a1 gives none."""
    from rules.rekushu import REKUSHU

    state = REKUSHU.position(size=8, black=["e2", "b6"], white=["h8"], ply=10)
    board = rekushu._Board(state)
    found = rekushu.new_plans(board, state.black, [5 * 8 + 4, 1 * 8 + 1, 0])
    assert found == {5 * 8 + 4: [Rectangle(1, 1, 4, 5)], 1 * 8 + 1: [Rectangle(1, 1, 4, 5)]}


@pytest.mark.parametrize("seed", range(6))
def test_rekushu_new_plans_match_a_search_of_every_rectangle(seed: int) -> None:
    """new_plans() gives each placement every clear rectangle it would make three corners
    of with the fourth, across from it, empty: as found by trying every rectangle with a
    corner there."""
    state = random_position("rekushu", 16 + 10 * seed, seed)
    assert isinstance(state, RekushuState)
    n = state.size
    board = rekushu._Board(state)
    own = state.white if state.to_move else state.black
    placements = [y * n + x for x, y in state.legal_placements()]
    expected: dict[int, set[Rectangle]] = {}
    for p in placements:
        x, y = p % n, p // n
        for x2 in range(n):
            for y2 in range(n):
                if x2 == x or y2 == y:
                    continue
                rect = Rectangle.spanning((x, y), (x2, y2))
                corners = board.corner_bits(rect)
                beside = own >> (y * n + x2) & 1 and own >> (y2 * n + x) & 1
                across = not board.occupied >> (y2 * n + x2) & 1
                if beside and across and board.clear(rect, corners):
                    expected.setdefault(p, set()).add(rect)
    found = rekushu.new_plans(board, own, placements)
    assert {p: set(rects) for p, rects in found.items()} == expected
    assert all(len(rects) == len(set(rects)) for rects in found.values())


def test_rekushu_placement_bits_are_the_legal_placements() -> None:
    """placement_bits(), which the endgame checks count, holds exactly the legal placements."""
    for seed in range(4):
        state = random_position("rekushu", 40 + 30 * seed, seed)
        assert isinstance(state, RekushuState)
        n = state.size
        legal = set(state.legal_placements())
        assert {(p % n, p // n) for p in set_bits(state.placement_bits())} == legal


@pytest.mark.parametrize("seed", range(5))
def test_stones_liberties_and_captures_match_the_engine(seed: int) -> None:
    """liberties_after() and captures() agree with playing the placement, when it is safe."""
    state = random_position("stones", 15 + 6 * seed, seed)
    assert isinstance(state, StonesState)
    board = stones_board.StonesBoard(state)
    for move in state.legal_moves():
        if move.kind is not MoveKind.PLACE:
            continue
        assert move.point is not None
        after = state.play(move)
        taken = bin(after.removed[1 - state.to_move]).count("1")
        if after.removed[state.to_move]:
            continue  # a self-capture
        assert board.captures(move.point) == taken
        if not taken:
            col, row = move.point % state.size, move.point // state.size
            assert board.liberties_after(move.point) == after.liberties(col, row)


def test_diffusion_evaluation_tells_small_leads_from_large_ones_late_in_the_game() -> None:
    """On turn 31, White one group ahead, three ahead and six ahead are three distinct
    chances, none yet a certainty (a saturated evaluation blinds the search)."""
    from rules.diffusion import DIFFUSION

    policy = diffusion.DiffusionPolicy()
    # Lone Black stones a few steps from Black's block k10-k11, each one group more.
    lone = ["k13", "k8", "m10", "h11", "m12", "h9"]

    def white_ahead_by(lead: int) -> float:
        state = DIFFUSION.position(
            ["c3", "c4"], ["k10", "k11", *lone[:lead]], to_move=0, turn_number=31
        )
        assert group_sizes(state.board)[1] == (1, 1 + lead)
        return policy.evaluate(state)

    one, three, six = white_ahead_by(1), white_ahead_by(3), white_ahead_by(6)
    assert 0.5 < one < three < six < 0.98


def test_diffusion_playouts_and_evaluation_see_an_open_king() -> None:
    """White's c4 can take the open Black king on e4: a playout takes it, and a cut-off
    playout judges the position won for White, however the groups stand."""
    import random

    from rules.diffusion import DIFFUSION

    policy = diffusion.DiffusionPolicy()
    state = DIFFUSION.position(["c3", "c4", "c5"], ["f4", "g4"], black_king="e4")
    move = policy.playout_move(state, random.Random(1))
    assert move is not None and state.format_move(move) == "c4-d4-e4"
    assert policy.evaluate(state) == 1.0
    walled = DIFFUSION.position(["c3", "c4", "c5"], ["d4", "f4", "e3", "e5"], black_king="e4")
    assert not diffusion.king_captures(walled)
    assert policy.evaluate(walled) < 1.0


def test_nth_bit_is_the_listed_bit_at_that_position() -> None:
    """nth_bit() finds the bit set_bits() lists at the same position, on random masks."""
    rng = random.Random(7)
    for _ in range(50):
        mask = rng.getrandbits(rng.randrange(1, 400)) | 1
        listed = set_bits(mask)
        assert [nth_bit(mask, index) for index in range(len(listed))] == listed


@pytest.mark.parametrize("seed", range(5))
def test_stones_attacks_are_the_captures_and_ataris(seed: int) -> None:
    """The exact search's tries are every capture and every atari, checked by playing
    each legal placement: a capture removes stones, an atari leaves a group one liberty."""
    state = random_position("stones", 30 + 8 * seed, seed)
    assert isinstance(state, StonesState)
    policy = stones.StonesPolicy()
    attacks = set(policy.attacks(state, 3, random.Random(1)))
    opponent = 1 - state.to_move
    expected = set()
    for move in state.legal_moves():
        if move.kind is not MoveKind.PLACE:
            continue
        after = state.play(move)
        ataris = sum(
            1
            for group in after.groups.values()
            if group.seat == opponent and group.libs.bit_count() == 1
        )
        before = sum(
            1
            for group in state.groups.values()
            if group.seat == opponent and group.libs.bit_count() == 1
        )
        if after.removed[opponent] or ataris > before:
            expected.add(move)
    assert attacks == expected


def _quiet_reply_position() -> StonesState:
    """Black has just played e5 on a quiet board: White to move, nothing in atari."""
    state = STONES.position(["c3"], ["g7"], to_move=0)
    return state.play(state.parse_move("e5"))


@pytest.mark.parametrize("size", [5, 9, 13])
def test_stones_points_around_are_the_eight_neighbours(size: int) -> None:
    """_around() lists every other point at most one step away in both directions."""
    around = stones_board.around_of(size)
    for p in range(size * size):
        col, row = p % size, p // size
        expected = {
            q
            for q in range(size * size)
            if q != p and abs(q % size - col) <= 1 and abs(q // size - row) <= 1
        }
        assert set(around[p]) == expected


def test_stones_tree_tries_the_points_around_the_last_placement_first() -> None:
    """In a quiet position the eight points around Black's e5 lead White's candidates."""
    state = _quiet_reply_position()
    assert state.last_move is not None and state.last_move.point is not None
    around = {place(p) for p in stones_board.around_of(state.size)[state.last_move.point]}
    for seed in range(3):
        candidates = stones.StonesPolicy().candidates(state, random.Random(seed))
        assert set(candidates[: len(around)]) == around


def test_stones_playouts_answer_near_the_last_placement() -> None:
    """About half of a playout's quiet replies fall around the last placement (a random
    point would, one time in ten), and every one of them is legal."""
    state = _quiet_reply_position()
    assert state.last_move is not None and state.last_move.point is not None
    around = set(stones_board.around_of(state.size)[state.last_move.point])
    legal = set(state.legal_moves())
    rng = random.Random(7)
    near = 0
    for _ in range(400):
        move = stones.StonesPolicy().playout_move(state, rng)
        assert isinstance(move, StonesMove) and move in legal
        near += move.point in around
    assert 0.45 <= near / 400 <= 0.65


@pytest.mark.parametrize("to_move", [0, 1])
def test_stones_evaluation_counts_a_share_of_what_the_mover_may_take(
    to_move: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """White's e5-e6 hangs in atari: with Black to move the evaluation moves Black's way
    by ATARI_SHARE of its two stones (in prisoners, SCALE to a unit of log-odds); with
    White to move nothing of Black's hangs and nothing moves."""
    state = STONES.position(["d5", "d6", "f5", "f6", "e4"], ["e5", "e6"], to_move=to_move)
    policy = stones.StonesPolicy()
    share = stones.ATARI_SHARE
    with_share = policy.evaluate(state)
    monkeypatch.setattr(stones, "ATARI_SHARE", 0.0)
    without = policy.evaluate(state)
    expected = share * 2 / stones.SCALE if to_move == 0 else 0.0
    assert _log_odds(with_share) - _log_odds(without) == pytest.approx(expected)


def test_stones_playouts_put_the_last_stone_in_atari(monkeypatch: pytest.MonkeyPatch) -> None:
    """Black's e5 has just been placed with two liberties (f5, e6): about half of White's
    playout moves put it in atari, against under a third without that rule."""
    state = STONES.position(["g7"], ["d5", "e4"], to_move=0)
    state = state.play(state.parse_move("e5"))
    ataris = {state.parse_move("f5"), state.parse_move("e6")}

    def share(rng: random.Random) -> float:
        moves = [stones.StonesPolicy().playout_move(state, rng) for _ in range(400)]
        return sum(move in ataris for move in moves) / len(moves)

    assert share(random.Random(3)) >= 0.45
    monkeypatch.setattr(stones, "ATTACK_RATE", 0.0)
    assert share(random.Random(3)) < 0.3
