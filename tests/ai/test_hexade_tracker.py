"""Hexade's window counts kept up to date stone by stone equal a recount of the board, and
the fast playout makes the same moves as the rules played move by move."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.ai.games.hexade import SCALE, STONE_VALUE, HexadePolicy, judge, legal_cells, tiers
from bot.ai.games.hexade_bits import (
    WEIGHTS,
    Tables,
    capture_cells,
    near,
    tables_for,
    windows,
)
from bot.ai.games.hexade_tracker import WindowTracker
from bot.ai.policy import Policy, logistic
from rules import get_game
from rules.hexade import HexadeState

SIZES = (5, 6, 10)


def recounted_tiers(state: HexadeState) -> list[int]:
    """The playout tiers as the policy first computed them: every window recounted."""
    tables = tables_for(state.size)
    mover = state.to_move
    own, opponent = (state.black, state.white) if mover else (state.white, state.black)
    legal = legal_cells(tables, state.white, state.black, state.ply)
    occupied = own | opponent
    if not occupied:
        return [legal & (1 << tables.centre), legal]
    captures = capture_cells(tables, own, opponent, legal)
    if state.has_six(1 - mover):
        saving = 0
        for bit in range(tables.full.bit_length()):
            if captures >> bit & 1:
                outcome = state.play(tables.moves[bit]).outcome()
                if outcome is None or outcome.winner != 1 - mover:
                    saving |= 1 << bit
        return [saving] if saving else [legal]
    mine, theirs = windows(tables, own, opponent), windows(tables, opponent, own)
    around = near(tables, occupied) & legal
    found = [
        mine.empty_cells(tables, 5, legal),
        theirs.empty_cells(tables, 5, legal),
        captures,
        mine.empty_cells(tables, 4, legal),
        theirs.empty_cells(tables, 4, legal),
        mine.empty_cells(tables, 3, legal),
        theirs.empty_cells(tables, 3, legal),
        mine.empty_cells(tables, 2, legal) & around,
        around,
    ]
    return [*found, legal] if not around else found


def recounted_value(state: HexadeState) -> float:
    """The leaf judgement as first computed: both players' windows recounted."""
    tables = tables_for(state.size)
    white = windows(tables, state.white, state.black)
    black = windows(tables, state.black, state.white)
    score = white.value() - black.value()
    score += STONE_VALUE * (state.white.bit_count() - state.black.bit_count())
    if state.to_move == 0 and white.count(5):
        score += WEIGHTS[5]
    if state.to_move == 1 and black.count(5):
        score -= WEIGHTS[5]
    return logistic(score / SCALE)


def assert_tracks(tracker: WindowTracker, tables: Tables, state: HexadeState) -> None:
    """The tracker holds what a recount of `state` finds."""
    assert tracker.stones == [state.white, state.black]
    assert tracker.by_count(0) == windows(tables, state.white, state.black).by_count
    assert tracker.by_count(1) == windows(tables, state.black, state.white).by_count
    assert tracker.around == near(tables, state.white | state.black)
    assert tracker.has_six(0) == state.has_six(0)
    assert tracker.has_six(1) == state.has_six(1)


def random_games(size: int, seed: int, games: int) -> list[list[HexadeState]]:
    """Seeded games to the end, half their moves the playout's (so they hold threats,
    captures and sixes), half uniformly random."""
    rng = random.Random(seed)
    policy = HexadePolicy()
    played = []
    for _ in range(games):
        state = get_game("hexade").new_game(size=size)
        assert isinstance(state, HexadeState)
        line = [state]
        while state.outcome() is None:
            move = policy.playout_move(state, rng) if rng.random() < 0.5 else None
            state = state.play(move or rng.choice(list(state.legal_moves())))
            line.append(state)
        played.append(line)
    return played


@pytest.mark.parametrize("size", SIZES)
def test_tracker_updated_per_stone_equals_a_recount(size: int) -> None:
    """Placing each move's stone and removing its captures keeps every count exact."""
    tables = tables_for(size)
    captures = 0
    for line in random_games(size, seed=size, games=4):
        tracker = WindowTracker(tables, 0, 0)
        for before, after in itertools.pairwise(line):
            assert after.last_move is not None
            bit = after.last_move.r * tables.stride + after.last_move.q
            tracker.place(before.to_move, bit)
            if after.captured:
                captures += 1
                tracker.remove(after.to_move, after.captured)
            assert_tracks(tracker, tables, after)
    assert captures > 0


@pytest.mark.parametrize("size", SIZES)
def test_tiers_and_judgement_equal_the_recounted_ones(size: int) -> None:
    """The lazily computed tiers and the tracked judgement equal those of a recount, in
    every position of random games (the opening's forbidden cells and a six to break
    included)."""
    tables = tables_for(size)
    six_to_break = 0
    for line in random_games(size, seed=10 + size, games=4):
        for state in line:
            if state.outcome() is not None:
                continue
            tracker = WindowTracker(tables, state.white, state.black)
            legal = legal_cells(tables, state.white, state.black, state.ply)
            assert list(tiers(tracker, state.to_move, legal)) == recounted_tiers(state)
            assert judge(tracker, state.to_move) == recounted_value(state)
            six_to_break += state.has_six(1 - state.to_move)
    assert six_to_break > 0


@pytest.mark.parametrize("size", SIZES)
def test_fast_playout_makes_the_moves_of_the_move_by_move_loop(size: int) -> None:
    """From the same position and seed, the bit-mask playout and the generic loop (one
    `playout_move()` and one engine `play()` per move) reach the same reward, having
    drawn the same random numbers."""
    policy = HexadePolicy()
    for line in random_games(size, seed=20 + size, games=3):
        for index, state in enumerate(line[:-1]):
            fast, slow = random.Random(index), random.Random(index)
            assert policy.playout(state, fast) == Policy.playout(policy, state, slow)
            assert fast.random() == slow.random()


@pytest.mark.parametrize("size", SIZES)
def test_removing_stones_leaves_what_a_recount_of_the_rest_finds(size: int) -> None:
    """Removing any stones (not only a capture's pair) leaves exact counts and an exact
    neighbourhood, on random boards."""
    tables = tables_for(size)
    rng = random.Random(size)
    for _ in range(30):
        cells = rng.sample(tables.bits, rng.randrange(6, len(tables.bits) // 2))
        white = sum(1 << bit for bit in cells[::2])
        black = sum(1 << bit for bit in cells[1::2])
        removed = sum(1 << bit for bit in rng.sample(cells[::2], rng.randrange(1, 4)))
        tracker = WindowTracker(tables, white, black)
        tracker.remove(0, removed)
        state = HexadeState(size, white & ~removed, black, 0, 9, None, 0, None)
        assert_tracks(tracker, tables, state)
