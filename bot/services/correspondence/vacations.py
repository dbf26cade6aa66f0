"""`VacationService`: /vacation start, end and status, within a yearly allowance.

A vacation pauses every clock of the player while it is their turn (their opponents'
clocks run as usual). The allowance (30 days unless configured) is per calendar year
in UTC and counted to the second: a vacation of 36 hours uses a day and a half. A
vacation crossing New Year counts each part in its own year. The time booked for a
running vacation counts until it ends; ending it early gives the rest back.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.services.announcing.announcements import vacation_rows
from bot.services.announcing.outbox import Outbox
from bot.services.clock import Clock
from bot.services.correspondence.clocks import ClockService
from bot.services.durations import format_span, parse_duration
from bot.services.errors import ConflictError, InvalidInputError, InvalidStateError
from bot.storage.repository import GameRecord, Repository, Vacation

log = logging.getLogger(__name__)

DEFAULT_ALLOWANCE = timedelta(days=30)
"""Vacation time per calendar year, unless the operator configures another."""
MIN_VACATION = timedelta(hours=1)
"""The shortest vacation that can be taken."""


def year_span(year: int) -> tuple[datetime, datetime]:
    """The calendar year in UTC: [1 January, next 1 January)."""
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def used_in_year(vacations: Sequence[Vacation], year: int) -> timedelta:
    """The vacation time that falls in `year` (a running one counts until its end)."""
    start, end = year_span(year)
    total = timedelta()
    for vacation in vacations:
        overlap = min(end, vacation.end) - max(start, vacation.started_at)
        if overlap > timedelta():
            total += overlap
    return total


def latest_end(
    start: datetime,
    allowance: timedelta,
    vacations: Sequence[Vacation],
    wanted: timedelta | None,
) -> datetime:
    """When a vacation starting at `start` must end: after `wanted` (None: as long as
    possible), or when the allowance of the year it is in runs out."""
    moment = start
    rest = wanted
    while rest is None or rest > timedelta():
        _, year_end = year_span(moment.year)
        free = allowance - used_in_year(vacations, moment.year)
        if free <= timedelta():
            break
        step = min(free, year_end - moment)
        if rest is not None:
            step = min(step, rest)
            rest -= step
        moment += step
        if moment < year_end:
            break
    return moment


@dataclass(frozen=True, slots=True)
class VacationStatus:
    """A user's vacation now and what is left of the year's allowance."""

    vacation: Vacation | None
    """The vacation the user is on, if any."""
    year: int
    used: timedelta
    """Vacation time used (or booked) this year."""
    allowance: timedelta

    @property
    def left(self) -> timedelta:
        """Vacation time still free this year."""
        return max(self.allowance - self.used, timedelta())


@dataclass(frozen=True, slots=True)
class VacationChange:
    """A vacation started or ended, and the games it concerns."""

    vacation: Vacation
    status: VacationStatus
    games: tuple[GameRecord, ...]
    """The user's active games (their opponents were told)."""
    shortened: bool = False
    """True when the length asked for did not fit in the allowance."""


class VacationService:
    """Starts and ends vacations; the scheduler ends those whose time is up."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        clocks: ClockService,
        outbox: Outbox,
        *,
        allowance: timedelta = DEFAULT_ALLOWANCE,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._clocks = clocks
        self._outbox = outbox
        self.allowance = allowance
        """Vacation time per calendar year."""

    async def status(self, user_id: int) -> VacationStatus:
        """The user's vacation now, and the year's allowance used and left."""
        now = self._clock.now()
        year_start, _ = year_span(now.year)
        vacations = await self._repository.vacations(user_id, year_start)
        current = next((v for v in vacations if v.ended_at is None and v.is_on(now)), None)
        return VacationStatus(current, now.year, used_in_year(vacations, now.year), self.allowance)

    async def start(self, user_id: int, length: str | None = None) -> VacationChange:
        """Go on vacation for `length` (like `5d`), or until ended or the allowance runs out."""
        await self.end_due()
        now = self._clock.now()
        wanted = parse_duration(length) if length and length.strip() else None
        if wanted is not None and wanted < MIN_VACATION:
            raise InvalidInputError(
                f"A vacation lasts at least {format_span(MIN_VACATION)} "
                f"(you asked for {format_span(wanted)})."
            )
        status = await self.status(user_id)
        if status.vacation is not None:
            raise InvalidStateError(
                "You are already on vacation; end it with /vacation end before starting another."
            )
        vacations = await self._repository.vacations(user_id, year_span(now.year)[0])
        end = latest_end(now, self.allowance, vacations, wanted)
        if end - now < MIN_VACATION:
            left = f"only {format_span(status.left, 2)}" if status.left > timedelta() else "none"
            raise InvalidStateError(
                f"You have {left} of your {format_span(self.allowance)} of vacation left "
                f"in {now.year}, and a vacation needs at least {format_span(MIN_VACATION)}. "
                "The allowance renews on 1 January."
            )
        async with self._repository.atomic():
            vacation = await self._repository.start_vacation(user_id, now, end)
            if vacation is not None:
                await self._tell(vacation, started=True, dm=False)
        if vacation is None:
            raise ConflictError("You went on vacation at the same moment elsewhere.")
        games = await self._reschedule(vacation)
        shortened = wanted is not None and end - now < wanted
        return VacationChange(vacation, await self.status(user_id), games, shortened)

    async def end(self, user_id: int) -> VacationChange:
        """Come back early: the user's clocks run again from now."""
        await self.end_due()
        status = await self.status(user_id)
        if status.vacation is None:
            raise InvalidStateError("You are not on vacation.")
        async with self._repository.atomic():
            ended = await self._repository.end_vacation(status.vacation.id, self._clock.now())
            if ended is not None:
                await self._tell(ended, started=False, dm=False)
        if ended is None:
            raise ConflictError("Your vacation ended at the same moment.")
        games = await self._reschedule(ended)
        return VacationChange(ended, await self.status(user_id), games)

    async def end_due(self) -> list[Vacation]:
        """Close every vacation whose planned end has come, and tell those concerned."""
        closed = []
        for vacation in await self._repository.due_vacations(self._clock.now()):
            settings = await self._repository.get_user_settings(vacation.user_id)
            async with self._repository.atomic():
                ended = await self._repository.end_vacation(vacation.id, vacation.ends_at)
                if ended is not None:
                    await self._tell(ended, started=False, dm=settings.wants_dms)
            if ended is None:
                continue
            await self._reschedule(ended)
            closed.append(ended)
        return closed

    async def _tell(self, vacation: Vacation, *, started: bool, dm: bool) -> None:
        """Store the news for the player's opponents, in each game (and for the player by
        direct message with `dm`), in the transaction that starts or ends the vacation."""
        games = await self._repository.active_games(user_id=vacation.user_id)
        await self._outbox.add(vacation_rows(vacation.user_id, vacation, started, games, dm))

    async def _reschedule(self, vacation: Vacation) -> tuple[GameRecord, ...]:
        """Recompute the user's clocks; return their games."""
        await self._outbox.committed()
        return tuple(await self._clocks.reschedule_user(vacation.user_id))
