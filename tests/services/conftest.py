"""Fixtures for service tests: a database on each backend, a manual clock, a recorder."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pytest

from bot.services.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
)
from bot.services.clock import ManualClock
from bot.services.clocks import ClockStatus
from bot.services.container import Services
from bot.services.players import Player
from bot.services.results import GameView, MoveResult
from bot.services.tournament_views import TournamentView
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
    """Keeps every announcement, to check what the services told the players."""

    expired: list[ChallengeRecord] = field(default_factory=list)
    moves: list[MoveResult] = field(default_factory=list)
    finished: list[GameView] = field(default_factory=list)

    async def challenge_expired(self, challenge: ChallengeRecord) -> None:
        self.expired.append(challenge)

    async def move_played(self, result: MoveResult) -> None:
        self.moves.append(result)

    async def game_finished(self, view: GameView) -> None:
        self.finished.append(view)

    turns: list[TurnNotice] = field(default_factory=list)
    reminders: list[ReminderNotice] = field(default_factory=list)
    timeouts: list[TimeoutNotice] = field(default_factory=list)
    digests: list[DigestNotice] = field(default_factory=list)
    vacations: list[VacationNotice] = field(default_factory=list)

    async def turn_waiting(self, notice: TurnNotice) -> None:
        self.turns.append(notice)

    async def reminder(self, notice: ReminderNotice) -> None:
        self.reminders.append(notice)

    async def timed_out(self, notice: TimeoutNotice) -> None:
        self.timeouts.append(notice)

    async def digest(self, notice: DigestNotice) -> None:
        self.digests.append(notice)

    async def vacation_changed(self, notice: VacationNotice) -> None:
        self.vacations.append(notice)

    rounds: list[tuple[int, int]] = field(default_factory=list)
    """(tournament, round) for every round announced."""
    game_starts: list[tuple[int, PairingRecord, GameView]] = field(default_factory=list)
    aborted: list[GameView] = field(default_factory=list)
    tournaments_finished: list[TournamentView] = field(default_factory=list)
    cancelled: list[tuple[TournamentView, str]] = field(default_factory=list)

    async def tournament_round_started(self, tournament: TournamentView, number: int) -> None:
        self.rounds.append((tournament.id, number))

    async def tournament_game_started(
        self, tournament: TournamentView, pairing: PairingRecord, game: GameView
    ) -> None:
        self.game_starts.append((tournament.id, pairing, game))

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView]
    ) -> None:
        self.aborted.extend(games)

    async def tournament_finished(self, tournament: TournamentView) -> None:
        self.tournaments_finished.append(tournament)

    async def tournament_cancelled(self, tournament: TournamentView, reason: str) -> None:
        self.cancelled.append((tournament, reason))


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
        services = Services.build(repo, self.clock, notifier, rng=random.Random(7))
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


@pytest.fixture
async def env(backend: Backend) -> Env:
    """Services over an empty database, on each backend (closed by `backend`)."""
    repo = await backend.open()
    clock = ManualClock()
    notifier = RecordingNotifier()
    services = Services.build(repo, clock, notifier, rng=random.Random(7))
    return Env(backend, repo, clock, notifier, services)


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
