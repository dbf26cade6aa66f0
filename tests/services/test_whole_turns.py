"""`GameService.play_turn`: the rest of a turn stored together, all of it or nothing."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest

from bot.services.correspondence.clocks import TimeUpError
from bot.services.errors import ConflictError, InvalidStateError, NotStoredError, NotYourTurnError
from rules import GameError
from tests.services.conftest import ALICE, BOB, Env

TURN = ["f5-e5", "echo", "o5-p5", "echo"]
"""White's first Diffusion Chess turn: four moves, two of them echoes."""


async def test_a_whole_turn_is_stored_and_announced_once(env: Env) -> None:
    """Four moves in one call: stored, one board for the turn, the opponent to move."""
    view = await env.start("diffusion")
    result = await env.services.games.play_turn(view.id, ALICE.id, TURN, at_ply=0)
    assert result.turn_complete and [m.notation for m in result.turn_moves] == TURN
    record = await env.services.games.record(view.id)
    assert record.ply == 4 and record.to_move == 1
    assert len(env.notifier.moves) == 1


async def test_the_rest_of_a_turn_begun_elsewhere(env: Env) -> None:
    """Two moves played one by one (in Discord, say), the other two as the rest."""
    view = await env.start("diffusion")
    for move in TURN[:2]:
        await env.services.games.play(view.id, ALICE.id, move)
    await env.services.games.play_turn(view.id, ALICE.id, TURN[2:])
    assert (await env.services.games.record(view.id)).ply == 4


@pytest.mark.parametrize(
    ("moves", "error", "words"),
    [
        (["f5-e5", "echo", "o5-p5", "z9-z8"], GameError, ""),
        (["f5-e5", "echo"], InvalidStateError, "not a whole turn"),
        ([*TURN, "f5-f4"], InvalidStateError, "more moves than one turn"),
    ],
)
async def test_a_turn_refused_partway_stores_nothing(
    env: Env, moves: list[str], error: type[Exception], words: str
) -> None:
    """A move the rules refuse after legal ones, a turn left unfinished, a move past the
    turn's end: refused, and not one move is stored or announced."""
    view = await env.start("diffusion")
    with pytest.raises(error, match=words):
        await env.services.games.play_turn(view.id, ALICE.id, moves)
    assert (await env.services.games.record(view.id)).ply == 0
    assert env.notifier.moves == []
    await env.services.games.play_turn(view.id, ALICE.id, TURN)  # the game goes on
    assert (await env.services.games.record(view.id)).ply == 4


async def test_a_storage_failure_on_the_third_move_stores_nothing(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fails while the third move is written: the turn's first two moves are
    not left behind, the player is told, and the turn can be sent again."""
    view = await env.start("diffusion")
    record_move = env.repo.record_move
    calls = 0

    async def failing(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise sqlite3.OperationalError("disk I/O error")
        return await record_move(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(env.repo, "record_move", failing)
    with pytest.raises(NotStoredError):
        await env.services.games.play_turn(view.id, ALICE.id, TURN)
    assert (await env.services.games.record(view.id)).ply == 0
    assert await env.services.games.notations(view.id, 10) == []
    await env.services.games.play_turn(view.id, ALICE.id, TURN)
    assert await env.services.games.notations(view.id, 10) == TURN


async def test_a_turn_is_refused_when_it_is_not_the_players(env: Env) -> None:
    """The opponent's turn, a game that moved on since the page showed it, and a clock
    run out: refused, nothing stored."""
    view = await env.start("diffusion", time_control="1d")
    games = env.services.games
    with pytest.raises(NotYourTurnError):
        await games.play_turn(view.id, BOB.id, ["f15-e15"])
    with pytest.raises(ConflictError):
        await games.play_turn(view.id, ALICE.id, TURN, at_ply=3)
    env.clock.advance(timedelta(days=2))
    with pytest.raises(TimeUpError):
        await games.play_turn(view.id, ALICE.id, TURN)
    assert (await games.record(view.id)).ply == 0
