"""A shallow exact search for forced wins: the tactics a Monte Carlo search can miss.

`Tactics.forced_win(state, seat, plies)` answers whether `seat` can force a win within
`plies` plies (moves, not turns) whatever the other player does: an AND/OR search over
the policy's `attacks()` (the winner's tries) and `defences()` (every move that might
save the loser). It counts the positions it visits and gives up, answering None
("not known"), when its node limit or its deadline is reached, so that it always fits
in the computer's time budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai.policy import Move, Policy, State

NO_DEADLINE: Callable[[], bool] = lambda: False  # noqa: E731


class _OutOfBudget(Exception):
    """The node limit or the deadline was reached: the answer is not known."""


class Tactics:
    """Exact forced-win searches within a node limit and a deadline."""

    def __init__(
        self,
        policy: Policy,
        node_limit: int,
        rng: random.Random,
        deadline: Callable[[], bool] = NO_DEADLINE,
    ) -> None:
        self.policy = policy
        self.node_limit = node_limit
        self.nodes = 0
        """Positions visited so far, by every search of this object."""
        self._rng = rng
        self._deadline = deadline
        self._killers: dict[int, Move] = {}
        """Per plies left: the last defence that refuted an attack (tried first)."""

    def reset_deadline(self, deadline: Callable[[], bool]) -> None:
        """Search on under another deadline."""
        self._deadline = deadline

    @property
    def exhausted(self) -> bool:
        """True when the node limit is used up."""
        return self.nodes >= self.node_limit

    def forced_win(self, state: State, seat: int, plies: int) -> bool | None:
        """True when `seat` can force a win within `plies` plies; None when not known."""
        try:
            return self._win(state, seat, plies)
        except _OutOfBudget:
            return None

    def winning_move(self, state: State, plies: int) -> Move | None:
        """A move of the player to move that forces a win within `plies` plies, if found."""
        seat = state.to_move
        immediate = self.policy.winning_move(state)
        if immediate is not None or plies <= 1:
            return immediate
        if self._deadline():
            return None
        try:
            for move in self.policy.attacks(state, plies, self._rng):
                if self._win(state.play(move), seat, plies - 1):
                    return move
        except _OutOfBudget:
            pass
        return None

    def _visit(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _OutOfBudget
        # Every position: one of Diffusion Chess's costs milliseconds (its move lists).
        if self._deadline():
            raise _OutOfBudget

    def _win(self, state: State, seat: int, plies: int) -> bool:
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner == seat
        if plies <= 0:
            return False
        self._visit()
        policy = self.policy
        if state.to_move == seat:
            if policy.winning_move(state) is not None:
                return True
            if plies == 1:
                return False
            return any(
                self._win(state.play(move), seat, plies - 1)
                for move in policy.attacks(state, plies, self._rng)
            )
        moves = policy.defences(state, seat)
        killer = self._killers.get(plies)
        if killer is not None and killer in moves:
            moves.remove(killer)
            moves.insert(0, killer)
        for move in moves:
            if not self._win(state.play(move), seat, plies - 1):
                self._killers[plies] = move
                return False
        return bool(moves)
