"""`RatingService`: Glicko-2 ratings per user and game, updated when a rated game ends.

A game is rated when it was started rated (the default for challenges; `casual` games
are not), both seats are people (never a computer seat), and it finished with a result,
however it ended: by the rules, a resignation, an agreed draw or on time. Aborted games
and tournament forfeits (which have no game) are not rated, nor is a loss on time by a
player who never moved (the clocks store that game as unrated). Each game is rated on its
own, as a rating period of one game, with each player's deviation first grown by the
time since their last rated game (`bot.competition.glicko2.idle_periods`).

A rating is global per (user, game): playing strength does not change between servers.
Every rating change records the server its game was played in, and a server's
leaderboard lists those who played that game rated there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import timedelta

from bot.competition.glicko2 import Rating, after_inactivity, idle_periods, rate_game
from bot.services.clock import Clock
from bot.services.views.results import GameView
from bot.storage.competition import PlayerRating, RatingChange
from bot.storage.repository import GameRecord, GameStatus, LockKind, Repository
from rules import get_game

log = logging.getLogger(__name__)

CATCH_UP = timedelta(days=7)
"""How far back the scheduler looks for rated games whose rating was never stored."""
LEADERBOARD_SIZE = 20
"""Players a leaderboard shows."""


def is_rateable(record: GameRecord) -> bool:
    """True for a finished rated game between two different people."""
    first, second = record.players
    return (
        record.rated
        and record.status is GameStatus.FINISHED
        and first is not None
        and second is not None
        and first != second
        and not record.has_computer
    )


def first_score(record: GameRecord) -> float:
    """The first seat's score in a finished game: 1, ½ or 0."""
    if record.winner is None:
        return 0.5
    return 1.0 if record.winner == 0 else 0.0


@dataclass(frozen=True, slots=True)
class RatingCard:
    """A user's rating in one game as it stands now."""

    stored: PlayerRating
    """The rating after the latest rated game, with the user's record."""
    current: Rating
    """The same rating with its deviation grown by the time since that game."""

    @property
    def game_title(self) -> str:
        """The game's name for players."""
        return get_game(self.stored.game).title

    @property
    def record_text(self) -> str:
        """Games played and won: "12 games: 7 won, 1 drawn, 4 lost"."""
        stored = self.stored
        if not stored.games:
            return "no rated games yet"
        games = "1 game" if stored.games == 1 else f"{stored.games} games"
        return f"{games}: {stored.wins} won, {stored.draws} drawn, {stored.losses} lost"


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One line of a server's leaderboard."""

    rank: int
    card: RatingCard


class RatingService:
    """Rates finished games and answers rating questions."""

    def __init__(self, repository: Repository, clock: Clock) -> None:
        self._repository = repository
        self._clock = clock
        # One game is rated at a time: the two reads and the write of a rating must not
        # interleave with another game of the same player.
        self._lock = asyncio.Lock()

    # --- rating games ---

    async def on_finish(self, view: GameView) -> GameView | None:
        """The games' finish hook: rate the game, and report the changes on its view."""
        changes = await self.rate(view.record)
        return replace(view, rating_changes=tuple(changes)) if changes else None

    async def rate(self, record: GameRecord) -> list[RatingChange]:
        """Rate a finished game once; the changes it made (empty if it is not rated)."""
        if not is_rateable(record):
            return []
        # One rating at a time, across processes too: the ratings read here must still be
        # the stored ones when the new ones are written (two games of one player ending in
        # two processes at once would otherwise lose one of the two changes).
        async with self._lock, self._repository.atomic():
            await self._repository.lock(LockKind.RATINGS, 0)
            done = await self._repository.rating_changes(record.id)
            if done:
                return done
            now = self._clock.now()
            players = [player for player in record.players if player is not None]
            stored = [await self._stored(player, record.game) for player in players]
            periods = [idle_periods(s.last_rated_at, now) for s in stored]
            score = first_score(record)
            after = rate_game(
                stored[0].rating,
                stored[1].rating,
                score,
                first_periods=periods[0],
                second_periods=periods[1],
            )
            changes = []
            ratings = []
            for seat in (0, 1):
                seat_score = score if seat == 0 else 1 - score
                before = stored[seat]
                changes.append(
                    RatingChange(
                        game_id=record.id,
                        user_id=players[seat],
                        seat=seat,
                        name=record.names[seat],
                        game=record.game,
                        guild_id=record.guild_id,
                        score=seat_score,
                        before=after_inactivity(before.rating, periods[seat]),
                        after=after[seat],
                        rated_at=now,
                    )
                )
                ratings.append(
                    replace(
                        before,
                        name=record.names[seat],
                        rating=after[seat],
                        games=before.games + 1,
                        wins=before.wins + (seat_score == 1),
                        draws=before.draws + (seat_score == 0.5),
                        losses=before.losses + (seat_score == 0),
                        last_rated_at=now,
                    )
                )
            if not await self._repository.record_ratings(changes, ratings):
                return await self._repository.rating_changes(record.id)
        log.info("rated game %s: %s", record.id, "; ".join(c.text() for c in changes))
        return changes

    async def rate_missed(self) -> int:
        """Rate recently finished rated games whose rating was never stored (a crash)."""
        missed = await self._repository.unrated_games(self._clock.now() - CATCH_UP)
        for record in missed:
            await self.rate(record)
        return len(missed)

    async def _stored(self, user_id: int, game: str) -> PlayerRating:
        """The stored rating, or a newcomer's."""
        found = await self._repository.get_rating(user_id, game)
        return found or PlayerRating(user_id=user_id, game=game, name="", rating=Rating())

    # --- questions ---

    def card_of(self, stored: PlayerRating) -> RatingCard:
        """A stored rating as it stands now."""
        if stored.last_rated_at is None:
            return RatingCard(stored, stored.rating)
        periods = idle_periods(stored.last_rated_at, self._clock.now())
        return RatingCard(stored, after_inactivity(stored.rating, periods))

    async def card(self, user_id: int, game: str, name: str) -> RatingCard:
        """A user's rating in a game (a newcomer's before their first rated game)."""
        canonical = get_game(game).name
        stored = await self._repository.get_rating(user_id, canonical)
        if stored is None:
            stored = PlayerRating(user_id=user_id, game=canonical, name=name, rating=Rating())
        return self.card_of(stored)

    async def cards(self, user_id: int) -> list[RatingCard]:
        """A user's ratings in every game they have played rated."""
        return [self.card_of(stored) for stored in await self._repository.ratings_of(user_id)]

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int | None = LEADERBOARD_SIZE
    ) -> list[LeaderboardEntry]:
        """A server's best players in a game, with provisional ratings as they stand now."""
        stored = await self._repository.leaderboard(guild_id, get_game(game).name, limit=limit)
        return [
            LeaderboardEntry(rank, self.card_of(rating))
            for rank, rating in enumerate(stored, start=1)
        ]

    async def rank(self, guild_id: int, game: str, user_id: int) -> tuple[int, int] | None:
        """A user's place on a server's leaderboard and its length; None when not on it."""
        board = await self._repository.leaderboard(guild_id, get_game(game).name)
        for index, rating in enumerate(board, start=1):
            if rating.user_id == user_id:
                return index, len(board)
        return None

    async def seeding(self, user_ids: Iterable[int], game: str) -> dict[int, float]:
        """The ratings used to seed players in a tournament of `game` (1500 for newcomers)."""
        found: dict[int, float] = {}
        for user_id in user_ids:
            stored = await self._repository.get_rating(user_id, game)
            found[user_id] = (stored.rating if stored else Rating()).rating
        return found
