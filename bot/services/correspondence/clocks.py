"""`ClockService`: each timed game's clock, its deadline, reminders and loss on time.

How the clocks run (docs/playing/correspondence.md says the same for players):

- A clock runs per **turn**, not per move: a turn is the run of moves one player makes
  before the other is to move (Diffusion Chess: up to five), so sub-moves neither
  reset nor charge it. A turn begins when the opponent's turn ends (the first one when
  the game begins) and ends with the player's last move of it.
- **Per move** (`3d`): every turn gets the full time; the clock resets after each turn.
- **Capped increment** (`7d+1d max 10d`): each player has a bank, first the initial
  time. The turn's deadline is its start plus the bank; at the end of the turn the
  time used is taken from the bank, then the increment is added, and the bank is cut
  to the cap.
- A clock does not run while its player is on **vacation**, nor while the bot was
  **down** (found at start-up from the scheduler's heartbeat): players cannot move
  then. A deadline that passed before the bot went down is applied on the first tick.
- Nor while the game is **suspended** (Tabula was removed from its server, or its
  channel is gone with nowhere to move it): it then has no deadline and no reminder,
  and when it goes on, each clock has the time it had when the suspension began.
- An **undo** restores both clocks to the start of the turn taken back and restarts
  that turn at the moment of the undo. An undo inside one's own unfinished turn
  changes nothing: the turn's clock keeps running.
- A move after the deadline is refused; the game is lost on time by the first tick
  that finds the deadline passed, through `GameService.finish` like every other ending.

The clock is derived from the move log whenever it may be behind (after a move, undo,
start or end, and before any decision), and stored with its deadline and next
reminder so the scheduler finds them after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from bot.services.announcing.announcements import reminder_row, timeout_dm_row, timeout_row
from bot.services.announcing.outbox import Outbox
from bot.services.clock import Clock
from bot.services.correspondence.pauses import Pause, counted, runs_out
from bot.services.durations import TimeControl, parse_time_control
from bot.services.errors import ConflictError, InvalidStateError, ServiceError
from bot.services.games.games import GameService
from bot.services.locks import KeyedLocks
from bot.services.views.alerts import ReminderNotice
from bot.services.views.results import GameView, MoveResult, UndoResult
from bot.storage.repository import (
    ClockTurn,
    GameClock,
    GameRecord,
    MoveRecord,
    NewAnnouncement,
    Outage,
    Repository,
    Vacation,
)
from bot.storage.suspensions import Suspension

log = logging.getLogger(__name__)

T = TypeVar("T")

OUTAGE_THRESHOLD = timedelta(minutes=10)
"""A longer silence of the scheduler between two runs of the bot counts as downtime."""


class TimeUpError(InvalidStateError):
    """The player's time in this game has run out: no more moves."""


@dataclass(frozen=True, slots=True)
class ClockStatus:
    """A game's clock as seen at one moment (`at`)."""

    control: TimeControl
    turn: ClockTurn
    """The current turn: whose clock runs, since when, with which banks."""
    deadline: datetime | None
    """When the running clock runs out; None once the game is over."""
    left: tuple[timedelta, timedelta]
    """Each seat's time: for the seat to move what is left of its turn, for the other
    seat what it will have when its turn begins (per move: the full time; else its bank)."""
    at: datetime
    """Now, or when the game ended."""
    away: tuple[Vacation | None, Vacation | None]
    """The vacation each seat's player is on now (None: not away)."""
    suspended: Suspension | None = None
    """The suspension holding the game now (its clocks stand still meanwhile)."""

    @property
    def seat(self) -> int:
        """The seat whose clock runs."""
        return self.turn.seat

    @property
    def stopped(self) -> bool:
        """True once the game is over."""
        return self.deadline is None and self.suspended is None

    @property
    def paused(self) -> bool:
        """True while the running clock waits for its player's vacation to end."""
        return not self.stopped and self.away[self.seat] is not None

    @property
    def expired(self) -> bool:
        """True when the running clock has run out."""
        return self.deadline is not None and self.deadline <= self.at

    @property
    def allowance(self) -> timedelta:
        """The time the current turn started with."""
        return allowance(self.control, self.turn)


@dataclass(frozen=True, slots=True)
class _Synced:
    """A game's record and its clock, caught up with the move log."""

    record: GameRecord
    control: TimeControl
    clock: GameClock


def control_of(record: GameRecord) -> TimeControl:
    """The game's time control (no clock when the stored text cannot be read)."""
    try:
        return parse_time_control(record.time_control)
    except ServiceError:
        log.error("game %s: unreadable time control %r", record.id, record.time_control)
        return TimeControl()


def allowance(control: TimeControl, turn: ClockTurn) -> timedelta:
    """The time a turn starts with: the time per move, or the player's bank."""
    if control.per_move is not None:
        return control.per_move
    assert turn.banks is not None
    return turn.banks[turn.seat]


def initial_banks(control: TimeControl) -> tuple[timedelta, timedelta] | None:
    """Both seats' banks when the game begins (None per move)."""
    if control.initial is None:
        return None
    return (control.initial, control.initial)


def charged(
    control: TimeControl, turn: ClockTurn, ended_at: datetime, pauses: Sequence[Pause]
) -> tuple[timedelta, timedelta] | None:
    """The banks after `turn` ended at `ended_at`: time used taken, increment added, capped."""
    if turn.banks is None or control.increment is None or control.cap is None:
        return turn.banks
    used = counted(turn.started_at, ended_at, pauses)
    bank = max(turn.banks[turn.seat] - used, timedelta()) + control.increment
    banks = list(turn.banks)
    banks[turn.seat] = min(bank, control.cap)
    return (banks[0], banks[1])


async def _each(
    game_ids: Sequence[int], action: Callable[[int], Awaitable[T | None]], what: str
) -> list[T]:
    """Run `action` for each game; a failure is logged and does not stop the others."""
    done = []
    for game_id in game_ids:
        try:
            result = await action(game_id)
        except Exception:
            log.exception("game %s: %s failed", game_id, what)
            continue
        if result is not None:
            done.append(result)
    return done


def turns_of(moves: Sequence[MoveRecord]) -> list[list[MoveRecord]]:
    """The moves split into runs by one seat: the turns (the last may be unfinished)."""
    runs: list[list[MoveRecord]] = []
    for move in moves:
        if runs and runs[-1][-1].seat == move.seat:
            runs[-1].append(move)
        else:
            runs.append([move])
    return runs


class ClockService:
    """Keeps every timed game's clock; the scheduler runs its jobs."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        games: GameService,
        outbox: Outbox,
        *,
        outage_threshold: timedelta = OUTAGE_THRESHOLD,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._games = games
        self._outbox = outbox
        self._outage_threshold = outage_threshold
        self._locks = KeyedLocks()
        self._resumed = False

    def attach(self) -> None:
        """Follow the games: guard moves, and catch up after moves, undos, starts, ends."""
        self._games.move_guards.append(self.check_move)
        self._games.move_hooks.append(self.on_move)
        self._games.undo_hooks.append(self.on_undo)
        self._games.start_hooks.append(self.on_start)
        self._games.finish_hooks.append(self.on_finish)

    # --- hooks ---

    async def on_move(self, result: MoveResult) -> None:
        """After a move: a finished turn starts the opponent's clock."""
        await self.sync(result.view.id)

    async def on_undo(self, result: UndoResult) -> None:
        """After an undo: restore the clocks of the turn taken back."""
        await self.sync(result.view.id, undone_to=result.view.record.ply)

    async def on_start(self, view: GameView) -> None:
        """When a game begins: start the first player's clock."""
        await self.sync(view.id)

    async def on_finish(self, view: GameView) -> None:
        """When a game ends: stop its clock."""
        await self.sync(view.id)

    async def check_move(self, record: GameRecord, seat: int) -> None:
        """Refuse a move by a player whose time has run out."""
        if control_of(record).is_none:
            return
        synced = await self.sync(record.id)
        if synced is None:
            return
        deadline = synced.clock.deadline
        now = self._clock.now()
        if deadline is not None and synced.clock.current.seat == seat and deadline <= now:
            raise TimeUpError(
                "Your time in this game has run out: it is lost on time, "
                "and the result will be posted in a moment."
            )

    # --- reading ---

    async def status(self, record: GameRecord) -> ClockStatus | None:
        """The game's clock now (None for a game without a clock)."""
        if control_of(record).is_none:
            return None
        synced = await self.sync(record.id)
        return None if synced is None else await self._status(synced)

    async def statuses(self, records: Sequence[GameRecord]) -> dict[int, ClockStatus | None]:
        """The clocks of several games, by game id."""
        return {record.id: await self.status(record) for record in records}

    async def _status(self, synced: _Synced) -> ClockStatus:
        record, control, clock = synced.record, synced.control, synced.clock
        turn = clock.current
        at = clock.stopped_at or self._clock.now()
        seat = turn.seat
        pauses, held = await self._stops(record, seat, turn.started_at)
        running = max(allowance(control, turn) - counted(turn.started_at, at, pauses), timedelta())
        waiting = control.per_move if control.per_move is not None else None
        if waiting is None:
            assert turn.banks is not None
            waiting = turn.banks[1 - seat]
        left = (running, waiting) if seat == 0 else (waiting, running)
        away: list[Vacation | None] = [None, None]
        if clock.stopped_at is None:
            for index, user in enumerate(record.players):
                if user is not None:
                    away[index] = await self.vacation_now(user)
        held = held if clock.stopped_at is None else None
        return ClockStatus(control, turn, clock.deadline, left, at, (away[0], away[1]), held)

    async def vacation_now(self, user_id: int) -> Vacation | None:
        """The vacation `user_id` is on now, if any."""
        vacation = await self._repository.open_vacation(user_id)
        if vacation is not None and vacation.is_on(self._clock.now()):
            return vacation
        return None

    async def _stops(
        self, record: GameRecord, seat: int, since: datetime
    ) -> tuple[list[Pause], Suspension | None]:
        """Times after `since` in which the clock of `seat` stands (its player's
        vacations, the bot's downtime, the game's suspensions, an open one until now),
        and the suspension holding the game now, if any."""
        pauses = [Pause(o.started_at, o.ended_at) for o in await self._repository.outages(since)]
        user_id = record.players[seat]
        if user_id is not None:
            for vacation in await self._repository.vacations(user_id, since):
                pauses.append(Pause(vacation.started_at, vacation.end))
        held = None
        if record.guild_id is not None:
            now = self._clock.now()
            for suspension in await self._repository.suspensions(record.guild_id, since):
                if suspension.covers(record.guild_id, record.id):
                    pauses.append(Pause(suspension.started_at, suspension.ended_at or now))
                    if suspension.is_open:
                        held = suspension
        return pauses, held

    async def _pauses(self, record: GameRecord, seat: int, since: datetime) -> list[Pause]:
        """Times after `since` in which the clock of `seat` stands (see `_stops`)."""
        return (await self._stops(record, seat, since))[0]

    # --- catching up with the move log ---

    async def sync(self, game_id: int, *, undone_to: int | None = None) -> _Synced | None:
        """Bring the game's clock up to date with its moves; None for an untimed game.

        `undone_to`: the ply an undo went back to (the undo hook passes it).
        """
        async with self._locks(game_id):
            return await self._sync(game_id, undone_to)

    async def _sync(self, game_id: int, undone_to: int | None) -> _Synced | None:
        record = await self._repository.get_game(game_id)
        if record is None:
            return None
        control = control_of(record)
        clock = await self._repository.get_clock(game_id)
        if clock is None and control.is_none:
            return None
        if clock is not None and (
            clock.stopped_at is not None
            or (
                undone_to is None
                and record.is_active
                and clock.synced_ply == record.ply
                and clock.current.seat == record.to_move
            )
        ):
            return _Synced(record, control, clock)
        now = self._clock.now()
        new_turns: list[ClockTurn] = []
        if clock is None:
            moves = await self._repository.list_moves(game_id)
            seat = moves[0].seat if moves else record.to_move
            current = ClockTurn(game_id, 1, seat, 0, record.created_at, initial_banks(control))
            new_turns.append(current)
        else:
            current = clock.current
            back_to = record.ply if undone_to is None else min(undone_to, record.ply)
            undone = undone_to is not None or record.ply < clock.synced_ply
            if undone and back_to < current.start_ply:
                current = await self._restored(record, current, back_to, now)
                new_turns.append(current)
            moves = await self._repository.list_moves(game_id, after_ply=current.start_ply)
        current = await self._follow(record, control, current, moves, new_turns)
        deadline: datetime | None = None
        remind_at: datetime | None = None
        stopped_at: datetime | None = None
        if record.is_active:
            deadline, remind_at = await self._schedule(record, control, current)
        else:
            stopped_at = record.finished_at or now
        updated = GameClock(current, record.ply, deadline, remind_at, stopped_at)
        if not await self._repository.save_clock(updated, new_turns, now):
            # Another process caught up first; what it stored is as good.
            stored = await self._repository.get_clock(game_id)
            if stored is None:
                return None
            return _Synced(record, control, stored)
        return _Synced(record, control, updated)

    async def _restored(
        self, record: GameRecord, current: ClockTurn, back_to: int, now: datetime
    ) -> ClockTurn:
        """The turn that an undo back to ply `back_to` restarts, starting now."""
        history = await self._repository.clock_turns(record.id)
        base = next((t for t in reversed(history) if t.start_ply <= back_to), history[0])
        # Moves after the undo (if any came before this catch-up) were played after it.
        replayed = await self._repository.list_moves(record.id, after_ply=back_to)
        started = min([now, *(m.played_at for m in replayed[:1])])
        return ClockTurn(
            record.id, current.turn + 1, base.seat, base.start_ply, started, base.banks
        )

    async def _follow(
        self,
        record: GameRecord,
        control: TimeControl,
        current: ClockTurn,
        moves: Sequence[MoveRecord],
        new_turns: list[ClockTurn],
    ) -> ClockTurn:
        """Walk the moves after the current turn began: each finished turn starts the next."""
        runs = turns_of(moves)
        for index, run in enumerate(runs):
            if run[0].seat != current.seat:
                log.warning("game %s: clock expected seat %s at ply %s", record.id, current.seat,
                            run[0].ply)  # fmt: skip
                current = ClockTurn(record.id, current.turn + 1, run[0].seat, run[0].ply - 1,
                                    current.started_at, current.banks)  # fmt: skip
                new_turns.append(current)
            finished = index < len(runs) - 1 or record.to_move != run[0].seat
            if not finished:
                break
            ended = run[-1].played_at
            pauses = await self._pauses(record, current.seat, current.started_at)
            banks = charged(control, current, ended, pauses)
            current = ClockTurn(
                record.id, current.turn + 1, 1 - current.seat, run[-1].ply, ended, banks
            )
            new_turns.append(current)
        return current

    async def _schedule(
        self, record: GameRecord, control: TimeControl, turn: ClockTurn
    ) -> tuple[datetime | None, datetime | None]:
        """The turn's deadline and the moment its next reminder is due; neither while
        the game is suspended."""
        user = record.players[turn.seat]
        pauses, held = await self._stops(record, turn.seat, turn.started_at)
        if held is not None:
            return None, None
        granted = allowance(control, turn)
        deadline = runs_out(turn.started_at, granted, pauses)
        if user is None:
            return deadline, None
        offsets = await self._pending_reminders(user, record.id, turn, granted)
        moments = [runs_out(turn.started_at, granted - offset, pauses) for offset in offsets]
        return deadline, min(moments, default=None)

    async def _pending_reminders(
        self, user_id: int, game_id: int, turn: ClockTurn, granted: timedelta
    ) -> list[timedelta]:
        """The user's reminders not sent yet in this turn and shorter than its time,
        longest first (a reminder as long as the turn itself would come at its start)."""
        settings = await self._repository.get_user_settings(user_id)
        sent = await self._repository.sent_reminders(game_id, turn.turn)
        offsets = {offset for offset in settings.reminders if offset < granted} - sent
        return sorted(offsets, reverse=True)

    async def reschedule(self, game_id: int) -> None:
        """Recompute the deadline and next reminder (after a vacation or settings change)."""
        async with self._locks(game_id):
            synced = await self._sync(game_id, None)
            if synced is None or synced.clock.stopped_at is not None:
                return
            turn = synced.clock.current
            deadline, remind_at = await self._schedule(synced.record, synced.control, turn)
            await self._repository.set_clock_schedule(game_id, turn.turn, deadline, remind_at)

    async def reschedule_user(self, user_id: int) -> list[GameRecord]:
        """Recompute the clocks of `user_id`'s timed games; return their active games."""
        games = await self._repository.active_games(user_id=user_id)
        for record in games:
            if not control_of(record).is_none:
                await self.reschedule(record.id)
        return games

    # --- scheduled jobs ---

    async def catch_up(self) -> None:
        """Heartbeat; after a restart, record the downtime; sync clocks that fell behind."""
        now = self._clock.now()
        previous = await self._repository.beat(now)
        if not self._resumed:
            self._resumed = True
            if previous is not None and now - previous > self._outage_threshold:
                log.warning("the bot was down from %s to %s: clocks paused", previous, now)
                await self._repository.record_outage(Outage(previous, now))
                for game_id in await self._repository.running_clocks():
                    await self.reschedule(game_id)
        for game_id in await self._repository.clocks_to_sync():
            await self.sync(game_id)

    async def time_out_due(self) -> list[GameView]:
        """End every game whose running clock has run out, as a loss on time."""
        due = await self._repository.due_clocks(self._clock.now())
        return await _each(due, self._time_out, "applying the timeout")

    async def _time_out(self, game_id: int) -> GameView | None:
        synced = await self.sync(game_id)
        now = self._clock.now()
        if synced is None or synced.clock.deadline is None or synced.clock.deadline > now:
            return None
        record, seat = synced.record, synced.clock.current.seat
        guild = record.guild_id
        if guild is not None and await self._repository.suspension_of(guild, record.id):
            return None  # suspended meanwhile: its clocks stand (rescheduled by then)
        reason = f"{record.names[seat]} ran out of time"
        # A player who never moved did not play: their opponent wins, but unrated (no
        # rating points for a no-show, nor a way to farm them with a second account).
        no_show = record.rated and all(
            move.seat != seat for move in await self._repository.list_moves(game_id)
        )
        deadline = synced.clock.deadline
        dms = []
        for user in record.players:
            if user is not None and (await self._repository.get_user_settings(user)).wants_dms:
                dms.append(user)

        def rows(view: GameView) -> list[NewAnnouncement]:
            told = [timeout_row(view, seat, deadline)]
            return told + [timeout_dm_row(user, view.id, seat, deadline) for user in dms]

        try:
            return await self._games.finish(
                game_id,
                1 - seat,
                f"{reason} without moving: not rated" if no_show else reason,
                rows=rows,
                at_ply=record.ply,
                rated=False if no_show else None,
            )
        except (InvalidStateError, ConflictError):
            return None  # it ended or moved on meanwhile; the next tick looks again

    async def remind_due(self) -> list[ReminderNotice]:
        """Send every reminder that has come due; each at most once per turn and offset."""
        due = await self._repository.due_reminders(self._clock.now())
        return await _each(due, self._remind, "sending a reminder")

    async def _remind(self, game_id: int) -> ReminderNotice | None:
        synced = await self.sync(game_id)
        if synced is None or synced.clock.stopped_at is not None:
            return None
        record, clock = synced.record, synced.clock
        turn = clock.current
        user = record.players[turn.seat]
        now = self._clock.now()
        if user is None or clock.deadline is None or clock.deadline <= now:
            return None
        granted = allowance(synced.control, turn)
        pauses, held = await self._stops(record, turn.seat, turn.started_at)
        if held is not None:
            return None
        offsets = await self._pending_reminders(user, game_id, turn, granted)
        due = [o for o in offsets if runs_out(turn.started_at, granted - o, pauses) <= now]
        # Claim every due reminder (longest first); the one who claims the shortest sends
        # it, so overlapping ticks or a bot that was down send one message, never two.
        settings = await self._repository.get_user_settings(user)
        status = await self._status(synced)
        notice = None
        async with self._repository.atomic():
            claimed = [
                await self._repository.claim_reminder(game_id, turn.turn, o, now) for o in due
            ]
            if due and claimed[-1]:
                notice = ReminderNotice(
                    user,
                    record,
                    turn.seat,
                    status.left[turn.seat],
                    clock.deadline,
                    settings.wants_dms,
                )
                await self._outbox.add([reminder_row(notice)])
        if notice is not None:
            await self._outbox.committed()
        deadline, remind_at = await self._schedule(record, synced.control, turn)
        await self._repository.set_clock_schedule(game_id, turn.turn, deadline, remind_at)
        return notice
