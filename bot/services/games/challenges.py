"""Challenges: create, accept (which starts a game), decline, cancel, expire."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping

from bot.services.announcing.announcements import challenge_expired_row, challenge_gone_dm_row
from bot.services.announcing.outbox import Outbox
from bot.services.clock import Clock
from bot.services.durations import parse_time_control
from bot.services.errors import (
    ConflictError,
    InvalidInputError,
    InvalidStateError,
    NotAllowedError,
    NotFoundError,
)
from bot.services.games.games import GameService
from bot.services.games.players import Player
from bot.services.ids import storable
from bot.services.settings import SettingsService
from bot.services.views.results import Accepted
from bot.storage.repository import (
    ChallengeRecord,
    ChallengeStatus,
    NewChallenge,
    NewGame,
    Repository,
)
from rules import AnyGame, get_game

log = logging.getLogger(__name__)

MAX_OPEN_CHALLENGES = 10
"""How many open challenges one user may have at a time."""

COLOUR_CHOICES = ("random", "white", "black")
"""What `/play colour:` accepts besides a game's own colour names."""

_CLOSED_REASON = {
    ChallengeStatus.ACCEPTED: "was already accepted",
    ChallengeStatus.DECLINED: "was declined",
    ChallengeStatus.CANCELLED: "was cancelled",
    ChallengeStatus.EXPIRED: "has expired",
}


def challenger_seat(game: AnyGame, colour: str) -> int | None:
    """The seat a colour choice gives the challenger: 0, 1, or None for random."""
    wanted = colour.strip().lower()
    if wanted in ("", "random"):
        return None
    colours = [c.lower() for c in game.colours]
    if wanted in colours:
        return colours.index(wanted)
    if wanted in ("first", "second"):
        return 0 if wanted == "first" else 1
    raise InvalidInputError(
        f"{colour.strip()!r} is not a colour in {game.title}: choose "
        f"{colours[0]}, {colours[1]} or random"
    )


class ChallengeService:
    """Challenges between players; accepting one starts the game through `GameService`."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        games: GameService,
        settings: SettingsService,
        outbox: Outbox,
        *,
        rng: random.Random | None = None,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._games = games
        self._settings = settings
        self._outbox = outbox
        self._rng = rng or random.Random()

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger: Player,
        opponent: Player | None,
        game: str,
        options: Mapping[str, object] | None = None,
        colour: str = "random",
        rated: bool = True,
        time_control: str | None = None,
        in_game_channel: bool = True,
    ) -> ChallengeRecord:
        """Post a challenge to `opponent`, or an open one when `opponent` is None.

        The game is rated unless `rated` is False (a casual game). `time_control`
        (`none`, `3d`, `7d+1d max 10d`) defaults to the server's. With `in_game_channel`
        False, `channel_id` need not be one of the server's game channels (a rematch,
        asked for in the thread of a game played there).
        """
        rules = get_game(game)
        validated = rules.validate_options(options or {})
        seat = challenger_seat(rules, colour)
        chosen = None
        if time_control is not None and time_control.strip():
            chosen = str(parse_time_control(time_control))
        if challenger.is_bot:
            raise NotAllowedError("Bots cannot start games.")
        if opponent is not None:
            if opponent.id == challenger.id:
                raise NotAllowedError("You cannot challenge yourself.")
            if opponent.is_bot:
                raise NotAllowedError(
                    f"{opponent.name} is a bot and cannot play. Challenge a person, "
                    "or leave out the opponent to post an open challenge."
                )
        if in_game_channel:
            settings = await self._settings.check_game_channel(guild_id, channel_id)
        else:
            settings = await self._settings.guild(guild_id)
        mine = [
            c
            for c in await self._repository.open_challenges(user_id=challenger.id)
            if c.challenger_id == challenger.id
        ]
        if len(mine) >= MAX_OPEN_CHALLENGES:
            raise InvalidStateError(
                f"You already have {len(mine)} open challenges; cancel one before making another."
            )
        for other in mine:
            if (
                other.game == rules.name
                and other.opponent_id == (opponent.id if opponent else None)
                and other.channel_id == channel_id
            ):
                whom = f"{opponent.name}" if opponent else "anyone"
                raise InvalidStateError(
                    f"You already challenged {whom} to {rules.title} here "
                    f"(challenge #{other.id}); cancel it first to change it."
                )
        now = self._clock.now()
        return await self._repository.create_challenge(
            NewChallenge(
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger.id,
                challenger_name=challenger.name,
                opponent_id=opponent.id if opponent else None,
                opponent_name=opponent.name if opponent else None,
                game=rules.name,
                options=validated,
                challenger_seat=seat,
                created_at=now,
                expires_at=now + settings.challenge_expiry,
                rated=rated,
                time_control=chosen or settings.default_time_control,
            )
        )

    async def get(self, challenge_id: int) -> ChallengeRecord:
        """The challenge with this id; `NotFoundError` if there is none."""
        found = storable(challenge_id)
        challenge = await self._repository.get_challenge(challenge_id) if found else None
        if challenge is None:
            raise NotFoundError(f"There is no challenge #{challenge_id}.")
        return challenge

    async def attach_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge (edited when it expires)."""
        await self._repository.set_challenge_message(challenge_id, message_id)

    async def _open(self, challenge_id: int) -> ChallengeRecord:
        """The challenge, if it can still be answered; expires it if its time has passed."""
        challenge = await self.get(challenge_id)
        if not challenge.is_open:
            raise InvalidStateError(f"This challenge {_CLOSED_REASON[challenge.status]}.")
        if self._clock.now() >= challenge.expires_at:
            await self._expire(challenge)
            raise InvalidStateError("This challenge has expired.")
        return challenge

    async def accept(self, challenge_id: int, user: Player, *, guild_id: int | None) -> Accepted:
        """Accept a challenge from server `guild_id`: the game starts, with seats as the
        challenger chose. A challenge is answered only in the server it was made in."""
        challenge = await self._open(challenge_id)
        if challenge.guild_id != guild_id:
            raise NotFoundError(f"There is no challenge #{challenge_id} here.")
        if user.id == challenge.challenger_id:
            raise NotAllowedError(
                "You cannot accept your own challenge (use Cancel to withdraw it)."
            )
        if challenge.opponent_id is not None and user.id != challenge.opponent_id:
            raise NotAllowedError(f"This challenge is for {challenge.opponent_name}.")
        if user.is_bot:
            raise NotAllowedError("Bots cannot play.")
        seat = challenge.challenger_seat
        if seat is None:
            seat = self._rng.randrange(2)
        challenger = (challenge.challenger_id, challenge.challenger_name)
        accepter = (user.id, user.name)
        first, second = (challenger, accepter) if seat == 0 else (accepter, challenger)
        async with self._repository.atomic():
            created = await self._repository.accept_challenge(
                challenge.id,
                NewGame(
                    game=challenge.game,
                    options=challenge.options,
                    guild_id=challenge.guild_id,
                    channel_id=challenge.channel_id,
                    players=(first[0], second[0]),
                    names=(first[1], second[1]),
                    created_at=self._clock.now(),
                    challenge_id=challenge.id,
                    rated=challenge.rated,
                    time_control=challenge.time_control,
                ),
            )
            if created is not None:
                await self._outbox.add(await self._games.start_rows(created[1]))
        if created is None:
            raise ConflictError("Someone answered this challenge first.")
        accepted, record = created
        view = await self._games.started(record)
        await self._outbox.committed()
        return Accepted(challenge=accepted, view=view)

    async def decline(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        """Decline a challenge addressed to `user_id`."""
        challenge = await self._open(challenge_id)
        if user_id == challenge.challenger_id:
            raise NotAllowedError("This is your own challenge: use Cancel to withdraw it.")
        if challenge.opponent_id is None:
            raise NotAllowedError(
                "An open challenge cannot be declined; leave it for someone else."
            )
        if user_id != challenge.opponent_id:
            raise NotAllowedError(f"This challenge is for {challenge.opponent_name}.")
        return await self._close(challenge, ChallengeStatus.DECLINED)

    async def cancel(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        """Withdraw one's own challenge."""
        challenge = await self._open(challenge_id)
        if user_id != challenge.challenger_id:
            raise NotAllowedError(
                f"Only {challenge.challenger_name}, who made this challenge, can cancel it."
            )
        return await self._close(challenge, ChallengeStatus.CANCELLED)

    async def place_deleted(self, guild_id: int, place_id: int) -> list[ChallengeRecord]:
        """A thread or channel of the server was deleted: the open challenges made there
        can no longer be answered, so they are withdrawn and both players told by direct
        message. Returns those challenges."""
        withdrawn = []
        for challenge in await self._repository.open_challenges(channel_id=place_id):
            if challenge.guild_id != guild_id:
                continue
            async with self._repository.atomic():
                closed = await self._repository.close_challenge(
                    challenge.id, ChallengeStatus.CANCELLED, self._clock.now()
                )
                if closed is None:
                    continue  # answered meanwhile
                players = [closed.challenger_id, closed.opponent_id]
                await self._outbox.add(
                    [challenge_gone_dm_row(user, closed) for user in players if user is not None]
                )
            withdrawn.append(closed)
        if withdrawn:
            await self._outbox.committed()
        return withdrawn

    async def _close(self, challenge: ChallengeRecord, status: ChallengeStatus) -> ChallengeRecord:
        closed = await self._repository.close_challenge(challenge.id, status, self._clock.now())
        if closed is None:
            raise ConflictError("Someone answered this challenge first.")
        return closed

    async def _expire(self, challenge: ChallengeRecord) -> ChallengeRecord | None:
        async with self._repository.atomic():
            closed = await self._repository.close_challenge(
                challenge.id, ChallengeStatus.EXPIRED, self._clock.now()
            )
            if closed is not None:
                await self._outbox.add([challenge_expired_row(closed)])
        await self._outbox.committed()
        return closed

    async def expire_due(self) -> list[ChallengeRecord]:
        """Expire every open challenge whose time has passed; announce each."""
        expired = []
        for challenge in await self._repository.due_challenges(self._clock.now()):
            closed = await self._expire(challenge)
            if closed is not None:
                expired.append(closed)
        return expired

    async def pending(self, user_id: int, channel_id: int | None = None) -> list[ChallengeRecord]:
        """Open challenges `user_id` could accept (addressed to them, or open), newest first."""
        addressed = await self._repository.open_challenges(user_id=user_id)
        found = {c.id: c for c in addressed if c.opponent_id == user_id}
        if channel_id is not None:
            for challenge in await self._repository.open_challenges(channel_id=channel_id):
                if challenge.opponent_id is None and challenge.challenger_id != user_id:
                    found[challenge.id] = challenge
        return sorted(found.values(), key=lambda c: c.id, reverse=True)

    async def mine(self, user_id: int) -> list[ChallengeRecord]:
        """Open challenges `user_id` made, newest first."""
        return [
            c
            for c in await self._repository.open_challenges(user_id=user_id)
            if c.challenger_id == user_id
        ]
