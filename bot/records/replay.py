"""Replaying a transcript through the game's engine: every move checked, or the first
bad one named by its ply (1 for the game's first move) and the engine's reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.records.endings import DRAW, accepted, by_the_rules, like_the_rules, players_ending
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
    """Refuse a result that contradicts how the moves end the game, and a reason that is
    not one Tabula records: the rules' own ending (or one that reads like it) must be
    reached by the moves; a player's ending (a resignation, time, a withdrawal, an agreed
    draw) stays as the record says, if it agrees with the result."""
    outcome = state.outcome()
    reason = transcript.reason
    if outcome is None:
        if transcript.finished and reason is not None:
            _check_stated(transcript, reason)
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


def _check_stated(transcript: Transcript, reason: str) -> None:
    """The reason of a game the moves leave unfinished: a player's ending that agrees
    with the result; `RecordError` for the rules' own ending (it needs moves that reach
    it) and for anything else."""
    game = transcript.rules
    names = [seat.name for seat in transcript.seats]
    ending = players_ending(reason, names)
    if ending is not None and (ending[1] is None or ending[1] in names):
        how, who = ending
        winner = transcript.winner
        if how == DRAW and winner is not None:
            raise RecordError(
                f"the record gives a win for {game.colours[winner]}, but its reason is {DRAW!r}"
            )
        if who is not None and winner is None:
            raise RecordError(
                f"the record says the game was drawn, but its reason {excerpt(reason)} has "
                "a player lose it"
            )
        if who is not None and winner is not None and names[1 - winner] != who:
            raise RecordError(
                f"the record gives the win to {game.colours[winner]} ({excerpt(who)}), but "
                f"its reason {excerpt(reason)} has that player lose"
            )
        return
    if by_the_rules(transcript.game, reason) or like_the_rules(transcript.game, reason):
        plies = sum(len(turn.moves) for turn in transcript.turns)
        raise RecordError(
            f"the record says the game ended by the rules ({excerpt(reason)}), but after "
            f"its {plies:,} move{'s' if plies != 1 else ''} the game is not over"
        )
    if ending is not None:
        raise RecordError(
            f"the reason {excerpt(reason)} names {excerpt(ending[1] or '')}, who is not a "
            f"player of this game ({', '.join(excerpt(name) for name in names)})"
        )
    raise RecordError(
        f"the reason {excerpt(reason)} is not one Tabula records: "
        f"{accepted(transcript.game, game.title)}"
    )
