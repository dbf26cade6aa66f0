"""The computer player on every registered game: legal, within budget, deterministic."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import Budget, Policy, choose_move, choose_turn, player, policy_for
from bot.ai.games import rekushu
from rules import GameState, get_game, list_games
from tests.ai.conftest import FakeTime, random_position

GAMES = [game.name for game in list_games()]
ITERATIONS = 24


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("plies", [0, 7, 30])
def test_only_legal_moves(game: str, plies: int) -> None:
    """From the start and from random positions, the chosen move is a legal move."""
    for seed in range(2):
        state = random_position(game, plies, seed)
        decision = choose_move(state, Budget(iterations=ITERATIONS), seed=seed)
        assert decision.move in set(state.legal_moves())
        assert state.parse_move(decision.notation) == decision.move
        assert decision.iterations <= ITERATIONS


def assert_legal(state: GameState[Any], move: object) -> None:
    """`move` is legal in `state`: its notation parses back to it (parse_move checks).

    Playout moves need not be among `legal_moves()`: Diffusion Chess lists one path per
    destination but accepts every legal path.
    """
    assert state.parse_move(state.format_move(move)) == move


@pytest.mark.parametrize("game", GAMES)
def test_policy_moves_are_legal(game: str) -> None:
    """Every candidate (listed moves) and every playout move the knowledge offers is legal."""
    policy = policy_for(game)
    rng = random.Random(5)
    for seed in range(3):
        state = random_position(game, 12 * seed, seed)
        candidates = policy.candidates(state, rng)
        assert candidates
        assert set(candidates) <= set(state.legal_moves())
        assert len(set(candidates)) == len(candidates)
        for _ in range(20):
            move = policy.playout_move(state, rng)
            assert_legal(state, move)
            state = state.play(move)
            if state.outcome() is not None:
                break


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_move(game: str) -> None:
    """A fixed seed and an iteration budget give the same move and statistics every time."""
    state = random_position(game, 9, seed=3)
    runs = [choose_move(state, Budget(iterations=40), seed=11) for _ in range(2)]
    assert runs[0].move == runs[1].move
    assert runs[0].iterations == runs[1].iterations
    assert runs[0].value == runs[1].value


@pytest.mark.parametrize("game", GAMES)
def test_fake_time_budget_is_respected(game: str) -> None:
    """With a time source that advances 10 ms per read, a 0.5 s search ends within 0.5 s."""
    state = random_position(game, 5, seed=1)
    clock = FakeTime(0.01)
    decision = choose_move(state, Budget(seconds=0.5), seed=2, time_source=clock)
    assert decision.seconds <= 0.5
    assert clock.now <= 0.5 + clock.step
    assert decision.reason != "search" or decision.iterations >= 1


@pytest.mark.parametrize("game", GAMES)
def test_a_turn_ends_when_the_other_player_is_to_move(game: str) -> None:
    """choose_turn plays every move of the turn (several in Diffusion Chess), no more."""
    state = random_position(game, 4, seed=2)
    seat = state.to_move
    decisions = choose_turn(state, Budget(iterations=8), seed=1)
    assert decisions
    for decision in decisions[:-1]:
        state = state.play(decision.move)
        assert state.to_move == seat and state.outcome() is None
    state = state.play(decisions[-1].move)
    assert state.outcome() is not None or state.to_move != seat


def test_a_finished_game_has_no_move() -> None:
    """Asking for a move in a finished game is an error, not a crash later."""
    from rules.groups import GROUPS

    won = GROUPS.position(
        ["a1", "a2", "a3", "a4", "a5", "a6"], ["h8", "h7", "h6", "h5", "h4", "g8"], to_move=1
    )
    assert won.outcome() is not None
    with pytest.raises(ValueError, match="over"):
        choose_move(won, Budget(iterations=5))


def test_a_diffusion_turn_shares_one_budget() -> None:
    """The five moves of a Diffusion Chess turn together stay within the turn's budget."""
    state = random_position("diffusion", 4, seed=6)
    moves_left = state.moves_left  # type: ignore[attr-defined]
    assert moves_left == 5
    clock = FakeTime(0.002)
    decisions = choose_turn(state, Budget(seconds=1.0), seed=3, time_source=clock)
    assert len(decisions) == moves_left
    assert clock.now <= 1.0
    assert all(d.seconds <= 1.0 / 5 * 1.5 for d in decisions[:1])


@pytest.mark.parametrize("game", ["groups", "hexade", "stones"])
def test_a_safe_favourite_is_searched_on_with_the_time_left(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once its favourite is checked safe, `hard` searches on in the same tree instead of
    answering with most of its time unused, and still answers within the budget."""
    state = random_position(game, 8, seed=2)
    budget = Budget(seconds=1.0, lookahead=3)
    on = choose_move(state, budget, seed=1, time_source=FakeTime(0.0005))
    monkeypatch.setattr(player, "RESUME_SHARE", 0.0)
    stopped = choose_move(state, budget, seed=1, time_source=FakeTime(0.0005))
    assert on.reason == stopped.reason == "search"
    assert stopped.seconds < player.SEARCH_SHARE <= on.seconds <= 1.0
    assert on.iterations > stopped.iterations


class _NoEndInSight(Policy):
    """The base policy, sure that the game cannot end soon; its exact search's move
    lists count how often they are asked for."""

    def __init__(self, ends: bool) -> None:
        self.ends = ends
        self.asked = 0

    def may_end_within(self, state: GameState[Any], plies: int) -> bool:
        return self.ends

    def attacks(self, state: GameState[Any], plies: int, rng: random.Random) -> list[Any]:
        self.asked += 1
        return super().attacks(state, plies, rng)

    def defences(self, state: GameState[Any], attacker: int) -> list[Any]:
        self.asked += 1
        return super().defences(state, attacker)


def test_no_exact_search_where_the_game_cannot_end() -> None:
    """Where the policy says the game cannot end within the lookahead, `hard` skips its
    exact searches and gives their time to the tree; elsewhere it runs them."""
    state = random_position("groups", 8, seed=4)
    budget = Budget(seconds=1.0, lookahead=3)
    for ends in (True, False):
        policy = _NoEndInSight(ends)
        decision = choose_move(state, budget, seed=1, policy=policy, time_source=FakeTime(0.001))
        assert decision.reason == "search"
        assert (policy.asked > 0) is ends


class _NoWinInSight(_NoEndInSight):
    """A policy whose game may end, but for which no one can win within the lookahead."""

    def may_win_within(self, state: GameState[Any], seat: int, plies: int) -> bool:
        return False


def test_no_exact_search_for_a_win_that_cannot_come() -> None:
    """Where neither side can win within the lookahead, neither the search for a forced
    win nor the safety checks of the tree's choice run."""
    state = random_position("groups", 8, seed=4)
    policy = _NoWinInSight(True)
    budget = Budget(seconds=1.0, lookahead=3)
    decision = choose_move(state, budget, seed=1, policy=policy, time_source=FakeTime(0.001))
    assert decision.reason == "search"
    assert policy.asked == 0


def test_rekushu_sees_its_end_only_when_placements_run_out() -> None:
    """Rekushu ends when the next player cannot place: not soon on an empty board, maybe
    soon once few placements are left."""
    policy = policy_for("rekushu")
    state: Any = get_game("rekushu").new_game(size=8)
    assert not policy.may_end_within(state, 5)
    rng = random.Random(3)
    while len(state.legal_placements()) > rekushu.ENDGAME_PLACEMENTS + 5:
        state = state.play(rng.choice(list(state.legal_moves())))
    assert state.outcome() is None
    assert policy.may_end_within(state, 5)
