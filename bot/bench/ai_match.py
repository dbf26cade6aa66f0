"""Matches between computer players for `tabula bench ai`: one game per worker call."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bot import ai
from bot.ai import Level, budget_for, choose_turn, policy_for
from bot.ai.trees import TreeKeeper
from bot.bench import old_hard
from rules import GameState, get_game

RANDOM = "random"
"""The uniformly random player: every legal move equally likely."""
GREEDY = "greedy"
"""A 1-ply greedy player: a move that wins at once, else the move after which the
game's evaluation is best for it (a beginner who looks one move ahead)."""
OLD = "old"
"""The frozen `hard` player from before the tactics work (`bot.bench.old_hard`)."""
PLAYERS = (RANDOM, GREEDY, OLD, *(level.value for level in Level))


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: who sits where, with what budget and seed."""

    game: str
    options: dict[str, str]
    seats: tuple[str, str]
    """The player in seat 0 and in seat 1 (one of `PLAYERS`)."""
    seconds: float
    """The time budget of the `hard` level (the others derive theirs from it)."""
    seed: int


@dataclass
class GameRecord:
    """How one game went."""

    spec: GameSpec
    winner: int | None
    reason: str
    plies: int
    turn_seconds: dict[int, list[float]] = field(default_factory=dict)
    """Per computer seat: the time each of its answers (whole turns) took."""
    move_seconds: dict[int, list[float]] = field(default_factory=dict)
    """Per computer seat: the time each of its moves took."""


def play_game(spec: GameSpec) -> GameRecord:
    """Play one game to its end and record it (runs in a worker process)."""
    state: GameState[Any] = get_game(spec.game).new_game(**spec.options)
    rng = random.Random(spec.seed)
    record = GameRecord(spec, None, "", 0)
    # Each `hard` seat keeps its own trees between its answers, as a worker of the bot
    # does (the other levels search afresh, as in the bot).
    trees = {seat: TreeKeeper() for seat, player in enumerate(spec.seats) if player == Level.HARD}
    for seat, player in enumerate(spec.seats):
        if player != RANDOM:
            record.turn_seconds[seat] = []
            record.move_seconds[seat] = []
    while (outcome := state.outcome()) is None:
        seat = state.to_move
        player = spec.seats[seat]
        if player == RANDOM:
            state = state.play(rng.choice(list(state.legal_moves())))
            continue
        if player == GREEDY:
            state = state.play(greedy_move(state, rng))
            continue
        seed = spec.seed * 7919 + state.ply
        started = time.perf_counter()
        if player == OLD:
            old_budget = old_hard.budget_for(old_hard.Level.HARD, spec.seconds)
            decisions: list[Any] = old_hard.choose_turn(state, old_budget, seed=seed)
        else:
            budget = budget_for(Level(player), spec.seconds)
            decisions = choose_turn(state, budget, seed=seed, trees=trees.get(seat))
        record.turn_seconds[seat].append(time.perf_counter() - started)
        for decision in decisions:
            record.move_seconds[seat].append(decision.seconds)
            state = state.play(decision.move)
    record.winner, record.reason, record.plies = outcome.winner, outcome.reason, state.ply
    return record


def greedy_move(state: GameState[Any], rng: random.Random) -> Any:
    """The 1-ply greedy player's move: an immediate win, else the best evaluated move."""
    policy = policy_for(state.game.name)
    winning = ai.find_winning_move(state, policy)
    if winning is not None:
        return winning
    mover = state.to_move
    best, best_value = None, -1.0
    for move in policy.candidates(state, rng):
        after = state.play(move)
        outcome = after.outcome()
        if outcome is not None:
            value = 0.5 if outcome.winner is None else float(outcome.winner == mover)
        else:
            value = policy.evaluate(after)
            value = value if mover == 0 else 1.0 - value
        if value > best_value:
            best, best_value = move, value
    return best


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a success rate."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
