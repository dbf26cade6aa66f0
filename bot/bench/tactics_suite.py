"""The tactics suite: forced wins in 1 to 5 plies, and positions where one move
avoids a forced loss, for every game. `tests/ai/test_tactics_suite.py` checks each
position with the exhaustive search and has `hard` solve it on an iteration budget;
`tabula bench ai GAME --tactics` has it solve them on a clock.

The positions come from the computer's own games (easy against easy, on small boards
where the game allows), picked where a tactic was on the board; each is checked by the
exhaustive search of `bot/bench/exhaustive.py` over every legal move, independent of
the player's code: a "win in n" is a forced win within n plies and not within fewer, an
"avoid" position has a move that loses by force within 3 plies and one that does not.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from bot.ai import Budget, choose_move, policy_for
from bot.ai.levels import Level, budget_for
from bot.bench.exhaustive import forced_win
from rules import GameState
from rules.diffusion import DIFFUSION
from rules.groups import GROUPS
from rules.hexade import HEXADE
from rules.stones import STONES

WIN = "win"
AVOID = "avoid"


def _after(state: GameState[Any], *moves: str) -> GameState[Any]:
    """`state` after the given moves."""
    for move in moves:
        state = state.play(state.parse_move(move))
    return state


CASES: list[tuple[str, str, int, GameState[Any]]] = [
    # Groups: White's c4-c3 (say) gathers five and leaves two ways to join the sixth.
    ("groups-win-1", WIN, 1, GROUPS.position(
        ["a1", "a2", "a3", "a4", "a5", "c6"], ["h8", "h7", "h6", "g8", "g7", "e1"])),
    ("groups-win-3a", WIN, 3, GROUPS.position(
        ["c2", "d2", "b3", "d3", "c4", "e4"], ["e3", "d4", "f4", "c6", "d6", "e6"])),
    ("groups-win-3b", WIN, 3, GROUPS.position(
        ["d3", "e4", "d5", "e5", "c6", "d7"], ["f2", "e3", "f3", "c4", "d4", "c5"])),
    ("groups-win-5a", WIN, 5, GROUPS.position(
        ["c2", "d2", "d3", "c4", "g4", "d5"], ["e3", "d4", "f4", "c5", "e5", "d6"], to_move=1)),
    ("groups-win-5b", WIN, 5, GROUPS.position(
        ["e3", "c4", "e4", "c5", "f5", "c6"], ["f3", "d4", "f4", "e5", "e6", "f6"], to_move=1)),
    ("groups-avoid-a", AVOID, 3, GROUPS.position(
        ["c2", "d2", "b3", "d3", "c4", "e4"], ["e3", "d4", "f4", "e5", "c6", "e6"], to_move=1)),
    ("groups-avoid-b", AVOID, 3, GROUPS.position(
        ["b3", "c4", "e4", "d5", "e5", "f5"], ["d2", "c3", "d3", "f3", "d4", "c5"])),
    ("groups-avoid-c", AVOID, 3, GROUPS.position(
        ["e3", "c4", "e4", "f5", "c6", "d6"], ["d4", "f4", "d5", "e5", "e6", "g7"])),
    # Hexade (size 6): a six that no capture can break wins on the reply, two plies on;
    # two threats of a six at once win two plies later.
    ("hexade-win-2a", WIN, 2, HEXADE.position(
        ["f1", "f2", "g2", "h3", "h4", "h6", "h7", "h8", "j6", "j7", "j8"],
        ["g3", "i4", "i5", "i6", "i7", "i9", "j5", "k6", "k7", "k8"],
        to_move=1, ply=21, size=6)),
    ("hexade-win-2b", WIN, 2, HEXADE.position(
        ["a1", "b1", "b4", "c1", "c3", "d6", "e2", "e6", "f4", "f5", "f6", "g8", "g10", "h6",
         "h10", "i6"],
        ["a2", "b2", "b3", "b5", "d1", "d2", "d3", "d4", "d5", "e1", "f3", "f7", "f10", "g7",
         "g9", "h9"],
        to_move=0, ply=40, size=6)),
    ("hexade-win-4a", WIN, 4, HEXADE.position(
        ["b1", "b4", "c2", "c3", "d6", "e2", "f4", "f5", "f6", "f8", "f9", "g8", "g10", "h10"],
        ["b3", "b5", "d1", "d2", "d3", "d4", "d5", "e3", "f3", "g7", "g9", "h9"],
        to_move=0, ply=28, size=6)),
    ("hexade-win-4b", WIN, 4, HEXADE.position(
        ["a1", "b1", "b4", "c1", "c3", "d6", "e2", "f4", "f5", "f6", "f8", "f9", "g8", "g10",
         "h10"],
        ["a2", "b3", "b5", "d1", "d2", "d3", "d4", "d5", "e1", "f3", "g7", "g9", "h9"],
        to_move=0, ply=34, size=6)),
    ("hexade-avoid-a", AVOID, 3, HEXADE.position(
        ["f1", "f2", "h3", "h4", "h6", "j6"], ["i5", "i6", "j5", "k6", "k7", "k8"],
        to_move=0, ply=12, size=6)),
    ("hexade-avoid-b", AVOID, 3, HEXADE.position(
        ["b1", "b4", "f4", "f5", "f9", "g8", "g10", "h10"],
        ["b5", "d1", "d2", "d3", "d4", "d5", "f7", "g9"],
        to_move=0, ply=16, size=6)),
    ("hexade-avoid-c", AVOID, 3, HEXADE.position(
        ["a1", "b1", "b4", "c1", "c3", "d6", "e2", "e6", "f4", "f5", "f6", "f8", "f9", "g8",
         "g10", "h10"],
        ["a2", "b3", "b5", "d1", "d2", "d3", "d4", "d5", "e1", "f3", "g7", "g9", "h9"],
        to_move=1, ply=35, size=6)),
    # Stones (size 7, a decisive lead of 4): captures that decide, from late middle games.
    ("stones-win-1", WIN, 1, STONES.position(
        ["d5", "g5", "e4", "f4", "e6", "a9"], ["e5", "f5", "j1"], prisoners=(0, 0))),
    ("stones-win-3", WIN, 3, STONES.position(
        ["b2", "c2", "d2", "a3", "b3", "c3", "e3", "b4", "d4", "f4", "c5", "e5", "f5", "g5",
         "c6", "d6", "f6"],
        ["c1", "d1", "f1", "a2", "f2", "g2", "f3", "a4", "g4", "b5", "a6", "b6", "e6", "g6",
         "b7", "f7"],
        prisoners=(3, 8), size=7)),
    ("stones-win-5a", WIN, 5, STONES.position(
        ["b2", "c2", "d2", "a3", "b3", "c3", "e3", "g3", "b4", "d4", "f4", "c5", "e5", "f5",
         "g5", "c6", "f6"],
        ["c1", "d1", "f1", "a2", "f2", "g2", "f3", "a4", "b5", "d5", "a6", "b6", "e6", "g6",
         "b7", "f7"],
        prisoners=(2, 7), size=7)),
    ("stones-win-3b", WIN, 3, STONES.position(
        ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "b2", "c2", "d2", "e2", "f2", "g2", "a3",
         "b3", "c3", "d3", "e3", "g3", "a4", "c4", "e4", "f4", "g4", "b5", "d5", "e5", "f5",
         "a6", "e6", "g6", "g7"],
        ["c5", "b6", "c6", "d6", "a7", "c7", "f7"],
        prisoners=(31, 12), size=7)),
    ("stones-avoid-a", AVOID, 3, STONES.position(
        ["a1", "b1", "c1", "d1", "e1", "b2", "c2", "e2", "g2", "c3", "d4", "c5", "d5", "e5",
         "c6", "a7", "b7", "c7", "d7"],
        ["a2", "a3", "b3", "d3", "e3", "f3", "g3", "a4", "c4", "e4", "g4", "a5", "b5", "f5",
         "a6", "d6", "e6", "f6", "e7", "g7"],
        prisoners=(0, 7), size=7)),
    ("stones-avoid-b", AVOID, 3, STONES.position(
        ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "b2", "c2", "d2", "e2", "f2", "g2", "a3",
         "b3", "c3", "d3", "e3", "g3", "a4", "c4", "e4", "f4", "g4", "d5", "e5", "f5", "e6",
         "f6", "g6", "d7", "e7", "g7"],
        ["b4", "a5", "b5", "c5", "b6", "c6", "d6", "a7", "c7"],
        to_move=1, prisoners=(31, 14), size=7)),
    # Diffusion Chess: king captures. A walled-in king falls to a stone next to it; a
    # run and its echo reach a king two moves away; on the last move of a turn, the
    # king's guard must not walk off (the exhaustive check looks one ply ahead here:
    # Black's whole next turn would be thousands of paths deep).
    ("diffusion-win-1", WIN, 1, DIFFUSION.position(
        ["c4", "d4", "d3", "d5", "e5", "e3"], ["f4", "g4", "h4", "j4", "k4"],
        black_king="e4")),
    ("diffusion-win-2", WIN, 2, DIFFUSION.position(
        ["a3", "a4", "a5"], ["f4", "g4"], black_king="e4")),
    ("diffusion-avoid", AVOID, 1, _after(
        DIFFUSION.position(
            ["c3", "c4", "c5", "a1", "a2", "s1", "s2"], ["e4", "f4", "g4", "s18"],
            white_king="c4", black_king="s19"),
        "a1-b1", "a2-a3", "s1-r1", "s2-s3")),
]  # fmt: skip


def _order(state: GameState[Any], moves: list[Any]) -> list[Any]:
    """The player's own move order (a proof is found sooner), every legal move kept."""
    hints = policy_for(state.game.name).candidates(state, random.Random(0))
    rank = {move: index for index, move in enumerate(hints)}
    return sorted(moves, key=lambda move: rank.get(move, len(rank)))


def wins(state: GameState[Any], seat: int, plies: int) -> bool:
    """True when `seat` wins within `plies` plies whatever the other does (exhaustive)."""
    return forced_win(state, seat, plies, _order)


def solved(kind: str, plies: int, state: GameState[Any], move: Any) -> bool:
    """Whether `move` solves the case: it keeps a forced win within the plies left, or it
    does not let the opponent force one within `plies`."""
    seat = state.to_move
    if kind == WIN:
        return wins(state.play(move), seat, plies - 1)
    return not wins(state.play(move), 1 - seat, plies)


@dataclass(frozen=True, slots=True)
class TacticsFigure:
    """One case played by `hard` on a clock."""

    name: str
    solved: bool
    move: str
    reason: str
    seconds: float


def run_tactics(game: str, seconds: float) -> list[TacticsFigure]:
    """Every case of `game`, each answered by `hard` with `seconds` of time (its clock, not
    an iteration count), and judged by the exhaustive search."""
    budget: Budget = budget_for(Level.HARD, seconds).with_seconds(seconds)
    figures = []
    for name, kind, plies, state in CASES:
        if state.game.name != game:
            continue
        started = time.perf_counter()
        decision = choose_move(state, budget, seed=1)
        taken = time.perf_counter() - started
        good = solved(kind, plies, state, decision.move)
        figures.append(TacticsFigure(name, good, decision.notation, decision.reason, taken))
    return figures


def describe_tactics(game: str, seconds: float, figures: list[TacticsFigure]) -> str:
    """The figures in words: how many were solved, then each case."""
    good = sum(figure.solved for figure in figures)
    lines = [f"{game}: hard solved {good} of {len(figures)} tactics at {seconds:g} s a move"]
    lines += [
        f"  {f.name}: {'solved' if f.solved else 'MISSED'} by {f.move} ({f.reason}, "
        f"{f.seconds:.2f} s)"
        for f in figures
    ]
    return "\n".join(lines)
