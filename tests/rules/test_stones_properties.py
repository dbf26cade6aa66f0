"""Stones: random games checked against a plain referee, against sgfmill, and for invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards

from rules.squares import format_point
from rules.stones import STONES, MoveKind, StonesState, _build_groups, _position_hash
from tests.rules.stones_referee import Referee


def board_of(state: StonesState) -> dict[tuple[int, int], int]:
    """{(col, row): seat} of every stone."""
    return {point: seat for seat in (0, 1) for point in state.stones(seat)}


def check_internals(state: StonesState) -> None:
    """The incremental group table and hash equal a recomputation from scratch."""
    group_of, groups = _build_groups(state.geometry, state.black, state.white)
    fresh = {(g.seat, g.stones, g.libs, g.zhash) for g in groups.values()}
    kept = {(g.seat, g.stones, g.libs, g.zhash) for g in state.groups.values()}
    assert kept == fresh
    for point, gid in enumerate(state.group_of):
        assert (gid < 0) == (group_of[point] < 0)
        if gid >= 0:
            assert state.groups[gid].stones >> point & 1
    assert all(group.libs for group in state.groups.values())
    assert state.zhash == _position_hash(state.geometry, state.black, state.white, state.staked)
    assert state.zhash in state.history
    assert not state.black & state.white


@settings(max_examples=30, deadline=None)
@given(
    size=st.sampled_from([5, 6]),
    threshold=st.integers(min_value=1, max_value=9),
    compensation=st.sampled_from([0, 2, 6]),
    choices=st.lists(st.tuples(st.integers(0, 10_000), st.booleans()), max_size=60),
)
def test_engine_agrees_with_the_referee(
    size: int, threshold: int, compensation: int, choices: list[tuple[int, bool]]
) -> None:
    """Legal moves (and each point's `may_place`), board, prisoners, stakes and outcome
    match a plain referee move by move."""
    state = STONES.new_game(size=size, threshold=threshold, compensation=compensation)
    referee = Referee.new(size, threshold, compensation)
    for choice, special in [*choices, (0, False)]:
        legal = state.legal_notations()
        assert legal == sorted(referee.legal())
        placements = {m.point for m in state.legal_moves() if m.kind is MoveKind.PLACE}
        assert {p for p in range(size * size) if state.may_place(p)} == placements
        assert board_of(state) == referee.board
        assert list(state.prisoners) == referee.prisoners
        for seat in (0, 1):
            assert set(state.stakes(seat)) == set(referee.stakes[seat])
        assert (state.outcome() is None) == (not referee.over)
        if not legal:
            assert state.outcome() is not None
            assert state.outcome().winner == referee.winner  # type: ignore[union-attr]
            return
        # Lean towards returns and stakes, which uniform choices rarely pick.
        pool = [m for m in legal if m == "return" or m.startswith("stake")] if special else []
        text = (pool or legal)[choice % len(pool or legal)]
        state = state.play_text(text)
        referee.play(text)


@pytest.mark.parametrize("seed", range(16))
def test_whole_games_agree_with_the_referee(seed: int) -> None:
    """Seeded random games to the end, half the time picking a return or stake when legal."""
    rng = random.Random(seed)
    size, threshold, compensation = 5 + seed % 2, 1 + seed % 9, seed % 7
    state = STONES.new_game(size=size, threshold=threshold, compensation=compensation)
    referee = Referee.new(size, threshold, compensation)
    while True:
        legal = state.legal_notations()
        assert legal == sorted(referee.legal()), f"ply {state.ply}"
        assert board_of(state) == referee.board
        assert list(state.prisoners) == referee.prisoners
        if not legal:
            break
        special = [m for m in legal if m == "return" or m.startswith("stake")]
        text = rng.choice(special if special and rng.random() < 0.5 else legal)
        state = state.play_text(text)
        referee.play(text)
    assert state.outcome() is not None
    assert state.outcome().winner == referee.winner  # type: ignore[union-attr]


def sgfmill_board(board: boards.Board) -> dict[tuple[int, int], int]:
    """{(col, row): seat} of an sgfmill board (row 0 at the bottom, as in Tabula)."""
    return {
        (col, row): 0 if colour == "b" else 1 for colour, (row, col) in board.list_occupied_points()
    }


@pytest.mark.parametrize(("size", "games"), [(5, 60), (7, 40), (9, 25), (13, 6), (19, 3)])
def test_boards_match_sgfmill_after_every_placement(size: int, games: int) -> None:
    """Seeded random games: after each placement the stones equal sgfmill's board.

    sgfmill allows self-capture and knows nothing of stakes or returns; those moves leave
    its board alone. Along the way the engine's internal tables are checked, and the
    prisoner counts are balanced against every stone and stake removed.
    """
    for seed in range(games):
        rng = random.Random(seed * 1000 + size)
        state = STONES.new_game(size=size)
        board = boards.Board(size)
        returned = removed = 0
        while not state.is_game_over():
            move = rng.choice(list(state.legal_moves()))
            text = state.format_move(move)
            state = state.play(move)
            if text == "return":
                returned += 1
            elif not text.startswith("stake"):
                col, row = state.last_point  # type: ignore[misc]
                board.play(row, col, "b" if state.to_move == 1 else "w")
                assert board_of(state) == sgfmill_board(board), f"seed {seed}, ply {state.ply}"
                removed += len(state.captured_last) + len(state.stakes_captured_last)
            check_internals(state)
            assert sum(state.prisoners) == state.compensation + removed - returned


def test_a_state_played_twice_does_not_leak_history() -> None:
    """Two random continuations from one state never see each other's positions."""
    rng = random.Random(5)
    root = STONES.new_game(size=7)
    for _ in range(30):
        root = root.play(rng.choice(list(root.legal_moves())))
    lines = []
    for _ in range(3):
        state = root
        for _ in range(25):
            moves = list(state.legal_moves())
            if not moves:
                break
            state = state.play(rng.choice(moves))
        lines.append(state)
    for line in lines:
        check_internals(line)
        rebuilt = STONES.decode(line.encode())
        assert rebuilt.history == line.history
        assert line.history.length == len(line.history.entries())
    root_keys = {key for key, _ in root.history.entries()}
    assert len(root.history) == len(root_keys)
    for line in lines:
        assert root_keys <= {key for key, _ in line.history.entries()}
    assert root.zhash in root.history


def test_random_positions_of_every_size_keep_their_invariants() -> None:
    """Every board size from 5 to 19 plays a few random moves with consistent tables."""
    for size in range(5, 20):
        rng = random.Random(size)
        state = STONES.new_game(size=size)
        assert state.options["threshold"] == round(7 * size * size / 81)
        for _ in range(size * 3):
            moves = list(state.legal_moves())
            if not moves:
                break
            state = state.play(rng.choice(moves))
            check_internals(state)
        assert format_point(size - 1, size - 1) in STONES.new_game(size=size).legal_notations()
