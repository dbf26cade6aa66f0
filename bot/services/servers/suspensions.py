"""`SuspensionService`: games that stand still while Tabula cannot reach their players.

Two things suspend games:

- **Tabula removed from a server** (kicked, or the server deleted): every game there, with
  games against the computer, and every tournament and league of the server.
- **A game's channel deleted** with no game channel to move it to: that game alone.

While suspended nothing is decided: the clocks stand (no deadline, no reminder, no loss on
time), the computer does not move, nobody may act in the game, tournaments and leagues
neither pair nor start nor end, and what the players must be told waits in the outbox
(it is delivered, once, when the suspension ends). When Tabula is invited back (or a game
channel is named), the games go on with the time each clock had, their competitions' dates
put off by the time lost, and a line in each game says so. After `period` (a setting,
30 days by default) the games are aborted without a result (unrated) and the server's
tournaments and leagues cancelled, as a cancellation treats them; the suspension keeps how
it ended. Each process handles the suspensions of the servers on its shards.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.services.announcing.announcements import Kind, resumed_row, suspension_dm_row
from bot.services.announcing.outbox import Outbox
from bot.services.clock import Clock
from bot.services.competition.leagues import LeagueService
from bot.services.competition.tournaments import TournamentService
from bot.services.computer.computer import ComputerService
from bot.services.correspondence.clocks import ClockService
from bot.services.durations import format_span
from bot.services.errors import InvalidStateError
from bot.services.games.games import GameService
from bot.services.games.players import computer_seat
from bot.storage.competition import TournamentStatus
from bot.storage.leagues import LeagueStatus
from bot.storage.repository import (
    GameRecord,
    GameStatus,
    NewAnnouncement,
    Repository,
    ShardFilter,
)
from bot.storage.suspensions import Suspension, SuspensionOutcome, SuspensionReason

log = logging.getLogger(__name__)

DEFAULT_PERIOD = timedelta(days=30)
"""How long games stay suspended before they are aborted, unless the setting says otherwise."""


class SuspendedError(InvalidStateError):
    """The game is suspended: nobody may act in it until it goes on."""


def suspended_text(game_id: int, suspension: Suspension) -> str:
    """Why nothing can be done in a suspended game, and what makes it go on."""
    if suspension.reason is SuspensionReason.NO_CHANNEL:
        return (
            f"Game #{game_id} is suspended: its channel was deleted and this server names no "
            "game channel to move it to. Its clocks are stopped. A moderator can name one "
            "with /config add_channel, and the game goes on there."
        )
    return (
        f"Game #{game_id} is suspended: Tabula was removed from its server. Its clocks are "
        "stopped; it goes on if Tabula is invited back."
    )


class SuspensionService:
    """Suspends, resumes and, after their period, aborts games whose players Tabula
    cannot reach."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        *,
        games: GameService,
        clocks: ClockService,
        computer: ComputerService,
        tournaments: TournamentService,
        leagues: LeagueService,
        outbox: Outbox,
        period: timedelta = DEFAULT_PERIOD,
        shards: ShardFilter | None = None,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._games = games
        self._clocks = clocks
        self._computer = computer
        self._tournaments = tournaments
        self._leagues = leagues
        self._outbox = outbox
        self.period = period
        """How long a suspension lasts before its games are aborted."""
        self.shards = shards
        """The servers whose suspensions this process ends (None: every server)."""

    def attach(self) -> None:
        """Refuse every action in a suspended game."""
        self._games.action_guards.append(self.check)

    # --- reading ---

    async def of(self, record: GameRecord) -> Suspension | None:
        """The suspension holding the game now, if any."""
        if record.guild_id is None:
            return None
        return await self._repository.suspension_of(record.guild_id, record.id)

    async def check(self, record: GameRecord) -> None:
        """Refuse an action in a suspended game (`SuspendedError`, saying why)."""
        suspension = await self.of(record)
        if suspension is not None:
            raise SuspendedError(suspended_text(record.id, suspension))

    async def server_suspended(self, guild_id: int) -> bool:
        """True while Tabula counts as removed from the server."""
        return await self._repository.suspension_of(guild_id, None) is not None

    def deadline(self, suspension: Suspension) -> datetime:
        """When the suspension's games will be aborted unless they go on first."""
        return suspension.started_at + self.period

    # --- suspending ---

    async def suspend_server(self, guild_id: int) -> Suspension:
        """Tabula was removed from the server: suspend everything there (once; the
        suspension already open if there is one)."""
        now = self._clock.now()
        suspension = await self._repository.suspend(guild_id, None, SuspensionReason.REMOVED, now)
        if suspension is None:
            found = await self._repository.suspension_of(guild_id, None)
            assert found is not None
            return found
        games = await self._repository.active_games(guild_id=guild_id)
        log.warning(
            "Tabula was removed from server %s: its %d game(s) in progress are suspended",
            guild_id,
            len(games),
        )
        await self._stopped(suspension, games)
        return suspension

    async def suspend_game(self, game_id: int) -> Suspension | None:
        """The game's channel is gone with nowhere to move it: suspend the game (once; the
        suspension already holding it if there is one). None when it cannot be suspended
        (it is over, or not in a server)."""
        record = await self._repository.get_game(game_id)
        if record is None or not record.is_active or record.guild_id is None:
            return None
        now = self._clock.now()
        reason = SuspensionReason.NO_CHANNEL
        suspension = await self._repository.suspend(record.guild_id, game_id, reason, now)
        if suspension is None:
            return await self.of(record)
        log.warning("game %s has no channel left: suspended", game_id)
        await self._stopped(suspension, [record])
        return suspension

    async def _stopped(self, suspension: Suspension, games: Sequence[GameRecord]) -> None:
        """Take the deadlines and reminders off the games' clocks; tell the players (by
        direct message: they may share no other server with Tabula, then it fails)."""
        for record in games:
            await self._clocks.reschedule(record.id)
        rows = _direct_messages(
            games, suspension.reason, aborted=False, until=self.deadline(suspension)
        )
        if rows:
            async with self._repository.atomic():
                await self._outbox.add(rows)
            await self._outbox.committed()

    # --- going on ---

    async def resume_server(self, guild_id: int) -> list[GameRecord]:
        """Tabula is back in the server: what the removal suspended goes on. Returns the
        games that go on (none when the server was not suspended)."""
        suspension = await self._repository.suspension_of(guild_id, None)
        if suspension is None or suspension.game_id is not None:
            return []
        return await self._resume(suspension)

    async def resume_without_channel(self, guild_id: int) -> list[GameRecord]:
        """The server named a game channel: games suspended for want of a channel go on
        (their next post moves them there). Returns those games."""
        resumed = []
        for suspension in await self._repository.open_suspensions(guild_id):
            if suspension.reason is SuspensionReason.NO_CHANNEL:
                resumed += await self._resume(suspension)
        return resumed

    async def _resume(self, suspension: Suspension) -> list[GameRecord]:
        now = self._clock.now()
        lasted = now - suspension.started_at
        async with self._repository.atomic():
            games = await self._held_games(suspension)
            ended = await self._repository.end_suspension(
                suspension.id, SuspensionOutcome.RESUMED, now, len(games)
            )
            if ended is None:
                return []  # another process resumed it
            if suspension.game_id is None:
                await self._put_off_competitions(suspension.guild_id, suspension.started_at, lasted)
            else:
                # The board that resumes the game moves it and says why: the deletion's own
                # board, held until now, would show it twice.
                await self._repository.supersede_announcements(
                    suspension.game_id, Kind.PLACE_DELETED, now
                )
            await self._outbox.add([resumed_row(record, suspension, lasted) for record in games])
        log.info(
            "suspension %s of server %s ended after %s: %d game(s) go on",
            suspension.id,
            suspension.guild_id,
            format_span(lasted),
            len(games),
        )
        for record in games:
            await self._clocks.reschedule(record.id)
            if computer_seat(record) == record.to_move:
                self._computer.begin(record.id)
        await self._outbox.committed()
        return games

    async def _held_games(self, suspension: Suspension) -> list[GameRecord]:
        """The games in progress the suspension holds."""
        if suspension.game_id is None:
            return await self._repository.active_games(guild_id=suspension.guild_id)
        record = await self._repository.get_game(suspension.game_id)
        return [record] if record is not None and record.is_active else []

    async def _put_off_competitions(self, guild_id: int, since: datetime, by: timedelta) -> None:
        """Put off by `by` the server's competition dates that were still to come when the
        suspension began: entries closing, seasons starting and ending (inside the
        transaction ending the suspension, so this happens once)."""
        for tournament in await self._repository.list_tournaments(
            guild_id, (TournamentStatus.OPEN,)
        ):
            closes = tournament.entry_closes_at
            if closes is not None and closes > since:
                changed = tournament.evolve(entry_closes_at=closes + by, updated_at=since + by)
                await self._repository.update_tournament(changed)
        for league in await self._repository.list_leagues(
            guild_id, (LeagueStatus.OPEN, LeagueStatus.RUNNING)
        ):
            changes: dict[str, object] = {}
            if league.status is LeagueStatus.OPEN and league.starts_at > since:
                changes["starts_at"] = league.starts_at + by
            ends = league.ends_at
            if league.status is LeagueStatus.RUNNING and ends is not None and ends > since:
                changes["ends_at"] = ends + by
                await self._repository.set_season_end(league.id, league.season, ends + by)
            if changes:
                await self._repository.update_league(league.evolve(**changes))

    # --- running out ---

    async def expire_due(self) -> list[Suspension]:
        """The scheduler job: end the suspensions older than `period`, aborting their
        games (unrated) and, for a server, cancelling its tournaments and leagues."""
        now = self._clock.now()
        ended = []
        for suspension in await self._repository.open_suspensions():
            if now - suspension.started_at < self.period:
                continue
            if self.shards is not None and not self.shards.covers(suspension.guild_id):
                continue
            done = await self._expire(suspension)
            if done is not None:
                ended.append(done)
        return ended

    async def _expire(self, suspension: Suspension) -> Suspension | None:
        """Abort what the suspension holds, then record how it ended. Every step may run
        again after a crash: a cancelled competition or an aborted game stays so."""
        days = format_span(self.period)
        if suspension.reason is SuspensionReason.REMOVED:
            reason = f"Tabula was removed from this server and not invited back within {days}"
        else:
            reason = f"its channel was deleted and no game channel was named within {days}"
        games = await self._held_games(suspension)
        if suspension.game_id is None:
            guild_id = suspension.guild_id
            by = f"Tabula, removed from this server and not invited back within {days}"
            for tournament in await self._repository.list_tournaments(
                guild_id, (TournamentStatus.OPEN, TournamentStatus.RUNNING)
            ):
                await self._tournaments.cancel_for(tournament.id, reason)
            for league in await self._repository.list_leagues(
                guild_id, (LeagueStatus.OPEN, LeagueStatus.RUNNING)
            ):
                await self._leagues.cancel_for(league.id, by)
        aborted = []
        for record in games:
            await self._games.abort(record.id, f"aborted: {reason}")
            await self._clocks.sync(record.id)  # stopped where it stood
            current = await self._repository.get_game(record.id)
            if current is not None and current.status is GameStatus.ABORTED:
                aborted.append(current)  # by this, or by its competition's cancellation
        now = self._clock.now()
        async with self._repository.atomic():
            ended = await self._repository.end_suspension(
                suspension.id, SuspensionOutcome.ABORTED, now, len(aborted)
            )
            if ended is None:
                return None
            parked = await self._repository.park_held_announcements(
                suspension.guild_id, suspension.game_id, f"never delivered: {reason}", now
            )
            rows = _direct_messages(aborted, suspension.reason, aborted=True, until=None)
            await self._outbox.add(rows)
        log.warning(
            "suspension %s of server %s ran out: %d game(s) aborted, %d announcement(s) given up",
            suspension.id,
            suspension.guild_id,
            len(aborted),
            parked,
        )
        await self._outbox.committed()
        return ended


def _direct_messages(
    games: Sequence[GameRecord], reason: SuspensionReason, *, aborted: bool, until: datetime | None
) -> list[NewAnnouncement]:
    """One direct message per player, listing their games."""
    by_user: dict[int, list[GameRecord]] = defaultdict(list)
    for record in games:
        for user in record.players:
            if user is not None:
                by_user[user].append(record)
    return [
        suspension_dm_row(user, records, reason, aborted=aborted, until=until)
        for user, records in sorted(by_user.items())
    ]
