"""`Dispatcher`: delivers the outbox's announcements through the front end's `Notifier`.

It claims the first pending announcement of each stream (so a game's posts keep their
order), turns it back into the notice the front end words (`decode`), and delivers it.
Delivered: marked with the message's id. Refused (`DeliveryRefused`) or failed too often:
parked with the reason, and the players told by direct message (once per game until one
of its announcements gets through again). Refused because Tabula is no longer in the
server, or because a game has nowhere left to be posted: the server (or the game) is
suspended and the announcement waits for its return. Any other failure: tried again
after a backoff. Each process delivers what belongs to its shards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from bot.services.announcing import announcements as a
from bot.services.announcing.announcements import ANSWERABLE, LEAGUE_KINDS, Kind
from bot.services.announcing.notify import MessageId, Notifier, Ticket
from bot.services.announcing.outbox import (
    ATTEMPT_TIMEOUT,
    CLAIM_LEASE,
    MAX_ATTEMPTS,
    DeliveryRefused,
    NotYet,
    NowhereToPost,
    Outbox,
    Refusal,
    backoff,
)
from bot.services.clock import Clock
from bot.services.competition.leagues import LeagueService
from bot.services.competition.ratings import is_rateable
from bot.services.competition.tournaments import TournamentService
from bot.services.correspondence.clocks import ClockService
from bot.services.games.games import GameService
from bot.services.servers.suspensions import SuspensionService
from bot.services.views.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
    Waiting,
)
from bot.services.views.conditional_notes import ClearedNote, ClearedNotice
from bot.services.views.leagues import LeagueNews
from bot.services.views.results import GameView
from bot.storage.repository import (
    Announcement,
    AnnouncementStatus,
    GameRecord,
    GameStatus,
    Repository,
    ShardFilter,
)
from bot.storage.suspensions import SuspensionReason
from rules import get_game

log = logging.getLogger(__name__)

Answerable = a.MoveNotice | a.EndNotice | a.OfferNotice | a.AnswerNotice | a.UndoNotice
"""The notices of the announcements an interaction may answer itself."""

POLL_SECONDS = 1.0
"""How often the dispatcher looks for work when nobody wakes it."""
BATCH = 16
"""Announcements claimed at once (each of a different stream)."""
RATING_WAIT = timedelta(seconds=30)
"""How long the result of a rated game waits for its rating changes (stored just after
the result) so that it can show them; after that it goes without."""
NOT_YET_DELAY = timedelta(seconds=1)


class Dispatcher:
    """Delivers announcements: in order per stream, with retries, exactly once."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        outbox: Outbox,
        notifier: Notifier,
        *,
        games: GameService,
        clocks: ClockService,
        tournaments: TournamentService,
        leagues: LeagueService | None = None,
        suspensions: SuspensionService | None = None,
        shards: ShardFilter | None = None,
        concurrency: int = 8,
        rng: random.Random | None = None,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._outbox = outbox
        self._notifier = notifier
        self._games = games
        self._clocks = clocks
        self._tournaments = tournaments
        self._leagues = leagues
        self._suspensions = suspensions
        self.shards = shards
        """The shards whose servers this process delivers to (None: every server)."""
        self._slots = asyncio.Semaphore(concurrency)
        self._rng = rng or random.Random()
        self._wake = outbox.listen()
        self._stopping = asyncio.Event()
        self._running: set[asyncio.Task[None]] = set()

    @property
    def owner(self) -> str:
        """Who holds the announcements this process is delivering."""
        return self._outbox.owner

    # --- running ---

    async def resume(self) -> int:
        """After a restart: what this process held when it stopped is pending again."""
        released = await self._repository.release_announcements(
            self._outbox.name, self.owner, self._clock.now()
        )
        if released:
            log.info("resuming %d announcement(s) held when the bot stopped", released)
        return released

    async def run_forever(self) -> None:
        """Deliver until `stop()`: whenever woken, and every `POLL_SECONDS` anyway."""
        while not self._stopping.is_set():
            self._wake.clear()
            try:
                found = await self.run_once()
            except Exception:
                log.exception("the announcement dispatcher failed; trying again")
                found = 0
            if found:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
        await self._finish_running()

    def stop(self) -> None:
        """End `run_forever` once the deliveries in progress are done."""
        self._stopping.set()
        self._wake.set()

    async def run_once(self) -> int:
        """Claim what is due now and deliver it; how many announcements were claimed."""
        now = self._clock.now()
        claimed = await self._repository.claim_announcements(
            now, self.owner, now + CLAIM_LEASE, limit=BATCH, shards=self.shards
        )
        if claimed:
            await asyncio.gather(*(self._guarded(row) for row in claimed))
        return len(claimed)

    async def drain(self, rounds: int = 100) -> int:
        """Deliver until nothing is due (the console after each command, tests)."""
        total = 0
        for _ in range(rounds):
            found = await self.run_once()
            total += found
            if not found:
                break
        return total

    async def deliver_now(self, announcement_id: int, *, wait: float = 5.0) -> bool:
        """Deliver one announcement at once, if it is the next of its stream; when another
        delivery holds it (the dispatcher woke first), wait up to `wait` seconds for that
        one. True when it is delivered (or given up on)."""
        now = self._clock.now()
        row = await self._repository.claim_announcement(
            announcement_id, now, self.owner, now + CLAIM_LEASE
        )
        if row is not None:
            await self._guarded(row)
            return True
        deadline = asyncio.get_running_loop().time() + wait
        while asyncio.get_running_loop().time() < deadline:
            stored = await self._repository.get_announcement(announcement_id)
            if stored is None or stored.status is not AnnouncementStatus.PENDING:
                return stored is not None
            if await self._held(stored):
                return False  # it waits for the suspension of its server (or game) to end
            await asyncio.sleep(0.05)
        return False

    async def _held(self, row: Announcement) -> bool:
        """True while a suspension holds the announcement back."""
        if row.guild_id is None:
            return False
        return await self._repository.suspension_of(row.guild_id, row.game_id) is not None

    async def _finish_running(self) -> None:
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def _guarded(self, row: Announcement) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        try:
            async with self._slots:
                await self._deliver(row)
        except Exception:
            log.exception("delivering announcement %s (%s) failed", row.id, row.kind)
        finally:
            if task is not None:
                self._running.discard(task)

    async def _deliver(self, row: Announcement) -> None:
        try:
            message_id = await asyncio.wait_for(self.send(row), ATTEMPT_TIMEOUT)
        except DeliveryRefused as refusal:
            if not await self._suspend_for(row, refusal):
                await self._park(row, str(refusal), refusal.kind)
            return
        except NotYet as wait:
            await self._repository.retry_announcement(
                row.id, self._clock.now() + NOT_YET_DELAY, str(wait), failed=False
            )
            return
        except Exception as error:
            reason = f"{type(error).__name__}: {error}"
            if row.attempts >= MAX_ATTEMPTS:
                await self._park(row, f"failed {row.attempts} times; last: {reason}")
                return
            delay = backoff(row.attempts, self._rng)
            log.warning(
                "announcement %s (%s, %s) failed (attempt %d): %s; again in %.0f s",
                row.id,
                row.kind,
                row.stream,
                row.attempts,
                reason,
                delay.total_seconds(),
            )
            await self._repository.retry_announcement(row.id, self._clock.now() + delay, reason)
            return
        await self._repository.deliver_announcement(row.id, message_id, self._clock.now())

    async def _suspend_for(self, row: Announcement, refusal: DeliveryRefused) -> bool:
        """When the refusal means Tabula is no longer in the server (or a game has nowhere
        left to go), suspend the server (or the game) and give the announcement back: it
        waits, held, for the suspension to end. False for any other refusal."""
        suspensions = self._suspensions
        if suspensions is None or row.guild_id is None:
            return False
        # A server deleted (or left) while the bot was away shows as missing access or
        # as channels gone: if the bot no longer has the server, that is what happened.
        lost = refusal.kind in (Refusal.NO_ACCESS, Refusal.GONE)
        if lost and await self._notifier.server_gone(row.guild_id):
            await suspensions.suspend_server(row.guild_id)
        elif isinstance(refusal, NowhereToPost) and row.game_id is not None:
            if await suspensions.suspend_game(row.game_id) is None:
                return False  # the game is over: nothing to suspend, the post is given up
        else:
            return False
        log.info("announcement %s (%s) waits for its suspension to end", row.id, row.kind)
        await self._repository.retry_announcement(
            row.id, self._clock.now(), str(refusal), failed=False
        )
        self._outbox.wake()
        return True

    async def _park(self, row: Announcement, reason: str, kind: str = Refusal.OTHER) -> None:
        """Give up on `row`, keep why, and tell its players by direct message."""
        log.warning("announcement %s (%s, %s) parked: %s", row.id, row.kind, row.stream, reason)
        async with self._repository.atomic():
            if not await self._repository.park_announcement(row.id, reason, self._clock.now()):
                return
            told = await self._tell_about(row, reason, kind)
            if told:
                await self._outbox.add(told)
        self._outbox.wake()

    async def _tell_about(self, row: Announcement, reason: str, kind: str) -> list[Any]:
        """Direct messages to the players an undelivered announcement was for; none when
        the game's announcement before it was given up too (they were told then: one
        notice for a locked thread, not one per announcement)."""
        if row.kind == Kind.UNDELIVERED or row.stream.startswith("user:"):
            return []  # a direct message failed: another would fail the same way
        if row.game_id is not None:
            before = await self._repository.last_outcome(row.game_id, row.id)
            if before is AnnouncementStatus.PARKED:
                return []
        users: list[int] = []
        if row.game_id is not None:
            record = await self._repository.get_game(row.game_id)
            if record is not None:
                users = [user for user in record.players if user is not None]
        elif "tournament" in row.data:
            tournament = await self._repository.get_tournament(row.data["tournament"])
            if tournament is not None:
                users = [tournament.organiser_id]
        elif "league" in row.data:
            league = await self._repository.get_league(row.data["league"])
            if league is not None:
                users = [league.organiser_id]
        location = row.data.get("location")
        return [a.undelivered_row(user, location, row.game_id, reason, kind) for user in users]

    # --- decoding and sending ---

    async def send(self, row: Announcement) -> MessageId:
        """Turn `row` back into its notice and hand it to the front end."""
        kind = Kind(row.kind)
        ticket = Ticket(row.id, row.attempts, row.attempted_at, row.reply)
        if kind in ANSWERABLE:
            return await self._send_answerable(await self.decode(row), ticket)
        return await self._send_other(kind, row, ticket)

    async def decode(self, row: Announcement) -> Answerable:
        """The notice of an announcement an interaction may answer (MOVE, END, OFFER,
        ANSWER, UNDO): what the front end words, here or as the interaction's answer."""
        kind = Kind(row.kind)
        data = row.data
        if kind is Kind.MOVE:
            view = await self._position(row)
            moves = a.moves_from(view.id, data["moves"])
            return a.MoveNotice(view, moves, data["lapsed"], data["conditional"])
        if kind is Kind.END:
            return a.EndNotice(await self._position(row))
        if kind is Kind.OFFER:
            view = await self._current(row.game_id)
            return a.OfferNotice(view, data["what"], data["seat"], data["at"], data["notation"])
        if kind is Kind.ANSWER:
            view = await self._current(row.game_id)
            return a.AnswerNotice(
                view, data["what"], data["seat"], data["notation"], data["by_computer"]
            )
        if kind is Kind.UNDO:
            return a.UndoNotice(
                await self._position(row), data["seat"], data["notation"], data["by_computer"]
            )
        raise ValueError(f"announcement {row.id} ({row.kind}) is not one an interaction answers")

    async def _send_answerable(self, notice: Answerable, ticket: Ticket) -> MessageId:
        notifier = self._notifier
        if isinstance(notice, a.MoveNotice):
            return await notifier.move_played(notice, ticket=ticket)
        if isinstance(notice, a.EndNotice):
            return await notifier.game_finished(notice, ticket=ticket)
        if isinstance(notice, a.OfferNotice):
            return await notifier.offer_made(notice, ticket=ticket)
        if isinstance(notice, a.AnswerNotice):
            return await notifier.offer_declined(notice, ticket=ticket)
        return await notifier.moves_taken_back(notice, ticket=ticket)

    async def _send_other(self, kind: Kind, row: Announcement, ticket: Ticket) -> MessageId:
        data = row.data
        notifier = self._notifier
        if kind is Kind.START:
            return await notifier.game_started(await self._start_notice(row), ticket=ticket)
        if kind is Kind.TIMEOUT:
            deadline = _required_time(data["deadline"])
            timeout = TimeoutNotice(await self._position(row), data["seat"], deadline, ())
            return await notifier.timed_out(timeout, ticket=ticket)
        if kind is Kind.REMINDER:
            record = await self._record(row.game_id)
            reminder = ReminderNotice(
                data["user"],
                record,
                data["seat"],
                timedelta(seconds=data["left"]),
                _required_time(data["deadline"]),
                data["by_dm"],
            )
            return await notifier.reminder(reminder, ticket=ticket)
        if kind is Kind.VACATION:
            games = (await self._record(row.game_id),)
            vacation = VacationNotice(
                data["user"], a.vacation_from(data["vacation"]), data["started"], games, False
            )
            return await notifier.vacation_changed(vacation, ticket=ticket)
        if kind is Kind.VACATION_DM:
            found = [await self._repository.get_game(game_id) for game_id in data["games"]]
            records = tuple(record for record in found if record is not None)
            vacation = VacationNotice(
                data["user"], a.vacation_from(data["vacation"]), data["started"], records, True
            )
            return await notifier.vacation_dm(vacation, ticket=ticket)
        if kind is Kind.TURN_DM:
            return await self._turn_dm(data, ticket)
        if kind is Kind.TIMEOUT_DM:
            view = await self._current(data["game"])
            timeout = TimeoutNotice(
                view, data["seat"], _required_time(data["deadline"]), (data["user"],)
            )
            return await notifier.timeout_dm(timeout, data["user"], ticket=ticket)
        if kind is Kind.DIGEST:
            return await self._digest(data, ticket)
        if kind is Kind.CONDITIONAL_DM:
            note = ClearedNote.from_data(data)
            cleared = ClearedNotice(note, await self._record(note.game_id))
            return await notifier.conditional_cleared(cleared, ticket=ticket)
        if kind is Kind.UNDELIVERED:
            notice = a.UndeliveredNotice(
                data["user"], data["location"], data["game"], data["reason"], data.get("kind", "")
            )
            return await notifier.undelivered(notice, ticket=ticket)
        if kind is Kind.PLACE_DELETED:
            view = await self._current(row.game_id)
            return await notifier.place_deleted(view, data["deleted"], ticket=ticket)
        if kind is Kind.RESUMED:
            resumed = a.ResumedNotice(
                await self._current(row.game_id),
                SuspensionReason(data["reason"]),
                timedelta(seconds=data["lasted"]),
            )
            return await notifier.game_resumed(resumed, ticket=ticket)
        if kind is Kind.SUSPENSION_DM:
            found = [await self._repository.get_game(game_id) for game_id in data["games"]]
            suspended = a.SuspensionNotice(
                data["user"],
                tuple(record for record in found if record is not None),
                SuspensionReason(data["reason"]),
                data["aborted"],
                a.parse_time(data["until"]),
            )
            return await notifier.games_suspended(suspended, ticket=ticket)
        if kind is Kind.CHALLENGE_EXPIRED:
            challenge = await self._repository.get_challenge(data["challenge"])
            if challenge is None:
                raise DeliveryRefused(f"challenge {data['challenge']} no longer exists")
            return await notifier.challenge_expired(challenge, ticket=ticket)
        if kind is Kind.CHALLENGE_GONE_DM:
            challenge = await self._repository.get_challenge(data["challenge"])
            if challenge is None:
                raise DeliveryRefused(f"challenge {data['challenge']} no longer exists")
            return await notifier.challenge_gone(challenge, data["user"], ticket=ticket)
        if kind in LEAGUE_KINDS:
            return await self._send_league(kind, row, ticket)
        return await self._send_tournament(kind, row, ticket)

    async def _send_league(self, kind: Kind, row: Announcement, ticket: Ticket) -> MessageId:
        if self._leagues is None:
            raise DeliveryRefused("this process runs no leagues")
        data = row.data
        league = await self._leagues.view(data["league"], data.get("season"))
        aborted = []
        for game_id in data.get("aborted", ()):
            found = await self._repository.get_game(game_id)
            if found is not None:
                aborted.append(await self._games.view_of(found))
        news = LeagueNews(kind.value, league, data, tuple(aborted))
        return await self._notifier.league_news(news, ticket=ticket)

    async def _send_tournament(self, kind: Kind, row: Announcement, ticket: Ticket) -> MessageId:
        data = row.data
        tournament = await self._tournaments.view(data["tournament"])
        notifier = self._notifier
        if kind is Kind.ROUND:
            return await notifier.tournament_round_started(tournament, data["round"], ticket=ticket)
        if kind is Kind.ROUND_ABORTED:
            games = [await self._current(game_id) for game_id in data["games"]]
            return await notifier.tournament_games_aborted(tournament, games, ticket=ticket)
        if kind is Kind.SEED_ADVANCED:
            pairing = next((p for p in tournament.pairings if p.id == data["pairing"]), None)
            if pairing is None:
                raise DeliveryRefused(f"pairing {data['pairing']} no longer exists")
            return await notifier.tournament_seed_advanced(tournament, pairing, ticket=ticket)
        if kind is Kind.TOURNAMENT_FINISHED:
            return await notifier.tournament_finished(tournament, ticket=ticket)
        if kind is Kind.TOURNAMENT_CANCELLED:
            return await notifier.tournament_cancelled(tournament, data["reason"], ticket=ticket)
        raise DeliveryRefused(f"unknown announcement kind {row.kind!r}")

    async def _digest(self, data: Mapping[str, Any], ticket: Ticket) -> MessageId:
        waiting = []
        for game_id, deadline, left in data["games"]:
            found = await self._repository.get_game(game_id)
            if found is not None:
                left_time = None if left is None else timedelta(seconds=left)
                waiting.append(Waiting(found, a.parse_time(deadline), left_time))
        if not waiting:
            return None
        notice = DigestNotice(data["user"], tuple(waiting))
        return await self._notifier.digest(notice, ticket=ticket)

    async def _record(self, game_id: int | None) -> GameRecord:
        record = None if game_id is None else await self._repository.get_game(game_id)
        if record is None:
            raise DeliveryRefused(f"game {game_id} no longer exists")
        return record

    async def _current(self, game_id: int | None) -> GameView:
        """The game as it is now, as everyone may see it (for announcements that show no
        board): a multi-move turn under way is not shown yet."""
        record = await self._record(game_id)
        return await self._games.public_view(record)

    async def _position(self, row: Announcement) -> GameView:
        """The game as it stood when the announcement was written (its stored position),
        with the rating changes of a rated game that ended there."""
        record = a.position_record(await self._record(row.game_id), row.data)
        state = get_game(record.game).decode(row.data["state"])
        changes: tuple[Any, ...] = ()
        if is_rateable(record):
            changes = tuple(await self._repository.rating_changes(record.id))
            written = row.created_at or self._clock.now()
            if not changes and self._clock.now() - written < RATING_WAIT:
                raise NotYet("waiting for the game's rating changes")
        return GameView(record, state, changes)

    async def _start_notice(self, row: Announcement) -> a.StartNotice:
        record = await self._record(row.game_id)
        rules = get_game(record.game)
        state = rules.initial_state(rules.validate_options(record.options))
        start = record.evolve(
            ply=0,
            to_move=state.to_move,
            status=GameStatus.ACTIVE,
            winner=None,
            result_reason=None,
            draw_offer=None,
            undo_request=None,
        )
        view = GameView(start, state)
        tournament_id = row.data.get("tournament")
        if tournament_id is None:
            return a.StartNotice(view)
        tournament = await self._tournaments.view(tournament_id)
        pairing = next((p for p in tournament.pairings if p.id == row.data["pairing"]), None)
        return a.StartNotice(view, tournament, pairing)

    async def _turn_dm(self, data: Mapping[str, Any], ticket: Ticket) -> MessageId:
        record = await self._record(data["game"])
        if not record.is_active or record.ply != data["at"]:
            return None  # the turn is over (or taken back): the message would be stale
        view = await self._games.view_of(record)
        status = await self._clocks.status(record)
        deadline = None if status is None else status.deadline
        notice = TurnNotice(data["user"], view, data["moves"], deadline)
        return await self._notifier.turn_waiting(notice, ticket=ticket)


def _required_time(text: str) -> datetime:
    moment = a.parse_time(text)
    assert moment is not None
    return moment
