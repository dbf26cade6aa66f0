"""Implicit minimax backups: every node of a searched tree holds the minimax value of the
policy's judgements over its subtree, and selection trusts it as the weight says."""

from __future__ import annotations

import random

import pytest

from bot.ai import Budget, Policy, Stopwatch, policy_for
from bot.ai.mcts import UNKNOWN, Node, _select, search
from bot.ai.policy import outcome_value
from rules import list_games
from tests.ai.conftest import random_position

GAMES_WITH_BACKUPS = [
    game.name for game in list_games() if policy_for(game.name).minimax_weight > 0
]


def _expected(node: Node, policy: Policy) -> float:
    """The minimax value for `node.mover` of the judgements below `node`, recomputed."""
    if node.proven != UNKNOWN:
        return 1.0 if node.proven == node.mover else 0.0
    if not node.children:
        value = (
            outcome_value(node.outcome) if node.outcome is not None else policy.evaluate(node.state)
        )
        return value if node.mover == 0 else 1.0 - value
    best = max(_expected(child, policy) for child in node.children)
    return best if node.mover == node.state.to_move else 1.0 - best


def _nodes(root: Node) -> list[Node]:
    found, todo = [], [root]
    while todo:
        node = todo.pop()
        found.append(node)
        todo.extend(node.children)
    return found


def test_groups_uses_minimax_backups() -> None:
    """Groups' policy turns them on (the match against the old player measured it)."""
    assert GAMES_WITH_BACKUPS == ["groups"]


@pytest.mark.parametrize("game", GAMES_WITH_BACKUPS)
@pytest.mark.parametrize("seed", range(4))
def test_every_node_holds_the_minimax_of_its_subtree(game: str, seed: int) -> None:
    """Recomputed from scratch over the finished tree, each node's value is the one the
    search kept up to date move by move."""
    policy = policy_for(game)
    state = random_position(game, 6 + seed, seed)
    result = search(state, policy, Stopwatch(Budget(iterations=400)), random.Random(seed))
    assert result.root is not None
    nodes = _nodes(result.root)[1:]  # the root's own value is never read
    assert len(nodes) > 30
    for node in nodes:
        assert node.heuristic == pytest.approx(_expected(node, policy))


def test_without_a_weight_no_node_is_judged() -> None:
    """The base policy's weight is 0: the search keeps no minimax values at all."""
    policy = Policy()
    assert policy.minimax_weight == 0
    state = random_position("groups", 8, 1)
    result = search(state, policy, Stopwatch(Budget(iterations=200)), random.Random(1))
    assert result.root is not None
    assert all(node.heuristic == 0.5 for node in _nodes(result.root))


def test_selection_mixes_the_mean_with_the_minimax_value() -> None:
    """Two equally visited children: the one with the better mean wins without a weight,
    the one with the better minimax value once the weight trusts it enough."""
    state = random_position("groups", 8, 2)
    parent = Node(state, None, -1)
    parent.visits = 20
    good_mean, good_minimax = (Node(state, None, state.to_move) for _ in range(2))
    for child, mean, minimax in ((good_mean, 0.7, 0.1), (good_minimax, 0.5, 0.9)):
        child.visits, child.reward, child.heuristic = 10, 10 * mean, minimax
        parent.children.append(child)
    assert _select(parent, 0.7) is good_mean
    assert _select(parent, 0.7, 0.5) is good_minimax
