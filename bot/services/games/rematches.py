"""Rematches: a finished game played again by the same two, with the colours swapped.

A rematch keeps everything the players chose: the game's options, the clock and whether
it is rated. Between two people it is a challenge like any other, made where the game
was played (its thread), which the opponent accepts or declines; against the computer
the new game starts at once, at the same level. Tournament games have none: the
tournament decides who plays whom.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from bot.services.clock import Clock
from bot.services.errors import InvalidStateError, NotAllowedError, NotFoundError
from bot.services.games.challenges import ChallengeService
from bot.services.games.games import GameService, visible
from bot.services.games.players import Player, computer_seat
from bot.services.records.records import history_query
from bot.services.views.results import GameView
from bot.storage.repository import ChallengeRecord, GameRecord, Repository
from rules import get_game

Rematch = ChallengeRecord | GameView
"""What a rematch led to: a challenge to the opponent, or a game against the computer."""


class ComputerGames(Protocol):
    """Starts games against the computer (the computer's service; rematches sit below it)."""

    async def start(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        player: Player,
        game: str,
        options: Mapping[str, object] | None = None,
        level: str | None = None,
        colour: str = "random",
    ) -> GameView:
        """Start a game between `player` and the computer at `level`."""
        ...


class RematchAskedError(InvalidStateError):
    """The rematch was asked for already (by either player): its challenge waits."""

    def __init__(self, message: str, challenge: ChallengeRecord) -> None:
        super().__init__(message)
        self.challenge = challenge
        """The open challenge."""


def rematch_offered(record: GameRecord) -> bool:
    """Whether a game's final board offers a rematch: any finished game but a tournament's."""
    return not record.is_active and record.tournament_id is None


class RematchService:
    """Asks for rematches of finished games."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        games: GameService,
        challenges: ChallengeService,
        computer: ComputerGames,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._games = games
        self._challenges = challenges
        self._computer = computer

    async def rematch(self, game_id: int, user: Player, *, guild_id: int | None) -> Rematch:
        """`user` asks for a rematch of game `game_id`, seen from server `guild_id` (None:
        a direct message): a challenge to the opponent with the colours swapped, or a new
        game against the computer, started (call `ComputerService.begin` once its first
        board is shown). Refused for anyone but the two players, for games in progress,
        tournament games and imported ones, and while the same rematch is asked for or
        played already."""
        record = await self._games.record(game_id)
        if not visible(record, user.id, guild_id):
            raise NotFoundError(f"There is no game #{game_id}.")
        seat = record.seat_of(user.id)
        if seat is None:
            first, second = record.names
            raise NotAllowedError(
                f"Only {first} and {second} can ask for a rematch of game #{game_id}."
            )
        if record.is_active:
            raise InvalidStateError(
                f"Game #{game_id} is still being played: a rematch can be asked for once "
                "it is over."
            )
        if record.tournament_id is not None:
            raise NotAllowedError(
                f"Game #{game_id} was a tournament game: the tournament decides who plays whom, "
                "so it has no rematch."
            )
        if await self._repository.import_mark(game_id) is not None:
            raise NotAllowedError(
                f"Game #{game_id} was imported from a record, not played here: it has no rematch."
            )
        playing = await self._rematch_in_progress(record, seat, user.id)
        if playing is not None:
            raise InvalidStateError(
                f"The rematch of game #{game_id} is being played already: game #{playing.id}."
            )
        swapped = get_game(record.game).colours[1 - seat]
        computer = computer_seat(record)
        if computer is not None:
            return await self._computer.start(
                guild_id=record.guild_id,
                channel_id=record.channel_id,
                player=user,
                game=record.game,
                options=record.options,
                level=record.ai_levels[computer],
                colour=swapped,
            )
        opponent_id = record.players[1 - seat]
        if opponent_id is None:  # pragma: no cover - only imported games lack a player
            raise NotAllowedError(f"Game #{game_id} has no opponent to ask for a rematch.")
        opponent = Player(opponent_id, record.names[1 - seat])
        await self._refuse_if_asked(record, user.id, opponent)
        original = (
            await self._repository.get_challenge(record.challenge_id)
            if record.challenge_id is not None
            else None
        )
        return await self._challenges.create(
            guild_id=record.guild_id,
            channel_id=record.location,
            challenger=user,
            opponent=opponent,
            game=record.game,
            options=record.options,
            colour=swapped,
            # The choice the players made: a game can end unrated (a loss on time without
            # a move) though it was started rated.
            rated=original.rated if original is not None else record.rated,
            time_control=record.time_control,
            in_game_channel=False,
        )

    async def latest(self, user_id: int, guild_id: int | None, location: int | None = None) -> int:
        """The game a rematch without a game's number means: the user's game in this
        thread (`location`), else their most recently finished game here;
        `NotFoundError` when there is none."""
        if location is not None:
            here = await self._repository.latest_game_at(location)
            if here is not None and here.seat_of(user_id) is not None:
                return here.id
        found = await self._repository.finished_games(
            history_query(user_id, user_id, guild_id), limit=1
        )
        if not found:
            raise NotFoundError("You have no finished game here; name one by its number.")
        return found[0].record.id

    async def _refuse_if_asked(self, record: GameRecord, user_id: int, opponent: Player) -> None:
        """Refuse a rematch already asked for, by either player, where the game was played."""
        now = self._clock.now()
        for challenge in await self._repository.open_challenges(user_id=user_id):
            if (
                challenge.game != record.game
                or challenge.channel_id != record.location
                or {challenge.challenger_id, challenge.opponent_id} != {user_id, opponent.id}
                or challenge.expires_at <= now
            ):
                continue
            if challenge.challenger_id == user_id:
                raise RematchAskedError(
                    f"You have asked {opponent.name} for a rematch already (challenge "
                    f"#{challenge.id}); it waits for an answer.",
                    challenge,
                )
            raise RematchAskedError(
                f"{opponent.name} has asked you for a rematch already: accept challenge "
                f"#{challenge.id}.",
                challenge,
            )

    async def _rematch_in_progress(
        self, record: GameRecord, seat: int, user_id: int
    ) -> GameRecord | None:
        """A game in progress that is this game's rematch: the same game and options
        against the same opponent (or computer level), colours swapped, begun after it."""
        ended = record.finished_at or record.created_at
        for other in await self._repository.active_games(user_id=user_id):
            if (
                other.game == record.game
                and dict(other.options) == dict(record.options)
                and other.tournament_id is None
                and other.created_at >= ended
                and other.seat_of(user_id) == 1 - seat
                and other.players[seat] == record.players[1 - seat]
                and other.ai_levels[seat] == record.ai_levels[1 - seat]
            ):
                return other
        return None
