"""Checking every stored game against its move log (after a copy, after a benchmark).

A game's row says how many moves were played (`ply`), who is to move and whether the
game is over; its move log says which moves. They must agree: the live moves are plies
1, 2, ... without gaps, they replay through the game's rules, the player to move after
them is the row's, a game the moves ended is not shown as in progress (and has the
winner they give), and a stored snapshot is the position at its ply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.storage.repository import GameRecord, GameStatus, Repository
from rules import GameError, GameState, get_game


@dataclass
class GameAudit:
    """What checking the games found."""

    checked: int = 0
    problems: dict[int, str] = field(default_factory=dict)
    """Game id → what disagrees."""

    @property
    def ok(self) -> bool:
        """True when every game agrees with its moves."""
        return not self.problems


async def audit_game(repository: Repository, record: GameRecord) -> str | None:
    """What is wrong with one game's row or moves; None when they agree."""
    moves = await repository.list_moves(record.id)
    plies = [move.ply for move in moves]
    if plies != list(range(1, len(moves) + 1)):
        return f"its live moves are plies {plies[:5]}{'…' if len(plies) > 5 else ''}, not 1, 2, …"
    if record.ply != len(moves):
        return f"the row says {record.ply} moves, the log holds {len(moves)}"
    rules = get_game(record.game)
    try:
        state: GameState[Any] = rules.initial_state(rules.validate_options(record.options))
    except GameError as error:
        return f"its options do not start a game: {error}"
    snapshot = await repository.get_snapshot(record.id)
    if snapshot is not None and snapshot.ply > len(moves):
        return f"its snapshot is at ply {snapshot.ply}, after its last move"
    at_snapshot = state
    for move in moves:
        try:
            state = state.play_text(move.notation)
        except GameError as error:
            return f"move {move.ply} ({move.notation}) cannot be replayed: {error}"
        if snapshot is not None and move.ply == snapshot.ply:
            at_snapshot = state
    if snapshot is not None and rules.decode(snapshot.encoded).encode() != at_snapshot.encode():
        return f"its snapshot at ply {snapshot.ply} is not the position the moves give"
    if state.to_move != record.to_move:
        return f"the row says seat {record.to_move} is to move, the moves say {state.to_move}"
    outcome = state.outcome()
    if outcome is not None and record.status is GameStatus.ACTIVE:
        return "the moves ended the game, the row says it goes on"
    finished = record.status is GameStatus.FINISHED
    if outcome is not None and finished and record.winner != outcome.winner:
        return f"the moves give winner {outcome.winner}, the row {record.winner}"
    return None


async def audit_games(repository: Repository) -> GameAudit:
    """Check every stored game against its move log."""
    audit = GameAudit()
    for game_id in await repository.game_ids():
        record = await repository.get_game(game_id)
        if record is None:
            continue
        audit.checked += 1
        problem = await audit_game(repository, record)
        if problem is not None:
            audit.problems[game_id] = problem
    return audit
