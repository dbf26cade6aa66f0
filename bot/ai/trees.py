"""Keeping search trees between moves: the opponent's reply becomes the new root.

A `TreeKeeper` holds the last few searched trees (of one process: a worker keeps its
own). Asked for a position, it looks a few plies down each kept tree for the same
position and hands back that subtree, with all its statistics, to search on.
"""

from __future__ import annotations

from collections import deque

from bot.ai.mcts import Node
from bot.ai.policy import State

KEPT_TREES = 8
"""Trees kept at once (one per game the process thinks for, the latest first)."""
FIND_DEPTH = 12
"""The deepest a kept tree is searched for a position (a Diffusion Chess turn pair is ten)."""
FIND_NODES = 4000
"""The most nodes looked at in one search for a position."""


class TreeKeeper:
    """The latest searched trees, to start the next search of a game from its subtree."""

    def __init__(self, kept: int = KEPT_TREES) -> None:
        self._trees: deque[Node] = deque(maxlen=kept)
        self.found = 0
        """How many positions were found in a kept tree (for benches and tests)."""

    def keep(self, root: Node) -> None:
        """Remember a searched tree (the oldest one kept is dropped when full)."""
        for index, tree in enumerate(self._trees):
            if tree is root:
                del self._trees[index]
                break
        self._trees.appendleft(root)

    def find(self, state: State) -> Node | None:
        """The node of a kept tree whose position is `state`, made a root; None if none."""
        for index, tree in enumerate(self._trees):
            node = _find(tree, state)
            if node is not None:
                del self._trees[index]
                node.move, node.mover = None, -1
                self.found += 1
                return node
        return None


def _find(root: Node, state: State) -> Node | None:
    """A breadth-first look for `state` below `root` (the root itself excluded)."""
    level = [root]
    looked = 0
    ply = root.state.ply
    target = state.ply
    for _ in range(FIND_DEPTH):
        ply += 1
        below = [child for node in level for child in node.children]
        if not below or ply > target:
            return None
        if ply == target:
            for node in below:
                looked += 1
                if looked > FIND_NODES:
                    return None
                if node.state == state:
                    return node if node.untried is not None else None
            return None
        level = below
    return None
