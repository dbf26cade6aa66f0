"""Vacations: pausing clocks, the yearly allowance, ending early and by themselves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.services.correspondence.vacations import latest_end, used_in_year
from bot.services.errors import InvalidInputError, InvalidStateError
from bot.storage.repository import Vacation
from tests.services.conftest import ALICE, BOB, Env, play_any, status

pytestmark = pytest.mark.usefixtures("no_logged_errors")

H = timedelta(hours=1)
D = timedelta(days=1)


def vacation(start: datetime, length: timedelta, ended: datetime | None = None) -> Vacation:
    return Vacation(1, ALICE.id, start, start + length, ended)


def test_used_in_year_counts_partial_days_and_splits_at_new_year() -> None:
    """36 hours use a day and a half; a vacation across New Year counts in both years."""
    june = datetime(2025, 6, 1, tzinfo=UTC)
    december = datetime(2025, 12, 31, 12, tzinfo=UTC)
    taken = [vacation(june, 36 * H), vacation(december, 2 * D)]
    assert used_in_year(taken, 2025) == 36 * H + 12 * H
    assert used_in_year(taken, 2026) == D + 12 * H
    ended_early = [vacation(june, 10 * D, ended=june + 2 * D)]
    assert used_in_year(ended_early, 2025) == 2 * D


def test_latest_end_within_and_across_years() -> None:
    """The allowance caps a vacation in its year; across New Year the next year's starts."""
    allowance = 30 * D
    june = datetime(2025, 6, 1, tzinfo=UTC)
    used = [vacation(datetime(2025, 2, 1, tzinfo=UTC), 25 * D)]
    assert latest_end(june, allowance, used, None) == june + 5 * D
    assert latest_end(june, allowance, used, 2 * D) == june + 2 * D
    late = datetime(2025, 12, 29, tzinfo=UTC)
    assert latest_end(late, allowance, used, None) == datetime(2026, 1, 31, tzinfo=UTC)
    assert latest_end(late, allowance, used, 4 * D) == late + 4 * D
    spent = [vacation(datetime(2025, 2, 1, tzinfo=UTC), 30 * D)]
    assert latest_end(june, allowance, spent, None) == june


async def test_vacation_pauses_the_clock_while_it_is_the_players_turn(env: Env) -> None:
    """Bob on vacation for 2 days in his turn: his deadline moves 2 days later; alice's
    clock (in her turns) is not paused by his vacation."""
    view = await env.start(time_control="3d")
    await play_any(env, view.id)  # bob's turn from now: 3 days
    start = env.clock.now()
    env.clock.advance(D)
    change = await env.services.vacations.start(BOB.id, "2d")
    assert change.vacation.ends_at == env.clock.now() + 2 * D and not change.shortened
    paused = await status(env, view)
    assert paused.paused and paused.away[1] == change.vacation
    assert paused.deadline == start + 5 * D and paused.left[1] == 2 * D
    env.clock.advance(D)
    assert (await status(env, view)).left[1] == 2 * D  # standing still
    env.clock.advance(D)
    await env.services.scheduler.tick()  # the vacation ends by itself
    assert (await status(env, view)).left[1] == 2 * D
    assert not (await status(env, view)).paused
    env.clock.advance(2 * D)
    await env.services.scheduler.tick()
    assert (
        await env.services.games.record(view.id)
    ).result_reason == "bob ran out of time without moving: not rated"


async def test_a_vacation_during_the_opponents_turn_changes_nothing_until_ones_turn(
    env: Env,
) -> None:
    """Bob goes away in alice's turn: her deadline stands; his turn starts paused."""
    view = await env.start(time_control="1d")
    await env.services.vacations.start(BOB.id, "3d")
    assert (await status(env, view)).deadline == env.clock.now() + D
    env.clock.advance(H)
    await play_any(env, view.id)
    bob = await status(env, view)
    assert bob.paused and bob.deadline == env.clock.now() - H + 3 * D + D


async def test_ending_early_gives_the_time_back_and_restarts_the_clock(env: Env) -> None:
    """/vacation end: the clock runs from now, and the unused days return to the year."""
    view = await env.start(time_control="1d")
    start = env.clock.now()
    await env.services.vacations.start(ALICE.id, "10d")
    env.clock.advance(2 * D)
    change = await env.services.vacations.end(ALICE.id)
    assert change.vacation.end == env.clock.now()
    assert change.status.used == 2 * D and change.status.left == 28 * D
    assert (await status(env, view)).deadline == start + 3 * D
    [started, ended] = env.notifier.vacations
    assert started.started and not ended.started and not ended.dm
    assert [g.id for g in ended.games] == [view.id]


async def test_the_allowance_limits_vacations(env: Env) -> None:
    """Asking for more than is left gives what is left, said so; then none is left."""
    first = await env.services.vacations.start(ALICE.id, "45d")
    assert first.shortened and first.vacation.end - first.vacation.started_at == 30 * D
    env.clock.advance(31 * D)
    await env.services.scheduler.tick()
    with pytest.raises(
        InvalidStateError, match="You have none of your 30d of vacation left in 2025"
    ):
        await env.services.vacations.start(ALICE.id)
    status_now = await env.services.vacations.status(ALICE.id)
    assert status_now.vacation is None and status_now.left == timedelta()


async def test_allowance_is_configurable(env: Env) -> None:
    """An operator may allow another number of days per year."""
    env.services.vacations.allowance = 5 * D
    change = await env.services.vacations.start(ALICE.id)
    assert change.vacation.ends_at == env.clock.now() + 5 * D


@pytest.mark.parametrize(
    ("length", "error", "message"),
    [
        ("10m", InvalidInputError, "A vacation lasts at least 1h"),
        ("soon", InvalidInputError, "'soon' is not a duration"),
    ],
)
async def test_bad_vacation_requests(env: Env, length, error, message) -> None:
    """Too short or unreadable: a clear message and no vacation."""
    with pytest.raises(error, match=message):
        await env.services.vacations.start(ALICE.id, length)
    assert (await env.services.vacations.status(ALICE.id)).vacation is None


async def test_one_vacation_at_a_time(env: Env) -> None:
    """Starting twice or ending when not away is refused."""
    with pytest.raises(InvalidStateError, match="You are not on vacation"):
        await env.services.vacations.end(ALICE.id)
    await env.services.vacations.start(ALICE.id, "2d")
    with pytest.raises(InvalidStateError, match="already on vacation"):
        await env.services.vacations.start(ALICE.id, "1d")


async def test_a_vacation_ending_by_itself_is_announced(env: Env) -> None:
    """At its planned end the vacation closes; opponents are told, and the player too
    by direct message when they accept them."""
    await env.services.notifications.update(ALICE.id, turn_dms=True)
    view = await env.start(time_control="3d")
    await env.services.vacations.start(ALICE.id, "1d")
    env.clock.advance(D)
    await env.services.scheduler.tick()
    await env.services.scheduler.tick()
    [_, ended] = [notice for notice in env.notifier.vacations if not notice.dm]
    [dm] = [notice for notice in env.notifier.vacations if notice.dm]
    assert not ended.started and [g.id for g in ended.games] == [view.id]
    assert not dm.started and [g.id for g in dm.games] == [view.id]
    assert (await env.repo.open_vacation(ALICE.id)) is None


async def test_capped_increment_is_not_charged_for_vacation(env: Env) -> None:
    """The bank pays only for time outside the vacation."""
    view = await env.start(time_control="5d+1d max 6d")
    env.clock.advance(D)
    await env.services.vacations.start(ALICE.id, "2d")
    env.clock.advance(3 * D)
    await play_any(env, view.id)  # four days passed, two of them away: 5 - 2 + 1 = 4d
    assert (await status(env, view)).left[0] == 4 * D
