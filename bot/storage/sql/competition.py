"""Ratings and tournaments."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.competition.records import Pairing, Result
from bot.storage.competition import (
    EntrantRecord,
    NewTournament,
    PairingRecord,
    PlayerRating,
    RatingChange,
    TournamentRecord,
    TournamentStatus,
)
from bot.storage.database import Connection, Dialect, UniqueViolation
from bot.storage.repository import GameRecord, NewGame
from bot.storage.sql.base import SqlBase
from bot.storage.sql.games import insert_game
from bot.storage.sql.rows import (
    CHANGE_COLUMNS,
    ENTRANT_COLUMNS,
    GAME_COLUMNS,
    PAIRING_COLUMNS,
    RATING_COLUMNS,
    TOURNAMENT_COLUMNS,
    entrant_from,
    game_from,
    options_json,
    pairing_from,
    rating_change_from,
    rating_change_values,
    rating_from,
    rating_values,
    tournament_from,
)

_NEEDING_WORK = """
SELECT t.id FROM tournaments t WHERE (t.status = 'running' AND (
    -- every game has a result: pair the next round, or finish
    NOT EXISTS (SELECT 1 FROM tournament_pairings p WHERE p.tournament_id = t.id
                AND p.second_id IS NOT NULL AND p.result IS NULL)
    -- a game to make or announce
    OR EXISTS (SELECT 1 FROM tournament_pairings p WHERE p.tournament_id = t.id
               AND p.second_id IS NOT NULL AND p.result IS NULL
               AND (p.game_id IS NULL OR NOT p.announced))
    -- a game that ended without its result reaching the tournament
    OR EXISTS (SELECT 1 FROM tournament_pairings p JOIN games g ON g.id = p.game_id
               WHERE p.tournament_id = t.id AND p.result IS NULL AND g.status != 'active')
    -- a round paired but not announced
    OR t.announced_round < (SELECT COALESCE(MAX(p.round), 0) FROM tournament_pairings p
                            WHERE p.tournament_id = t.id)
)) OR (t.status = 'cancelled' AND EXISTS (
    -- a game left in progress by a crash after the cancellation
    SELECT 1 FROM tournament_pairings p JOIN games g ON g.id = p.game_id
    WHERE p.tournament_id = t.id AND g.status = 'active'
)) ORDER BY t.id
"""

_ENTRY_ORDER = {Dialect.SQLITE: "rowid", Dialect.POSTGRESQL: "entry_order"}
"""The order entrants joined in, for those who joined at the same moment."""


class _PairingTaken(Exception):
    """Rolls back a game created for a pairing that got one from another writer."""


async def _update_tournament(db: Connection, tournament: TournamentRecord) -> None:
    await db.execute(
        "UPDATE tournaments SET status = ?, rounds = ?, announced_round = ?, "
        "entry_closes_at = ?, started_at = ?, finished_at = ?, updated_at = ? WHERE id = ?",
        (
            tournament.status.value,
            tournament.rounds,
            tournament.announced_round,
            tournament.entry_closes_at,
            tournament.started_at,
            tournament.finished_at,
            tournament.updated_at,
            tournament.id,
        ),
    )


class CompetitionQueries(SqlBase):
    """Ratings, tournaments, entrants and pairings."""

    # --- ratings ---

    async def get_rating(self, user_id: int, game: str) -> PlayerRating | None:
        """A user's rating in a game; None before their first rated game."""
        row = await self._db.fetch_one(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? AND game = ?",
            (user_id, game),
        )
        return None if row is None else rating_from(row)

    async def ratings_of(self, user_id: int) -> list[PlayerRating]:
        """A user's ratings in every game they have played rated, by game."""
        rows = await self._db.fetch_all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? ORDER BY game", (user_id,)
        )
        return [rating_from(row) for row in rows]

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a game did to its players' ratings (empty while it is not rated), by seat."""
        rows = await self._db.fetch_all(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [rating_change_from(row) for row in rows]

    async def record_ratings(
        self, changes: Sequence[RatingChange], ratings: Sequence[PlayerRating]
    ) -> bool:
        """In one transaction, store a game's rating changes and its players' new ratings."""
        try:
            async with self._transaction() as db:
                await db.execute_many(
                    f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [rating_change_values(change) for change in changes],
                )
                await db.execute_many(
                    f"INSERT INTO ratings ({RATING_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (user_id, game) DO UPDATE SET name = excluded.name, "
                    "rating = excluded.rating, deviation = excluded.deviation, "
                    "volatility = excluded.volatility, games = excluded.games, "
                    "wins = excluded.wins, draws = excluded.draws, losses = excluded.losses, "
                    "last_rated_at = excluded.last_rated_at",
                    [rating_values(rating) for rating in ratings],
                )
        except UniqueViolation as exc:
            if exc.table == "rating_changes":
                return False
            raise
        return True

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int | None = None
    ) -> list[PlayerRating]:
        """Ratings in `game` of those who played it rated in this server, best first."""
        sql = (
            f"SELECT {RATING_COLUMNS} FROM ratings r WHERE r.game = ? AND EXISTS ("
            "SELECT 1 FROM rating_changes c "
            "WHERE c.guild_id = ? AND c.game = r.game AND c.user_id = r.user_id) "
            "ORDER BY r.rating DESC, r.deviation, r.user_id"
        )
        params: tuple[object, ...] = (game, guild_id)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        return [rating_from(row) for row in await self._db.fetch_all(sql, params)]

    async def unrated_games(self, since: datetime) -> list[GameRecord]:
        """Rated games between two people, finished since `since`, not rated yet."""
        rows = await self._db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games g WHERE g.rated AND g.status = 'finished' "
            "AND g.finished_at >= ? AND g.player0_id IS NOT NULL AND g.player1_id IS NOT NULL "
            "AND g.player0_ai IS NULL AND g.player1_ai IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id) "
            "ORDER BY g.finished_at, g.id",
            (since,),
        )
        return [game_from(row) for row in rows]

    # --- tournaments ---

    async def create_tournament(self, tournament: NewTournament) -> TournamentRecord:
        """Store a new tournament, open for entries."""
        async with self._transaction() as db:
            tournament_id = await db.insert(
                "INSERT INTO tournaments (guild_id, channel_id, name, organiser_id, "
                "organiser_name, game, options, format, swiss_rounds, time_control, rated, "
                "max_players, entry_closes_at, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament.guild_id,
                    tournament.channel_id,
                    tournament.name,
                    tournament.organiser_id,
                    tournament.organiser_name,
                    tournament.game,
                    options_json(tournament.options),
                    tournament.format.value,
                    tournament.swiss_rounds,
                    tournament.time_control,
                    tournament.rated,
                    tournament.max_players,
                    tournament.entry_closes_at,
                    tournament.created_at,
                    tournament.created_at,
                ),
            )
            record = await self.get_tournament(tournament_id)
        assert record is not None
        return record

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """The tournament with this id."""
        row = await self._db.fetch_one(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return None if row is None else tournament_from(row)

    async def update_tournament(self, tournament: TournamentRecord) -> None:
        """Store the tournament's changeable fields (status, rounds, times)."""
        async with self._transaction() as db:
            await _update_tournament(db, tournament)

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the message that announces the tournament (with its entry buttons)."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def list_tournaments(
        self, guild_id: int, statuses: Sequence[TournamentStatus]
    ) -> list[TournamentRecord]:
        """A server's tournaments in these states, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch_all(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments "
            f"WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC",
            (guild_id, *(status.value for status in statuses)),
        )
        return [tournament_from(row) for row in rows]

    async def due_tournaments(self, now: datetime) -> list[TournamentRecord]:
        """Open tournaments whose entry window has closed."""
        rows = await self._db.fetch_all(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments "
            "WHERE status = 'open' AND entry_closes_at <= ? ORDER BY entry_closes_at, id",
            (now,),
        )
        return [tournament_from(row) for row in rows]

    async def tournaments_needing_work(self) -> list[int]:
        """Running tournaments with a result to record, a round to pair or a game to start."""
        rows = await self._db.fetch_all(_NEEDING_WORK)
        return [row["id"] for row in rows]

    async def add_entrant(self, entrant: EntrantRecord) -> None:
        """Enter a player (the caller checked they are not entered yet)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) "
                "VALUES (?, ?, ?, ?)",
                (entrant.tournament_id, entrant.user_id, entrant.name, entrant.joined_at),
            )

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        """Take a player's entry back (before the start)."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )

    async def list_entrants(self, tournament_id: int) -> list[EntrantRecord]:
        """The entrants: by seed once seeded, before that in the order they joined."""
        rows = await self._db.fetch_all(
            f"SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = ? "
            f"ORDER BY seed IS NULL, seed, joined_at, {_ENTRY_ORDER[self.dialect]}",
            (tournament_id,),
        )
        return [entrant_from(row) for row in rows]

    async def start_tournament(
        self, tournament: TournamentRecord, entrants: Sequence[EntrantRecord]
    ) -> None:
        """In one transaction, store the started tournament and its entrants' seeds."""
        async with self._transaction() as db:
            await _update_tournament(db, tournament)
            await db.execute_many(
                "UPDATE tournament_entrants SET seed = ?, rating = ? "
                "WHERE tournament_id = ? AND user_id = ?",
                [(e.seed, e.rating, e.tournament_id, e.user_id) for e in entrants],
            )

    async def withdraw_entrant(
        self, tournament_id: int, user_id: int, now: datetime, forfeits: Sequence[PairingRecord]
    ) -> None:
        """In one transaction, mark a player withdrawn and store the forfeits it causes."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournament_entrants SET withdrawn_at = ? "
                "WHERE tournament_id = ? AND user_id = ? AND withdrawn_at IS NULL",
                (now, tournament_id, user_id),
            )
            await db.execute_many(
                "UPDATE tournament_pairings SET result = ? WHERE id = ? AND result IS NULL",
                [(p.result.value, p.id) for p in forfeits if p.result is not None],
            )

    async def add_pairings(
        self, tournament_id: int, pairings: Sequence[Pairing]
    ) -> list[PairingRecord]:
        """Store new pairings (with their results, for forfeits) in one transaction."""
        ids = []
        async with self._transaction() as db:
            for pairing in pairings:
                ids.append(
                    await db.insert(
                        "INSERT INTO tournament_pairings "
                        "(tournament_id, round, first_id, second_id, result) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (
                            tournament_id,
                            pairing.round,
                            pairing.first,
                            pairing.second,
                            None if pairing.result is None else pairing.result.value,
                        ),
                    )
                )
        return [
            PairingRecord(
                pairing_id, tournament_id, p.round, p.first, p.second, p.result, announced=False
            )
            for pairing_id, p in zip(ids, pairings, strict=True)
        ]

    async def list_pairings(self, tournament_id: int) -> list[PairingRecord]:
        """The tournament's pairings in the order they were made."""
        rows = await self._db.fetch_all(
            f"SELECT {PAIRING_COLUMNS} FROM tournament_pairings "
            "WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
        return [pairing_from(row) for row in rows]

    async def pairing_for_game(self, game_id: int) -> PairingRecord | None:
        """The pairing a tournament game was played for."""
        row = await self._db.fetch_one(
            f"SELECT {PAIRING_COLUMNS} FROM tournament_pairings WHERE game_id = ?", (game_id,)
        )
        return None if row is None else pairing_from(row)

    async def set_pairing_result(self, pairing_id: int, result: Result) -> bool:
        """Store a result for a pairing that has none; False when it had one already."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE tournament_pairings SET result = ? WHERE id = ? AND result IS NULL",
                (result.value, pairing_id),
            )
        return changed == 1

    async def create_pairing_game(self, pairing_id: int, game: NewGame) -> GameRecord | None:
        """Atomically create the game of a pairing that has none and no result, in a
        running tournament; None otherwise (another process made it, a forfeit, a stop).

        The pairing is claimed with a compare-and-set after the game is inserted, so two
        writers (two processes) cannot both give it a game: the loser's insert is undone.
        """
        try:
            async with self._transaction() as db:
                game_id = await insert_game(db, game)
                claimed = await db.execute(
                    "UPDATE tournament_pairings SET game_id = ? WHERE id = ? AND game_id IS NULL "
                    "AND result IS NULL AND EXISTS (SELECT 1 FROM tournaments t "
                    "WHERE t.id = tournament_pairings.tournament_id AND t.status = 'running')",
                    (game_id, pairing_id),
                )
                if claimed != 1:
                    raise _PairingTaken
                row = await db.fetch_one(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
                )
        except _PairingTaken:
            return None
        assert row is not None
        return game_from(row)

    async def mark_pairing_announced(self, pairing_id: int) -> None:
        """Remember that the pairing's game was announced to its players."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournament_pairings SET announced = ? WHERE id = ?", (True, pairing_id)
            )
