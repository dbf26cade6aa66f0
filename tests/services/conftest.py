"""Fixtures for service tests: a database on each backend, a manual clock, a recorder."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.services.announcing.announcements import (
    AnswerNotice,
    EndNotice,
    MoveNotice,
    OfferNotice,
    ResumedNotice,
    StartNotice,
    SuspensionNotice,
    UndeliveredNotice,
    UndoNotice,
)
from bot.services.announcing.notify import Ticket
from bot.services.clock import ManualClock
from bot.services.container import Services
from bot.services.correspondence.clocks import ClockStatus
from bot.services.games.players import Player
from bot.services.views.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
)
from bot.services.views.conditional_notes import ClearedNotice
from bot.services.views.leagues import LeagueNews
from bot.services.views.results import GameView, MoveResult
from bot.services.views.tournaments import TournamentView
from bot.storage.competition import PairingRecord
from bot.storage.repository import ChallengeRecord
from bot.storage.sql import SqlRepository
from tests.databases import Backend

ALICE = Player(1, "alice")
BOB = Player(2, "bob")
CAROL = Player(3, "carol")
ROBOT = Player(9, "robot", is_bot=True)
GUILD = 500
CHANNEL = 600


@dataclass
class RecordingNotifier:
    """Keeps every announcement delivered, to check what the services told the players."""

    starts: list[StartNotice] = field(default_factory=list)
    moves: list[MoveNotice] = field(default_factory=list)
    finished: list[GameView] = field(default_factory=list)
    offers: list[OfferNotice] = field(default_factory=list)
    declines: list[AnswerNotice] = field(default_factory=list)
    undos: list[UndoNotice] = field(default_factory=list)
    expired: list[ChallengeRecord] = field(default_factory=list)
    challenges_gone: list[tuple[ChallengeRecord, int]] = field(default_factory=list)
    """(challenge, player told) for every challenge withdrawn with its channel."""
    turns: list[TurnNotice] = field(default_factory=list)
    reminders: list[ReminderNotice] = field(default_factory=list)
    timeouts: list[TimeoutNotice] = field(default_factory=list)
    timeout_dms: list[tuple[int, TimeoutNotice]] = field(default_factory=list)
    digests: list[DigestNotice] = field(default_factory=list)
    vacations: list[VacationNotice] = field(default_factory=list)
    undelivered_dms: list[UndeliveredNotice] = field(default_factory=list)
    cleared: list[ClearedNotice] = field(default_factory=list)
    """Direct messages telling players that their conditional moves were cleared."""
    replies: list[Mapping[str, Any]] = field(default_factory=list)
    """The reply handles of answerable announcements the dispatcher delivered."""
    rounds: list[tuple[int, int]] = field(default_factory=list)
    """(tournament, round) for every round announced."""
    aborted: list[GameView] = field(default_factory=list)
    tournaments_finished: list[TournamentView] = field(default_factory=list)
    cancelled: list[tuple[TournamentView, str]] = field(default_factory=list)
    sent: int = 0
    seed_decisions: list[tuple[int, PairingRecord]] = field(default_factory=list)
    """(tournament, the drawn last game) for every knockout match won on seeding."""

    @property
    def game_starts(self) -> list[tuple[int, PairingRecord, GameView]]:
        """(tournament, pairing, game) for every tournament game started."""
        return [
            (notice.tournament.id, notice.pairing, notice.view)
            for notice in self.starts
            if notice.tournament is not None and notice.pairing is not None
        ]

    tickets: list[Ticket] = field(default_factory=list)
    """Every delivery's ticket, in the order delivered."""
    league_posts: list[LeagueNews] = field(default_factory=list)
    """Every league announcement delivered."""
    resumed: list[ResumedNotice] = field(default_factory=list)
    """Suspended games that went on."""
    suspension_dms: list[SuspensionNotice] = field(default_factory=list)
    """Direct messages about suspended (or aborted) games."""
    places_deleted: list[tuple[int, int]] = field(default_factory=list)
    """(game, deleted thread or channel) for every game moved at once."""
    gone: set[int] = field(default_factory=set)
    """Servers the front end is no longer in (`server_gone`)."""
    refuse: dict[int, Exception] = field(default_factory=dict)
    """Game id → what delivering that game's board-like announcements raises (a test
    makes Discord refuse)."""
    refused: int = 0
    """How many deliveries `refuse` refused (each one a try Discord would have seen)."""

    def _id(self, ticket: Ticket) -> int:
        self.tickets.append(ticket)
        if ticket.reply is not None:
            self.replies.append(ticket.reply)
        self.sent += 1
        return self.sent

    async def game_started(self, notice: StartNotice, *, ticket: Ticket) -> int:
        self.starts.append(notice)
        return self._id(ticket)

    async def move_played(self, notice: MoveNotice, *, ticket: Ticket) -> int:
        self._refused(notice.view.id)
        self.moves.append(notice)
        return self._id(ticket)

    async def game_finished(self, notice: EndNotice, *, ticket: Ticket) -> int:
        self.finished.append(notice.view)
        return self._id(ticket)

    async def offer_made(self, notice: OfferNotice, *, ticket: Ticket) -> int:
        self._refused(notice.view.id)
        self.offers.append(notice)
        return self._id(ticket)

    async def offer_declined(self, notice: AnswerNotice, *, ticket: Ticket) -> int:
        self.declines.append(notice)
        return self._id(ticket)

    async def moves_taken_back(self, notice: UndoNotice, *, ticket: Ticket) -> int:
        self.undos.append(notice)
        return self._id(ticket)

    async def challenge_expired(self, challenge: ChallengeRecord, *, ticket: Ticket) -> int:
        self.expired.append(challenge)
        return self._id(ticket)

    async def challenge_gone(
        self, challenge: ChallengeRecord, user_id: int, *, ticket: Ticket
    ) -> int:
        self.challenges_gone.append((challenge, user_id))
        return self._id(ticket)

    async def turn_waiting(self, notice: TurnNotice, *, ticket: Ticket) -> int:
        self.turns.append(notice)
        return self._id(ticket)

    async def reminder(self, notice: ReminderNotice, *, ticket: Ticket) -> int:
        self._refused(notice.record.id)
        self.reminders.append(notice)
        return self._id(ticket)

    async def timed_out(self, notice: TimeoutNotice, *, ticket: Ticket) -> int:
        self._refused(notice.view.id)
        self.timeouts.append(notice)
        return self._id(ticket)

    async def timeout_dm(self, notice: TimeoutNotice, user_id: int, *, ticket: Ticket) -> int:
        self.timeout_dms.append((user_id, notice))
        return self._id(ticket)

    async def digest(self, notice: DigestNotice, *, ticket: Ticket) -> int:
        self.digests.append(notice)
        return self._id(ticket)

    async def vacation_changed(self, notice: VacationNotice, *, ticket: Ticket) -> int:
        self.vacations.append(notice)
        return self._id(ticket)

    async def vacation_dm(self, notice: VacationNotice, *, ticket: Ticket) -> int:
        self.vacations.append(notice)
        return self._id(ticket)

    async def undelivered(self, notice: UndeliveredNotice, *, ticket: Ticket) -> int:
        self.undelivered_dms.append(notice)
        return self._id(ticket)

    async def conditional_cleared(self, notice: ClearedNotice, *, ticket: Ticket) -> int:
        self.cleared.append(notice)
        return self._id(ticket)

    async def tournament_round_started(
        self, tournament: TournamentView, number: int, *, ticket: Ticket
    ) -> int:
        self.rounds.append((tournament.id, number))
        return self._id(ticket)

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView], *, ticket: Ticket
    ) -> int:
        self.aborted.extend(games)
        return self._id(ticket)

    async def tournament_finished(self, tournament: TournamentView, *, ticket: Ticket) -> int:
        self.tournaments_finished.append(tournament)
        return self._id(ticket)

    async def tournament_cancelled(
        self, tournament: TournamentView, reason: str, *, ticket: Ticket
    ) -> int:
        self.cancelled.append((tournament, reason))
        return self._id(ticket)

    async def league_news(self, news: LeagueNews, *, ticket: Ticket) -> int:
        self.league_posts.append(news)
        return self._id(ticket)

    async def tournament_seed_advanced(
        self, tournament: TournamentView, pairing: PairingRecord, *, ticket: Ticket
    ) -> int:
        self.seed_decisions.append((tournament.id, pairing))
        return self._id(ticket)

    async def game_resumed(self, notice: ResumedNotice, *, ticket: Ticket) -> int:
        self._refused(notice.view.id)
        self.resumed.append(notice)
        return self._id(ticket)

    async def place_deleted(self, view: GameView, deleted: int, *, ticket: Ticket) -> int:
        self.places_deleted.append((view.id, deleted))
        return self._id(ticket)

    async def games_suspended(self, notice: SuspensionNotice, *, ticket: Ticket) -> int:
        self.suspension_dms.append(notice)
        return self._id(ticket)

    async def server_gone(self, guild_id: int) -> bool:
        return guild_id in self.gone

    def _refused(self, game_id: int) -> None:
        refusal = self.refuse.get(game_id)
        if refusal is not None:
            self.refused += 1
            raise refusal


@dataclass
class Env:
    """Services over one database, with the clock and notifier they were given."""

    backend: Backend
    repo: SqlRepository
    clock: ManualClock
    notifier: RecordingNotifier
    services: Services

    async def restart(self) -> Env:
        """New services and a new connection over the same database (a bot restart)."""
        repo = await self.backend.open()
        notifier = RecordingNotifier()
        services = build(repo, self.clock, notifier)
        return Env(self.backend, repo, self.clock, notifier, services)

    async def start(
        self,
        game: str = "groups",
        options: dict[str, object] | None = None,
        colour: str = "white",
        time_control: str | None = None,
    ) -> GameView:
        """Alice challenges Bob (playing `colour`), Bob accepts: the new game."""
        challenge = await self.services.challenges.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ALICE,
            opponent=BOB,
            game=game,
            options=options,
            colour=colour,
            time_control=time_control,
        )
        accepted = await self.services.challenges.accept(challenge.id, BOB, guild_id=GUILD)
        return accepted.view


def build(repo: SqlRepository, clock: ManualClock, notifier: RecordingNotifier) -> Services:
    """The services, delivering their announcements as soon as they are committed."""
    return Services.build(repo, clock, notifier, rng=random.Random(7), deliver_inline=True)


@pytest.fixture
async def env(backend: Backend) -> Env:
    """Services over an empty database, on each backend (closed by `backend`)."""
    repo = await backend.open()
    clock = ManualClock()
    notifier = RecordingNotifier()
    return Env(backend, repo, clock, notifier, build(repo, clock, notifier))


@pytest.fixture
def no_logged_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Scheduled jobs log their failures instead of raising: fail the test on any."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def play_any(env: Env, game_id: int) -> MoveResult:
    """The player to move plays their first legal move (alphabetically)."""
    view = await env.services.games.view(game_id)
    user = view.to_move_id
    assert user is not None
    return await env.services.games.play(game_id, user, sorted(view.state.legal_notations())[0])


async def status(env: Env, view: GameView) -> ClockStatus:
    """The game's clock now (the game must have one)."""
    found = await env.services.clocks.status(await env.services.games.record(view.id))
    assert found is not None
    return found
