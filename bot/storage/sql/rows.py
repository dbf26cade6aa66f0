"""Records to rows and back: the column lists and the mappers every query shares.

Values are written as Python values (datetimes, bools, ints); a database converts them
as its driver needs. Times read back may be text (SQLite) or datetimes (PostgreSQL).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from bot.competition.glicko2 import Rating
from bot.competition.records import Result
from bot.competition.tournament import Format
from bot.storage.competition import (
    EntrantRecord,
    PairingRecord,
    PlayerRating,
    RatingChange,
    TournamentRecord,
    TournamentStatus,
)
from bot.storage.database import Row
from bot.storage.repository import (
    ChallengeRecord,
    ChallengeStatus,
    ClockTurn,
    GameRecord,
    GameStatus,
    MoveRecord,
    Offer,
    Outage,
    UserSettings,
    Vacation,
)
from rules import OptionValue


def parse_time(value: str | datetime | None) -> datetime | None:
    """A stored time: ISO 8601 text (SQLite) or a datetime (PostgreSQL)."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


def required_time(value: str | datetime | None) -> datetime:
    """A stored time that the schema declares NOT NULL."""
    parsed = parse_time(value)
    assert parsed is not None
    return parsed


def options_json(options: object) -> str:
    """Game options as stored: a JSON object with sorted keys."""
    return json.dumps(dict(options), sort_keys=True)  # type: ignore[call-overload]


def options_from(text: str) -> dict[str, OptionValue]:
    """Game options as read back."""
    loaded: dict[str, OptionValue] = json.loads(text)
    return loaded


def seconds(delta: timedelta) -> int:
    """A duration as whole seconds (how durations are stored)."""
    return int(delta.total_seconds())


CHALLENGE_COLUMNS = (
    "id, guild_id, channel_id, message_id, challenger_id, challenger_name, opponent_id, "
    "opponent_name, game, options, challenger_seat, rated, time_control, status, created_at, "
    "expires_at, closed_at, game_id"
)

GAME_COLUMNS = (
    "id, game, options, guild_id, channel_id, thread_id, challenge_id, player0_id, player1_id, "
    "player0_name, player1_name, player0_ai, player1_ai, status, ply, to_move, winner, "
    "result_reason, draw_offer_seat, draw_offer_ply, draw_offer_open, undo_seat, undo_ply, "
    "undo_open, rated, time_control, tournament_id, created_at, updated_at, finished_at, version"
)


def challenge_from(row: Row) -> ChallengeRecord:
    """A challenge row as a record."""
    return ChallengeRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        challenger_id=row["challenger_id"],
        challenger_name=row["challenger_name"],
        opponent_id=row["opponent_id"],
        opponent_name=row["opponent_name"],
        game=row["game"],
        options=options_from(row["options"]),
        challenger_seat=row["challenger_seat"],
        rated=bool(row["rated"]),
        time_control=row["time_control"],
        status=ChallengeStatus(row["status"]),
        created_at=required_time(row["created_at"]),
        expires_at=required_time(row["expires_at"]),
        closed_at=parse_time(row["closed_at"]),
        game_id=row["game_id"],
    )


def _offer(seat: int | None, ply: int | None, is_open: object) -> Offer | None:
    if seat is None or ply is None:
        return None
    return Offer(seat=seat, ply=ply, open=bool(is_open))


def game_from(row: Row) -> GameRecord:
    """A game row as a record."""
    return GameRecord(
        id=row["id"],
        game=row["game"],
        options=options_from(row["options"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        challenge_id=row["challenge_id"],
        players=(row["player0_id"], row["player1_id"]),
        names=(row["player0_name"], row["player1_name"]),
        ai_levels=(row["player0_ai"], row["player1_ai"]),
        status=GameStatus(row["status"]),
        ply=row["ply"],
        to_move=row["to_move"],
        winner=row["winner"],
        result_reason=row["result_reason"],
        draw_offer=_offer(row["draw_offer_seat"], row["draw_offer_ply"], row["draw_offer_open"]),
        undo_request=_offer(row["undo_seat"], row["undo_ply"], row["undo_open"]),
        rated=bool(row["rated"]),
        time_control=row["time_control"],
        tournament_id=row["tournament_id"],
        created_at=required_time(row["created_at"]),
        updated_at=parse_time(row["updated_at"]),
        finished_at=parse_time(row["finished_at"]),
        version=row["version"],
    )


def _offer_values(offer: Offer | None) -> tuple[int | None, int | None, bool]:
    if offer is None:
        return None, None, False
    return offer.seat, offer.ply, offer.open


GAME_UPDATE_COLUMNS = (
    "thread_id", "player0_id", "player1_id", "player0_name", "player1_name", "status",
    "ply", "to_move", "winner", "result_reason", "draw_offer_seat", "draw_offer_ply",
    "draw_offer_open", "undo_seat", "undo_ply", "undo_open", "rated", "time_control",
    "tournament_id", "updated_at", "finished_at",
)  # fmt: skip
"""The columns a game update writes (everything but the game's identity and options)."""


def game_update_values(game: GameRecord) -> tuple[Any, ...]:
    """The values of `GAME_UPDATE_COLUMNS` for a record."""
    draw_seat, draw_ply, draw_open = _offer_values(game.draw_offer)
    undo_seat, undo_ply, undo_open = _offer_values(game.undo_request)
    return (
        game.thread_id,
        game.players[0],
        game.players[1],
        game.names[0],
        game.names[1],
        game.status.value,
        game.ply,
        game.to_move,
        game.winner,
        game.result_reason,
        draw_seat,
        draw_ply,
        draw_open,
        undo_seat,
        undo_ply,
        undo_open,
        game.rated,
        game.time_control,
        game.tournament_id,
        game.updated_at,
        game.finished_at,
    )


MOVE_COLUMNS = "game_id, ply, seat, user_id, notation, played_at"


def move_from(row: Row) -> MoveRecord:
    """A move row as a record."""
    return MoveRecord(
        game_id=row["game_id"],
        ply=row["ply"],
        seat=row["seat"],
        user_id=row["user_id"],
        notation=row["notation"],
        played_at=required_time(row["played_at"]),
    )


def move_values(move: MoveRecord) -> tuple[Any, ...]:
    """The values of `MOVE_COLUMNS` for a record."""
    return (move.game_id, move.ply, move.seat, move.user_id, move.notation, move.played_at)


USER_COLUMNS = "user_id, dm_on_turn, reminders, digest, digest_period_s"


def user_settings_from(row: Row) -> UserSettings:
    """A user's settings row as a record."""
    reminders = tuple(
        timedelta(seconds=int(part)) for part in row["reminders"].split(",") if part.strip()
    )
    return UserSettings(
        user_id=row["user_id"],
        dm_on_turn=bool(row["dm_on_turn"]),
        reminders=reminders,
        digest=bool(row["digest"]),
        digest_period=timedelta(seconds=row["digest_period_s"]),
    )


CLOCK_TURN_COLUMNS = "game_id, turn, seat, start_ply, started_at, bank0_s, bank1_s"


def clock_turn_from(row: Row) -> ClockTurn:
    """A clock turn row as a record."""
    banks = None
    if row["bank0_s"] is not None and row["bank1_s"] is not None:
        banks = (timedelta(seconds=row["bank0_s"]), timedelta(seconds=row["bank1_s"]))
    return ClockTurn(
        game_id=row["game_id"],
        turn=row["turn"],
        seat=row["seat"],
        start_ply=row["start_ply"],
        started_at=required_time(row["started_at"]),
        banks=banks,
    )


def clock_turn_values(turn: ClockTurn) -> tuple[Any, ...]:
    """The values of `CLOCK_TURN_COLUMNS` for a record."""
    banks = turn.banks
    return (
        turn.game_id,
        turn.turn,
        turn.seat,
        turn.start_ply,
        turn.started_at,
        None if banks is None else banks[0].total_seconds(),
        None if banks is None else banks[1].total_seconds(),
    )


VACATION_COLUMNS = "id, user_id, started_at, ends_at, ended_at"


def vacation_from(row: Row) -> Vacation:
    """A vacation row as a record."""
    return Vacation(
        row["id"],
        row["user_id"],
        required_time(row["started_at"]),
        required_time(row["ends_at"]),
        parse_time(row["ended_at"]),
    )


def outage_from(row: Row) -> Outage:
    """An outage row as a record."""
    return Outage(required_time(row["started_at"]), required_time(row["ended_at"]))


RATING_COLUMNS = (
    "user_id, game, name, rating, deviation, volatility, games, wins, draws, losses, last_rated_at"
)

CHANGE_COLUMNS = (
    "game_id, user_id, seat, name, game, guild_id, score, rating_before, deviation_before, "
    "volatility_before, rating_after, deviation_after, volatility_after, rated_at"
)


def _rating_of(row: Row, suffix: str = "") -> Rating:
    return Rating(row[f"rating{suffix}"], row[f"deviation{suffix}"], row[f"volatility{suffix}"])


def rating_from(row: Row) -> PlayerRating:
    """A rating row as a record."""
    return PlayerRating(
        user_id=row["user_id"],
        game=row["game"],
        name=row["name"],
        rating=_rating_of(row),
        games=row["games"],
        wins=row["wins"],
        draws=row["draws"],
        losses=row["losses"],
        last_rated_at=parse_time(row["last_rated_at"]),
    )


def rating_values(rating: PlayerRating) -> tuple[Any, ...]:
    """The values of `RATING_COLUMNS` for a record."""
    value = rating.rating
    return (
        rating.user_id,
        rating.game,
        rating.name,
        value.rating,
        value.deviation,
        value.volatility,
        rating.games,
        rating.wins,
        rating.draws,
        rating.losses,
        rating.last_rated_at,
    )


def rating_change_from(row: Row) -> RatingChange:
    """A rating change row as a record."""
    return RatingChange(
        game_id=row["game_id"],
        user_id=row["user_id"],
        seat=row["seat"],
        name=row["name"],
        game=row["game"],
        guild_id=row["guild_id"],
        score=row["score"],
        before=_rating_of(row, "_before"),
        after=_rating_of(row, "_after"),
        rated_at=required_time(row["rated_at"]),
    )


def rating_change_values(change: RatingChange) -> tuple[Any, ...]:
    """The values of `CHANGE_COLUMNS` for a record."""
    return (
        change.game_id,
        change.user_id,
        change.seat,
        change.name,
        change.game,
        change.guild_id,
        change.score,
        change.before.rating,
        change.before.deviation,
        change.before.volatility,
        change.after.rating,
        change.after.deviation,
        change.after.volatility,
        change.rated_at,
    )


TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, name, organiser_id, organiser_name, game, options, format, "
    "swiss_rounds, rounds, time_control, rated, max_players, status, entry_closes_at, "
    "announced_round, created_at, started_at, finished_at, updated_at, message_id"
)


def tournament_from(row: Row) -> TournamentRecord:
    """A tournament row as a record."""
    return TournamentRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        organiser_id=row["organiser_id"],
        organiser_name=row["organiser_name"],
        game=row["game"],
        options=options_from(row["options"]),
        format=Format(row["format"]),
        swiss_rounds=row["swiss_rounds"],
        rounds=row["rounds"],
        time_control=row["time_control"],
        rated=bool(row["rated"]),
        max_players=row["max_players"],
        status=TournamentStatus(row["status"]),
        entry_closes_at=parse_time(row["entry_closes_at"]),
        announced_round=row["announced_round"],
        created_at=required_time(row["created_at"]),
        started_at=parse_time(row["started_at"]),
        finished_at=parse_time(row["finished_at"]),
        updated_at=parse_time(row["updated_at"]),
        message_id=row["message_id"],
    )


ENTRANT_COLUMNS = "tournament_id, user_id, name, joined_at, seed, rating, withdrawn_at"


def entrant_from(row: Row) -> EntrantRecord:
    """A tournament entrant row as a record."""
    return EntrantRecord(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        name=row["name"],
        joined_at=required_time(row["joined_at"]),
        seed=row["seed"],
        rating=row["rating"],
        withdrawn_at=parse_time(row["withdrawn_at"]),
    )


PAIRING_COLUMNS = "id, tournament_id, round, first_id, second_id, result, game_id, announced"


def pairing_from(row: Row) -> PairingRecord:
    """A tournament pairing row as a record."""
    return PairingRecord(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round=row["round"],
        first_id=row["first_id"],
        second_id=row["second_id"],
        result=None if row["result"] is None else Result(row["result"]),
        game_id=row["game_id"],
        announced=bool(row["announced"]),
    )
