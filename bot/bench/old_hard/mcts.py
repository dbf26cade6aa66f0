"""Monte Carlo tree search with UCT over the rules interface of any game.

Rewards are backed up by seat, not by alternating plies: a node stores the reward of
the seat that made the move leading to it, so a turn of several moves by one player
(Diffusion Chess) needs no special case.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bot.bench.old_hard.budget import Stopwatch
from bot.bench.old_hard.policy import Move, Policy, State, outcome_value

EARLY_STOP_EVERY = 16
"""Iterations between checks whether the search can stop before its budget runs out."""
DECIDED_VISITS = 200
"""Visits of the best move after which a clearly decided position ends the search."""


class Node:
    """One state in the search tree, with the statistics of the move that led to it."""

    __slots__ = ("children", "move", "mover", "outcome", "reward", "state", "untried", "visits")

    def __init__(self, state: State, move: Move | None, mover: int) -> None:
        self.state = state
        self.move = move
        self.mover = mover
        """The seat that made `move` (-1 at the root)."""
        self.outcome = state.outcome()
        self.children: list[Node] = []
        self.untried: list[Move] | None = None
        """Candidate moves not expanded yet, the most promising last; None until needed."""
        self.visits = 0
        self.reward = 0.0
        """The sum of the rewards of `mover` over all visits."""

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


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The chosen move and the statistics behind it."""

    move: Move
    iterations: int
    moves: tuple[MoveStats, ...]
    """Every move the search expanded at the root, most visited first."""
    reason: str = "search"
    """`search`, `only move` (one candidate: nothing to search) or `no time` (the policy's
    first candidate, when not even one iteration fitted in the budget)."""


def search(state: State, policy: Policy, stopwatch: Stopwatch, rng: random.Random) -> SearchResult:
    """Search from `state` until the budget runs out; return the most visited move."""
    root = Node(state, None, -1)
    root.untried = policy.candidates(state, rng)[::-1]
    if not root.untried:
        raise ValueError("the search needs a position with a legal move")
    if len(root.untried) == 1:
        return SearchResult(root.untried[0], 0, (), "only move")
    exploration = policy.exploration
    # Until an iteration has been timed, assume one costs as much as the set-up did.
    stopwatch.slowest = max(stopwatch.slowest, stopwatch.elapsed())
    while not stopwatch.exhausted():
        _iterate(root, policy, rng, exploration)
        stopwatch.tick()
        if stopwatch.iterations % EARLY_STOP_EVERY == 0 and (
            _settled(root, stopwatch) or _decided(root, policy.decided)
        ):
            break
    if not root.children:
        # No time for even one iteration: the policy's first choice.
        return SearchResult(root.untried[-1], 0, (), "no time")
    ranked = sorted(root.children, key=lambda child: (-child.visits, -child.mean()))
    return SearchResult(
        ranked[0].move,
        stopwatch.iterations,
        tuple(MoveStats(child.move, child.visits, child.mean()) for child in ranked),
    )


def _settled(root: Node, stopwatch: Stopwatch) -> bool:
    """True when no other move can catch up with the most visited one in the budget left."""
    first = second = 0
    for child in root.children:
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return second + stopwatch.iterations_left() < first


def _decided(root: Node, threshold: float) -> bool:
    """True when the best move is well explored and the game looks won, or lost, anyway."""
    best = max(root.children, key=lambda child: child.visits)
    if best.visits < DECIDED_VISITS:
        return False
    if best.mean() >= threshold:
        return True
    return all(child.mean() <= 1.0 - threshold for child in root.children)


def _iterate(root: Node, policy: Policy, rng: random.Random, exploration: float) -> None:
    """One iteration: select a path, expand one node, play out, back up the reward."""
    node = root
    path = [root]
    while node.outcome is None:
        if node.untried is None:
            node.untried = policy.candidates(node.state, rng)[::-1]
        winner = _winning_child(node)
        if winner is not None:
            node = winner
        elif node.untried and len(node.children) < policy.max_children(node.visits):
            move = node.untried.pop()
            child = Node(node.state.play(move), move, node.state.to_move)
            node.children.append(child)
            path.append(child)
            node = child
            break
        elif node.children:
            node = _select(node, exploration)
        else:
            break
        path.append(node)
    if node.outcome is not None:
        value = outcome_value(node.outcome)
    else:
        value = _playout(node.state, policy, rng)
    for visited in path:
        visited.visits += 1
        visited.reward += value if visited.mover == 0 else 1.0 - value


def _winning_child(node: Node) -> Node | None:
    """The last expanded child when its move won the game for the player to move."""
    if node.children:
        last = node.children[-1]
        outcome = last.outcome
        if outcome is not None and outcome.winner == last.mover:
            return last
    return None


def _select(node: Node, exploration: float) -> Node:
    """The child with the highest upper confidence bound (UCT)."""
    log_visits = math.log(node.visits)
    best = node.children[0]
    best_score = -math.inf
    for child in node.children:
        visits = child.visits
        if not visits:
            return child
        score = child.reward / visits + exploration * math.sqrt(log_visits / visits)
        if score > best_score:
            best, best_score = child, score
    return best


def _playout(state: State, policy: Policy, rng: random.Random) -> float:
    """Play quick moves from `state`; return seat 0's reward."""
    depth = policy.playout_depth
    plies = 0
    while True:
        outcome = state.outcome()
        if outcome is not None:
            return outcome_value(outcome)
        if depth is not None and plies >= depth:
            return policy.evaluate(state)
        move = policy.playout_move(state, rng)
        if move is None:
            return policy.evaluate(state)
        state = state.play(move)
        plies += 1
