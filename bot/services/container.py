"""`Services`: every service wired to one repository, clock and notifier."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import timedelta

from bot.ai import DEFAULT_SECONDS
from bot.services.background import Background
from bot.services.challenges import ChallengeService
from bot.services.clock import Clock
from bot.services.clocks import ClockService
from bot.services.computer import COMPUTER_NAME, ComputerService
from bot.services.computer_runner import TurnRunner
from bot.services.games import GameService
from bot.services.gate import Gate
from bot.services.notifications import NotificationService
from bot.services.notify import Notifier, NullNotifier, TournamentNotifier
from bot.services.ratings import RatingService
from bot.services.records import RecordService
from bot.services.scheduler import Scheduler
from bot.services.settings import SettingsService
from bot.services.tournaments import TournamentService
from bot.services.vacations import DEFAULT_ALLOWANCE, VacationService
from bot.storage.repository import Repository

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Services:
    """What the front ends (Discord cogs, the console) use."""

    repository: Repository
    clock: Clock
    games: GameService
    challenges: ChallengeService
    settings: SettingsService
    scheduler: Scheduler
    computer: ComputerService
    ratings: RatingService
    tournaments: TournamentService
    background: Background
    clocks: ClockService
    vacations: VacationService
    notifications: NotificationService
    records: RecordService
    gate: Gate = field(default_factory=Gate)
    """Counts requests in progress; closed at shutdown so that no new ones start."""

    @classmethod
    def build(
        cls,
        repository: Repository,
        clock: Clock,
        notifier: Notifier,
        *,
        rng: random.Random | None = None,
        tick_seconds: float = 15.0,
        runner: TurnRunner | None = None,
        ai_seconds: float = DEFAULT_SECONDS,
        computer_name: str = COMPUTER_NAME,
        background: Background | None = None,
        vacation_allowance: timedelta = DEFAULT_ALLOWANCE,
    ) -> Services:
        """Wire the services together and give the scheduler its jobs.

        `runner` computes the computer's moves (default: one worker process, started
        when the computer first thinks); `ai_seconds` is the `hard` level's budget.
        Games report their end to the ratings, then to the tournaments. A notifier that
        also implements `TournamentNotifier` announces tournament rounds; `background`
        runs what a command sets off but must not wait for (default: asyncio tasks).
        Clocks follow every game (their guard refuses moves after a deadline) and stop
        before the ratings and tournaments hear of the end; `vacation_allowance` is the
        vacation time per calendar year.
        """
        background = background or Background()
        gate = Gate()
        games = GameService(repository, clock, notifier, gate=gate)
        settings = SettingsService(repository, clock)
        challenges = ChallengeService(repository, clock, games, settings, notifier, rng=rng)
        clocks = ClockService(repository, clock, games, notifier)
        clocks.attach()
        vacations = VacationService(
            repository, clock, clocks, notifier, allowance=vacation_allowance
        )
        notifications = NotificationService(repository, clock, games, clocks, notifier)
        notifications.attach()
        computer = ComputerService(
            repository,
            clock,
            games,
            settings,
            runner or TurnRunner(),
            seconds=ai_seconds,
            name=computer_name,
            rng=rng,
        )
        ratings = RatingService(repository, clock)
        if isinstance(notifier, TournamentNotifier):
            announcer: TournamentNotifier = notifier
        else:
            log.warning("%s cannot announce tournaments", type(notifier).__name__)
            announcer = NullNotifier()
        tournaments = TournamentService(
            repository, clock, games, ratings, settings, notifier=announcer, background=background
        )
        games.finish_hooks.append(ratings.on_finish)
        games.finish_hooks.append(tournaments.on_finish)
        scheduler = Scheduler(tick_seconds)
        scheduler.add("catch up clocks", clocks.catch_up)
        scheduler.add("expire challenges", challenges.expire_due)
        scheduler.add("end vacations", vacations.end_due)
        scheduler.add("time out games", clocks.time_out_due)
        scheduler.add("send reminders", clocks.remind_due)
        scheduler.add("send digests", notifications.send_digests)
        scheduler.add("rate missed games", ratings.rate_missed)
        scheduler.add("start tournaments", tournaments.start_due)
        scheduler.add("advance tournaments", tournaments.advance_all)
        return cls(
            repository,
            clock,
            games,
            challenges,
            settings,
            scheduler,
            computer,
            ratings,
            tournaments,
            background,
            clocks,
            vacations,
            notifications,
            RecordService(repository, clock),
            gate,
        )
