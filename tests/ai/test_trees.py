"""Trees kept between moves: the search goes on from the position reached."""

from __future__ import annotations

from bot.ai import Budget, choose_move
from bot.ai.trees import TreeKeeper
from rules import get_game
from tests.ai.conftest import random_position


def test_the_reply_position_is_found_in_the_kept_tree() -> None:
    """After a search, the position two plies on (a reply the tree holds) comes back
    as a root with its statistics; the next search adds iterations to them."""
    state = random_position("groups", 8, seed=4)
    keeper = TreeKeeper()
    first = choose_move(state, Budget(iterations=400), seed=1, trees=keeper)
    assert first.result is not None and first.result.root is not None
    mine = next(c for c in first.result.root.children if c.move == first.move)
    reply = max(mine.children, key=lambda child: child.visits)
    after = state.play(first.move).play(reply.move)
    # The position is found even when it arrives encoded, as in a worker.
    decoded = get_game("groups").decode(after.encode())
    visits = reply.visits
    second = choose_move(decoded, Budget(iterations=50), seed=2, trees=keeper)
    assert keeper.found == 1
    assert second.result is not None and second.result.root is reply
    assert reply.visits >= visits + 50 - 1


def test_an_unknown_position_starts_a_fresh_tree() -> None:
    """A position no kept tree holds gets a new tree (and is then kept itself)."""
    keeper = TreeKeeper()
    choose_move(random_position("hexade", 6, seed=1), Budget(iterations=60), trees=keeper)
    other = random_position("hexade", 9, seed=2)
    decision = choose_move(other, Budget(iterations=60), trees=keeper)
    assert keeper.found == 0
    assert decision.result is not None and decision.result.root is not None
    assert keeper.find(other) is None  # the root itself is not a reply to itself
