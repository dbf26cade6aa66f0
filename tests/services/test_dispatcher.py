"""The dispatcher with an injected clock: retries and backoff, order per stream, parking,
the players told, and a restart taking back what an earlier run held."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services.announcing.announcements import MoveNotice, end_row
from bot.services.announcing.notify import Ticket
from bot.services.announcing.outbox import BACKOFF, MAX_ATTEMPTS, DeliveryRefused, Outbox
from bot.storage.repository import AnnouncementStatus
from tests.services.conftest import ALICE, BOB, Env

S = timedelta(seconds=1)


class Flaky:
    """Makes the recording notifier fail its next `failures` board posts (of one game)."""

    def __init__(
        self, env: Env, failures: int, error: Exception, game_id: int | None = None
    ) -> None:
        self.env = env
        self.failures = failures
        self.error = error
        self.game_id = game_id
        self.attempts: list[int] = []
        self._real = env.notifier.move_played
        env.notifier.move_played = self.move_played  # type: ignore[method-assign]

    async def move_played(self, notice: MoveNotice, *, ticket: Ticket) -> int:
        if self.game_id is not None and notice.view.id != self.game_id:
            return await self._real(notice, ticket=ticket)
        self.attempts.append(ticket.attempts)
        if self.failures:
            self.failures -= 1
            raise self.error
        return await self._real(notice, ticket=ticket)


async def statuses(env: Env) -> list[tuple[str, str, int]]:
    return [(a.kind, a.status.value, a.attempts) for a in await env.repo.list_announcements()]


async def test_a_failed_post_is_retried_after_its_backoff_and_keeps_its_games_order(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord fails twice: the board is tried again after 2 s, then 5 s (with at most a
    tenth more), and only then does the next move's board of that game go out; another
    game's posts are not held up meanwhile."""
    view = await env.start()
    other = await env.start()
    flaky = Flaky(env, 2, RuntimeError("503 Service Unavailable"), game_id=view.id)
    await env.services.games.play(view.id, ALICE.id, "d3-e2")
    await env.services.games.play(view.id, BOB.id, "e3-e1")
    await env.services.games.play(other.id, ALICE.id, "d3-e2")
    assert [n.view.id for n in env.notifier.moves] == [other.id]  # not held up by the first
    assert flaky.attempts == [1]
    env.clock.advance(BACKOFF[0] * S)
    await env.services.dispatcher.drain()
    assert flaky.attempts == [1]  # a tenth of the backoff may be added: not yet due
    env.clock.advance(BACKOFF[0] * S / 10)
    await env.services.dispatcher.drain()
    assert flaky.attempts == [1, 2]
    env.clock.advance(BACKOFF[1] * 1.1 * S)
    await env.services.dispatcher.drain()
    assert flaky.attempts == [1, 2, 3, 1]  # the first board at last, then the second
    assert [(n.view.id, n.move.ply) for n in env.notifier.moves] == [
        (other.id, 1),
        (view.id, 1),
        (view.id, 2),
    ]
    assert "failed (attempt 1): RuntimeError: 503 Service Unavailable; again in 2 s" in (
        caplog.text
    )
    assert all(status == "delivered" for _, status, _ in await statuses(env))


async def test_a_refused_post_is_parked_and_the_players_are_told(env: Env) -> None:
    """Discord refuses for good (a deleted channel): parked at once with the reason, both
    players told by direct message, and the game's later posts go on."""
    view = await env.start()
    Flaky(env, 1, DeliveryRefused("cannot post in <#7>: Unknown Channel"))
    await env.services.games.play(view.id, ALICE.id, "d3-e2")
    [parked] = await env.repo.list_announcements(status=AnnouncementStatus.PARKED)
    assert parked.kind == "move" and parked.error == "cannot post in <#7>: Unknown Channel"
    told = {(n.user_id, n.game_id, n.reason) for n in env.notifier.undelivered_dms}
    assert told == {
        (ALICE.id, view.id, "cannot post in <#7>: Unknown Channel"),
        (BOB.id, view.id, "cannot post in <#7>: Unknown Channel"),
    }
    await env.services.games.play(view.id, BOB.id, "e3-e1")
    assert [n.move.ply for n in env.notifier.moves] == [2]  # the next board is posted


async def test_a_post_failing_every_time_is_parked_after_its_last_attempt(env: Env) -> None:
    """Ten failures in a row (about half an hour of backoff): parked, never dropped."""
    view = await env.start()
    flaky = Flaky(env, 100, RuntimeError("502 Bad Gateway"))
    await env.services.games.play(view.id, ALICE.id, "d3-e2")
    for _ in range(MAX_ATTEMPTS):
        env.clock.advance(timedelta(minutes=20))
        await env.services.dispatcher.drain()
    assert flaky.attempts == list(range(1, MAX_ATTEMPTS + 1))
    [parked] = await env.repo.list_announcements(status=AnnouncementStatus.PARKED)
    assert parked.error == f"failed {MAX_ATTEMPTS} times; last: RuntimeError: 502 Bad Gateway"
    assert len(env.notifier.undelivered_dms) == 2


async def test_a_restart_takes_back_what_an_earlier_run_held_not_its_own(env: Env) -> None:
    """An announcement held by the process that was killed is delivered by the next run
    at once (not after its lease); one held by the running process for its own
    interaction stays with it."""
    view = await env.start()
    earlier = Outbox(env.repo, env.clock, owner="tabula")
    lease = env.clock.now() + timedelta(minutes=5)
    game = await env.services.games.view(view.id)
    (held_before,) = await env.repo.add_announcements(
        [end_row(game)], env.clock.now(), claimed_by=earlier.owner, lease_until=lease
    )
    outbox = env.services.outbox
    (held_now,) = await env.repo.add_announcements(
        [end_row(game)], env.clock.now(), claimed_by=outbox.owner, lease_until=lease
    )
    assert earlier.name == outbox.name and earlier.owner != outbox.owner
    assert await env.services.dispatcher.resume() == 1
    await env.services.dispatcher.drain()
    first = await env.repo.get_announcement(held_before.id)
    second = await env.repo.get_announcement(held_now.id)
    assert first is not None and first.status is AnnouncementStatus.DELIVERED
    assert second is not None and second.status is AnnouncementStatus.PENDING
