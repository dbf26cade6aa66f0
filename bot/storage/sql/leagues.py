"""Leagues: the league, its members, seasons, placements and games."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.competition.leagues import Move
from bot.competition.records import Result
from bot.storage.database import Connection, Row
from bot.storage.leagues import (
    LeagueGameRecord,
    LeagueMember,
    LeagueRecord,
    LeagueStatus,
    NewLeague,
    NewLeagueGame,
    PlacementRecord,
    SeasonRecord,
    SeasonStatus,
)
from bot.storage.repository import GameRecord, NewGame
from bot.storage.sql.base import SqlBase
from bot.storage.sql.games import insert_game
from bot.storage.sql.rows import (
    GAME_COLUMNS,
    game_from,
    options_from,
    options_json,
    parse_time,
    required_time,
)

LEAGUE_COLUMNS = (
    "id, guild_id, channel_id, name, organiser_id, organiser_name, game, options, "
    "time_control, rated, games_per_pair, smallest, largest, season_seconds, entry_seconds, "
    "status, season, announced_season, starts_at, ends_at, created_at, updated_at"
)
MEMBER_COLUMNS = "league_id, user_id, name, joined_at"
SEASON_COLUMNS = "league_id, number, status, started_at, ends_at, finished_at"
PLACEMENT_COLUMNS = (
    "league_id, season, user_id, name, division, position, rating, withdrawn_at, place, move"
)
LEAGUE_GAME_COLUMNS = (
    "id, league_id, season, division, round, first_id, second_id, result, game_id, announced"
)

_NEEDING_WORK = """
SELECT l.id FROM leagues l WHERE (l.status = 'open' AND l.starts_at <= ?)
OR (l.status = 'running' AND (
    -- the season's time is up, or its start was not posted yet
    l.ends_at <= ? OR l.announced_season < l.season
    -- every game has a result: the season ends
    OR NOT EXISTS (SELECT 1 FROM league_games g WHERE g.league_id = l.id
                   AND g.season = l.season AND g.result IS NULL)
    -- a game to make or announce
    OR EXISTS (SELECT 1 FROM league_games g WHERE g.league_id = l.id AND g.season = l.season
               AND g.result IS NULL AND (g.game_id IS NULL OR NOT g.announced))
    -- a game that ended without its result reaching the league
    OR EXISTS (SELECT 1 FROM league_games g JOIN games x ON x.id = g.game_id
               WHERE g.league_id = l.id AND g.season = l.season AND g.result IS NULL
               AND x.status != 'active')
    -- a game of a player who left, still in progress (a crash before it was aborted)
    OR EXISTS (SELECT 1 FROM league_games g JOIN games x ON x.id = g.game_id
               JOIN league_placements p ON p.league_id = g.league_id AND p.season = g.season
               AND p.user_id IN (g.first_id, g.second_id)
               WHERE g.league_id = l.id AND g.season = l.season
               AND p.withdrawn_at IS NOT NULL AND x.status = 'active')
)) OR (l.status = 'cancelled' AND EXISTS (
    -- a game left in progress by a crash after the cancellation
    SELECT 1 FROM league_games g JOIN games x ON x.id = g.game_id
    WHERE g.league_id = l.id AND x.status = 'active'
)) ORDER BY l.id
"""


class _GameTaken(Exception):
    """Rolls back a game created for a league game that got one from another writer."""


def league_from(row: Row) -> LeagueRecord:
    """A league row as a record."""
    return LeagueRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        organiser_id=row["organiser_id"],
        organiser_name=row["organiser_name"],
        game=row["game"],
        options=options_from(row["options"]),
        time_control=row["time_control"],
        rated=bool(row["rated"]),
        games_per_pair=row["games_per_pair"],
        smallest=row["smallest"],
        largest=row["largest"],
        season_length=timedelta(seconds=row["season_seconds"]),
        entry_window=timedelta(seconds=row["entry_seconds"]),
        status=LeagueStatus(row["status"]),
        season=row["season"],
        announced_season=row["announced_season"],
        starts_at=required_time(row["starts_at"]),
        ends_at=parse_time(row["ends_at"]),
        created_at=required_time(row["created_at"]),
        updated_at=parse_time(row["updated_at"]),
    )


def member_from(row: Row) -> LeagueMember:
    """A league member row as a record."""
    return LeagueMember(
        row["league_id"], row["user_id"], row["name"], required_time(row["joined_at"])
    )


def season_from(row: Row) -> SeasonRecord:
    """A season row as a record."""
    return SeasonRecord(
        league_id=row["league_id"],
        number=row["number"],
        status=SeasonStatus(row["status"]),
        started_at=required_time(row["started_at"]),
        ends_at=required_time(row["ends_at"]),
        finished_at=parse_time(row["finished_at"]),
    )


def placement_from(row: Row) -> PlacementRecord:
    """A placement row as a record."""
    return PlacementRecord(
        league_id=row["league_id"],
        season=row["season"],
        user_id=row["user_id"],
        name=row["name"],
        division=row["division"],
        position=row["position"],
        rating=row["rating"],
        withdrawn_at=parse_time(row["withdrawn_at"]),
        place=row["place"],
        move=None if row["move"] is None else Move(row["move"]),
    )


def league_game_from(row: Row) -> LeagueGameRecord:
    """A league game row as a record."""
    return LeagueGameRecord(
        id=row["id"],
        league_id=row["league_id"],
        season=row["season"],
        division=row["division"],
        round=row["round"],
        first_id=row["first_id"],
        second_id=row["second_id"],
        result=None if row["result"] is None else Result(row["result"]),
        game_id=row["game_id"],
        announced=bool(row["announced"]),
    )


async def _update_league(db: Connection, league: LeagueRecord) -> None:
    await db.execute(
        "UPDATE leagues SET status = ?, season = ?, announced_season = ?, starts_at = ?, "
        "ends_at = ?, updated_at = ? WHERE id = ?",
        (
            league.status.value,
            league.season,
            league.announced_season,
            league.starts_at,
            league.ends_at,
            league.updated_at,
            league.id,
        ),
    )


class LeagueQueries(SqlBase):
    """Leagues, their members, seasons, placements and games."""

    async def create_league(self, league: NewLeague) -> LeagueRecord:
        """Store a new league, open for entries to its first season."""
        async with self._transaction() as db:
            league_id = await db.insert(
                "INSERT INTO leagues (guild_id, channel_id, name, organiser_id, organiser_name, "
                "game, options, time_control, rated, games_per_pair, smallest, largest, "
                "season_seconds, entry_seconds, starts_at, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    league.guild_id,
                    league.channel_id,
                    league.name,
                    league.organiser_id,
                    league.organiser_name,
                    league.game,
                    options_json(league.options),
                    league.time_control,
                    league.rated,
                    league.games_per_pair,
                    league.smallest,
                    league.largest,
                    int(league.season_length.total_seconds()),
                    int(league.entry_window.total_seconds()),
                    league.starts_at,
                    league.created_at,
                    league.created_at,
                ),
            )
        record = await self.get_league(league_id)
        assert record is not None
        return record

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        """The league with this id."""
        row = await self._db.fetch_one(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,)
        )
        return None if row is None else league_from(row)

    async def update_league(self, league: LeagueRecord) -> None:
        """Store the league's changeable fields (status, season, times)."""
        async with self._transaction() as db:
            await _update_league(db, league)

    async def list_leagues(
        self, guild_id: int, statuses: Sequence[LeagueStatus]
    ) -> list[LeagueRecord]:
        """A server's leagues in these states, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch_all(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues "
            f"WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC",
            (guild_id, *(status.value for status in statuses)),
        )
        return [league_from(row) for row in rows]

    async def leagues_needing_work(self, now: datetime) -> list[int]:
        """Leagues with something to do: a season to start or end, a result to record, a
        game to make or announce, a game a cancellation left in progress."""
        rows = await self._db.fetch_all(_NEEDING_WORK, (now, now))
        return [row["id"] for row in rows]

    # --- members ---

    async def add_league_member(self, member: LeagueMember) -> bool:
        """Enter a player for the coming seasons; False when they are entered already."""
        async with self._transaction() as db:
            found = await db.fetch_one(
                "SELECT 1 AS found FROM league_members WHERE league_id = ? AND user_id = ?",
                (member.league_id, member.user_id),
            )
            if found is not None:
                return False
            await db.execute(
                f"INSERT INTO league_members ({MEMBER_COLUMNS}) VALUES (?, ?, ?, ?)",
                (member.league_id, member.user_id, member.name, member.joined_at),
            )
        return True

    async def remove_league_member(self, league_id: int, user_id: int) -> bool:
        """Take a player's entry back; False when they were not entered."""
        async with self._transaction() as db:
            removed = await db.execute(
                "DELETE FROM league_members WHERE league_id = ? AND user_id = ?",
                (league_id, user_id),
            )
        return removed == 1

    async def list_league_members(self, league_id: int) -> list[LeagueMember]:
        """The league's members, in the order they joined."""
        rows = await self._db.fetch_all(
            f"SELECT {MEMBER_COLUMNS} FROM league_members WHERE league_id = ? "
            "ORDER BY joined_at, user_id",
            (league_id,),
        )
        return [member_from(row) for row in rows]

    # --- seasons ---

    async def start_season(
        self,
        league: LeagueRecord,
        season: SeasonRecord,
        placements: Sequence[PlacementRecord],
        games: Sequence[NewLeagueGame],
    ) -> None:
        """In one transaction, store the running league, its new season, the divisions
        and every game of the season (without their games yet)."""
        async with self._transaction() as db:
            await _update_league(db, league)
            await db.execute(
                f"INSERT INTO league_seasons ({SEASON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    season.league_id,
                    season.number,
                    season.status.value,
                    season.started_at,
                    season.ends_at,
                    season.finished_at,
                ),
            )
            await db.execute_many(
                f"INSERT INTO league_placements ({PLACEMENT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        p.league_id,
                        p.season,
                        p.user_id,
                        p.name,
                        p.division,
                        p.position,
                        p.rating,
                        p.withdrawn_at,
                        p.place,
                        None if p.move is None else p.move.value,
                    )
                    for p in placements
                ],
            )
            await db.execute_many(
                "INSERT INTO league_games (league_id, season, division, round, first_id, "
                "second_id) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        league.id,
                        season.number,
                        game.division,
                        game.pairing.round,
                        game.pairing.first,
                        game.pairing.second,
                    )
                    for game in games
                ],
            )

    async def finish_season(
        self,
        league: LeagueRecord,
        season: SeasonRecord,
        placements: Sequence[PlacementRecord],
    ) -> None:
        """In one transaction, store the season's end (or cancellation), every player's
        final place and move, and the league as it goes on."""
        async with self._transaction() as db:
            await _update_league(db, league)
            await db.execute(
                "UPDATE league_seasons SET status = ?, finished_at = ? "
                "WHERE league_id = ? AND number = ?",
                (season.status.value, season.finished_at, season.league_id, season.number),
            )
            await db.execute_many(
                "UPDATE league_placements SET place = ?, move = ? "
                "WHERE league_id = ? AND season = ? AND user_id = ?",
                [
                    (
                        p.place,
                        None if p.move is None else p.move.value,
                        p.league_id,
                        p.season,
                        p.user_id,
                    )
                    for p in placements
                ],
            )

    async def list_seasons(self, league_id: int) -> list[SeasonRecord]:
        """The league's seasons, first first."""
        rows = await self._db.fetch_all(
            f"SELECT {SEASON_COLUMNS} FROM league_seasons WHERE league_id = ? ORDER BY number",
            (league_id,),
        )
        return [season_from(row) for row in rows]

    async def list_placements(self, league_id: int, season: int) -> list[PlacementRecord]:
        """A season's players by division, then ladder position."""
        rows = await self._db.fetch_all(
            f"SELECT {PLACEMENT_COLUMNS} FROM league_placements "
            "WHERE league_id = ? AND season = ? ORDER BY division, position",
            (league_id, season),
        )
        return [placement_from(row) for row in rows]

    async def withdraw_from_season(
        self,
        league_id: int,
        season: int,
        user_id: int,
        now: datetime,
        forfeits: Sequence[tuple[int, Result]],
    ) -> None:
        """In one transaction, mark a player withdrawn from the season, store the
        forfeits of their games without a result, and end their membership."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE league_placements SET withdrawn_at = ? "
                "WHERE league_id = ? AND season = ? AND user_id = ? AND withdrawn_at IS NULL",
                (now, league_id, season, user_id),
            )
            await db.execute_many(
                "UPDATE league_games SET result = ? WHERE id = ? AND result IS NULL",
                [(result.value, game_id) for game_id, result in forfeits],
            )
            await db.execute(
                "DELETE FROM league_members WHERE league_id = ? AND user_id = ?",
                (league_id, user_id),
            )

    # --- games ---

    async def list_league_games(self, league_id: int, season: int) -> list[LeagueGameRecord]:
        """A season's games by division, in the order they were made."""
        rows = await self._db.fetch_all(
            f"SELECT {LEAGUE_GAME_COLUMNS} FROM league_games "
            "WHERE league_id = ? AND season = ? ORDER BY division, id",
            (league_id, season),
        )
        return [league_game_from(row) for row in rows]

    async def league_game_for(self, game_id: int) -> LeagueGameRecord | None:
        """The league game a game was played for."""
        row = await self._db.fetch_one(
            f"SELECT {LEAGUE_GAME_COLUMNS} FROM league_games WHERE game_id = ?", (game_id,)
        )
        return None if row is None else league_game_from(row)

    async def set_league_result(self, league_game_id: int, result: Result) -> bool:
        """Store a result for a league game that has none; False when it had one."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE league_games SET result = ? WHERE id = ? AND result IS NULL",
                (result.value, league_game_id),
            )
        return changed == 1

    async def create_league_game(self, league_game_id: int, game: NewGame) -> GameRecord | None:
        """Atomically create the game of a league game that has none and no result, in a
        running league; None otherwise (another process made it, a forfeit, a stop)."""
        try:
            async with self._transaction() as db:
                game_id = await insert_game(db, game)
                claimed = await db.execute(
                    "UPDATE league_games SET game_id = ? WHERE id = ? AND game_id IS NULL "
                    "AND result IS NULL AND EXISTS (SELECT 1 FROM leagues l "
                    "WHERE l.id = league_games.league_id AND l.status = 'running' "
                    "AND l.season = league_games.season)",
                    (game_id, league_game_id),
                )
                if claimed != 1:
                    raise _GameTaken
                row = await db.fetch_one(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
                )
        except _GameTaken:
            return None
        assert row is not None
        return game_from(row)

    async def mark_league_game_announced(self, league_game_id: int) -> None:
        """Remember that the league game's start was announced to its players."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE league_games SET announced = ? WHERE id = ?", (True, league_game_id)
            )

    async def set_season_end(self, league_id: int, number: int, ends_at: datetime) -> None:
        """Move the end of a running season (a suspension of its server put it off)."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE league_seasons SET ends_at = ? "
                "WHERE league_id = ? AND number = ? AND status = 'running'",
                (ends_at, league_id, number),
            )
