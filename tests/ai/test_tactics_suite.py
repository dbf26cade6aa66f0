"""The tactics suite (`bot/bench/tactics_suite.py`): each position checked by the
exhaustive search, then solved by `hard` at its lookahead with an iteration budget (no
clock; `tabula bench ai GAME --tactics` plays them on one)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import Budget, choose_move
from bot.ai.levels import HARD_LOOKAHEAD
from bot.bench.tactics_suite import CASES, WIN, describe_tactics, run_tactics, solved, wins
from rules import GameState

HARD_ITERATIONS = 2000
"""The tree search's iterations per move in the suite (`hard` searches on a clock)."""


@pytest.mark.parametrize(("name", "kind", "plies", "state"), CASES, ids=[c[0] for c in CASES])
def test_tactics(name: str, kind: str, plies: int, state: GameState[Any]) -> None:
    """The exhaustive search confirms the tactic; the `hard` player then plays it."""
    seat = state.to_move
    budget = Budget(iterations=HARD_ITERATIONS, lookahead=HARD_LOOKAHEAD)
    if kind == WIN:
        assert wins(state, seat, plies)
        assert plies == 1 or not wins(state, seat, plies - 1)
    else:
        assert any(wins(state.play(m), 1 - seat, plies) for m in state.legal_moves())
    decision = choose_move(state, budget, seed=1)
    assert solved(kind, plies, state, decision.move), decision


def test_the_bench_judges_each_case_of_a_game() -> None:
    """`--tactics` plays every case of the game once and says which it solved."""
    figures = run_tactics("diffusion", 0.2)
    assert [f.name for f in figures] == [c[0] for c in CASES if c[0].startswith("diffusion")]
    text = describe_tactics("diffusion", 0.2, figures)
    assert text.startswith(f"diffusion: hard solved {sum(f.solved for f in figures)} of 3")
