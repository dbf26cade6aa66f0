"""The computer player: immediate and forced wins first, then a tree search within a
budget, whose choice an exact tactical search checks before it is played."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.budget import Budget, Stopwatch, TimeSource
from bot.ai.mcts import SearchResult, search
from bot.ai.policy import Move, Policy, State, policy_for
from bot.ai.tactics import Tactics
from bot.ai.trees import TreeKeeper

TURN_SHARE = 0.95
"""The share of a turn's time budget its moves may use: the rest covers the small work
between them (playing each move, starting the next search)."""
WIN_SHARE = 0.15
"""The share of a move's time the search for a forced win may take before the tree search."""
WIN_EXTRA_PLIES = 2
"""How much deeper than its lookahead the player looks for a forced win of its own."""
SEARCH_SHARE = 0.7
"""The share of a move's time after which the tree search stops (with a lookahead; the
rest is for checking its choice)."""
RESUME_SHARE = 0.93
"""The share of a move's time the tree search may go on to once its favourite was
checked safe (the rest: checking a new favourite, and the answer's own work)."""
MIN_RESUME = 0.05
"""The least share of a move's time worth searching on for."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A move chosen by the computer player, and how it was found."""

    move: Move
    notation: str
    """The move in the game's notation."""
    reason: str
    """`wins at once`, `forced win` (found by the tactical search), `only move`,
    `search`, `avoids a loss` (the search's favourite let the opponent force a win) or
    `no time` (see `SearchResult.reason`)."""
    iterations: int
    """Search iterations spent (0 when no search was needed)."""
    seconds: float
    """Time taken, as measured by the player's time source."""
    value: float | None
    """The searched move's estimated chance of winning for the mover, when searched."""
    result: SearchResult | None = None
    """The tree search's statistics, when it ran."""


def choose_move(
    state: State,
    budget: Budget,
    *,
    seed: int = 0,
    policy: Policy | None = None,
    time_source: TimeSource = time.perf_counter,
    trees: TreeKeeper | None = None,
) -> Decision:
    """The computer's move in `state` within `budget`; the same seed gives the same move.

    A move that wins at once is played without searching. With a lookahead, a forced
    win within it is played, and a move letting the opponent force one is avoided when
    another does not. `trees` keeps the searched tree to search on after the replies.
    `ValueError` if the game is over.
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
    tactics = None
    lookahead = budget.lookahead
    if lookahead and not policy.may_end_within(state, lookahead + WIN_EXTRA_PLIES):
        lookahead = 0  # nothing for the exact searches to find: the tree gets the time
    if lookahead > 1:
        tactics = Tactics(
            policy, budget.tactics_nodes, random.Random(seed), _deadline(stopwatch, WIN_SHARE)
        )
        # The quickest win first (a turn of several moves, or Hexade's six judged a ply
        # later, can win in an even number of plies), as deep as the budget allows.
        for plies in range(2, lookahead + WIN_EXTRA_PLIES + 1):
            if not policy.may_win_within(state, state.to_move, plies):
                continue
            forced = tactics.winning_move(state, plies)
            if forced is not None:
                return _decision(state, forced, "forced win", stopwatch)
    search_watch = stopwatch
    if lookahead and budget.seconds is not None:
        left = budget.seconds * SEARCH_SHARE - stopwatch.elapsed()
        search_watch = Stopwatch(budget.with_seconds(max(left, 1e-6)), time_source)
    root = trees.find(state) if trees is not None else None
    result = search(state, policy, search_watch, rng, root)
    if trees is not None and result.root is not None:
        trees.keep(result.root)
    move, reason = result.move, result.reason
    iterations = search_watch.iterations
    if lookahead and reason == "search":
        if tactics is None or tactics.exhausted:
            tactics = Tactics(policy, budget.tactics_nodes, random.Random(seed))
        tactics.reset_deadline(_deadline(stopwatch, 1.0))
        move = safe_move(state, result, policy, tactics, lookahead)
        if move != result.move:
            reason = "avoids a loss"
        else:
            result, move, more = _search_on(
                state, result, (policy, tactics), (stopwatch, time_source), rng
            )
            iterations += more
    stats = next((s for s in result.moves if s.move == move), None)
    return Decision(
        move,
        state.format_move(move),
        reason,
        iterations,
        stopwatch.elapsed(),
        stats.value if stats is not None else None,
        result,
    )


def safe_move(
    state: State, result: SearchResult, policy: Policy, tactics: Tactics, plies: int
) -> Move:
    """The search's best move that does not let the opponent force a win within `plies`
    plies; its best move when every move checked does (or nothing could be checked)."""
    seat = state.to_move
    ranked = [stats.move for stats in result.moves if stats.proven != 1 - seat]
    root = result.root
    if root is not None and root.untried:
        ranked.extend(reversed(root.untried))
    for move in ranked:
        after = state.play(move)
        if not policy.may_win_within(after, 1 - seat, plies):
            return move
        verdict = tactics.forced_win(after, 1 - seat, plies)
        if verdict is not True:
            return move
        if tactics.exhausted:
            break
    return result.move


def _search_on(
    state: State,
    result: SearchResult,
    players: tuple[Policy, Tactics],
    clock: tuple[Stopwatch, TimeSource],
    rng: random.Random,
) -> tuple[SearchResult, Move, int]:
    """Search on in the same tree with the time the check of a safe favourite left (the
    check is usually quick): a new favourite replaces it only once it is checked safe
    too. Returns the statistics, the move and the iterations added."""
    policy, tactics = players
    stopwatch, time_source = clock
    seconds = stopwatch.budget.seconds
    if seconds is None or result.root is None:
        return result, result.move, 0
    left = seconds * RESUME_SHARE - stopwatch.elapsed()
    if left < seconds * MIN_RESUME:
        return result, result.move, 0
    watch = Stopwatch(stopwatch.budget.with_seconds(left), time_source)
    again = search(state, policy, watch, rng, result.root)
    if again.reason != "search" or again.move == result.move:
        return again, again.move, watch.iterations
    plies = stopwatch.budget.lookahead
    after = state.play(again.move)
    opponent = 1 - state.to_move
    if (
        policy.may_win_within(after, opponent, plies)
        and tactics.forced_win(after, opponent, plies) is not False
    ):
        # The new favourite loses, or there was no time to tell: keep the checked one.
        return result, result.move, watch.iterations
    return again, again.move, watch.iterations


def _deadline(stopwatch: Stopwatch, share: float) -> Callable[[], bool]:
    """True once `share` of the stopwatch's time budget (less its reserve) has passed."""
    seconds = stopwatch.budget.seconds
    if seconds is None:
        return lambda: False
    limit = seconds * share * 0.97
    return lambda: stopwatch.elapsed() >= limit


def choose_turn(
    state: State,
    budget: Budget,
    *,
    seed: int = 0,
    policy: Policy | None = None,
    time_source: TimeSource = time.perf_counter,
    trees: TreeKeeper | None = None,
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
            trees=trees,
        )
        decisions.append(decision)
        state = state.play(decision.move)
    return decisions


def find_winning_move(state: State, policy: Policy) -> Move | None:
    """A move that ends the game at once with the mover as the winner, if there is one."""
    return policy.winning_move(state)


def _decision(state: State, move: Move, reason: str, stopwatch: Stopwatch) -> Decision:
    return Decision(
        move, state.format_move(move), reason, stopwatch.iterations, stopwatch.elapsed(), None
    )
