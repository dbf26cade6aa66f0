"""The computer player as it was before its tactics (wins, threats and captures searched
exactly), frozen as the yardstick of `tabula bench ai`: the `old` player plays it at the
`hard` level. Do not improve it: it measures how much the live player (`bot.ai`) gained.
"""

from __future__ import annotations

from bot.bench.old_hard.budget import Budget, Stopwatch, TimeSource
from bot.bench.old_hard.levels import DEFAULT_SECONDS, Level, budget_for, parse_level
from bot.bench.old_hard.player import Decision, choose_move, choose_turn, find_winning_move
from bot.bench.old_hard.policy import Policy, policy_for, register_policy

# Importing the knowledge modules registers them.
from bot.bench.old_hard import games  # isort: skip

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
