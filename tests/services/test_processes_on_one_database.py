"""Two real processes on one database (SQLite, then PostgreSQL), for several seconds, on
the same games: one plays moves, the other offers and declines draws, asks to undo and
answers undo requests (the mix that once left games stuck). Afterwards no game is stuck: every
game row agrees with its move log, and every game still in progress takes a move."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections import Counter
from typing import Any

from bot.services.announcing.notify import NullNotifier
from bot.services.clock import SystemClock
from bot.services.container import Services
from bot.services.errors import ServiceError
from bot.services.games.players import Player
from bot.services.records.audit import audit_games
from bot.storage.opening import open_repository, parse_location
from rules import GameError
from tests.databases import Backend

ALICE, BOB = Player(1, "alice"), Player(2, "bob")
GAMES = 6
SECONDS = 4.0


async def churn(location: str, role: str, seconds: float, seed: int) -> Counter[str]:
    """Act on every game for `seconds`: `mover` plays the move of whoever is to move;
    `talker` offers draws (declined by the other player) and asks for and answers undos."""
    repository = await open_repository(parse_location(location))
    services = Services.build(repository, SystemClock(), NullNotifier(), rng=random.Random(seed))
    games, rng, done = services.games, random.Random(seed), Counter[str]()
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    try:
        ids = await repository.game_ids()
        while loop.time() < end:
            game_id = rng.choice(ids)
            try:
                view = await games.view(game_id)
                if not view.record.is_active:
                    done["ended"] += 1
                    continue
                mover = view.to_move_id
                assert mover is not None
                other = ALICE.id if mover == BOB.id else BOB.id
                if role == "mover":
                    moves = sorted(view.state.legal_notations())
                    await games.play(game_id, mover, rng.choice(moves))
                    done["moves"] += 1
                elif rng.random() < 0.5:
                    await games.offer_draw(game_id, other)
                    await games.answer_draw(game_id, mover, False)
                    done["draws declined"] += 1
                else:
                    await games.request_undo(game_id, other)
                    await games.answer_undo(game_id, mover, rng.random() < 0.7)
                    done["undos answered"] += 1
            except (ServiceError, GameError) as refused:  # a race lost (a move on a board
                done[type(refused).__name__] += 1  # an undo changed), told as to a player
    finally:
        await services.computer.close()
        await repository.close()
    return done


def churn_process(location: str, role: str, seconds: float, seed: int, results: Any) -> None:
    """The child process: churn, then report what was done."""
    results.put((role, dict(asyncio.run(churn(location, role, seconds, seed)))))


async def test_two_processes_on_the_same_games_leave_none_stuck(backend: Backend) -> None:
    repository = await backend.open()
    services = Services.build(repository, SystemClock(), NullNotifier())
    for _ in range(GAMES):
        challenge = await services.challenges.create(
            guild_id=500, channel_id=600, challenger=ALICE, opponent=BOB, game="groups",
            colour="white",
        )  # fmt: skip
        await services.challenges.accept(challenge.id, BOB, guild_id=500)
    location = backend.location

    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    children = [
        context.Process(target=churn_process, args=(location, role, SECONDS, seed, results))
        for seed, role in enumerate(("mover", "talker"))
    ]
    for child in children:
        child.start()
    reports = dict(await asyncio.to_thread(lambda: [results.get(timeout=60) for _ in children]))
    for child in children:
        await asyncio.to_thread(child.join, 30)
        assert child.exitcode == 0
    assert reports["mover"]["moves"] > 20, reports
    assert reports["talker"]["draws declined"] + reports["talker"]["undos answered"] > 10, reports

    audit = await audit_games(repository)
    assert audit.checked == GAMES and audit.problems == {}, audit.problems
    for game_id in await repository.game_ids():
        view = await services.games.view(game_id)
        if view.record.is_active and view.to_move_id is not None:
            move = sorted(view.state.legal_notations())[0]
            result = await services.games.play(game_id, view.to_move_id, move)
            assert result.view.record.ply == view.record.ply + 1
