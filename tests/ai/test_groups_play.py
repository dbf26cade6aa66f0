"""Groups' rules on bit masks equal the engine's, and the fast candidates and playouts make
the choices of the policy as first written over the engine, drawing the same random
numbers."""

from __future__ import annotations

import random

import pytest

from bot.ai.bits import set_bits
from bot.ai.games import groups, groups_play
from bot.ai.games.groups import (
    _RAYS,
    GREEDY,
    GREEDY_TRIES,
    GROUP_WEIGHT,
    SIZE,
    GroupsPolicy,
    scatter,
)
from bot.ai.policy import Policy, outcome_value
from rules import get_game
from rules.groups import GROUPS, STONES, GroupsMove, GroupsState


def engine_candidates(state: GroupsState, rng: random.Random) -> list[GroupsMove]:
    """The candidates as first written: every move played by the engine and scored."""
    mover = state.to_move
    scored = []
    for move in state.legal_moves():
        after = state.play(move)
        outcome = after.outcome()
        if outcome is not None and outcome.winner == mover:
            return [move]
        own = after.black if mover else after.white
        scored.append((scatter(own) + rng.random() * 0.5, move))
    scored.sort(key=lambda pair: pair[0])
    return [move for _, move in scored]


def engine_gain(move: GroupsMove, col: float, row: float) -> float:
    """How much closer the move brings its stone to (col, row), as first written."""
    if move.origin is None:
        return 1.0
    before = abs(move.origin % SIZE - col) + abs(move.origin // SIZE - row)
    after = abs(move.target % SIZE - col) + abs(move.target // SIZE - row)
    return before - after


def engine_playout_move(state: GroupsState, rng: random.Random) -> GroupsMove | None:
    """The playout move as first written, over the engine's move list."""
    own = state.black if state.to_move else state.white
    if own.bit_count() == STONES and state.result is None:
        greedy = rng.random() < GREEDY
        occupied = state.white | state.black
        cells = set_bits(own)
        col = sum(cell % SIZE for cell in cells) / len(cells)
        row = sum(cell // SIZE for cell in cells) / len(cells)
        for _ in range(GREEDY_TRIES):
            origin = rng.choice(cells)
            near, beyond = rng.choice(_RAYS[origin])
            if not occupied >> near & 1:
                target = near
            elif beyond >= 0 and not occupied >> beyond & 1:
                target = beyond
            else:
                continue
            move = GroupsMove(origin, target)
            if not greedy or engine_gain(move, col, row) > 0.5:
                return move
    moves = list(state.legal_moves())
    if not moves:
        return None
    if rng.random() >= GREEDY or own.bit_count() < STONES:
        return rng.choice(moves)
    cells = set_bits(own)
    col = sum(cell % SIZE for cell in cells) / len(cells)
    row = sum(cell // SIZE for cell in cells) / len(cells)
    closer = [move for move in moves if engine_gain(move, col, row) > 0.5]
    return rng.choice(closer or moves)


def random_games(start: str, seed: int, games: int) -> list[list[GroupsState]]:
    """Seeded games to the end (or 120 plies), half their moves the playout's, half
    uniformly random."""
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        state = get_game("groups").new_game(start=start)
        assert isinstance(state, GroupsState)
        line = [state]
        while state.outcome() is None and len(line) < 120:
            move = engine_playout_move(state, rng) if rng.random() < 0.5 else None
            state = state.play(move or rng.choice(list(state.legal_moves())))
            line.append(state)
        played.append(line)
    return played


def repetition() -> list[GroupsState]:
    """A game drawn by the third repetition of the start."""
    state = GROUPS.initial_state({"start": "standard"})
    line = [state]
    for text in ("d3-d2", "e3-e2", "d2-d3", "e2-e3") * 2:
        state = state.play(state.parse_move(text))
        line.append(state)
    assert line[-1].outcome() is not None
    return line


def lines() -> list[list[GroupsState]]:
    """Random games of both starts, and a drawn one."""
    return [*random_games("standard", 1, 6), *random_games("drop", 2, 6), repetition()]


def as_pair(move: GroupsMove) -> tuple[int, int]:
    return (-1 if move.origin is None else move.origin, move.target)


def test_moves_and_judgement_equal_the_engines() -> None:
    """In every position of the games, the bit-mask moves are the engine's in its order,
    and the bit-mask judgement of each move's result is the engine's."""
    kinds = set()
    for line in lines():
        for state in line:
            own, other = (state.black, state.white) if state.to_move else (state.white, state.black)
            if state.outcome() is None:
                expected = [as_pair(move) for move in state.legal_moves()]
                assert groups_play.legal_moves(own, own | other) == expected
                assert groups_play.has_move(own, own | other)
            if state.ply == 0:
                continue
            outcome = state.outcome()
            reward = groups_play.judge(
                state.white, state.black, state.to_move, state.ply, list(state.history)
            )
            assert reward == (None if outcome is None else outcome_value(outcome))
            if outcome is not None:
                kinds.add(outcome.reason)
    assert "the same position occurred three times" in kinds
    assert "all six stones connected" in kinds


def test_has_move_and_judgement_equal_the_engine_on_crowded_boards() -> None:
    """A player hemmed in by many stones has a move exactly when the engine lists one, and
    a move that leaves White none is judged as the engine judges it."""
    rng = random.Random(3)
    stuck = 0
    for _ in range(400):
        cells = rng.sample(range(64), rng.randrange(STONES + 1, 64))
        white = sum(1 << cell for cell in cells[:STONES])
        black = sum(1 << cell for cell in cells[STONES:])
        state = GroupsState("standard", white, black, 0, 1, None, (), None)
        expected = next(state.legal_moves(), None) is not None
        assert groups_play.has_move(white, white | black) == expected
        before = GroupsState("standard", white, black, 1, 1, None, (), None)
        moves = list(before.legal_moves())
        if moves:
            after = before.play(rng.choice(moves))
            outcome = after.outcome()
            reward = groups_play.judge(after.white, after.black, 0, 2, [])
            assert reward == (None if outcome is None else outcome_value(outcome))
            stuck += outcome is not None
    assert stuck > 0


def test_position_keys_equal_the_engines() -> None:
    """The repetition keys are the engine's."""
    for line in random_games("standard", 4, 2):
        for state in line:
            key = groups_play.position_key(state.white, state.black, state.to_move)
            assert key == state.history[-1]


@pytest.mark.parametrize("start", ["standard", "drop"])
def test_candidates_and_playout_moves_equal_the_engine_based_ones(start: str) -> None:
    """From the same seed, the fast candidates and playout moves are those of the policy
    as first written, and leave the generator in the same state."""
    policy = GroupsPolicy()
    for seed, line in enumerate(random_games(start, 5, 4)):
        for state in line:
            if state.outcome() is not None:
                continue
            fast, slow = random.Random(seed), random.Random(seed)
            assert policy.candidates(state, fast) == engine_candidates(state, slow)
            assert fast.random() == slow.random()
            for _ in range(3):
                assert policy.playout_move(state, fast) == engine_playout_move(state, slow)
            assert fast.random() == slow.random()


def test_fast_playout_makes_the_moves_of_the_move_by_move_loop() -> None:
    """From the same position and seed, the bit-mask playout and the generic loop (one
    `playout_move()` and one engine `play()` per move) reach the same reward, having
    drawn the same random numbers."""
    policy = GroupsPolicy()
    for line in lines():
        for index, state in enumerate(line[:-1]):
            fast, slow = random.Random(index), random.Random(index)
            assert policy.playout(state, fast) == Policy.playout(policy, state, slow)
            assert fast.random() == slow.random()


def test_remembered_scatter_equals_the_computed_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo answers what the computation does, also across its emptying when full."""
    monkeypatch.setattr(groups, "SCATTER_CACHE", 50)
    rng = random.Random(6)
    boards = [sum(1 << cell for cell in rng.sample(range(64), STONES)) for _ in range(80)]
    for bits in boards * 2:
        expected = GROUP_WEIGHT * (groups.group_count(bits) - 1) + groups.spread(bits)
        assert groups.scatter(bits) == expected
    assert len(groups._SCATTER) <= 50
