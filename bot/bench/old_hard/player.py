"""The computer player: immediate wins first, then a tree search within a budget."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.bench.old_hard.budget import Budget, Stopwatch, TimeSource
from bot.bench.old_hard.mcts import search
from bot.bench.old_hard.policy import Move, Policy, State, policy_for

TURN_SHARE = 0.95
"""The share of a turn's time budget its moves may use: the rest covers the small work
between them (playing each move, starting the next search)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A move chosen by the computer player, and how it was found."""

    move: Move
    notation: str
    """The move in the game's notation."""
    reason: str
    """`wins at once`, `only move`, `search` or `no time` (see `SearchResult.reason`)."""
    iterations: int
    """Search iterations spent (0 when no search was needed)."""
    seconds: float
    """Time taken, as measured by the player's time source."""
    value: float | None
    """The searched move's estimated chance of winning for the mover, when searched."""


def choose_move(
    state: State,
    budget: Budget,
    *,
    seed: int = 0,
    policy: Policy | None = None,
    time_source: TimeSource = time.perf_counter,
) -> Decision:
    """The computer's move in `state` within `budget`; the same seed gives the same move.

    A move that wins at once is played without searching. `ValueError` if the game is over.
    """
    if state.outcome() is not None:
        raise ValueError("the game is over")
    if policy is None:
        policy = policy_for(state.game.name)
    stopwatch = Stopwatch(budget, time_source)
    winning = find_winning_move(state, policy)
    if winning is not None:
        return _decision(state, winning, "wins at once", stopwatch)
    rng = random.Random(seed)
    result = search(state, policy, stopwatch, rng)
    value = result.moves[0].value if result.moves else None
    return _decision(state, result.move, result.reason, stopwatch, value)


def choose_turn(
    state: State,
    budget: Budget,
    *,
    seed: int = 0,
    policy: Policy | None = None,
    time_source: TimeSource = time.perf_counter,
) -> list[Decision]:
    """Every move of the computer's turn (several in Diffusion Chess) within one budget.

    The time left is shared evenly among the moves the turn still has; the iteration
    limit applies to each move.
    """
    if policy is None:
        policy = policy_for(state.game.name)
    seat = state.to_move
    started = time_source()
    decisions: list[Decision] = []
    while state.outcome() is None and state.to_move == seat:
        share = None
        if budget.seconds is not None:
            left = budget.seconds * TURN_SHARE - (time_source() - started)
            share = max(left, 1e-3) / max(1, policy.moves_left_in_turn(state))
        decision = choose_move(
            state,
            budget.with_seconds(share),
            seed=seed + len(decisions),
            policy=policy,
            time_source=time_source,
        )
        decisions.append(decision)
        state = state.play(decision.move)
    return decisions


def find_winning_move(state: State, policy: Policy) -> Move | None:
    """A move that ends the game at once with the mover as the winner, if there is one."""
    mover = state.to_move
    for move in policy.winning_candidates(state):
        outcome = state.play(move).outcome()
        if outcome is not None and outcome.winner == mover:
            return move
    return None


def _decision(
    state: State, move: Move, reason: str, stopwatch: Stopwatch, value: float | None = None
) -> Decision:
    return Decision(
        move, state.format_move(move), reason, stopwatch.iterations, stopwatch.elapsed(), value
    )
