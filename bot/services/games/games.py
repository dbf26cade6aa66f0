"""`GameService`: moves, resignations, draw offers, undo requests and game queries.

Every change to a game happens under that game's lock, and is committed to the
repository before the service returns, so a reply to a player always describes a
stored move. A game's state is rebuilt by replaying its move log from the last stored
snapshot, and kept in a small in-memory cache between moves.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, TypeVar

from bot.records.endings import FORFEIT
from bot.services.announcing.announcements import (
    answer_row,
    end_row,
    move_row,
    offer_row,
    place_deleted_row,
    start_row,
    undo_row,
)
from bot.services.announcing.outbox import Outbox
from bot.services.clock import Clock
from bot.services.errors import (
    ConflictError,
    InvalidStateError,
    NotAllowedError,
    NotFoundError,
    NotStoredError,
    NotYourTurnError,
    ServiceError,
)
from bot.services.games.suggest import MoveIndex
from bot.services.gate import Gate
from bot.services.ids import storable
from bot.services.locks import KeyedLocks
from bot.services.views.results import (
    DrawResult,
    DrawStatus,
    GameView,
    MoveResult,
    UndoResult,
    UndoStatus,
)
from bot.storage.competition import PairingRecord
from bot.storage.failures import classify
from bot.storage.repository import (
    GameRecord,
    GameStatus,
    LockKind,
    MoveRecord,
    NewAnnouncement,
    Offer,
    Repository,
    ShardFilter,
    Snapshot,
    StaleGameError,
)
from rules import GameError, GameState, get_game

log = logging.getLogger(__name__)

T = TypeVar("T")

MoveHook = Callable[[MoveResult], Awaitable[None]]
"""Called after every committed move (e.g. to let a computer player answer)."""
FinishHook = Callable[[GameView], Awaitable[GameView | None]]
"""Called once when a game ends, however it ended (e.g. to update ratings).

A hook may return the view with more to report (the rating changes); the next hooks and
the caller get that view.
"""
StartHook = Callable[[GameView], Awaitable[None]]
"""Called when a game begins (e.g. to start its clock)."""
UndoHook = Callable[[UndoResult], Awaitable[None]]
"""Called after moves were taken back (e.g. to restart the clock)."""
MoveGuard = Callable[[GameRecord, int], Awaitable[None]]
"""Called under the game's lock before a move by that seat is stored; raising a
`ServiceError` refuses the move (e.g. when the player's time has run out)."""
ActionGuard = Callable[[GameRecord], Awaitable[None]]
"""Called before any action in an active game by a player or the computer (a move, a
resignation, an offer or its answer); raising a `ServiceError` refuses it (e.g. while the
game is suspended)."""
Announcer = Callable[[GameView, str], Awaitable[Sequence[NewAnnouncement]]]
"""Called before a completed turn (or a new game) is stored, with the game after it and
the turn's moves ("" for a new game): more announcements to store with it (turn DMs)."""
Rows = Callable[[GameView], Sequence[NewAnnouncement]]
"""The announcements to store with a change, given the game after it."""
Responder = Callable[["Turn"], Awaitable[None]]
"""Called inside the transaction storing a completed turn, under the game's lock: it may
answer the turn at once (`Turn.reply`, a conditional move), and what it stores is stored
with the turn. A responder that fails is logged and undone; the turn is stored anyway."""
UndoWriter = Callable[[GameRecord, int], Awaitable[None]]
"""Called inside the transaction taking back moves, with the game after it and the first
ply taken back: what it stores is stored with the undo (if it fails, nothing is)."""


@dataclass(slots=True)
class Turn:
    """A completed turn being stored, as the responders see it."""

    result: MoveResult
    """The turn's last move, as stored (its `turn_moves` are the whole turn)."""
    before: GameRecord
    """The game just before that move (the offers and requests it found open)."""
    _play: Callable[[Sequence[str]], Awaitable[MoveResult]]
    replied: MoveResult | None = None
    """The reply played, if any."""

    async def reply(self, moves: Sequence[str]) -> MoveResult:
        """Play `moves` at once as the whole turn of the player now to move, stored in
        this turn's transaction and announced as a conditional move. Moves the rules
        refuse, or moves that are not exactly one turn, raise (`GameError`,
        `ServiceError`) and store nothing."""
        if self.replied is not None:
            raise InvalidStateError("This turn was answered already.")
        self.replied = await self._play(moves)
        return self.replied


class ComputerReferee(Protocol):
    """Answers, for a computer seat, the draw offers and undo requests made to it."""

    async def accepts_draw(self, view: GameView, seat: int) -> bool:
        """Whether the computer in `seat` accepts a draw now."""
        ...

    async def accepts_undo(self, view: GameView, seat: int) -> bool:
        """Whether the computer in `seat` lets its opponent take back their last turn."""
        ...


RECENT_MOVES = 12
"""Moves kept in memory per game: enough for the current and the previous turn."""
STALE_RETRIES = 3
"""How often an action is redone from fresh state when another writer (another process)
changed the game between reading and storing it, before the player is told."""
CONFLICT = (
    "Another move in this game was played at the same moment; look at the board and try again."
)


class DamagedGameError(ServiceError):
    """A game's move log cannot be replayed (the database was changed by hand?)."""


@dataclass(slots=True)
class _Loaded:
    """A game's current state in the cache, with its latest moves."""

    version: int
    """The game row's version it was built from (another process's write changes it)."""
    ply: int
    state: GameState[Any]
    recent: tuple[MoveRecord, ...]
    moves: MoveIndex | None = field(default=None)
    """The legal moves ranked for autocomplete, built on first use."""


def end_rows(view: GameView) -> list[NewAnnouncement]:
    """The final board of a game that ended without a move (the default of `finish`)."""
    return [end_row(view)]


def _notation(moves: Sequence[MoveRecord]) -> str:
    return ", ".join(move.notation for move in moves)


def is_forfeit(record: GameRecord) -> bool:
    """True for a game that `GameService.forfeit` ended."""
    return record.status is GameStatus.FINISHED and (record.result_reason or "").endswith(FORFEIT)


def _trailing_turn(moves: Sequence[MoveRecord]) -> list[MoveRecord]:
    """The last run of moves by one seat: the latest (possibly unfinished) turn."""
    if not moves:
        return []
    seat = moves[-1].seat
    start = len(moves)
    while start > 0 and moves[start - 1].seat == seat:
        start -= 1
    return list(moves[start:])


def undo_start(moves: Sequence[MoveRecord], seat: int, to_move: int) -> tuple[int, bool] | None:
    """Where an undo requested by `seat` starts: (first ply taken back, needs approval).

    A player in the middle of a multi-move turn takes back that turn's moves at once,
    as the opponent has not seen them yet. Otherwise the player's last turn is taken
    back together with everything played after it, once the opponent approves. None
    when `seat` has no move to take back.
    """
    if not moves:
        return None
    if moves[-1].seat == seat and to_move == seat:
        return _trailing_turn(moves)[0].ply, False
    index = max((i for i, move in enumerate(moves) if move.seat == seat), default=None)
    if index is None:
        return None
    while index > 0 and moves[index - 1].seat == seat:
        index -= 1
    return moves[index].ply, True


def _offered_to(record: GameRecord, user_id: int, what: Literal["draw", "undo"]) -> bool:
    """Whether `user_id`'s opponent has an open draw offer (or undo request) in the game."""
    offer = record.draw_offer if what == "draw" else record.undo_request
    return offer is not None and offer.open and offer.seat != record.seat_of(user_id)


def whole_turn(state: GameState[Any], texts: Sequence[str]) -> list[Any]:
    """The moves `texts` as parsed, one after the other, from `state`: `GameError` for a
    move the rules refuse, `InvalidStateError` unless together they end the turn of the
    player to move exactly."""
    seat = state.to_move
    moves: list[Any] = []
    for text in texts:
        if moves and (state.to_move != seat or state.outcome() is not None):
            raise InvalidStateError("That is more moves than one turn.")
        move = state.parse_move(text)
        moves.append(move)
        state = state.play(move)
    if not moves or (state.to_move == seat and state.outcome() is None):
        raise InvalidStateError("That is not a whole turn: your turn is not over after it.")
    return moves


def visible(record: GameRecord, user_id: int, guild_id: int | None) -> bool:
    """Whether a game may be shown or addressed from server `guild_id` (None: a direct
    message): in its own server by anyone there, in direct messages by its players only."""
    if guild_id is None:
        return record.seat_of(user_id) is not None
    return record.guild_id == guild_id


class GameService:
    """Plays and queries games. Front ends call it with plain user ids."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        outbox: Outbox,
        *,
        snapshot_every: int = 25,
        cache_size: int = 2048,
        gate: Gate | None = None,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._outbox = outbox
        self._snapshot_every = snapshot_every
        self._cache_size = cache_size
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        self._locks = KeyedLocks(gate)
        self.move_hooks: list[MoveHook] = []
        """Called after every committed move, outside the game's lock."""
        self.finish_hooks: list[FinishHook] = []
        """Called once when a game ends, outside the game's lock."""
        self.start_hooks: list[StartHook] = []
        """Called when a game begins, outside the game's lock."""
        self.undo_hooks: list[UndoHook] = []
        """Called after moves were taken back, outside the game's lock."""
        self.move_guards: list[MoveGuard] = []
        """Called before a move is stored, under the game's lock; may refuse it."""
        self.action_guards: list[ActionGuard] = []
        """Called before any player's (or the computer's) action in an active game."""
        self.announcers: list[Announcer] = []
        """Called before a completed turn or a new game is stored; their announcements are
        stored with it (not for a turn that was answered at once: it is not waited for)."""
        self.responders: list[Responder] = []
        """Called inside the transaction storing a completed turn; may answer it at once."""
        self.undo_writers: list[UndoWriter] = []
        """Called inside the transaction taking back moves; what they store goes with it."""
        self.computer: ComputerReferee | None = None
        """Answers draw offers and undo requests made to a computer seat."""

    # --- loading ---

    async def record(self, game_id: int) -> GameRecord:
        """The game's stored record; `NotFoundError` if there is none."""
        record = await self._repository.get_game(game_id) if storable(game_id) else None
        if record is None:
            raise NotFoundError(f"There is no game #{game_id}.")
        return record

    async def view(self, game_id: int) -> GameView:
        """The game's record and current state."""
        record = await self.record(game_id)
        return GameView(record, (await self._loaded(record)).state)

    async def notations(self, game_id: int, through_ply: int) -> list[str]:
        """The moves played in the game up to `through_ply`, as stored, in order."""
        moves = await self._repository.list_moves(game_id)
        return [move.notation for move in moves if move.ply <= through_ply]

    async def view_of(self, record: GameRecord) -> GameView:
        """The current state for a record already read."""
        return GameView(record, (await self._loaded(record)).state)

    async def public_view(self, record: GameRecord) -> GameView:
        """The game as everyone may see it: while a multi-move turn is under way, the
        position (and move number) at that turn's start; only the mover sees the rest."""
        if not record.is_active:
            return await self.view_of(record)
        start, state = await self.turn_start(record)
        if start == record.ply:
            return GameView(record, state)
        return GameView(record.evolve(ply=start), state)

    async def start_rows(
        self, record: GameRecord, pairing: PairingRecord | None = None
    ) -> list[NewAnnouncement]:
        """What to store with a new game: its thread and first board, and what the
        announcers add (call inside the transaction that creates the game)."""
        rows = [start_row(record, pairing)]
        view = await self.view_of(record)
        for announcer in self.announcers:
            rows += await announcer(view, "")
        return rows

    @property
    def outbox(self) -> Outbox:
        """Where the announcements of games are stored."""
        return self._outbox

    async def started(self, record: GameRecord) -> GameView:
        """Register a game that was just created (its state is the starting position)."""
        view = await self.view_of(record)
        await self._run_hooks(self.start_hooks, view, "start", record.id)
        return view

    @staticmethod
    async def _run_hooks(
        hooks: Sequence[Callable[[Any], Awaitable[None]]], event: Any, kind: str, game_id: int
    ) -> None:
        for hook in hooks:
            try:
                await hook(event)
            except Exception:
                log.exception("a %s hook failed for game %s", kind, game_id)

    async def _loaded(self, record: GameRecord) -> _Loaded:
        cached = self._cache.get(record.id)
        if cached is not None and cached.version == record.version:
            self._cache.move_to_end(record.id)
            return cached
        loaded = await self._replay(record, record.ply)
        self._remember(record.id, loaded)
        return loaded

    @asynccontextmanager
    async def _writing(self, game_id: int) -> AsyncIterator[None]:
        """A transaction holding the game's lock across processes (the in-process lock is
        held already): what is written in it, compare-and-set, is stored together."""
        async with self._repository.atomic():
            await self._repository.lock(LockKind.GAME, game_id)
            yield

    async def _retrying(self, game_id: int, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run `attempt` (which reads the game afresh and stores what it changes), again
        when the game was changed by another writer in between; `ConflictError` when that
        keeps happening."""
        for _ in range(STALE_RETRIES):
            try:
                return await attempt()
            except StaleGameError as exc:
                self._cache.pop(game_id, None)
                log.info("game %s: %s; trying again from the stored game", game_id, exc)
        raise ConflictError(CONFLICT)

    def _remember(self, game_id: int, loaded: _Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def _replay(self, record: GameRecord, upto: int, *, use_snapshot: bool = True) -> _Loaded:
        """The state after the first `upto` live moves, from the snapshot when it helps."""
        rules = get_game(record.game)
        state: GameState[Any] | None = None
        base = 0
        snapshot = await self._repository.get_snapshot(record.id) if use_snapshot else None
        if snapshot is not None and snapshot.ply <= upto:
            try:
                state = rules.decode(snapshot.encoded)
                base = snapshot.ply
            except GameError:
                log.warning("game %s: unreadable snapshot at ply %s", record.id, snapshot.ply)
                state = None
        if state is None:
            state = rules.initial_state(rules.validate_options(record.options))
            base = 0
        moves = await self._repository.list_moves(record.id, after_ply=max(0, base - RECENT_MOVES))
        moves = [move for move in moves if move.ply <= upto]
        try:
            for move in moves:
                if move.ply > base:
                    state = state.play_text(move.notation)
        except GameError as exc:
            log.error("game %s: move log cannot be replayed: %s", record.id, exc)
            raise DamagedGameError(
                f"Game #{record.id}'s record is damaged and cannot be replayed."
            ) from exc
        played = moves[-1].ply if moves else base
        if played != upto:
            log.error("game %s: expected %s moves, the log has %s", record.id, upto, played)
            raise DamagedGameError(f"Game #{record.id}'s move log is incomplete.")
        return _Loaded(
            version=record.version if upto == record.ply else -1,
            ply=upto,
            state=state,
            recent=tuple(moves[-RECENT_MOVES:]),
        )

    async def replay_state(self, game_id: int, *, use_snapshot: bool = True) -> GameState[Any]:
        """Rebuild the game's state from the database, bypassing the cache."""
        record = await self.record(game_id)
        return (await self._replay(record, record.ply, use_snapshot=use_snapshot)).state

    # --- moves ---

    @staticmethod
    def _seat(record: GameRecord, user_id: int) -> int:
        seat = record.seat_of(user_id)
        if seat is None:
            raise NotAllowedError(
                f"You are not playing in this game ({record.names[0]} vs {record.names[1]})."
            )
        return seat

    @staticmethod
    def _require_active(record: GameRecord) -> None:
        if record.status is not GameStatus.ACTIVE:
            raise InvalidStateError("This game is over.")

    async def _require_playable(self, record: GameRecord) -> None:
        """The game is active and no action guard refuses actions in it now."""
        self._require_active(record)
        for guard in self.action_guards:
            await guard(record)

    async def check_turn(self, game_id: int, user_id: int) -> GameView:
        """The game, if `user_id` may move in it now; else the reason they may not."""
        record = await self.record(game_id)
        seat = self._seat(record, user_id)
        await self._require_playable(record)
        view = await self.view_of(record)
        if view.state.to_move != seat:
            raise NotYourTurnError(f"It is {record.names[view.state.to_move]}'s turn, not yours.")
        return view

    def check_player(self, record: GameRecord, user_id: int) -> int:
        """The seat `user_id` plays in this game; `NotAllowedError` for anyone else."""
        return self._seat(record, user_id)

    async def play(self, game_id: int, user_id: int, text: str) -> MoveResult:
        """Play `text` for `user_id`; rules errors pass through with the engine's message."""

        async def attempt() -> MoveResult:
            record = await self.record(game_id)
            seat = self._seat(record, user_id)
            await self._require_playable(record)
            loaded = await self._loaded(record)
            if loaded.state.to_move != seat:
                waiting = record.names[loaded.state.to_move]
                raise NotYourTurnError(f"It is {waiting}'s turn, not yours.")
            move = loaded.state.parse_move(text)
            return await self._commit(record, loaded, seat, user_id, move)

        async with self._locks(game_id):
            result = await self._retrying(game_id, attempt)
        return await self._after_move(result)

    async def play_turn(
        self, game_id: int, user_id: int, moves: Sequence[str], *, at_ply: int | None = None
    ) -> MoveResult:
        """Play `moves` for `user_id` as the rest of their turn, stored together: all of
        them or none (a move the rules refuse, or a failure storing any of them, stores
        nothing). They must end the turn exactly (`InvalidStateError` otherwise). With
        `at_ply`, only if the game still stands at that ply (`ConflictError` otherwise).
        Returns the turn's last move, as `play` does."""

        async def attempt() -> MoveResult:
            record = await self.record(game_id)
            seat = self._seat(record, user_id)
            self._require_active(record)
            if at_ply is not None and record.ply != at_ply:
                raise ConflictError("The game has moved on since you looked at it; look again.")
            loaded = await self._loaded(record)
            if loaded.state.to_move != seat:
                waiting = record.names[loaded.state.to_move]
                raise NotYourTurnError(f"It is {waiting}'s turn, not yours.")
            return await self._commit(
                record, loaded, seat, user_id, *whole_turn(loaded.state, moves)
            )

        async with self._locks(game_id):
            result = await self._retrying(game_id, attempt)
        return await self._after_move(result)

    async def play_computer_move(
        self, game_id: int, text: str, *, expected_ply: int | None = None
    ) -> MoveResult:
        """Play `text` for the computer seat to move (announced like anyone's move).

        With `expected_ply`, the move is refused (`ConflictError`) if the game has moved
        on from that ply since the computer started thinking (an undo, say).
        """

        async def attempt() -> MoveResult:
            record = await self.record(game_id)
            await self._require_playable(record)
            if expected_ply is not None and record.ply != expected_ply:
                raise ConflictError("The game changed while the computer was thinking.")
            loaded = await self._loaded(record)
            seat = loaded.state.to_move
            if record.players[seat] is not None or record.ai_levels[seat] is None:
                raise NotAllowedError("It is not a computer player's turn.")
            move = loaded.state.parse_move(text)
            return await self._commit(record, loaded, seat, None, move)

        async with self._locks(game_id):
            result = await self._retrying(game_id, attempt)
        return await self._after_move(result)

    async def _commit(
        self, record: GameRecord, loaded: _Loaded, seat: int, user_id: int | None, *moves: Any
    ) -> MoveResult:
        """Store `moves` (one, or the rest of a turn) in one transaction: all or none."""
        for guard in self.move_guards:
            await guard(record, seat)
        try:
            async with self._writing(record.id):
                for move in moves:
                    result, loaded = await self._store_move(record, loaded, seat, user_id, move)
                    record = result.view.record
        except BaseException as error:
            self._cache.pop(record.id, None)  # what the rolled-back transaction cached
            if not isinstance(error, Exception):
                raise
            failure = classify(error)
            if failure is None:
                raise
            raise NotStoredError("move", failure) from error
        return result

    async def _store_move(
        self,
        record: GameRecord,
        loaded: _Loaded,
        seat: int,
        user_id: int | None,
        move: Any,
        *,
        conditional: bool = False,
    ) -> tuple[MoveResult, _Loaded]:
        """Store one move (inside the game's transaction) with what it announces; a turn
        it completes is shown to the responders, which may answer it at once. The move
        as stored, and the game's state after it (and after the answer, if any)."""
        before = loaded.state
        after = before.play(move)
        now = self._clock.now()
        ply = record.ply + 1
        logged = MoveRecord(record.id, ply, seat, user_id, before.format_move(move), now)
        offer = record.draw_offer
        lapsed = offer is not None and offer.open and offer.seat != seat
        if lapsed and offer is not None:
            offer = replace(offer, open=False)
        updated = record.evolve(
            ply=ply, to_move=after.to_move, draw_offer=offer, undo_request=None, updated_at=now
        )
        outcome = after.outcome()
        if outcome is not None:
            updated = updated.evolve(
                status=GameStatus.FINISHED,
                winner=outcome.winner,
                result_reason=outcome.reason,
                finished_at=now,
                draw_offer=None,
            )
        snapshot = Snapshot(ply, after.encode()) if ply % self._snapshot_every == 0 else None
        stored = await self._repository.record_move(logged, updated, snapshot)
        recent = (*loaded.recent, logged)[-RECENT_MOVES:]
        current = _Loaded(stored.version, ply, after, recent)
        self._remember(record.id, current)
        result = MoveResult(
            view=GameView(stored, after),
            before=before,
            move=logged,
            turn_complete=outcome is not None or after.to_move != before.to_move,
            turn_moves=_trailing_turn(recent),
            draw_offer_lapsed=lapsed,
        )
        if not result.turn_complete:
            return result, current
        await self._outbox.add([move_row(result, conditional=conditional)])
        if not conditional and self.responders:
            result, current = await self._respond(result, record, current)
        if result.reply is None and outcome is None:
            rows: list[NewAnnouncement] = []
            for announcer in self.announcers:
                rows += await announcer(result.view, result.turn_notation)
            await self._outbox.add(rows)
        return result, current

    async def _respond(
        self, result: MoveResult, before: GameRecord, loaded: _Loaded
    ) -> tuple[MoveResult, _Loaded]:
        """Show a completed turn to the responders (inside its transaction): the turn
        with the reply one of them played, and the state after it."""
        answered: list[_Loaded] = []

        async def play(moves: Sequence[str]) -> MoveResult:
            # A savepoint: a reply refused halfway through leaves nothing stored.
            async with self._repository.atomic():
                reply, after = await self._play_turn(result.view.record, loaded, moves)
            answered.append(after)
            return reply

        turn = Turn(result, before, play)
        for responder in self.responders:
            replied = turn.replied
            try:
                async with self._repository.atomic():
                    await responder(turn)
            except StaleGameError:
                raise
            except Exception:
                log.exception("a responder failed for game %s", result.view.id)
                turn.replied = replied  # its savepoint was rolled back, with any reply
        if turn.replied is None:
            self._remember(result.view.id, loaded)  # what a refused reply cached is void
            return result, loaded
        return replace(result, reply=turn.replied), answered[-1]

    async def _play_turn(
        self, record: GameRecord, loaded: _Loaded, moves: Sequence[str]
    ) -> tuple[MoveResult, _Loaded]:
        """Play `moves` as the whole turn of the player to move, for them, announced as a
        conditional move (inside the game's transaction).

        The move guards do not run: they judge a player's own action when it is made (a
        deadline passed), and this turn is played the instant it begins.
        """
        seat = loaded.state.to_move
        result: MoveResult | None = None
        for text in moves:
            if result is not None and result.turn_complete:
                raise InvalidStateError("The reply has more moves than one turn.")
            move = loaded.state.parse_move(text)
            result, loaded = await self._store_move(
                record, loaded, seat, record.players[seat], move, conditional=True
            )
            record = result.view.record
        if result is None or not result.turn_complete:
            raise InvalidStateError("The reply is not a whole turn.")
        return result, loaded

    async def _store(self, updated: GameRecord, rows: Rows | None = None) -> GameView:
        """Store a change of the game row that leaves the position as it is (offers,
        requests, the end of the game, the thread), with the announcements `rows` makes
        of the game after it; the cached state follows the version."""
        loaded = await self._loaded(updated)
        announcements = [] if rows is None else list(rows(GameView(updated, loaded.state)))
        async with self._writing(updated.id):
            stored = await self._repository.update_game(updated)
            await self._outbox.add(announcements)
        loaded.version = stored.version
        return GameView(stored, loaded.state)

    async def _after_move(self, result: MoveResult) -> MoveResult:
        """Run the move hooks (for the move, then for the reply played at once, if any),
        and the finish hooks when the game ended; then let the announcements go (after
        the hooks: a result shows the rating changes)."""
        played = [result] if result.reply is None else [result, result.reply]
        for move in played:
            for hook in self.move_hooks:
                try:
                    await hook(move)
                except Exception:
                    log.exception("a move hook failed for game %s", move.view.id)
        last = result.last
        if not last.finished:
            await self._outbox.committed()
            return result
        ended = replace(last, view=await self._after_finish(last.view))
        return ended if result.reply is None else replace(result, reply=ended)

    async def _after_finish(self, view: GameView) -> GameView:
        """Run the finish hooks, then let the announcements go; return the view as the
        hooks completed it."""
        for hook in self.finish_hooks:
            try:
                view = await hook(view) or view
            except Exception:
                log.exception("a finish hook failed for game %s", view.id)
        await self._outbox.committed()
        return view

    # --- ending a game ---

    async def _finish(
        self,
        record: GameRecord,
        winner: int | None,
        reason: str,
        status: GameStatus = GameStatus.FINISHED,
        *,
        rated: bool | None = None,
        rows: Rows | None = end_rows,
    ) -> GameView:
        """Store the end of an active game (call under its lock) with what `rows` makes of
        it (by default the final board); `rated` (if given) replaces whether the game is
        rated. A game that ends before either player moved (a draw agreed or a resignation
        at the start, however it ends) keeps its result but is never rated: otherwise a
        second account could hand its owner rating points."""
        now = self._clock.now()
        rated = record.rated if rated is None else rated
        if rated and status is GameStatus.FINISHED and not record.ply:
            rated = False
            reason = f"{reason} before any move: not rated"
        updated = record.evolve(
            rated=rated,
            status=status,
            winner=winner,
            result_reason=reason,
            finished_at=now,
            updated_at=now,
            draw_offer=None,
            undo_request=None,
        )
        return await self._store(updated, rows)

    async def finish(
        self,
        game_id: int,
        winner: int | None,
        reason: str,
        *,
        rows: Rows | None = end_rows,
        at_ply: int | None = None,
        rated: bool | None = None,
    ) -> GameView:
        """End an active game for a reason outside the rules (time, an administrator).

        `rows` makes the announcements stored with the end (by default the final board;
        a loss on time has its own). With `at_ply`, only if no move was played since the
        game stood at that ply (`ConflictError` otherwise). With `rated=False`, a rated
        game ends unrated.
        """

        async def attempt() -> GameView:
            record = await self.record(game_id)
            self._require_active(record)
            if at_ply is not None and record.ply != at_ply:
                raise ConflictError("A move was played in this game in the meantime.")
            return await self._finish(record, winner, reason, rated=rated, rows=rows)

        async with self._locks(game_id):
            view = await self._retrying(game_id, attempt)
        return await self._after_finish(view)

    async def abort(self, game_id: int, reason: str) -> GameView | None:
        """End an active game without a result (a cancelled tournament): nothing is scored
        or rated, so the finish hooks do not run. None when the game had ended already."""

        async def attempt() -> GameView | None:
            record = await self.record(game_id)
            if not record.is_active:
                return None
            return await self._finish(record, None, reason, GameStatus.ABORTED, rows=None)

        async with self._locks(game_id):
            return await self._retrying(game_id, attempt)

    async def forfeit(self, game_id: int, winner: int, reason: str) -> GameView | None:
        """End an active game that will not be played out (a player withdrew): `winner`
        wins by forfeit, unrated ("...; a forfeit, no rating changes"), and the finish
        hooks do not run (the competition scores it as a forfeit itself). None when the
        game had ended already."""

        async def attempt() -> GameView | None:
            record = await self.record(game_id)
            if not record.is_active:
                return None
            why = f"{reason}{FORFEIT}"
            return await self._finish(record, winner, why, rated=False, rows=None)

        async with self._locks(game_id):
            return await self._retrying(game_id, attempt)

    async def resign(self, game_id: int, user_id: int) -> GameView:
        """`user_id` resigns: the opponent wins."""

        async def attempt() -> GameView:
            record = await self.record(game_id)
            seat = self._seat(record, user_id)
            await self._require_playable(record)
            return await self._finish(record, 1 - seat, f"{record.names[seat]} resigned")

        async with self._locks(game_id):
            view = await self._retrying(game_id, attempt)
        return await self._after_finish(view)

    # --- draw offers ---

    async def offer_draw(self, game_id: int, user_id: int) -> DrawResult:
        """Offer a draw; when the opponent's offer stands, this accepts it instead."""

        async def attempt() -> DrawResult:
            record = await self.record(game_id)
            seat = self._seat(record, user_id)
            await self._require_playable(record)
            offer = record.draw_offer
            opponent = record.names[1 - seat]
            if offer is not None and offer.open and offer.seat != seat:
                view = await self._finish(record, None, "draw agreed")
                return DrawResult(view, DrawStatus.ACCEPTED, seat)
            if offer is not None and offer.seat == seat and offer.ply == record.ply:
                if offer.open:
                    raise InvalidStateError(
                        f"You have already offered a draw; waiting for {opponent}'s answer."
                    )
                raise InvalidStateError(
                    f"{opponent} declined your draw offer; you can offer again after the next move."
                )
            if self.computer is not None and record.ai_levels[1 - seat] is not None:
                return await self._computer_answers_draw(record, seat)
            updated = record.evolve(
                draw_offer=Offer(seat, record.ply, True), updated_at=self._clock.now()
            )
            view = await self._store(updated, lambda v: [offer_row(v, "draw", seat, record.ply)])
            return DrawResult(view, DrawStatus.OFFERED, seat)

        async with self._locks(game_id):
            result = await self._retrying(game_id, attempt)
        if result.status is not DrawStatus.ACCEPTED:
            await self._outbox.committed()
            return result
        return replace(result, view=await self._after_finish(result.view))

    async def _computer_answers_draw(self, record: GameRecord, seat: int) -> DrawResult:
        """The computer opposite `seat` answers a draw offer at once (call under the lock)."""
        assert self.computer is not None
        computer = 1 - seat
        view = await self.view_of(record)
        if await self.computer.accepts_draw(view, computer):
            return DrawResult(
                await self._finish(record, None, "draw agreed"), DrawStatus.ACCEPTED, computer
            )
        updated = record.evolve(
            draw_offer=Offer(seat, record.ply, False), updated_at=self._clock.now()
        )
        view = await self._store(
            updated, lambda v: [answer_row(v, "draw", computer, by_computer=True)]
        )
        return DrawResult(view, DrawStatus.DECLINED, computer)

    async def answer_draw(
        self, game_id: int, user_id: int, accept: bool, offer_ply: int | None = None
    ) -> DrawResult:
        """Accept or decline the opponent's standing draw offer (made at `offer_ply`)."""

        async def attempt() -> DrawResult:
            record = await self.record(game_id)
            seat = self._seat(record, user_id)
            await self._require_playable(record)
            offer = record.draw_offer
            stale = offer_ply is not None and offer is not None and offer.ply != offer_ply
            if offer is None or not offer.open or stale:
                raise InvalidStateError("That draw offer is no longer open.")
            if offer.seat == seat:
                raise NotAllowedError(
                    f"This is your own offer; {record.names[1 - seat]} must answer it."
                )
            if not accept:
                updated = record.evolve(
                    draw_offer=replace(offer, open=False), updated_at=self._clock.now()
                )
                view = await self._store(updated, lambda v: [answer_row(v, "draw", seat)])
                return DrawResult(view, DrawStatus.DECLINED, seat)
            view = await self._finish(record, None, "draw agreed")
            return DrawResult(view, DrawStatus.ACCEPTED, seat)

        async with self._locks(game_id):
            result = await self._retrying(game_id, attempt)
        if result.status is not DrawStatus.ACCEPTED:
            await self._outbox.committed()
            return result
        return replace(result, view=await self._after_finish(result.view))

    # --- undo ---

    async def request_undo(self, game_id: int, user_id: int) -> UndoResult:
        """Ask to take back one's last turn (see `undo_start` for what is taken back).

        The moves of one's own unfinished multi-move turn are taken back at once;
        anything else waits for the opponent's approval (`answer_undo`).
        """

        async def attempt() -> UndoResult:
            return await self._request_undo(game_id, user_id)

        async with self._locks(game_id):
            result = await self._retrying(game_id, attempt)
        return await self._after_undo(result)

    async def _request_undo(self, game_id: int, user_id: int) -> UndoResult:
        record = await self.record(game_id)
        seat = self._seat(record, user_id)
        await self._require_playable(record)
        loaded = await self._loaded(record)
        moves = await self._repository.list_moves(game_id)
        plan = undo_start(moves, seat, loaded.state.to_move)
        if plan is None:
            raise InvalidStateError("You have not moved yet: there is nothing to take back.")
        start, needs_approval = plan
        taken = [move for move in moves if move.ply >= start]
        notation = _notation(taken)
        if not needs_approval:
            view = await self._undo(record, start)
            return UndoResult(view, UndoStatus.APPLIED, seat, taken)
        if self.computer is not None and record.ai_levels[1 - seat] is not None:
            view = GameView(record, loaded.state)
            if await self.computer.accepts_undo(view, 1 - seat):
                view = await self._undo(
                    record,
                    start,
                    lambda v: [undo_row(v, seat, notation, by_computer=True)],
                )
                return UndoResult(view, UndoStatus.APPLIED, seat, taken, allowed=True)
            async with self._repository.atomic():
                await self._outbox.add(
                    [answer_row(view, "undo", 1 - seat, notation, by_computer=True)]
                )
            return UndoResult(view, UndoStatus.DECLINED, seat, taken)
        pending = record.undo_request
        opponent = record.names[1 - seat]
        if pending is not None and pending.ply == record.ply:
            if pending.open and pending.seat == seat:
                raise InvalidStateError(
                    f"You have already asked to take back a move; waiting for {opponent}."
                )
            if pending.open:
                raise InvalidStateError(
                    f"{opponent} has asked to take back a move; answer that first."
                )
            if pending.seat == seat:
                raise InvalidStateError(
                    f"{opponent} declined; you can ask again after the next move."
                )
        updated = record.evolve(
            undo_request=Offer(seat, record.ply, True), updated_at=self._clock.now()
        )
        view = await self._store(
            updated, lambda v: [offer_row(v, "undo", seat, record.ply, notation)]
        )
        return UndoResult(view, UndoStatus.REQUESTED, seat, taken)

    async def answer_undo(
        self, game_id: int, user_id: int, accept: bool, request_ply: int | None = None
    ) -> UndoResult:
        """Approve or refuse the opponent's standing request to take back moves."""

        async def attempt() -> UndoResult:
            return await self._answer_undo(game_id, user_id, accept, request_ply)

        async with self._locks(game_id):
            result = await self._retrying(game_id, attempt)
        return await self._after_undo(result)

    async def _answer_undo(
        self, game_id: int, user_id: int, accept: bool, request_ply: int | None
    ) -> UndoResult:
        record = await self.record(game_id)
        seat = self._seat(record, user_id)
        await self._require_playable(record)
        request = record.undo_request
        if (
            request is None
            or not request.open
            or request.ply != record.ply
            or (request_ply is not None and request.ply != request_ply)
        ):
            raise InvalidStateError("That request to take back moves is no longer open.")
        if request.seat == seat:
            raise NotAllowedError(
                f"This is your own request; {record.names[1 - seat]} must answer it."
            )
        loaded = await self._loaded(record)
        moves = await self._repository.list_moves(game_id)
        plan = undo_start(moves, request.seat, loaded.state.to_move)
        if plan is None:  # pragma: no cover - a request is only stored with a plan
            raise InvalidStateError("There is nothing to take back.")
        start, _ = plan
        taken = [move for move in moves if move.ply >= start]
        notation = _notation(taken)
        if not accept:
            updated = record.evolve(
                undo_request=replace(request, open=False), updated_at=self._clock.now()
            )
            view = await self._store(updated, lambda v: [answer_row(v, "undo", seat, notation)])
            return UndoResult(view, UndoStatus.DECLINED, request.seat, taken)
        view = await self._undo(record, start, lambda v: [undo_row(v, request.seat, notation)])
        return UndoResult(view, UndoStatus.APPLIED, request.seat, taken, allowed=True)

    async def _after_undo(self, result: UndoResult) -> UndoResult:
        if result.status is UndoStatus.APPLIED:
            await self._run_hooks(self.undo_hooks, result, "undo", result.view.id)
        await self._outbox.committed()
        return result

    async def _undo(self, record: GameRecord, start: int, rows: Rows | None = None) -> GameView:
        """Take back every move from ply `start` on (call under the game's lock), with
        the announcements `rows` makes of the game after it."""
        now = self._clock.now()
        kept = start - 1
        loaded = await self._replay(record, kept)
        updated = record.evolve(
            ply=kept,
            to_move=loaded.state.to_move,
            draw_offer=None,
            undo_request=None,
            updated_at=now,
        )
        announcements = [] if rows is None else list(rows(GameView(updated, loaded.state)))
        async with self._writing(updated.id):
            stored = await self._repository.undo_moves(updated, start, now)
            await self._outbox.add(announcements)
            for writer in self.undo_writers:
                await writer(stored, start)
        loaded.version = stored.version
        self._remember(record.id, loaded)
        return GameView(stored, loaded.state)

    # --- queries ---

    async def set_thread(self, game_id: int, thread_id: int) -> GameRecord:
        """Record the thread a game is played in."""

        async def attempt() -> GameRecord:
            record = await self.record(game_id)
            return (await self._store(record.evolve(thread_id=thread_id))).record

        async with self._locks(game_id):
            return await self._retrying(game_id, attempt)

    async def move_to(self, game_id: int, channel_id: int, thread_id: int | None) -> GameRecord:
        """Record that the game is played in another channel (or thread) from now on: its
        thread or channel was deleted."""

        async def attempt() -> GameRecord:
            record = await self.record(game_id)
            moved = record.evolve(channel_id=channel_id, thread_id=thread_id)
            return (await self._store(moved)).record

        async with self._locks(game_id):
            return await self._retrying(game_id, attempt)

    async def place_deleted(self, guild_id: int, place_id: int) -> list[GameRecord]:
        """A thread or channel of the server was deleted: each game in progress played
        there (or in a thread of that channel) is announced again, which moves it to a new
        place at once. Returns those games."""
        found = [
            record
            for record in await self._repository.active_games(guild_id=guild_id)
            if place_id in (record.thread_id, record.channel_id)
        ]
        if found:
            async with self._repository.atomic():
                await self._outbox.add([place_deleted_row(record, place_id) for record in found])
            await self._outbox.committed()
        return found

    async def active_threads(self, shards: ShardFilter | None = None) -> list[int]:
        """The threads of every game in progress (games played in a channel have none), in
        the servers of `shards` if given, but not of suspended games (their server removed
        Tabula, or their thread is gone)."""
        suspended = await self._repository.open_suspensions()
        servers = {s.guild_id for s in suspended if s.game_id is None}
        games = {s.game_id for s in suspended}
        return [
            g.thread_id
            for g in await self._repository.active_games()
            if g.thread_id
            and g.guild_id not in servers  # Tabula is not in those servers any more
            and g.id not in games  # nor has a place for those games
            and (shards is None or shards.covers(g.guild_id))
        ]

    async def active_games(self, user_id: int) -> list[GameRecord]:
        """Every active game of `user_id`, in any server."""
        return await self._repository.active_games(user_id=user_id)

    async def last_turn(self, game_id: int) -> list[MoveRecord]:
        """The moves of the latest turn (all of one player's sub-moves in multi-move games)."""
        record = await self.record(game_id)
        return _trailing_turn((await self._loaded(record)).recent)

    async def turn_start(self, record: GameRecord) -> tuple[int, GameState[Any]]:
        """Where the current turn began: the ply then and the position (in a multi-move
        turn under way, the moves played so far are not shown to the opponent yet)."""
        loaded = await self._loaded(record)
        turn = _trailing_turn(loaded.recent)
        if not turn or turn[0].seat != loaded.state.to_move:
            return record.ply, loaded.state
        start = turn[0].ply - 1
        return start, (await self._replay(record, start)).state

    async def find(
        self,
        user_id: int,
        location: int,
        game_id: int | None = None,
        *,
        guild_id: int | None,
        for_move: bool = False,
        answering: Literal["draw", "undo"] | None = None,
    ) -> GameRecord:
        """The game a command in `location` (a thread or channel of server `guild_id`, or a
        direct message when that is None) means.

        With `game_id`, that game, if it is visible there (see `visible`); a game that is
        not is refused exactly as a game that does not exist. Otherwise the caller's one
        active game played in `location`, or started from it; with `for_move`, several are
        narrowed to those where it is the caller's turn. A game here that the caller does
        not play is returned too, so that the caller is told they are not playing. With
        `answering`, several are narrowed to those with the opponent's open draw offer (or
        undo request) to answer.
        """
        if game_id is not None:
            record = await self.record(game_id)
            if not visible(record, user_id, guild_id):
                raise NotFoundError(f"There is no game #{game_id}.")
            return record
        here = await self._repository.active_games(location=location)
        mine = [g for g in here if g.seat_of(user_id) is not None]
        if not here:
            mine = [g for g in await self.active_games(user_id) if g.channel_id == location]
        elif not mine and len(here) == 1:
            return here[0]
        if not mine:
            raise NotFoundError("You have no game in progress here. Use /games to see your games.")
        if len(mine) == 1:
            return mine[0]
        if answering is not None:
            offered = [g for g in mine if _offered_to(g, user_id, answering)]
            if len(offered) == 1:
                return offered[0]
            if offered:
                mine = offered
        if for_move:
            waiting = [g for g in mine if g.players[g.to_move] == user_id]
            if len(waiting) == 1:
                return waiting[0]
            if not waiting:
                raise NotYourTurnError(
                    "It is not your turn in any of your games here. Use /games to see them."
                )
            mine = waiting
        listed = ", ".join(f"#{g.id} ({g.names[0]} vs {g.names[1]})" for g in mine[:10])
        raise NotFoundError(f"You have {len(mine)} games here: name one with its number: {listed}.")

    async def suggest_moves(
        self, game_id: int, user_id: int, typed: str, limit: int = 25, max_length: int = 100
    ) -> list[str]:
        """Legal moves matching what `user_id` typed so far, most useful first.

        Empty when the user cannot move in this game now.
        """
        record = await self._repository.get_game(game_id) if storable(game_id) else None
        if record is None or not record.is_active or record.players[record.to_move] != user_id:
            return []
        loaded = await self._loaded(record)
        if loaded.moves is None:
            state = loaded.state
            loaded.moves = await asyncio.to_thread(MoveIndex, state, state.legal_notations())
        return loaded.moves.rank(typed, limit, max_length)
