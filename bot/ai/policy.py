"""Game knowledge for the search, behind one small interface, and the registry of it.

The search itself knows only the rules interface. A `Policy` tells it which moves to
look at first (and how many of a long move list), how to play quickly through a
playout, how to judge a position where a playout stops early, and which moves might
win at once. The base class knows nothing beyond the rules: uniform random playouts
to the end of the game over every legal move. Each game overrides what matters.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from typing import Any

from rules import GameState, Outcome

Move = Any
"""A move of whichever game is being searched (the engines' move types differ)."""
State = GameState[Any]


class Policy:
    """Game knowledge the search consults; this base class knows only the rules."""

    exploration = 0.7
    """The UCT exploration constant (rewards lie between 0 and 1)."""
    playout_depth: int | None = None
    """Moves a playout makes before `evaluate()` judges it; None plays to the end."""
    decided = 0.98
    """A position whose best move's mean reward reaches this (or every move's stays
    below 1 − this), once well explored, is decided: the search stops early."""
    widening: tuple[float, float] | None = None
    """Progressive widening (k, alpha): a node visited n times has at most
    ceil(k · (n + 1)^alpha) children, taken from `candidates()` in order. None expands
    every candidate before searching deeper."""
    minimax_weight = 0.0
    """How much the search's selection trusts the minimax value of `evaluate()` over
    the subtree against the playouts' mean (0: not at all, no judging of new nodes)."""
    complete = True
    """True when `candidates()` lists every legal move (or a single winning one): then
    a position all of whose candidates lose is proven lost. False for a sample."""

    def candidates(self, state: State, rng: random.Random) -> list[Move]:
        """The moves the search considers in `state`, most promising first."""
        moves = list(state.legal_moves())
        rng.shuffle(moves)
        return moves

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        """A quick move for a playout; None when there is none."""
        moves = list(state.legal_moves())
        return rng.choice(moves) if moves else None

    def playout(self, state: State, rng: random.Random) -> float:
        """Play quick moves from `state` (`playout_move()` each) until the game ends or
        `playout_depth` moves are made; return seat 0's reward. A game may override this
        with a faster loop that keeps its own structures up to date move by move, as long
        as it makes the same moves."""
        depth = self.playout_depth
        plies = 0
        while True:
            outcome = state.outcome()
            if outcome is not None:
                return outcome_value(outcome)
            if depth is not None and plies >= depth:
                return self.evaluate(state)
            move = self.playout_move(state, rng)
            if move is None:
                return self.evaluate(state)
            state = state.play(move)
            plies += 1

    def evaluate(self, state: State) -> float:
        """Seat 0's chance of winning from `state`, where a playout was cut off."""
        return 0.5

    def winning_candidates(self, state: State) -> Iterable[Move]:
        """Every move that might end the game at once in the mover's favour."""
        return state.legal_moves()

    def winning_move(self, state: State) -> Move | None:
        """A move that ends the game at once with the mover as the winner, if any."""
        mover = state.to_move
        for move in self.winning_candidates(state):
            outcome = state.play(move).outcome()
            if outcome is not None and outcome.winner == mover:
                return move
        return None

    def attacks(self, state: State, plies: int, rng: random.Random) -> list[Move]:
        """The moves tried in an exact search for a win of the mover within `plies` plies
        (a win missed here is only missed: the list need not be complete)."""
        return self.candidates(state, rng)

    def defences(self, state: State, attacker: int) -> list[Move]:
        """The moves tried in an exact search by the player to move against `attacker`'s
        threats: every move that might avoid the loss (all legal moves by default)."""
        return list(state.legal_moves())

    def may_end_within(self, state: State, plies: int) -> bool:
        """False when the game cannot end within `plies` plies from `state` (as far as
        `winning_candidates()` can tell): the exact tactical searches are then skipped."""
        return True

    def may_win_within(self, state: State, seat: int, plies: int) -> bool:
        """False when `seat` cannot win within `plies` plies from `state`: a search for
        its forced win is then skipped (by default: when the game cannot end)."""
        return self.may_end_within(state, plies)

    def moves_left_in_turn(self, state: State) -> int:
        """How many moves the player to move still makes this turn (1 in most games)."""
        return 1

    def max_children(self, visits: int) -> int | float:
        """How many children a node visited `visits` times may have."""
        if self.widening is None:
            return math.inf
        k, alpha = self.widening
        return math.ceil(k * (visits + 1) ** alpha)


def outcome_value(outcome: Outcome) -> float:
    """Seat 0's reward for a finished game: 1 for a win, 0 for a loss, ½ for a draw."""
    if outcome.winner is None:
        return 0.5
    return 1.0 - outcome.winner


def logistic(x: float) -> float:
    """Map a score difference to a probability (0.5 at 0)."""
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


_FACTORIES: dict[str, Callable[[], Policy]] = {}
_POLICIES: dict[str, Policy] = {}


def register_policy(game_name: str, factory: Callable[[], Policy]) -> None:
    """Use `factory()` to build the knowledge for the game called `game_name`."""
    _FACTORIES[game_name] = factory


def policy_for(game_name: str) -> Policy:
    """The knowledge registered for a game, or the rules-only base policy."""
    policy = _POLICIES.get(game_name)
    if policy is None:
        factory = _FACTORIES.get(game_name, Policy)
        policy = _POLICIES[game_name] = factory()
    return policy
