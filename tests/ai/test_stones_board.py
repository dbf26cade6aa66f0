"""Stones' playout board against the engine: the same stones, groups, prisoners, hashes,
legal moves and results after every move of random games, stakes and returns included,
and the same playouts as the generic loop."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai.games.stones import StonesPolicy
from bot.ai.games.stones_board import PlayoutBoard
from bot.ai.policy import Policy
from rules import get_game
from rules.stones import MoveKind, StonesMove, StonesState, place


def _new_game(size: int, compensation: int, threshold: int | None = None) -> StonesState:
    options = {"size": str(size), "compensation": str(compensation)}
    if threshold is not None:
        options["threshold"] = str(threshold)
    state = get_game("stones").new_game(**options)
    assert isinstance(state, StonesState)
    return state


def _pick(state: StonesState, rng: random.Random) -> StonesMove:
    """A random legal move, a stake or a return nearly a third of the time they are legal."""
    moves = list(state.legal_moves())
    others = [move for move in moves if move.kind is not MoveKind.PLACE]
    if others and rng.random() < 0.3:
        return rng.choice(others)
    return rng.choice(moves)


def _assert_same(board: PlayoutBoard, state: StonesState) -> None:
    assert (board.black, board.white, board.seat) == (state.black, state.white, state.to_move)
    assert board.prisoners == list(state.prisoners)
    assert board.zhash == state.zhash
    engine_groups = [
        (gid, [group.seat, group.stones, group.libs, group.zhash])
        for gid, group in state.groups.items()
    ]
    # The same groups in the same order: the playouts' choices depend on that order.
    assert list(board.groups.items()) == engine_groups
    assert board.group_of == list(state.group_of)
    outcome = state.outcome()
    assert board.over == (outcome is not None)
    if outcome is not None:
        assert board.winner == outcome.winner


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([5, 7, 9]),
    compensation=st.sampled_from([0, 6]),
)
def test_playout_board_follows_the_engine(seed: int, size: int, compensation: int) -> None:
    """Move by move through a random game, the board and the engine agree on everything,
    the legal moves in the engine's order included."""
    rng = random.Random(seed)
    state = _new_game(size, compensation)
    board = PlayoutBoard(state)
    for _ in range(300):
        if state.outcome() is not None:
            break
        points, rest = board.legal_moves()
        assert [place(p) for p in points] + rest == list(state.legal_moves())
        assert board.has_legal_move()
        move = _pick(state, rng)
        state = state.play(move)
        board.play(move)
        _assert_same(board, state)


def test_playout_board_sees_stakes_returns_and_every_ending() -> None:
    """Random games on a small board reach what is rare in play: stakes captured with
    their groups, returns, decisive captures and (with a lead out of reach) players left
    without a move."""
    seen: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = _new_game(5, 0, threshold=20) if seed % 2 else _new_game(5, 6)
        board = PlayoutBoard(state)
        while state.outcome() is None:
            move = _pick(state, rng)
            seen.add(move.kind.value)
            before = sum(len(stakes) for stakes in state.staked)
            state = state.play(move)
            board.play(move)
            if sum(len(stakes) for stakes in state.staked) < before:
                seen.add("stake captured")
            _assert_same(board, state)
        outcome = state.outcome()
        assert outcome is not None
        seen.add("decisive" if "decisive" in outcome.reason else "no move")
    assert seen >= {"place", "stake", "return", "stake captured", "decisive", "no move"}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120), size=st.sampled_from([5, 9]))
def test_fast_playout_equals_the_generic_loop(seed: int, plies: int, size: int) -> None:
    """From a random position, the board's playout ends with the value the move-by-move
    loop gives with the same random numbers."""
    rng = random.Random(seed)
    state = _new_game(size, 6)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = state.play(_pick(state, rng))
    policy = StonesPolicy()
    for playout_seed in range(3):
        fast = policy.playout(state, random.Random(playout_seed))
        generic = Policy.playout(policy, state, random.Random(playout_seed))
        assert fast == generic
