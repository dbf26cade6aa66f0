"""Monte Carlo tree search with UCT over the rules interface of any game, and a solver.

Rewards are backed up by seat, not by alternating plies: a node stores the reward of
the seat that made the move leading to it, so a turn of several moves by one player
(Diffusion Chess) needs no special case.

The solver passes proven results up the tree: a position is won for the player to
move when one of its moves wins (reaches a position proven won for that player), and
lost when every move loses (only when the policy's candidates are complete). Proven
positions are not searched again; moves proven lost are not chosen while another is
left, and do not use up the progressive widening.

With a policy's `minimax_weight` above 0, the search also keeps implicit minimax
backups: each new node is judged at once by the policy's `evaluate()`, each node holds
the minimax value of those judgements over its subtree, and selection mixes it with the
playouts' mean, so that a refutation a few plies down counts before playouts average
it away.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bot.ai.budget import Stopwatch
from bot.ai.policy import Move, Policy, State, outcome_value

UNKNOWN = -1
"""`Node.proven` of a position whose result is not proven."""
EARLY_STOP_EVERY = 16
"""Iterations between checks whether the search can stop before its budget runs out."""
DECIDED_VISITS = 200
"""Visits of the best move after which a clearly decided position ends the search."""


class Node:
    """One state in the search tree, with the statistics of the move that led to it."""

    __slots__ = (
        "children",
        "heuristic",
        "lost",
        "move",
        "mover",
        "outcome",
        "proven",
        "reward",
        "state",
        "untried",
        "visits",
    )

    def __init__(self, state: State, move: Move | None, mover: int) -> None:
        self.state = state
        self.move = move
        self.mover = mover
        """The seat that made `move` (-1 at the root)."""
        self.outcome = state.outcome()
        self.proven = UNKNOWN
        """The seat that wins from here whatever the other does, or UNKNOWN."""
        if self.outcome is not None and self.outcome.winner is not None:
            self.proven = self.outcome.winner
        self.lost = 0
        """Children proven won by the other player (lost for the player to move)."""
        self.children: list[Node] = []
        self.untried: list[Move] | None = None
        """Candidate moves not expanded yet, the most promising last; None until needed."""
        self.visits = 0
        self.reward = 0.0
        """The sum of the rewards of `mover` over all visits."""
        self.heuristic = 0.5
        """The minimax value for `mover` of the policy's judgements in the subtree (set
        only when the policy's `minimax_weight` is above 0)."""

    def mean(self) -> float:
        """The mean reward of `mover`."""
        return self.reward / self.visits if self.visits else 0.0


@dataclass(frozen=True, slots=True)
class MoveStats:
    """What the search learnt about one move at the root."""

    move: Move
    visits: int
    """How often the search went through the move."""
    value: float
    """The mover's mean reward after the move (its estimated chance of winning)."""
    proven: int = UNKNOWN
    """The seat proven to win after the move, or UNKNOWN."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The chosen move and the statistics behind it."""

    move: Move
    iterations: int
    moves: tuple[MoveStats, ...]
    """Every move the search expanded at the root, best first (see `rank`)."""
    reason: str = "search"
    """`search`, `only move` (one candidate: nothing to search) or `no time` (the policy's
    first candidate, when not even one iteration fitted in the budget)."""
    root: Node | None = None
    """The searched tree (kept to search on from a later position)."""


def new_root(state: State, policy: Policy, rng: random.Random) -> Node:
    """A fresh tree for `state`, its candidates listed."""
    root = Node(state, None, -1)
    root.untried = policy.candidates(state, rng)[::-1]
    return root


def search(
    state: State,
    policy: Policy,
    stopwatch: Stopwatch,
    rng: random.Random,
    root: Node | None = None,
) -> SearchResult:
    """Search from `state` until the budget runs out (on from `root`, a tree already
    grown for `state`, when given); return the best move."""
    if root is None or root.untried is None:
        root = new_root(state, policy, rng)
    untried = root.untried or []
    if not untried and not root.children:
        raise ValueError("the search needs a position with a legal move")
    if len(root.children) + len(untried) == 1:
        only = root.children[0].move if root.children else untried[0]
        return SearchResult(only, 0, (), "only move", root)
    exploration = policy.exploration
    # Until an iteration has been timed, assume one costs as much as the set-up did.
    stopwatch.slowest = max(stopwatch.slowest, stopwatch.elapsed())
    while root.proven == UNKNOWN and not stopwatch.exhausted():
        _iterate(root, policy, rng, exploration)
        stopwatch.tick()
        if stopwatch.iterations % EARLY_STOP_EVERY == 0 and (
            _settled(root, stopwatch) or _decided(root, policy.decided)
        ):
            break
    if not root.children:
        # No time for even one iteration: the policy's first choice.
        return SearchResult(untried[-1], 0, (), "no time", root)
    ranked = rank(root)
    return SearchResult(
        ranked[0].move,
        stopwatch.iterations,
        tuple(MoveStats(child.move, child.visits, child.mean(), child.proven) for child in ranked),
        root=root,
    )


def rank(node: Node) -> list[Node]:
    """The children of `node` from the best move to the worst: proven wins first, proven
    losses last, the rest by visits (then mean reward)."""
    seat = node.state.to_move

    def key(child: Node) -> tuple[int, int, float]:
        proof = 0 if child.proven == seat else 2 if child.proven == 1 - seat else 1
        return proof, -child.visits, -child.mean()

    return sorted(node.children, key=key)


def _settled(root: Node, stopwatch: Stopwatch) -> bool:
    """True when no other move can catch up with the most visited one in the budget left."""
    first = second = 0
    lost = 1 - root.state.to_move
    for child in root.children:
        if child.proven == lost:
            continue
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return second + stopwatch.iterations_left() < first


def _decided(root: Node, threshold: float) -> bool:
    """True when the best move is well explored and the game looks won, or lost, anyway."""
    best = max(root.children, key=lambda child: child.visits)
    if best.visits < DECIDED_VISITS or best.proven == 1 - root.state.to_move:
        return False
    if best.mean() >= threshold:
        return True
    return all(child.mean() <= 1.0 - threshold for child in root.children)


def _iterate(root: Node, policy: Policy, rng: random.Random, exploration: float) -> None:
    """One iteration: select a path, expand one node, play out, back up the reward."""
    weight = policy.minimax_weight
    node = root
    path = [root]
    expanded = False
    while node.outcome is None and node.proven == UNKNOWN:
        if node.untried is None:
            node.untried = policy.candidates(node.state, rng)[::-1]
        if node.untried and len(node.children) - node.lost < policy.max_children(node.visits):
            move = node.untried.pop()
            node = Node(node.state.play(move), move, node.state.to_move)
            path[-1].children.append(node)
            path.append(node)
            expanded = True
            break
        if not node.children:
            break
        node = _select(node, exploration, weight)
        path.append(node)
    known = _known_value(node)
    if node.proven != UNKNOWN and expanded:
        _prove(path, policy.complete)
    value = known if known is not None else policy.playout(node.state, rng)
    if weight and expanded:
        judged = known if known is not None else policy.evaluate(node.state)
        node.heuristic = judged if node.mover == 0 else 1.0 - judged
        _back_up_minimax(path)
    for visited in path:
        visited.visits += 1
        visited.reward += value if visited.mover == 0 else 1.0 - value


def _prove(path: list[Node], complete: bool) -> None:
    """Pass the new proof at the end of `path` up the tree as far as it goes."""
    for depth in range(len(path) - 1, 0, -1):
        child, parent = path[depth], path[depth - 1]
        seat = parent.state.to_move
        if child.proven == seat:
            parent.proven = seat
            continue
        parent.lost += 1
        if complete and not parent.untried and parent.lost == len(parent.children):
            parent.proven = 1 - seat
            continue
        return


def _known_value(node: Node) -> float | None:
    """Seat 0's reward at a node whose result is proven or whose game is over, else None."""
    if node.proven != UNKNOWN:
        return 1.0 - node.proven
    if node.outcome is not None:
        return outcome_value(node.outcome)
    return None


def _back_up_minimax(path: list[Node]) -> None:
    """Pass a new node's heuristic value up `path` while it changes the minimax values."""
    for depth in range(len(path) - 2, -1, -1):
        parent = path[depth]
        seat = parent.state.to_move
        if parent.proven != UNKNOWN:
            value = 1.0 if parent.proven == parent.mover else 0.0
        else:
            # A child's value is its mover's, and its mover is the seat to move here.
            best = max(child.heuristic for child in parent.children)
            value = best if parent.mover == seat else 1.0 - best
        if value == parent.heuristic:
            return
        parent.heuristic = value


def _select(node: Node, exploration: float, weight: float = 0.0) -> Node:
    """The child with the highest upper confidence bound (UCT, its mean mixed with its
    minimax value by `weight`), not proven lost while another is left."""
    log_visits = math.log(node.visits) if node.visits else 0.0
    best = node.children[0]
    best_score = -math.inf
    lost = 1 - node.state.to_move
    for child in node.children:
        if child.proven == lost:
            continue
        visits = child.visits
        if not visits:
            return child
        mean = child.reward / visits
        if weight:
            mean += weight * (child.heuristic - mean)
        score = mean + exploration * math.sqrt(log_visits / visits)
        if score > best_score:
            best, best_score = child, score
    return best
