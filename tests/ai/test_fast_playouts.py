"""The games whose playouts run a loop of their own search exactly as they would with the
generic loop (one `playout_move()` and one engine `play()` per move): same seed, same
tree, same choice."""

from __future__ import annotations

import random

import pytest

from bot.ai import Budget, Stopwatch
from bot.ai.games.groups import GroupsPolicy
from bot.ai.games.hexade import HexadePolicy
from bot.ai.games.stones import StonesPolicy
from bot.ai.mcts import search
from bot.ai.policy import Policy
from tests.ai.conftest import random_position


class GroupsMoveByMove(GroupsPolicy):
    """Groups' knowledge with the generic playout loop."""

    playout = Policy.playout


class HexadeMoveByMove(HexadePolicy):
    """Hexade's knowledge with the generic playout loop."""

    playout = Policy.playout


class StonesMoveByMove(StonesPolicy):
    """Stones' knowledge with the generic playout loop."""

    playout = Policy.playout


POLICIES: dict[str, tuple[Policy, Policy]] = {
    "groups": (GroupsPolicy(), GroupsMoveByMove()),
    "hexade": (HexadePolicy(), HexadeMoveByMove()),
    "stones": (StonesPolicy(), StonesMoveByMove()),
}


@pytest.mark.parametrize("game", ["groups", "hexade", "stones"])
@pytest.mark.parametrize("plies", [0, 2, 9, 24])
def test_search_with_fast_playouts_equals_search_move_by_move(game: str, plies: int) -> None:
    """Fast and move-by-move playouts give the same search statistics and move."""
    state = random_position(game, plies, seed=plies)
    results = [
        search(state, policy, Stopwatch(Budget(iterations=120)), random.Random(plies))
        for policy in POLICIES[game]
    ]
    stats = [
        (result.move, result.iterations, [(m.move, m.visits, m.value) for m in result.moves])
        for result in results
    ]
    assert stats[0] == stats[1]
