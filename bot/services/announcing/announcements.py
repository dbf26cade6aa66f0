"""What the players are told, as outbox rows: the kinds, and each kind's notice.

A service that changes something the players must learn writes a `NewAnnouncement` in
the same transaction (see `bot.services.announcing.outbox`). A row holds what to say, not how: the
kind and a small JSON object (for a board, the position itself, encoded), so it reads the
same whenever it is delivered. `Outbox.decode` turns a row back into the notice the
front end words and sends (`bot.services.announcing.notify.Notifier`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.services.views.alerts import ReminderNotice
from bot.services.views.conditional_notes import ClearedNote
from bot.services.views.results import GameView, MoveResult
from bot.services.views.tournaments import TournamentView
from bot.storage.competition import PairingRecord
from bot.storage.repository import (
    ChallengeRecord,
    GameRecord,
    GameStatus,
    MoveRecord,
    NewAnnouncement,
    Vacation,
)
from bot.storage.suspensions import Suspension, SuspensionReason


class Kind(enum.StrEnum):
    """What an announcement reports."""

    START = "start"
    """A game began: open its thread (if the server uses threads), post the first board."""
    MOVE = "move"
    """A turn was completed (or the game's last move played): the board after it."""
    END = "end"
    """A game ended without a move (resigned, drawn by agreement, ended by an
    administrator, aborted): the final board."""
    TIMEOUT = "timeout"
    """A game was lost on time: the final board in the thread."""
    OFFER = "offer"
    """A draw offer or an undo request, with the buttons to answer it."""
    ANSWER = "answer"
    """A draw offer or an undo request declined."""
    UNDO = "undo"
    """Moves were taken back (the opponent allowed it): the board after."""
    REMINDER = "reminder"
    """A player's time runs low (by direct message, or in the game's thread)."""
    VACATION = "vacation"
    """A player went away or came back: a line in one of their games."""
    TURN_DM = "turn_dm"
    """A direct message: it is your turn."""
    TIMEOUT_DM = "timeout_dm"
    """A direct message: a game of yours was lost on time."""
    DIGEST = "digest"
    """A direct message listing the games waiting for the player."""
    VACATION_DM = "vacation_dm"
    """A direct message: your vacation ended by itself."""
    CONDITIONAL_DM = "conditional_dm"
    """A direct message: your conditional moves in a game were cleared, and why."""
    UNDELIVERED = "undelivered"
    """A direct message: something could not be posted where it belongs, and why."""
    CHALLENGE_EXPIRED = "challenge_expired"
    """A challenge nobody answered: its message edited, its buttons disabled."""
    CHALLENGE_GONE_DM = "challenge_gone_dm"
    """A direct message: a challenge was withdrawn because its channel was deleted."""
    ROUND = "round"
    """A tournament round was paired: its pairings posted."""
    ROUND_ABORTED = "round_aborted"
    """Tournament games were aborted (cancellation, withdrawal before a move)."""
    SEED_ADVANCED = "seed_advanced"
    """A knockout match drawn to its last game: the better seed goes through."""
    TOURNAMENT_FINISHED = "tournament_finished"
    TOURNAMENT_CANCELLED = "tournament_cancelled"
    LEAGUE_SEASON_STARTED = "league_season_started"
    """A league season started: its divisions posted, before its games' threads."""
    LEAGUE_SEASON_FINISHED = "league_season_finished"
    """A league season ended: final standings, who goes up and down, the next season."""
    LEAGUE_WITHDRAWAL = "league_withdrawal"
    """A player left a running season: their remaining games are forfeited."""
    LEAGUE_POSTPONED = "league_postponed"
    """A season could not start with too few players: it starts later."""
    LEAGUE_CANCELLED = "league_cancelled"
    """A league was cancelled: games in progress aborted."""
    PLACE_DELETED = "place_deleted"
    """A game's thread or channel was deleted: its board in a new place, at once (the
    game would move at its next post anyway)."""
    RESUMED = "resumed"
    """A suspended game goes on (Tabula is back in its server, or it has a channel again):
    the board where it is played, with the time each player had."""
    SUSPENSION_DM = "suspension_dm"
    """A direct message: games of yours are suspended (Tabula was removed from their
    server, or a game's channel is gone), or were aborted when that lasted too long."""


LEAGUE_KINDS = frozenset(
    {
        Kind.LEAGUE_SEASON_STARTED,
        Kind.LEAGUE_SEASON_FINISHED,
        Kind.LEAGUE_WITHDRAWAL,
        Kind.LEAGUE_POSTPONED,
        Kind.LEAGUE_CANCELLED,
    }
)
"""The kinds a league posts where it is run (`league_row`)."""


ANSWERABLE = frozenset({Kind.MOVE, Kind.END, Kind.OFFER, Kind.ANSWER, Kind.UNDO})
"""Kinds an interaction can deliver itself, as its answer, when given where the game is."""


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _parse(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


# --- the notices the front ends word ---


@dataclass(frozen=True, slots=True)
class StartNotice:
    """A game began."""

    view: GameView
    """The game at its first position."""
    tournament: TournamentView | None = None
    pairing: PairingRecord | None = None


@dataclass(frozen=True, slots=True)
class MoveNotice:
    """A completed turn (one move, or a Diffusion Chess turn of several)."""

    view: GameView
    """The game just after the turn."""
    turn_moves: tuple[MoveRecord, ...]
    draw_offer_lapsed: bool = False
    conditional: bool = False
    """The move was a conditional move, played for the player in advance."""

    @property
    def move(self) -> MoveRecord:
        """The turn's last move."""
        return self.turn_moves[-1]

    @property
    def turn_notation(self) -> str:
        """The turn's moves in notation, comma-separated."""
        return ", ".join(move.notation for move in self.turn_moves)

    @property
    def turn_complete(self) -> bool:
        """Always: only completed turns are announced."""
        return True

    @property
    def finished(self) -> bool:
        """True when the turn ended the game."""
        return self.view.outcome is not None


@dataclass(frozen=True, slots=True)
class EndNotice:
    """A game ended without a move (the view says how)."""

    view: GameView


@dataclass(frozen=True, slots=True)
class OfferNotice:
    """A player offered a draw (`what` = "draw") or asked to take back moves ("undo")."""

    view: GameView
    what: str
    seat: int
    """The seat that asked."""
    ply: int
    """The game's ply when asked: the answer buttons refer to it."""
    notation: str = ""
    """For an undo: the moves it would take back."""


@dataclass(frozen=True, slots=True)
class AnswerNotice:
    """A draw offer or an undo request was declined."""

    view: GameView
    what: str
    seat: int
    """The seat that declined."""
    notation: str = ""
    """For an undo: the moves it would have taken back."""
    by_computer: bool = False


@dataclass(frozen=True, slots=True)
class UndoNotice:
    """Moves were taken back with the opponent's consent."""

    view: GameView
    """The game after the undo."""
    seat: int
    """The seat that asked."""
    notation: str
    """The moves taken back."""
    by_computer: bool = False
    """The computer (the opponent) allowed it at once."""


@dataclass(frozen=True, slots=True)
class UndeliveredNotice:
    """An announcement could not be posted; its player is told by direct message."""

    user_id: int
    location: int | None
    """Where it should have been posted."""
    game_id: int | None
    reason: str
    kind: str = "other"
    """What kind of refusal it was (`bot.services.announcing.outbox.Refusal`): what can be
    done about it depends on it."""


@dataclass(frozen=True, slots=True)
class ResumedNotice:
    """A suspended game goes on."""

    view: GameView
    """The game now, as everyone may see it."""
    reason: SuspensionReason
    """Why it was suspended."""
    lasted: timedelta
    """How long the suspension lasted (the clocks stood still meanwhile)."""


@dataclass(frozen=True, slots=True)
class SuspensionNotice:
    """A player's games were suspended, or aborted after a suspension lasted too long."""

    user_id: int
    games: tuple[GameRecord, ...]
    reason: SuspensionReason
    aborted: bool
    """True when the suspension ran out and the games were aborted (unrated)."""
    until: datetime | None
    """While suspended: when the games will be aborted unless they go on first."""


@dataclass(frozen=True, slots=True)
class VacationPost:
    """A player went away or came back: the line posted in one of their games."""

    user_id: int
    vacation: Vacation
    started: bool
    record: GameRecord


# --- rows ---


def game_stream(game_id: int) -> str:
    """The stream of a game's announcements (delivered in order)."""
    return f"game:{game_id}"


def user_stream(user_id: int) -> str:
    """The stream of a user's direct messages."""
    return f"user:{user_id}"


def _game_row(kind: Kind, record: GameRecord, data: Mapping[str, Any]) -> NewAnnouncement:
    return NewAnnouncement(
        kind=kind.value,
        stream=game_stream(record.id),
        data={"location": record.location, **data},
        guild_id=record.guild_id,
        game_id=record.id,
    )


def _user_row(kind: Kind, user_id: int, data: Mapping[str, Any]) -> NewAnnouncement:
    return NewAnnouncement(
        kind=kind.value, stream=user_stream(user_id), data={"user": user_id, **data}
    )


def _position(view: GameView) -> dict[str, Any]:
    """The game row's changeable fields and the encoded state: a board as it stood."""
    record = view.record
    return {
        "state": view.state.encode(),
        "ply": record.ply,
        "to_move": record.to_move,
        "status": record.status.value,
        "winner": record.winner,
        "reason": record.result_reason,
    }


def _move_values(move: MoveRecord) -> list[Any]:
    return [move.ply, move.seat, move.user_id, move.notation, move.played_at.isoformat()]


def start_row(record: GameRecord, pairing: PairingRecord | None = None) -> NewAnnouncement:
    """A new game: its thread and first board (a tournament game's with its pairing)."""
    data: dict[str, Any] = {}
    if pairing is not None:
        data = {"tournament": pairing.tournament_id, "pairing": pairing.id}
    return _game_row(Kind.START, record, data)


def move_row(result: MoveResult, *, conditional: bool = False) -> NewAnnouncement:
    """A completed turn."""
    return _game_row(
        Kind.MOVE,
        result.view.record,
        {
            **_position(result.view),
            "moves": [_move_values(move) for move in result.turn_moves],
            "lapsed": result.draw_offer_lapsed,
            "conditional": conditional,
        },
    )


def end_row(view: GameView) -> NewAnnouncement:
    """A game that ended without a move."""
    return _game_row(Kind.END, view.record, _position(view))


def timeout_row(view: GameView, seat: int, deadline: datetime) -> NewAnnouncement:
    """A loss on time, posted where the game is played."""
    return _game_row(
        Kind.TIMEOUT,
        view.record,
        {**_position(view), "seat": seat, "deadline": deadline.isoformat()},
    )


def timeout_dm_row(user_id: int, game_id: int, seat: int, deadline: datetime) -> NewAnnouncement:
    """A loss on time, told by direct message."""
    return _user_row(
        Kind.TIMEOUT_DM, user_id, {"game": game_id, "seat": seat, "deadline": deadline.isoformat()}
    )


def offer_row(
    view: GameView, what: str, seat: int, ply: int, notation: str = ""
) -> NewAnnouncement:
    """A draw offer or an undo request."""
    return _game_row(
        Kind.OFFER, view.record, {"what": what, "seat": seat, "at": ply, "notation": notation}
    )


def answer_row(
    view: GameView, what: str, seat: int, notation: str = "", *, by_computer: bool = False
) -> NewAnnouncement:
    """A declined draw offer or undo request."""
    return _game_row(
        Kind.ANSWER,
        view.record,
        {"what": what, "seat": seat, "notation": notation, "by_computer": by_computer},
    )


def undo_row(
    view: GameView, seat: int, notation: str, *, by_computer: bool = False
) -> NewAnnouncement:
    """Moves taken back with the opponent's consent."""
    return _game_row(
        Kind.UNDO,
        view.record,
        {**_position(view), "seat": seat, "notation": notation, "by_computer": by_computer},
    )


def reminder_row(notice: ReminderNotice) -> NewAnnouncement:
    """A reminder that a player's time runs low."""
    return _game_row(
        Kind.REMINDER,
        notice.record,
        {
            "user": notice.user_id,
            "seat": notice.seat,
            "left": notice.left.total_seconds(),
            "deadline": notice.deadline.isoformat(),
            "by_dm": notice.by_dm,
        },
    )


def _vacation_values(vacation: Vacation) -> list[Any]:
    return [
        vacation.id,
        vacation.user_id,
        vacation.started_at.isoformat(),
        vacation.ends_at.isoformat(),
        _time(vacation.ended_at),
    ]


def vacation_from(values: Sequence[Any]) -> Vacation:
    """A vacation as stored in an announcement."""
    started, ends = _parse(values[2]), _parse(values[3])
    assert started is not None and ends is not None
    return Vacation(values[0], values[1], started, ends, _parse(values[4]))


def vacation_rows(
    user_id: int, vacation: Vacation, started: bool, games: Sequence[GameRecord], dm: bool
) -> list[NewAnnouncement]:
    """A player away or back: a line in each of their games, and maybe a direct message."""
    data = {"vacation": _vacation_values(vacation), "started": started}
    rows = [_game_row(Kind.VACATION, record, {"user": user_id, **data}) for record in games]
    if dm:
        rows.append(_user_row(Kind.VACATION_DM, user_id, {**data, "games": [g.id for g in games]}))
    return rows


def turn_dm_row(user_id: int, view: GameView, moves: str) -> NewAnnouncement:
    """A direct message: it is the player's turn in a game."""
    return _user_row(
        Kind.TURN_DM, user_id, {"game": view.id, "at": view.record.ply, "moves": moves}
    )


def conditional_dm_row(note: ClearedNote) -> NewAnnouncement:
    """A direct message: the player's conditional moves in a game were cleared, and why."""
    return _user_row(Kind.CONDITIONAL_DM, note.user_id, note.data())


def digest_row(
    user_id: int, games: Sequence[tuple[int, datetime | None, timedelta | None]]
) -> NewAnnouncement:
    """A direct message listing the games waiting for the player."""
    return _user_row(
        Kind.DIGEST,
        user_id,
        {
            "games": [
                [game_id, _time(deadline), None if left is None else left.total_seconds()]
                for game_id, deadline, left in games
            ]
        },
    )


def undelivered_row(
    user_id: int, location: int | None, game_id: int | None, reason: str, kind: str = "other"
) -> NewAnnouncement:
    """A direct message: an announcement about the user's game could not be posted."""
    data = {"location": location, "game": game_id, "reason": reason, "kind": kind}
    return _user_row(Kind.UNDELIVERED, user_id, data)


def place_deleted_row(record: GameRecord, deleted: int) -> NewAnnouncement:
    """The game's thread or channel (`deleted`) was deleted: move the game now."""
    return _game_row(Kind.PLACE_DELETED, record, {"deleted": deleted})


def resumed_row(record: GameRecord, suspension: Suspension, lasted: timedelta) -> NewAnnouncement:
    """A suspended game goes on: its board where it is played."""
    data = {"reason": suspension.reason.value, "lasted": lasted.total_seconds()}
    return _game_row(Kind.RESUMED, record, data)


def suspension_dm_row(
    user_id: int,
    games: Sequence[GameRecord],
    reason: SuspensionReason,
    *,
    aborted: bool,
    until: datetime | None,
) -> NewAnnouncement:
    """A direct message: the player's games were suspended (or aborted after that)."""
    data = {
        "games": [game.id for game in games],
        "reason": reason.value,
        "aborted": aborted,
        "until": _time(until),
    }
    return _user_row(Kind.SUSPENSION_DM, user_id, data)


def challenge_expired_row(challenge: ChallengeRecord) -> NewAnnouncement:
    """A challenge that expired: its message is edited."""
    return NewAnnouncement(
        kind=Kind.CHALLENGE_EXPIRED.value,
        stream=f"challenge:{challenge.id}",
        data={"challenge": challenge.id, "location": challenge.channel_id},
        guild_id=challenge.guild_id,
    )


def challenge_gone_dm_row(user_id: int, challenge: ChallengeRecord) -> NewAnnouncement:
    """A direct message to one of a challenge's players: it was withdrawn, its thread or
    channel deleted."""
    return _user_row(Kind.CHALLENGE_GONE_DM, user_id, {"challenge": challenge.id})


def tournament_row(
    kind: Kind, tournament_id: int, guild_id: int, data: Mapping[str, Any]
) -> NewAnnouncement:
    """A tournament's own announcement (a round, the end, a cancellation, aborted games)."""
    return NewAnnouncement(
        kind=kind.value,
        stream=f"tournament:{tournament_id}",
        data={"tournament": tournament_id, **data},
        guild_id=guild_id,
    )


def league_row(
    kind: Kind, league_id: int, guild_id: int, data: Mapping[str, Any]
) -> NewAnnouncement:
    """A league's own announcement (a season's start or end, a withdrawal, ...)."""
    return NewAnnouncement(
        kind=kind.value,
        stream=f"league:{league_id}",
        data={"league": league_id, **data},
        guild_id=guild_id,
    )


def position_record(record: GameRecord, data: Mapping[str, Any]) -> GameRecord:
    """The game row as it stood when the announcement was written."""
    return record.evolve(
        ply=data["ply"],
        to_move=data["to_move"],
        status=GameStatus(data["status"]),
        winner=data["winner"],
        result_reason=data["reason"],
        draw_offer=None,
        undo_request=None,
    )


def moves_from(game_id: int, values: Sequence[Sequence[Any]]) -> tuple[MoveRecord, ...]:
    """The moves stored in an announcement."""
    return tuple(
        MoveRecord(game_id, ply, seat, user, notation, datetime.fromisoformat(played))
        for ply, seat, user, notation, played in values
    )


def parse_time(text: str | None) -> datetime | None:
    """A time stored in an announcement."""
    return _parse(text)
