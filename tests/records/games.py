"""Seeded random games of every game and option, as transcripts and as stored games."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.records.transcript import Seat, Tournament, Transcript, turns_of
from bot.storage.repository import GameRecord, GameStatus, MoveRecord, NewGame, Repository
from rules import GameState, OptionValue, get_game

CASES: list[tuple[str, Mapping[str, OptionValue]]] = [
    ("diffusion", {}),
    ("groups", {"start": "standard"}),
    ("groups", {"start": "drop"}),
    *[("hexade", {"size": size}) for size in range(5, 13)],
    *[("rekushu", {"size": size}) for size in (8, 12, 14, 18, 20)],
    ("stones", {}),
    ("stones", {"size": 5}),
    ("stones", {"size": 7, "compensation": 0}),
    ("stones", {"size": 13, "threshold": 3}),
    ("stones", {"size": 19, "threshold": 40, "compensation": 20}),
]
"""Every game with every option value (Hexade's and Rekushu's sizes), Stones' options."""
ENDINGS = ("rules", "resigned", "draw agreed", "time", "withdrew")
"""How a random game ends: by the rules, or cut short at a random move."""
START = datetime(2025, 3, 1, 9, 30, 5, tzinfo=UTC)
ALICE, BOB = 1001, 1002
GUILD = 500
"""The server stored games are played in (the same as the service tests')."""


def case_id(case: tuple[str, Mapping[str, OptionValue]]) -> str:
    """A readable test id: `stones-size=5`."""
    name, options = case
    return "-".join([name, *(f"{k}={v}" for k, v in options.items())])


def random_moves(
    name: str, options: Mapping[str, OptionValue], seed: int, *, cut: int | None = None
) -> tuple[list[tuple[int, str]], GameState[Any]]:
    """Random legal moves from the start, to the end or to `cut` moves."""
    rng = random.Random(seed)
    state: GameState[Any] = get_game(name).new_game(**options)
    moves: list[tuple[int, str]] = []
    while state.outcome() is None and (cut is None or len(moves) < cut):
        move = rng.choice(list(state.legal_moves()))
        moves.append((state.to_move, state.format_move(move)))
        state = state.play(move)
    return moves, state


def random_transcript(
    name: str,
    options: Mapping[str, OptionValue],
    seed: int,
    ending: str = "rules",
    *,
    computer: bool = False,
    tournament: Tournament | None = None,
) -> Transcript:
    """A finished random game: by the rules, or cut short by `ending`."""
    rng = random.Random(seed * 7919 + len(ending))
    cut = None if ending == "rules" else rng.randrange(1, 40)
    moves, state = random_moves(name, options, seed, cut=cut)
    outcome = state.outcome()
    if outcome is not None:
        winner, reason = outcome.winner, outcome.reason
    else:
        loser = state.to_move
        names = ("alice", "Tabula (hard)" if computer else "bob")
        winner, reason = {
            "resigned": (1 - loser, f"{names[loser]} resigned"),
            "draw agreed": (None, "draw agreed"),
            "time": (1 - loser, f"{names[loser]} ran out of time"),
            "withdrew": (1 - loser, f"{names[loser]} withdrew from the tournament"),
        }[ending]
    second = Seat("Tabula (hard)", None, "hard") if computer else Seat("bob", BOB)
    return Transcript(
        game=name,
        options=get_game(name).validate_options(options),
        seats=(Seat("alice", ALICE), second),
        turns=turns_of(moves),
        started_at=START,
        status=GameStatus.FINISHED,
        winner=winner,
        reason=reason,
        ended_at=START + timedelta(hours=1, seconds=len(moves)),
        rated=not computer and seed % 2 == 0,
        time_control="3d" if seed % 3 == 0 else "none",
        tournament=tournament,
        game_id=None,
    )


async def store_played(
    repository: Repository,
    name: str,
    options: Mapping[str, OptionValue],
    seed: int,
    ending: str = "rules",
    *,
    guild_id: int | None = GUILD,
    players: tuple[int | None, int | None] = (ALICE, BOB),
    names: tuple[str, str] = ("alice", "bob"),
    finished_at: datetime | None = None,
) -> GameRecord:
    """A random game stored as the bot stores a game played here: row, moves, result.

    `ending="none"` leaves it in progress (after a few moves)."""
    transcript = random_transcript(name, options, seed, "resigned" if ending == "none" else ending)
    game = get_game(name)
    record = await repository.create_game(
        NewGame(
            name,
            game.validate_options(options),
            guild_id,
            77,
            players,
            names,
            START,
            rated=transcript.rated,
            time_control=transcript.time_control,
        )
    )
    state: GameState[Any] = game.new_game(**options)
    for ply, (seat, notation) in enumerate(transcript.moves(), start=1):
        state = state.play_text(notation)
        record = record.evolve(ply=ply, to_move=state.to_move, thread_id=88 + record.id)
        move = MoveRecord(record.id, ply, seat, players[seat], notation, START)
        record = await repository.record_move(move, record)
    if ending != "none":
        record = record.evolve(
            status=GameStatus.FINISHED,
            winner=transcript.winner,
            result_reason=transcript.reason,
            finished_at=finished_at or transcript.ended_at,
        )
        record = await repository.update_game(record)
    return record
