"""Matches between computer players for `tabula bench ai`: one game per worker call."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bot.ai import Level, budget_for, choose_turn
from rules import GameState, get_game

RANDOM = "random"
"""The uniformly random player: every legal move equally likely."""
PLAYERS = (RANDOM, *(level.value for level in Level))


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: who sits where, with what budget and seed."""

    game: str
    options: dict[str, str]
    seats: tuple[str, str]
    """The player in seat 0 and in seat 1 (`random`, `easy`, `medium`, `hard`)."""
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
        budget = budget_for(Level(player), spec.seconds)
        started = time.perf_counter()
        decisions = choose_turn(state, budget, seed=spec.seed * 7919 + state.ply)
        record.turn_seconds[seat].append(time.perf_counter() - started)
        for decision in decisions:
            record.move_seconds[seat].append(decision.seconds)
            state = state.play(decision.move)
    record.winner, record.reason, record.plies = outcome.winner, outcome.reason, state.ply
    return record


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a success rate."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
