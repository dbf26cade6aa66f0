"""`Services`: every service wired to one repository, clock, outbox and notifier."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import timedelta

from bot.ai import DEFAULT_SECONDS
from bot.services.announcing.notify import Notifier
from bot.services.announcing.outbox import Outbox
from bot.services.background import Background
from bot.services.clock import Clock
from bot.services.competition.leagues import LeagueService
from bot.services.competition.ratings import RatingService
from bot.services.competition.tournaments import TournamentService
from bot.services.computer.computer import COMPUTER_NAME, ComputerService
from bot.services.computer.runner import TurnRunner
from bot.services.correspondence.clocks import ClockService
from bot.services.correspondence.conditionals import ConditionalService
from bot.services.correspondence.notifications import NotificationService
from bot.services.correspondence.vacations import DEFAULT_ALLOWANCE, VacationService
from bot.services.delivery.dispatcher import Dispatcher
from bot.services.games.challenges import ChallengeService
from bot.services.games.games import GameService
from bot.services.games.rematches import RematchService
from bot.services.gate import Gate
from bot.services.records.records import RecordService
from bot.services.scheduler import Scheduler
from bot.services.servers.suspensions import DEFAULT_PERIOD, SuspensionService
from bot.services.settings import SettingsService
from bot.services.statistics import PlannerStatistics
from bot.storage.repository import Repository, ShardFilter

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
    outbox: Outbox
    """Where services store what the players must be told."""
    dispatcher: Dispatcher
    """Delivers the outbox's announcements through the front end's notifier."""
    records: RecordService
    """Finished games' histories, exports and imports."""
    rematches: RematchService
    """Rematches of finished games."""
    conditionals: ConditionalService
    """Conditional moves: replies queued while the opponent is to move."""
    leagues: LeagueService
    """Correspondence leagues: seasons of divisions with promotion and relegation."""
    suspensions: SuspensionService
    """Games suspended while Tabula cannot reach their players (removed from a server)."""
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
        owner: str = "tabula",
        shards: ShardFilter | None = None,
        deliver_inline: bool = False,
        concurrency: int = 8,
        suspension_period: timedelta = DEFAULT_PERIOD,
    ) -> Services:
        """Wire the services together and give the scheduler its jobs.

        `runner` computes the computer's moves (default: one worker process, started
        when the computer first thinks); `ai_seconds` is the `hard` level's budget.
        Games report their end to the ratings, then to the tournaments. What the players
        must be told is stored in the outbox and delivered through `notifier` by the
        dispatcher (whose announcements are held as `owner`, for the servers of `shards`;
        the computer, too, resumes only in those servers' games),
        in the background, or with `deliver_inline` as soon as each is committed (the
        console and tests, whose output must come in order);
        `background` runs what a command sets off but must not wait for (default: asyncio
        tasks); `concurrency` is how many announcements are delivered at once (1: strictly
        in the order they were stored, as the console prints them).
        Clocks follow every game (their guard refuses moves after a deadline) and stop
        before the ratings and tournaments hear of the end; `vacation_allowance` is the
        vacation time per calendar year. Games of a server that removed the bot (or that
        lost their channel) are suspended, and aborted after `suspension_period`.
        """
        background = background or Background()
        gate = Gate()
        outbox = Outbox(repository, clock, owner=owner)
        games = GameService(repository, clock, outbox, gate=gate)
        settings = SettingsService(repository, clock)
        challenges = ChallengeService(repository, clock, games, settings, outbox, rng=rng)
        clocks = ClockService(repository, clock, games, outbox)
        clocks.attach()
        vacations = VacationService(repository, clock, clocks, outbox, allowance=vacation_allowance)
        notifications = NotificationService(repository, clock, games, clocks, outbox)
        notifications.attach()
        conditionals = ConditionalService(repository, clock, games, outbox)
        conditionals.attach()
        computer = ComputerService(
            repository,
            clock,
            games,
            settings,
            runner or TurnRunner(),
            seconds=ai_seconds,
            name=computer_name,
            rng=rng,
            shards=shards,
        )
        ratings = RatingService(repository, clock)
        tournaments = TournamentService(
            repository, clock, games, ratings, settings, outbox=outbox, background=background
        )
        leagues = LeagueService(
            repository, clock, games, ratings, settings, outbox=outbox, background=background
        )
        suspensions = SuspensionService(
            repository,
            clock,
            games=games,
            clocks=clocks,
            computer=computer,
            tournaments=tournaments,
            leagues=leagues,
            outbox=outbox,
            period=suspension_period,
            shards=shards,
        )
        suspensions.attach()
        dispatcher = Dispatcher(
            repository,
            clock,
            outbox,
            notifier,
            games=games,
            clocks=clocks,
            tournaments=tournaments,
            leagues=leagues,
            suspensions=suspensions,
            shards=shards,
            concurrency=concurrency,
        )
        if deliver_inline:
            outbox.inline = dispatcher.drain
        games.finish_hooks.append(ratings.on_finish)
        games.finish_hooks.append(tournaments.on_finish)
        games.finish_hooks.append(leagues.on_finish)
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
        scheduler.add("keep query statistics", PlannerStatistics(repository, clock).keep_current)
        scheduler.add("run leagues", leagues.advance_all)
        scheduler.add("end long suspensions", suspensions.expire_due)
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
            outbox,
            dispatcher,
            RecordService(repository, clock),
            RematchService(repository, clock, games, challenges, computer),
            conditionals,
            leagues,
            suspensions,
            gate,
        )
