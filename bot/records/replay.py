"""Replaying a transcript through the game's engine: every move checked, or the first
bad one named by its ply (1 for the game's first move) and the engine's reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.records.endings import by_the_rules
from bot.records.limits import MAX_MOVE, MAX_PLIES, excerpt, too_many_moves
from bot.records.transcript import RecordError, Transcript
from rules import GameError, GameState


@dataclass(frozen=True, slots=True)
class Replayed:
    """A transcript replayed: the final state and every move as the engine writes it."""

    state: GameState[Any]
    moves: tuple[tuple[int, str], ...]
    """Each move as (seat, notation in the engine's own form)."""


def replay(transcript: Transcript) -> Replayed:
    """Replay the transcript's moves; `RecordError` for any move the rules refuse, a turn
    split where the rules do not split it, or a result the moves contradict."""
    game = transcript.rules
    colours = game.colours
    try:
        state: GameState[Any] = game.initial_state(game.validate_options(transcript.options))
    except GameError as exc:
        raise RecordError(f"the options are not valid: {exc}") from None
    count = sum(len(turn.moves) for turn in transcript.turns)
    if count > MAX_PLIES:
        raise too_many_moves(count)
    ply = 0
    played: list[tuple[int, str]] = []
    for index, turn in enumerate(transcript.turns):
        for text in turn.moves:
            ply += 1
            where = f"ply {ply} ({colours[turn.seat]}, {excerpt(text)})"
            if len(text) > MAX_MOVE:
                raise RecordError(f"{where}: not a move of {game.title}")
            ended = state.outcome()
            if ended is not None:
                raise RecordError(f"{where}: the game was already over ({ended.reason})")
            if state.to_move != turn.seat:
                raise RecordError(f"{where}: it is {colours[state.to_move]}'s turn")
            try:
                move = state.parse_move(text)
                played.append((turn.seat, state.format_move(move)))
                state = state.play(move)
            except GameError as exc:
                raise RecordError(f"{where}: {exc}") from None
        last = index == len(transcript.turns) - 1
        if not last and state.outcome() is None and state.to_move == turn.seat:
            raise RecordError(
                f"ply {ply}: {colours[turn.seat]}'s turn ends there, but the rules give "
                f"{colours[turn.seat]} more moves in it"
            )
    _check_result(transcript, state)
    return Replayed(state, tuple(played))


def _check_result(transcript: Transcript, state: GameState[Any]) -> None:
    """Refuse a result that contradicts how the moves end the game, and an ending by the
    rules that the moves do not reach (a resignation, time or an agreement stays as the
    record says)."""
    outcome = state.outcome()
    reason = transcript.reason
    if outcome is None:
        if transcript.finished and reason is not None and by_the_rules(transcript.game, reason):
            plies = sum(len(turn.moves) for turn in transcript.turns)
            raise RecordError(
                f"the record says the game ended by the rules ({excerpt(reason)}), but after "
                f"its {plies:,} move{'s' if plies != 1 else ''} the game is not over"
            )
        return
    colours = transcript.rules.colours
    if not transcript.finished:
        raise RecordError(
            f"the moves end the game ({outcome.reason}), but the record gives no result"
        )
    if transcript.winner != outcome.winner:
        said = "a draw" if transcript.winner is None else f"a win for {colours[transcript.winner]}"
        real = "a draw" if outcome.winner is None else f"a win for {colours[outcome.winner]}"
        raise RecordError(f"the record says {said}, but the moves end in {real} ({outcome.reason})")
    if reason is not None and reason != outcome.reason:
        raise RecordError(
            f"the moves end the game ({outcome.reason}), but the record gives the reason "
            f"{excerpt(reason)}"
        )
