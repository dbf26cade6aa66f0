"""Games against the computer through the services: start, replies, turns, undo, draws,
unrated games, restarts, and searches that never block the event loop."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import pytest

from bot.services.clock import ManualClock
from bot.services.computer import runner
from bot.services.computer.computer import MAX_COMPUTER_GAMES
from bot.services.computer.runner import TurnRequest, TurnRunner, compute_turn, estimate
from bot.services.container import Services
from bot.services.errors import InvalidInputError, InvalidStateError, NotYourTurnError
from bot.services.games.players import computer_seat
from bot.services.views.results import DrawStatus, UndoStatus
from bot.storage.repository import GameStatus
from bot.storage.sql import SqlRepository
from rules import get_game
from tests.databases import Backend
from tests.services.conftest import ALICE, BOB, CHANNEL, GUILD, RecordingNotifier
from tests.waiting import until


class InlineExecutor(Executor):
    """Runs each job at once in the calling thread: a synchronous stand-in for the pool."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


class GatedRunner(TurnRunner):
    """Computes turns inline, but only once the test opens the gate."""

    def __init__(self) -> None:
        super().__init__(InlineExecutor())
        self.gate = asyncio.Event()
        self.requests: list[TurnRequest] = []
        self.chance = 0.5

    async def choose(self, request: TurnRequest) -> list[str]:
        self.requests.append(request)
        await self.gate.wait()
        return await super().choose(request)

    async def estimate(self, request: TurnRequest) -> float:
        return self.chance


class World:
    """Services over one database, with a chosen runner."""

    def __init__(self, backend: Backend, runner: TurnRunner) -> None:
        self.backend = backend
        self.runner = runner
        self.clock = ManualClock()
        self.notifier = RecordingNotifier()
        self.repo: SqlRepository
        self.services: Services

    async def open(self) -> World:
        self.repo = await self.backend.open()
        self.services = Services.build(
            self.repo,
            self.clock,
            self.notifier,
            rng=random.Random(3),
            runner=self.runner,
            ai_seconds=1.0,
            deliver_inline=True,
        )
        return self

    async def close(self) -> None:
        await self.services.computer.close()

    async def start(self, game: str = "groups", colour: str = "white", **kwargs: Any) -> int:
        view = await self.services.computer.start(
            guild_id=GUILD, channel_id=CHANNEL, player=ALICE, game=game, colour=colour, **kwargs
        )
        self.services.computer.begin(view.id)
        return view.id


async def asked(world: World, count: int) -> None:
    """Wait until the gated computer has been asked for `count` turns (it is thinking)."""
    runner = world.runner
    assert isinstance(runner, GatedRunner)
    await until(lambda: len(runner.requests) >= count, f"{count} requests to the computer")


@pytest.fixture
async def world(backend: Backend) -> AsyncIterator[World]:
    opened = await World(backend, TurnRunner(InlineExecutor())).open()
    yield opened
    await opened.close()


@pytest.fixture
async def gated(backend: Backend) -> AsyncIterator[World]:
    opened = await World(backend, GatedRunner()).open()
    yield opened
    opened.runner.gate.set()  # type: ignore[attr-defined]
    await opened.close()


async def test_a_move_made_as_an_earlier_look_ends_still_wakes_the_computer(
    world: World,
) -> None:
    """The computer's task from the start of the game (Alice to move) ends in the same
    loop turn as Alice's move asks it to think: the move is not lost on the ending task."""
    computer, games = world.services.computer, world.services.games
    real_view = games.view
    looked, release = asyncio.Event(), asyncio.Event()

    async def view(game_id: int) -> Any:
        seen = await real_view(game_id)
        task = asyncio.current_task()
        if task is not None and task.get_name().startswith("computer") and not looked.is_set():
            looked.set()  # the first look: Alice is to move; hold it until she has moved
            await release.wait()
        return seen

    async def release_the_first_look(_result: object) -> None:
        release.set()  # the first look ends in the next loop turn ...
        await asyncio.sleep(0)  # ... and the computer's own hook runs in that same turn

    games.view = view  # type: ignore[method-assign]
    hooks = games.move_hooks
    hooks.insert(hooks.index(computer._after_move), release_the_first_look)
    game_id = await world.start(level="easy")
    await looked.wait()
    await games.play(game_id, ALICE.id, "d3-e2")
    await computer.idle()
    assert (await real_view(game_id)).record.ply == 2


async def test_the_computer_answers_a_move(world: World) -> None:
    """Alice plays White against the easy computer; after her move the computer replies."""
    game_id = await world.start(level="easy")
    record = await world.repo.get_game(game_id)
    assert record is not None
    assert record.players == (ALICE.id, None)
    assert record.names == ("alice", "Tabula (easy)")
    assert record.ai_levels == (None, "easy")
    assert not record.rated and record.has_computer and computer_seat(record) == 1
    await world.services.games.play(game_id, ALICE.id, "d3-e2")
    await world.services.computer.idle()
    view = await world.services.games.view(game_id)
    assert view.record.ply == 2 and view.state.to_move == 0
    moves = await world.repo.list_moves(game_id)
    assert [(m.seat, m.user_id) for m in moves] == [(0, ALICE.id), (1, None)]
    assert [n.move.notation for n in world.notifier.moves] == ["d3-e2", moves[1].notation]
    assert [n.move.user_id for n in world.notifier.moves] == [ALICE.id, None]
    replayed = get_game("groups").new_game().play_text("d3-e2").play_text(moves[1].notation)
    assert replayed == view.state


async def test_the_computer_opens_when_it_plays_first(world: World) -> None:
    """With Alice as Black, the computer (White) moves as soon as the game starts."""
    game_id = await world.start(colour="black", level="easy")
    await world.services.computer.idle()
    view = await world.services.games.view(game_id)
    assert view.record.players == (None, ALICE.id)
    assert view.record.ply == 1 and view.state.to_move == 1
    assert len(world.notifier.moves) == 1


async def test_levels_are_checked_and_default_to_medium(world: World) -> None:
    """An unknown level names the levels; no level means medium."""
    with pytest.raises(InvalidInputError, match="easy, medium, hard"):
        await world.start(level="expert")
    game_id = await world.start()
    record = await world.repo.get_game(game_id)
    assert record is not None and record.ai_levels == (None, "medium")


async def test_games_between_people_have_no_computer(world: World) -> None:
    """The flag the ratings use: only games with a computer seat have it."""
    challenge = await world.services.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, game="groups"
    )
    accepted = await world.services.challenges.accept(challenge.id, BOB, guild_id=GUILD)
    assert not accepted.view.record.has_computer
    assert computer_seat(accepted.view.record) is None


async def test_a_player_may_not_move_for_the_computer(gated: World) -> None:
    """While the computer thinks, Alice's move is refused with whose turn it is."""
    game_id = await gated.start(colour="black", level="easy")
    await asked(gated, 1)
    assert gated.services.computer.thinking(game_id)
    with pytest.raises(NotYourTurnError, match=r"Tabula \(easy\)'s turn"):
        await gated.services.games.play(game_id, ALICE.id, "e3-e2")


async def test_several_games_think_at_once(gated: World) -> None:
    """Two games wait for the computer at the same time; both get their moves."""
    first = await gated.start(colour="black", level="easy")
    second = await gated.start(colour="black", level="easy", game="hexade", options={"size": 5})
    await asked(gated, 2)
    computer = gated.services.computer
    assert computer.thinking(first) and computer.thinking(second)
    gated.runner.gate.set()  # type: ignore[attr-defined]
    await computer.idle()
    for game_id in (first, second):
        assert (await gated.services.games.view(game_id)).record.ply == 1


async def test_an_undo_while_the_computer_thinks_drops_its_move(gated: World) -> None:
    """Alice takes back her move while the computer thinks: its answer is not played."""
    game_id = await gated.start(level="easy")
    games = gated.services.games
    await games.play(game_id, ALICE.id, "d3-e2")
    await asked(gated, 1)  # the computer has read the game and is thinking
    assert gated.services.computer.thinking(game_id)
    undo = await games.request_undo(game_id, ALICE.id)
    assert undo.status is UndoStatus.APPLIED and undo.notation == "d3-e2"
    gated.runner.gate.set()  # type: ignore[attr-defined]
    await gated.services.computer.idle()
    view = await games.view(game_id)
    assert view.record.ply == 0 and view.state.to_move == 0
    assert [n.move.user_id for n in gated.notifier.moves] == [ALICE.id]  # none by the computer
    assert [n.notation for n in gated.notifier.undos] == ["d3-e2"]


async def test_the_computer_lets_a_move_be_taken_back(world: World) -> None:
    """After the computer's reply, Alice's undo takes back both moves at once."""
    game_id = await world.start(level="easy")
    games = world.services.games
    await games.play(game_id, ALICE.id, "d3-e2")
    await world.services.computer.idle()
    undo = await games.request_undo(game_id, ALICE.id)
    assert undo.status is UndoStatus.APPLIED and len(undo.moves) == 2
    await world.services.computer.idle()
    view = await games.view(game_id)
    assert view.record.ply == 0 and view.state.to_move == 0


async def test_the_computer_answers_draw_offers_by_its_chances(gated: World) -> None:
    """Declined while it rates itself at 50 %, no second offer at the same move; accepted
    once it rates itself below 20 % (Alice, to move, at 85 %)."""
    game_id = await gated.start(level="easy")
    games = gated.services.games
    declined = await games.offer_draw(game_id, ALICE.id)
    assert declined.status is DrawStatus.DECLINED and declined.seat == 1
    with pytest.raises(InvalidStateError, match="declined your draw offer"):
        await games.offer_draw(game_id, ALICE.id)
    gated.runner.gate.set()  # type: ignore[attr-defined]
    await games.play(game_id, ALICE.id, "d3-e2")
    await gated.services.computer.idle()
    gated.runner.chance = 0.85  # type: ignore[attr-defined]
    accepted = await games.offer_draw(game_id, ALICE.id)
    assert accepted.status is DrawStatus.ACCEPTED
    record = accepted.view.record
    assert record.status is GameStatus.FINISHED and record.winner is None


async def test_a_restart_resumes_games_where_the_computer_is_to_move(backend: Backend) -> None:
    """The bot stops while the computer thinks; after a restart it moves."""
    before = await World(backend, GatedRunner()).open()
    game_id = await before.start(colour="black", level="easy")
    await asked(before, 1)
    await before.close()  # the thinking task is cancelled, nothing was played
    await before.repo.close()
    after = await World(backend, TurnRunner(InlineExecutor())).open()
    try:
        assert (await after.services.games.view(game_id)).record.ply == 0
        assert await after.services.computer.resume() == 1
        await after.services.computer.idle()
        assert (await after.services.games.view(game_id)).record.ply == 1
        assert await after.services.computer.resume() == 0
    finally:
        await after.close()


async def test_the_computer_plays_a_whole_diffusion_turn(world: World) -> None:
    """As White in Diffusion Chess the computer makes its four opening moves in one go;
    Alice's moves in the middle of her turn do not wake it."""
    game_id = await world.start(game="diffusion", colour="black", level="easy")
    await world.services.computer.idle()
    view = await world.services.games.view(game_id)
    assert view.record.ply == 4 and view.state.to_move == 1
    (turn,) = world.notifier.moves  # a turn of four moves is announced once, when complete
    assert [move.ply for move in turn.turn_moves] == [1, 2, 3, 4]
    legal = next(iter(view.state.legal_moves()))
    await world.services.games.play(game_id, ALICE.id, view.state.format_move(legal))
    assert not world.services.computer.thinking(game_id)


async def test_the_number_of_games_against_the_computer_is_limited(world: World) -> None:
    """A player may have a few games against the computer at a time, not more."""
    for _ in range(MAX_COMPUTER_GAMES):
        await world.start(level="easy")
    with pytest.raises(InvalidStateError, match="finish or resign one"):
        await world.start(level="easy")


async def test_the_limit_counts_games_where_the_computer_moves_first(world: World) -> None:
    """Games where the computer has the first seat count too (seat 0 is a seat)."""
    for _ in range(MAX_COMPUTER_GAMES):
        await world.start(game="hexade", colour="black", level="easy")
    games = await world.repo.active_games(user_id=ALICE.id)
    assert [computer_seat(g) for g in games] == [0] * MAX_COMPUTER_GAMES
    with pytest.raises(InvalidStateError, match="5 games against me in progress"):
        await world.start(game="hexade", colour="white", level="easy")


def test_worker_functions_choose_legal_moves_and_judge_positions() -> None:
    """compute_turn returns legal notation; estimate sees a win in one as certain."""
    state = get_game("groups").new_game()
    request = TurnRequest("groups", state.encode(), "easy", 1.0, 5)
    moves = compute_turn(request)
    assert len(moves) == 1 and moves[0] in state.legal_notations()
    from rules.groups import GROUPS

    won = GROUPS.position(
        ["a1", "a2", "a3", "a4", "a5", "c6"], ["h8", "h7", "h6", "g8", "g7", "e1"]
    )
    assert estimate(TurnRequest("groups", won.encode(), "easy", 1.0, 5)) == 1.0


def test_an_estimate_on_too_few_iterations_is_even(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search starved of time (too few iterations) judges nothing: the estimate is ½,
    so a busy machine never makes the computer accept a draw on a guess."""
    from rules.groups import GROUPS

    far_black = ["h8", "h7", "h6", "g8", "g7", "e1"]
    behind = GROUPS.position(["a1", "a2", "a3", "a4", "a5", "c6"], far_black, to_move=1)
    request = TurnRequest("groups", behind.encode(), "easy", 1.0, 5)
    monkeypatch.setattr(runner, "ESTIMATE_ITERATIONS", 40)
    monkeypatch.setattr(runner, "MIN_ESTIMATE_ITERATIONS", 40)
    assert estimate(request) < 0.3
    monkeypatch.setattr(runner, "MIN_ESTIMATE_ITERATIONS", 41)
    assert estimate(request) == 0.5


_WORKER: dict[str, Any] = {}
"""In a worker of `GatedExecutor`: the gate (an event) its jobs wait for."""


def _keep_gate(gate: Any) -> None:
    """A worker's initializer: keep the gate its jobs wait for."""
    _WORKER["gate"] = gate


def _after_the_gate(fn: Callable[..., Any], *args: Any) -> Any:
    """In a worker: wait until the test opens the gate (a minute at most), then run."""
    _WORKER["gate"].wait(60)
    return fn(*args)


class GatedExecutor(Executor):
    """A one-process pool whose jobs start only once the test opens `gate`."""

    def __init__(self) -> None:
        self.gate = multiprocessing.Event()
        self.pool = ProcessPoolExecutor(
            max_workers=1, initializer=_keep_gate, initargs=(self.gate,)
        )

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        assert not kwargs
        return self.pool.submit(_after_the_gate, fn, *args)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.gate.set()
        self.pool.shutdown(wait, cancel_futures=cancel_futures)


async def test_a_search_in_the_process_pool_leaves_the_event_loop_free() -> None:
    """While a worker process searches, the event loop goes on: a ticker in the same loop
    ticks while the search is held in the worker, which the test lets finish only then
    (so nothing depends on how long the search or a tick takes)."""
    executor = GatedExecutor()
    runner = TurnRunner(executor)
    state = get_game("hexade").new_game()
    request = TurnRequest("hexade", state.encode(), "hard", 0.2, 1)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    search = asyncio.create_task(runner.choose(request))
    ticker = asyncio.create_task(tick())
    try:
        await until(lambda: ticks >= 3, "the event loop ticking while the worker holds")
        # A search run in the loop would have blocked it: the ticks would come only after
        # the search, which would be over by now.
        assert not search.done()
        executor.gate.set()
        moves = await search
    finally:
        ticker.cancel()
        executor.shutdown()
    assert len(moves) == 1 and moves[0] in state.legal_notations()


async def test_a_worker_outlives_ctrl_c(capfd: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C in a terminal reaches the workers too: they ignore it (no traceback) and
    go on answering; the bot decides when they stop."""
    runner = TurnRunner(workers=1)
    state = get_game("hexade").new_game()
    request = TurnRequest("hexade", state.encode(), "easy", 1.0, 1)
    # A process started in the background ignores SIGINT, and so would its workers: start
    # them as from a terminal, where Ctrl-C interrupts.
    saved = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        loop = asyncio.get_running_loop()
        worker = await loop.run_in_executor(runner._pool(), os.getpid)
        signal.signal(signal.SIGINT, saved)
        os.kill(worker, signal.SIGINT)
        await asyncio.sleep(0.3)
        moves = await runner.choose(request)
        assert await loop.run_in_executor(runner._pool(), os.getpid) == worker
    finally:
        signal.signal(signal.SIGINT, saved)
        runner.close()
    assert len(moves) == 1 and moves[0] in state.legal_notations()
    assert "KeyboardInterrupt" not in capfd.readouterr().err


async def test_the_computer_waits_for_begin_before_its_opening_move(world: World) -> None:
    """start() only creates the game; begin() lets the computer open it."""
    computer = world.services.computer
    view = await computer.start(
        guild_id=GUILD, channel_id=CHANNEL, player=ALICE, game="groups", colour="black"
    )
    assert not computer.thinking(view.id)
    computer.begin(view.id)
    assert computer.thinking(view.id)
    await computer.idle()
    assert (await world.services.games.view(view.id)).record.ply == 1
