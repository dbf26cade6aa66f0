"""`Services`: every service wired to one repository, clock and notifier."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.ai import DEFAULT_SECONDS
from bot.services.challenges import ChallengeService
from bot.services.clock import Clock
from bot.services.computer import COMPUTER_NAME, ComputerService
from bot.services.computer_runner import TurnRunner
from bot.services.games import GameService
from bot.services.notify import Notifier
from bot.services.scheduler import Scheduler
from bot.services.settings import SettingsService
from bot.storage.repository import Repository


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
    ) -> Services:
        """Wire the services together; the scheduler gets the challenge-expiry job.

        `runner` computes the computer's moves (default: one worker process, started
        when the computer first thinks); `ai_seconds` is the `hard` level's budget.
        """
        games = GameService(repository, clock, notifier)
        settings = SettingsService(repository, clock)
        challenges = ChallengeService(repository, clock, games, settings, notifier, rng=rng)
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
        scheduler = Scheduler(tick_seconds)
        scheduler.add("expire challenges", challenges.expire_due)
        return cls(repository, clock, games, challenges, settings, scheduler, computer)
