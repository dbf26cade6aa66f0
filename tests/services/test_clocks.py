"""Clocks on an injected clock: deadlines, increments and caps, reminders, timeouts,
undo, downtime and restarts. Time is advanced by hand; nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.services.announcing.notify import Ticket
from bot.services.correspondence.clocks import TimeUpError
from bot.services.errors import InvalidInputError
from bot.services.views.alerts import TimeoutNotice
from bot.services.views.results import GameView
from bot.storage.repository import GameStatus, NewGame
from tests.services.conftest import ALICE, BOB, CHANNEL, GUILD, Env, play_any, status

pytestmark = pytest.mark.usefixtures("no_logged_errors")

H = timedelta(hours=1)
D = timedelta(days=1)
M = timedelta(minutes=1)
NO_SHOW = "alice ran out of time without moving: not rated"
"""The reason when alice loses on time before her first move (such a loss is unrated)."""


async def test_per_move_clock_resets_every_turn(env: Env) -> None:
    """3d per move: each turn gets three days from the opponent's move."""
    start = env.clock.now()
    view = await env.start(time_control="3d")
    first = await status(env, view)
    assert first.seat == 0 and first.deadline == start + 3 * D
    assert first.left == (3 * D, 3 * D)
    env.clock.advance(2 * D)
    assert (await status(env, view)).left == (1 * D, 3 * D)
    await play_any(env, view.id)
    second = await status(env, view)
    assert second.seat == 1 and second.deadline == start + 5 * D
    assert second.left == (3 * D, 3 * D)


async def test_capped_increment_bank_arithmetic(env: Env) -> None:
    """7d+1d max 10d: time used leaves the bank, the increment is added, the cap holds."""
    view = await env.start(time_control="7d+1d max 10d")
    env.clock.advance(2 * D)
    await play_any(env, view.id)  # alice used 2d: 7 - 2 + 1 = 6d
    assert (await status(env, view)).left == (6 * D, 7 * D)
    env.clock.advance(1 * H)
    await play_any(env, view.id)  # bob used 1h: 7d - 1h + 1d = 8d - 1h
    after = await status(env, view)
    assert after.left == (6 * D, 8 * D - H)
    assert after.deadline == env.clock.now() + 6 * D
    for _ in range(8):  # both answer at once: +1d a turn until the cap of 10d
        await play_any(env, view.id)
    assert (await status(env, view)).left == (10 * D, 10 * D)


async def test_capped_increment_bank_never_goes_below_the_increment(env: Env) -> None:
    """A move in the last second leaves an empty bank plus the increment."""
    view = await env.start(time_control="1d+2h max 2d")
    env.clock.advance(D - timedelta(seconds=1))
    await play_any(env, view.id)
    assert (await status(env, view)).left[0] == 2 * H + timedelta(seconds=1)


async def test_a_multi_move_turn_is_timed_as_one(env: Env) -> None:
    """Diffusion Chess: the clock runs per turn; sub-moves neither reset nor charge it."""
    start = env.clock.now()
    view = await env.start("diffusion", time_control="1d+1h max 2d")
    for _ in range(3):  # White's first turn has four moves: three of them
        env.clock.advance(H)
        result = await play_any(env, view.id)
        assert not result.turn_complete
    partial = await status(env, view)
    assert partial.seat == 0 and partial.deadline == start + D
    assert partial.left[0] == D - 3 * H
    env.clock.advance(H)
    assert (await play_any(env, view.id)).turn_complete
    after = await status(env, view)
    assert after.seat == 1 and after.turn.started_at == start + 4 * H
    assert after.left == (D - 4 * H + H, D)  # charged 4 h once, one increment


async def test_time_control_text_is_validated(env: Env) -> None:
    """A bad time control is refused with the parser's message and no challenge."""
    with pytest.raises(InvalidInputError, match="'3x' is not a duration"):
        await env.start(time_control="3x")
    with pytest.raises(
        InvalidInputError, match=r"The cap \(2d\) must be at least the initial time \(7d\)\."
    ):
        await env.start(time_control="7d+1d max 2d")
    assert await env.repo.open_challenges(user_id=ALICE.id) == []


async def test_untimed_games_have_no_clock(env: Env) -> None:
    """No clock, no deadline, nothing scheduled."""
    view = await env.start()
    assert await env.services.clocks.status(view.record) is None
    env.clock.advance(100 * D)
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).is_active
    assert await env.repo.get_clock(view.id) is None


async def test_timeout_ends_the_game_through_finish_once(env: Env) -> None:
    """Past the deadline the next tick ends the game: a loss on time, announced once,
    finish hooks called once, and no more deadline."""
    finished: list[GameView] = []

    async def hook(view: GameView) -> None:
        finished.append(view)

    env.services.games.finish_hooks.append(hook)
    await env.services.notifications.update(BOB.id, turn_dms=True)
    view = await env.start(time_control="2d")
    for _ in range(3):  # alice, bob, alice: then bob's clock runs
        await play_any(env, view.id)
    env.clock.advance(2 * D - M)
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).is_active
    env.clock.advance(M)
    await env.services.scheduler.tick()
    await env.services.scheduler.tick()
    record = await env.services.games.record(view.id)
    assert record.status is GameStatus.FINISHED
    assert record.winner == 0 and record.result_reason == "bob ran out of time"
    assert record.rated and len(await env.repo.rating_changes(view.id)) == 2
    assert [v.id for v in finished] == [view.id]
    [notice] = env.notifier.timeouts
    assert notice.seat == 1 and notice.view.record.winner == 0
    assert [user for user, _ in env.notifier.timeout_dms] == [BOB.id]  # only bob takes DMs
    assert env.notifier.finished == []  # announced once, as a timeout
    assert await env.repo.due_clocks(env.clock.now() + 100 * D) == []
    assert (await status(env, view)).stopped


async def test_a_move_after_the_deadline_is_refused(env: Env) -> None:
    """Once the time is up the move is refused, nothing is stored, and the tick ends it."""
    view = await env.start(time_control="1d")
    env.clock.advance(D)
    with pytest.raises(TimeUpError, match="Your time in this game has run out"):
        await play_any(env, view.id)
    assert await env.repo.list_moves(view.id) == []
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).result_reason == NO_SHOW


async def test_a_move_just_in_time_beats_the_timeout(env: Env) -> None:
    """A move one second before the deadline stands; the clock moves to the opponent."""
    view = await env.start(time_control="1d")
    env.clock.advance(D - timedelta(seconds=1))
    await play_any(env, view.id)
    env.clock.advance(timedelta(seconds=2))
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).is_active


async def test_reminders_are_sent_once_each(env: Env) -> None:
    """24h and 1h before the deadline, one reminder each, however often the tick runs."""
    await env.start(time_control="3d")
    env.clock.advance(2 * D - M)
    await env.services.scheduler.tick()
    assert env.notifier.reminders == []
    env.clock.advance(M)
    for _ in range(3):
        await env.services.scheduler.tick()
    [first] = env.notifier.reminders
    assert first.user_id == ALICE.id and first.left == D and not first.by_dm
    env.clock.advance(23 * H)
    await asyncio.gather(*(env.services.scheduler.tick() for _ in range(4)))
    assert [r.left for r in env.notifier.reminders] == [D, H]
    await env.services.scheduler.tick()
    assert len(env.notifier.reminders) == 2


async def test_concurrent_ticks_send_one_reminder(env: Env) -> None:
    """Two ticks running at once (or two processes) claim the reminder; one sends it."""
    view = await env.start(time_control="2d")
    env.clock.advance(D + M)
    other = await env.restart()  # a second process on the same database
    await asyncio.gather(env.services.scheduler.tick(), other.services.scheduler.tick())
    sent = env.notifier.reminders + other.notifier.reminders
    assert [r.record.id for r in sent] == [view.id]


async def test_reminders_survive_a_restart_without_repeating(env: Env) -> None:
    """After a restart the 24h reminder is not sent again; the 1h one still comes."""
    view = await env.start(time_control="2d")
    env.clock.advance(D + M)
    await env.services.scheduler.tick()
    assert len(env.notifier.reminders) == 1
    env = await env.restart()
    await env.services.scheduler.tick()
    assert env.notifier.reminders == []
    env.clock.advance(23 * H)
    await env.services.scheduler.tick()
    assert [r.left for r in env.notifier.reminders] == [H - M]
    assert env.notifier.reminders[0].record.id == view.id


async def test_a_late_tick_sends_only_the_most_urgent_reminder(env: Env) -> None:
    """Ticks missed across both reminder times: one message with the true time left."""
    await env.start(time_control="2d")
    env.clock.advance(2 * D - 30 * M)
    await env.services.scheduler.tick()
    assert [r.left for r in env.notifier.reminders] == [30 * M]
    env.clock.advance(10 * M)
    await env.services.scheduler.tick()
    assert len(env.notifier.reminders) == 1


async def test_reminders_follow_the_players_settings(env: Env) -> None:
    """Own reminder times, by direct message for users who accept them; none longer
    than the turn; none at all when switched off."""
    await env.services.notifications.update(ALICE.id, reminders="6h", turn_dms=True)
    await env.services.notifications.update(BOB.id, reminders="none")
    view = await env.start(time_control="12h")
    env.clock.advance(6 * H)
    await env.services.scheduler.tick()
    [reminder] = env.notifier.reminders
    assert reminder.by_dm and reminder.left == 6 * H
    await play_any(env, view.id)
    env.clock.advance(12 * H - M)
    await env.services.scheduler.tick()
    assert len(env.notifier.reminders) == 1  # bob wants none


async def test_a_reminder_as_long_as_the_turn_is_skipped(env: Env) -> None:
    """With 12h per move, the 24h reminder would come at the start of every turn: skipped."""
    await env.start(time_control="12h")
    env.clock.advance(11 * H)
    await env.services.scheduler.tick()
    assert [r.left for r in env.notifier.reminders] == [H]


async def test_changing_reminder_times_reschedules_the_running_turn(env: Env) -> None:
    """New reminder times apply to the turn in progress."""
    await env.start(time_control="3d")
    env.clock.advance(H)
    await env.services.notifications.update(ALICE.id, reminders="2d")
    env.clock.advance(D - H)
    await env.services.scheduler.tick()
    assert [r.left for r in env.notifier.reminders] == [2 * D]


async def test_restart_before_a_pending_deadline(env: Env) -> None:
    """A short restart changes nothing: the stored deadline is applied by the new process."""
    view = await env.start(time_control="1d")
    env.clock.advance(12 * H)
    await env.services.scheduler.tick()  # the last heartbeat before going down
    env.clock.advance(5 * M)  # down for five minutes
    env = await env.restart()
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).is_active
    env.clock.advance(12 * H - 5 * M)
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).result_reason == NO_SHOW
    assert len(env.notifier.timeouts) == 1


async def test_a_short_downtime_across_a_deadline_is_not_forgiven(env: Env) -> None:
    """Down for a few minutes across the deadline: the first tick applies the timeout."""
    view = await env.start(time_control="1d")
    env.clock.advance(D - 2 * M)
    await env.services.scheduler.tick()
    env.clock.advance(7 * M)
    env = await env.restart()
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).result_reason == NO_SHOW


async def test_downtime_does_not_count_against_anyone(env: Env) -> None:
    """The bot down for a day across a deadline: the player keeps the time they had when
    it went down, and loses on time only when that is used up."""
    view = await env.start(time_control="1d")
    env.clock.advance(D - 2 * H)
    await env.services.scheduler.tick()  # the last heartbeat: 2 h left
    env.clock.advance(D)
    env = await env.restart()
    await env.services.scheduler.tick()
    record = await env.services.games.record(view.id)
    assert record.is_active
    after = await status(env, view)
    assert after.left[0] == 2 * H and after.deadline == env.clock.now() + 2 * H
    env.clock.advance(2 * H)
    await env.services.scheduler.tick()
    assert (await env.services.games.record(view.id)).result_reason == NO_SHOW


async def test_undo_restores_the_clocks_of_the_turn_taken_back(env: Env) -> None:
    """An approved undo gives both banks back as they were and restarts the turn now."""
    view = await env.start(time_control="3d+1d max 5d")
    env.clock.advance(D)
    await play_any(env, view.id)  # alice: 3 - 1 + 1 = 3d
    env.clock.advance(2 * D)
    await play_any(env, view.id)  # bob: 3 - 2 + 1 = 2d
    assert (await status(env, view)).left == (3 * D, 2 * D)
    env.clock.advance(H)
    await env.services.games.request_undo(view.id, BOB.id)
    env.clock.advance(H)
    await env.services.games.answer_undo(view.id, ALICE.id, True)
    after = await status(env, view)
    assert after.seat == 1 and after.turn.started_at == env.clock.now()
    assert after.left == (3 * D, 3 * D)
    assert after.deadline == env.clock.now() + 3 * D


async def test_undo_inside_ones_own_turn_keeps_the_clock_running(env: Env) -> None:
    """Taking back one's own sub-moves does not restart the turn's clock."""
    start = env.clock.now()
    view = await env.start("diffusion", time_control="1d")
    env.clock.advance(H)
    await play_any(env, view.id)
    await play_any(env, view.id)
    await env.services.games.request_undo(view.id, ALICE.id)
    current = await status(env, view)
    assert current.turn.started_at == start and current.deadline == start + D


async def test_clocks_are_repaired_for_games_made_without_hooks(env: Env) -> None:
    """A timed game stored directly (as a tournament might) gets its clock on the next
    tick, counted from its creation."""
    created = env.clock.now()
    record = await env.repo.create_game(
        NewGame(
            game="groups",
            options={"start": "standard"},
            guild_id=GUILD,
            channel_id=CHANNEL,
            players=(ALICE.id, BOB.id),
            names=("alice", "bob"),
            created_at=created,
            time_control="1d",
        )
    )
    env.clock.advance(H)
    await env.services.scheduler.tick()
    clock = await env.repo.get_clock(record.id)
    assert clock is not None and clock.deadline == created + D
    env.clock.advance(D)
    await env.services.scheduler.tick()
    assert (await env.services.games.record(record.id)).result_reason == "alice ran out of time"


async def test_a_failing_announcement_stops_nothing(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """If telling the players fails, the game is still lost on time (stored first), the
    failure is logged, the other games due at the same tick are handled, and the post is
    tried again until it goes through."""
    first = await env.start(time_control="1d")
    second = await env.start(time_control="1d")
    announced = []
    down = True

    async def flaky(notice: TimeoutNotice, *, ticket: Ticket) -> int:
        if notice.view.id == first.id and down:
            raise RuntimeError("Discord is down")
        announced.append(notice.view.id)
        return 1

    env.notifier.timed_out = flaky  # type: ignore[method-assign]
    env.clock.advance(D)
    await env.services.scheduler.tick()
    for view in (first, second):
        assert (await env.services.games.record(view.id)).result_reason == NO_SHOW
    assert announced == [second.id]
    assert "(timeout, game:1) failed (attempt 1): RuntimeError: Discord is down" in caplog.text
    caplog.clear()  # the failure was the point of this test
    down = False
    env.clock.advance(M)
    await env.services.dispatcher.drain()
    assert announced == [second.id, first.id]
