"""`Services`: every service wired to one repository, clock and notifier."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.services.challenges import ChallengeService
from bot.services.clock import Clock
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

    @classmethod
    def build(
        cls,
        repository: Repository,
        clock: Clock,
        notifier: Notifier,
        *,
        rng: random.Random | None = None,
        tick_seconds: float = 15.0,
    ) -> Services:
        """Wire the services together; the scheduler gets the challenge-expiry job."""
        games = GameService(repository, clock, notifier)
        settings = SettingsService(repository, clock)
        challenges = ChallengeService(repository, clock, games, settings, notifier, rng=rng)
        scheduler = Scheduler(tick_seconds)
        scheduler.add("expire challenges", challenges.expire_due)
        return cls(repository, clock, games, challenges, settings, scheduler)
