"""The computer opponent: a Monte Carlo tree search over the rules interface of every
game, guided by per-game knowledge. Pure computation: no I/O, no Discord.

`choose_turn(state, budget_for(level))` returns the computer's moves for its turn.
"""

from __future__ import annotations

from bot.ai.budget import Budget, Stopwatch, TimeSource
from bot.ai.levels import DEFAULT_SECONDS, Level, budget_for, parse_level
from bot.ai.player import Decision, choose_move, choose_turn, find_winning_move
from bot.ai.policy import Policy, policy_for, register_policy

# Importing the knowledge modules registers them.
from bot.ai import games  # isort: skip

__all__ = [
    "DEFAULT_SECONDS",
    "Budget",
    "Decision",
    "Level",
    "Policy",
    "Stopwatch",
    "TimeSource",
    "budget_for",
    "choose_move",
    "choose_turn",
    "find_winning_move",
    "games",
    "parse_level",
    "policy_for",
    "register_policy",
]
