"""`NotificationService`: /settings, "your turn" messages, the digest, and /games.

- **Turn messages**: a direct message when it becomes the user's turn, if they asked
  for it and do not take the digest (the digest replaces them: no message per move).
- **Digest**: one direct message listing every game waiting for the user, sent when
  something waits and the previous digest is at least one period old; none while the
  user is on vacation.
- **Reminders** (sent by the clocks) go by direct message to users who accept them
  (turn messages or digest on), otherwise as a mention in the game's thread.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.services.announcing.announcements import digest_row, turn_dm_row
from bot.services.announcing.outbox import Outbox
from bot.services.clock import Clock
from bot.services.correspondence.clocks import ClockService, ClockStatus
from bot.services.durations import format_span, parse_duration
from bot.services.errors import InvalidInputError
from bot.services.games.games import GameService
from bot.services.views.alerts import DigestNotice, Waiting
from bot.services.views.results import GameView
from bot.storage.repository import GameRecord, NewAnnouncement, Repository, UserSettings

log = logging.getLogger(__name__)

MAX_REMINDERS = 4
MIN_REMINDER = timedelta(minutes=5)
MAX_REMINDER = timedelta(days=14)
MIN_DIGEST_PERIOD = timedelta(hours=1)
MAX_DIGEST_PERIOD = timedelta(days=7)
_NONE = ("none", "off", "no", "never")
_SEPARATORS = re.compile(r"[,;\s]+")


def parse_reminders(text: str) -> tuple[timedelta, ...]:
    """Reminder times like `24h,1h` (or `none`), longest first; `InvalidInputError` if bad."""
    cleaned = text.strip().lower()
    if cleaned in _NONE:
        return ()
    parts = [part for part in _SEPARATORS.split(cleaned) if part]
    if not parts:
        raise InvalidInputError("Write reminder times like 24h,1h (or none).")
    offsets = set()
    for part in parts:
        offset = parse_duration(part)
        if not MIN_REMINDER <= offset <= MAX_REMINDER:
            raise InvalidInputError(
                f"A reminder comes between {format_span(MIN_REMINDER)} and "
                f"{format_span(MAX_REMINDER)} before the deadline (got {part})."
            )
        offsets.add(offset)
    if len(offsets) > MAX_REMINDERS:
        raise InvalidInputError(f"At most {MAX_REMINDERS} reminder times, please.")
    return tuple(sorted(offsets, reverse=True))


def parse_switch(text: str, what: str) -> bool:
    """`on`/`off` (also yes/no, true/false); `InvalidInputError` otherwise."""
    cleaned = text.strip().lower()
    if cleaned in ("on", "yes", "true", "1"):
        return True
    if cleaned in ("off", "no", "false", "0"):
        return False
    raise InvalidInputError(f"{what} is on or off (got {text.strip()!r}).")


@dataclass(frozen=True, slots=True)
class GameLine:
    """One of the user's games in /games, with its clock."""

    record: GameRecord
    seat: int
    """The user's seat."""
    status: ClockStatus | None
    """None for a game without a clock."""

    @property
    def my_turn(self) -> bool:
        """True when the user is to move."""
        return self.record.to_move == self.seat

    @property
    def deadline(self) -> datetime | None:
        """When the player to move runs out of time."""
        return None if self.status is None else self.status.deadline

    @property
    def left(self) -> timedelta | None:
        """The time the player to move has left."""
        return None if self.status is None else self.status.left[self.status.seat]


def by_urgency(line: GameLine) -> tuple[bool, float, int]:
    """Sort key: the user's turn first, the nearest deadline first, untimed games last."""
    deadline = line.deadline
    return (
        not line.my_turn,
        math.inf if deadline is None else deadline.timestamp(),
        line.record.id,
    )


class NotificationService:
    """A user's notification settings, turn messages, digests and game list."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        games: GameService,
        clocks: ClockService,
        outbox: Outbox,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._games = games
        self._clocks = clocks
        self._outbox = outbox

    def attach(self) -> None:
        """Follow the games: tell players when it becomes their turn."""
        self._games.announcers.append(self.turn_rows)

    # --- settings ---

    async def settings(self, user_id: int) -> UserSettings:
        """The user's settings."""
        return await self._repository.get_user_settings(user_id)

    async def update(
        self,
        user_id: int,
        *,
        turn_dms: bool | None = None,
        reminders: str | None = None,
        digest: bool | None = None,
        digest_period: str | None = None,
    ) -> UserSettings:
        """Change the given settings (the others stay); return the new settings."""
        settings = await self.settings(user_id)
        changes: dict[str, object] = {}
        if turn_dms is not None:
            changes["dm_on_turn"] = turn_dms
        if reminders is not None:
            changes["reminders"] = parse_reminders(reminders)
        if digest is not None:
            changes["digest"] = digest
        if digest_period is not None:
            period = parse_duration(digest_period)
            if not MIN_DIGEST_PERIOD <= period <= MAX_DIGEST_PERIOD:
                raise InvalidInputError(
                    f"The digest period is between {format_span(MIN_DIGEST_PERIOD)} and "
                    f"{format_span(MAX_DIGEST_PERIOD)} (got {format_span(period)})."
                )
            changes["digest_period"] = period
        updated = replace(settings, **changes)  # type: ignore[arg-type]
        await self._repository.save_user_settings(updated, self._clock.now())
        if updated.reminders != settings.reminders:
            await self._clocks.reschedule_user(user_id)
        return updated

    # --- turn messages ---

    async def turn_rows(self, view: GameView, moves: str) -> list[NewAnnouncement]:
        """A completed turn (or a new game, with `moves` ""): a direct message to the
        player to move, if they asked for one; at the start, not to the player who just
        accepted the challenge."""
        user = view.to_move_id
        if user is None:
            return []
        record = view.record
        if not moves and record.challenge_id is not None:
            challenge = await self._repository.get_challenge(record.challenge_id)
            if challenge is not None and challenge.challenger_id != user:
                return []
        settings = await self.settings(user)
        if not settings.dm_on_turn or settings.digest:
            return []
        return [turn_dm_row(user, view, moves)]

    # --- the game list and the digest ---

    async def dashboard(self, user_id: int) -> list[GameLine]:
        """The user's active games, most urgent first (their turn, nearest deadline)."""
        return await self._lines(user_id, await self._repository.active_games(user_id=user_id))

    async def _lines(self, user_id: int, records: list[GameRecord]) -> list[GameLine]:
        """The user's games among `records` with their clocks, most urgent first."""
        lines = []
        for record in records:
            seat = record.seat_of(user_id)
            if seat is None:
                continue
            shown = record
            if record.to_move != seat:  # the opponent's turn under way is not shown, nor counted
                shown = (await self._games.public_view(record)).record
            lines.append(GameLine(shown, seat, await self._clocks.status(record)))
        return sorted(lines, key=by_urgency)

    async def next_games(self, user_id: int, after: int) -> list[Waiting]:
        """The other games waiting for the user's move once they completed a turn in game
        `after`, most urgent first (as /games orders them)."""
        records = [
            record
            for record in await self._repository.active_games(user_id=user_id)
            if record.id != after and record.players[record.to_move] == user_id
        ]
        return [
            Waiting(line.record, line.deadline, line.left)
            for line in await self._lines(user_id, records)
        ]

    async def waiting(self, user_id: int) -> list[Waiting]:
        """The games where it is the user's turn, most urgent first."""
        return [
            Waiting(line.record, line.deadline, line.left)
            for line in await self.dashboard(user_id)
            if line.my_turn
        ]

    async def send_digests(self) -> list[DigestNotice]:
        """Send each digest that is due: something waits and the last is a period old."""
        sent = []
        now = self._clock.now()
        for settings, last in await self._repository.digest_candidates():
            if last is not None and last + settings.digest_period > now:
                continue
            if await self._clocks.vacation_now(settings.user_id) is not None:
                continue  # away: their clocks stand still, and the digest waits for them
            games = await self.waiting(settings.user_id)
            if not games:
                continue
            notice = DigestNotice(settings.user_id, tuple(games))
            async with self._repository.atomic():
                if not await self._repository.claim_digest(settings.user_id, last, now):
                    continue  # another tick sent it
                listed = [(w.record.id, w.deadline, w.left) for w in games]
                await self._outbox.add([digest_row(settings.user_id, listed)])
            await self._outbox.committed()
            sent.append(notice)
        return sent
