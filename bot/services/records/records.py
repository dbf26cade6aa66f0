"""`RecordService`: game records to export, histories of finished games, imports.

Who may see a game: in a server, that server's games; in direct messages, the games the
person played (`visible_to`). A history shown in a server lists that server's games; in
direct messages, the games the person looking played in too. Exports and imports go
through the pure formats in `bot.records`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from bot.ai.levels import parse_level
from bot.records import Reading, read_with_notes
from bot.records.ap_json import to_ap_json
from bot.records.limits import decode_record, excerpt, one_line
from bot.records.replay import Replayed, replay
from bot.records.sgf import GAME as SGF_GAME
from bot.records.sgf import to_sgf
from bot.records.text import to_text
from bot.records.transcript import RecordError, Tournament, Transcript, transcript_of
from bot.services.clock import Clock
from bot.services.durations import parse_time_control
from bot.services.errors import InvalidInputError, NotFoundError, ServiceError
from bot.storage.records import HistoryQuery, ImportMark
from bot.storage.repository import FinishedGame, GameRecord, GameStatus, MoveRecord, Repository
from rules import GameError, get_game

log = logging.getLogger(__name__)

PAGE_SIZE = 10
"""Games per page of a history."""
FORMATS = ("json", "sgf", "text")
"""Every export format, by the name `tabula export --format` takes."""
EXTENSIONS = {"json": "json", "sgf": "sgf", "text": "txt"}
DEFAULT_REASON = "as recorded"
"""The reason given to an imported game whose record names none."""


class ImportRefusedError(ServiceError):
    """A record that cannot be imported; nothing was stored."""


@dataclass(frozen=True, slots=True)
class Imported:
    """A game stored from a record file, and what the file held that was left out."""

    record: GameRecord
    notes: tuple[str, ...]
    """One sentence each (other variations, other games of a collection)."""


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """A record file read, replayed and checked, ready to store."""

    transcript: Transcript
    replayed: Replayed
    levels: tuple[str | None, str | None]
    """The computer's level of each seat, as stored."""
    notes: tuple[str, ...]
    """What the file held that was left out, one sentence each."""


@dataclass(frozen=True, slots=True)
class RecordFile:
    """One exported file."""

    format: str
    """`json`, `sgf` or `text`."""
    filename: str
    content: str


@dataclass(frozen=True, slots=True)
class Export:
    """A game's record in every format that fits it."""

    record: GameRecord
    transcript: Transcript
    files: tuple[RecordFile, ...]

    def file(self, format_name: str) -> RecordFile | None:
        """The file in this format, if the game has one."""
        return next((f for f in self.files if f.format == format_name), None)


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a user's finished games, newest first."""

    query: HistoryQuery
    entries: tuple[FinishedGame, ...]
    page: int
    """1 for the newest games."""
    pages: int
    """How many pages there are (at least 1)."""
    total: int
    """How many games in all."""


def formats_for(transcript: Transcript) -> tuple[str, ...]:
    """The formats a game is exported in: AbstractPlay JSON once it is finished, SGF for
    Stones, text always."""
    found = []
    if transcript.finished:
        found.append("json")
    if transcript.game == SGF_GAME:
        found.append("sgf")
    found.append("text")
    return tuple(found)


def write(transcript: Transcript, format_name: str, now: datetime) -> str:
    """The transcript in one format (`ValueError` when the format does not fit the game)."""
    if format_name == "json":
        return to_ap_json(transcript, now)
    if format_name == "sgf":
        return to_sgf(transcript)
    if format_name == "text":
        return to_text(transcript)
    raise ValueError(f"unknown format {format_name!r}; the formats are {', '.join(FORMATS)}")


def visible_to(record: GameRecord, viewer: int, guild_id: int | None) -> bool:
    """Whether someone in this server (or, with no server, in direct messages) may see
    the game: a server sees its own games, a person in direct messages their own."""
    if guild_id is not None:
        return record.guild_id == guild_id
    return record.seat_of(viewer) is not None


def history_query(
    user_id: int, viewer: int, guild_id: int | None, game: str | None = None
) -> HistoryQuery:
    """What a history may list: in a server, its games; in direct messages, the games
    the viewer played (all of the user's when they look at their own)."""
    if guild_id is not None:
        return HistoryQuery(user_id, guild_id=guild_id, game=game)
    return HistoryQuery(user_id, with_user=None if viewer == user_id else viewer, game=game)


class RecordService:
    """Exports games, lists finished games, imports records."""

    def __init__(self, repository: Repository, clock: Clock) -> None:
        self._repository = repository
        self._clock = clock

    # --- exports ---

    async def transcript(self, record: GameRecord) -> Transcript:
        """The transcript of a stored game (a game in progress without the moves of a turn
        its player has not finished)."""
        repository = self._repository
        moves = await repository.list_moves(record.id)
        tournament = None
        rated = None
        if record.tournament_id is not None:
            found = await repository.get_tournament(record.tournament_id)
            pairing = await repository.pairing_for_game(record.id)
            if found is not None and pairing is not None:
                tournament = Tournament(found.name, str(pairing.round))
        mark = await repository.import_mark(record.id)
        if mark is not None:
            rated = mark.rated
            if mark.event is not None:
                tournament = Tournament(mark.event, mark.round or "")
        return transcript_of(record, moves, tournament=tournament, rated=rated)

    async def export_of(self, record: GameRecord) -> Export:
        """The game's record in every format that fits it."""
        transcript = await self.transcript(record)
        now = self._clock.now()
        files = tuple(
            RecordFile(
                name,
                f"tabula-{record.id}-{record.game}.{EXTENSIONS[name]}",
                write(transcript, name, now),
            )
            for name in formats_for(transcript)
        )
        return Export(record, transcript, files)

    async def visible_game(self, game_id: int, viewer: int, guild_id: int | None) -> GameRecord:
        """The game, if the viewer may see it here; `NotFoundError` otherwise."""
        record = await self._repository.get_game(game_id)
        if record is None or not visible_to(record, viewer, guild_id):
            where = "in this server" if guild_id is not None else "of yours"
            raise NotFoundError(f"There is no game #{game_id} {where}.")
        return record

    async def game_to_export(
        self, viewer: int, guild_id: int | None, location: int | None, game_id: int | None
    ) -> GameRecord:
        """The game an export means: the one named; else the game of this thread; else the
        viewer's most recently finished game here."""
        if game_id is not None:
            return await self.visible_game(game_id, viewer, guild_id)
        if location is not None:
            here = await self._repository.latest_game_at(location)
            if here is not None and visible_to(here, viewer, guild_id):
                return here
        latest = await self._repository.finished_games(
            history_query(viewer, viewer, guild_id), limit=1
        )
        if not latest:
            raise NotFoundError("You have no finished game here; name one by its number (game:12).")
        return latest[0].record

    # --- histories ---

    async def history(
        self,
        user_id: int,
        *,
        viewer: int,
        guild_id: int | None,
        game: str | None = None,
        page: int = 1,
    ) -> HistoryPage:
        """A page of `user_id`'s finished games as `viewer` may see them here."""
        name = None
        if game is not None:
            try:
                name = get_game(game).name
            except GameError as exc:
                raise InvalidInputError(str(exc)) from None
        query = history_query(user_id, viewer, guild_id, name)
        page = max(1, page)
        total, entries = await self._repository.history_page(
            query, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        pages = max(1, -(-total // PAGE_SIZE))
        if page > pages:  # past the end (the history shrank, or a forged page): the last
            page = pages
            total, entries = await self._repository.history_page(
                query, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
            )
            pages = max(1, -(-total // PAGE_SIZE))
            page = min(page, pages)
        return HistoryPage(query, tuple(entries), page, pages, total)

    # --- imports ---

    async def import_record(self, text: str, *, guild_id: int | None = None) -> GameRecord:
        """Replay a record through the engine and store it as a finished, unrated game
        marked imported; `ImportRefusedError` (nothing stored) for a bad record."""
        return (await self.import_file(text, guild_id=guild_id)).record

    async def import_file(self, data: bytes | str, *, guild_id: int | None = None) -> Imported:
        """Import a record file's bytes (or text): see `import_record`; also says what the
        file held that was left out."""
        return await self.store_import(read_import(data), guild_id=guild_id)

    async def store_import(self, plan: ImportPlan, *, guild_id: int | None = None) -> Imported:
        """Store a record already read and replayed (`read_import`)."""
        transcript, replayed = plan.transcript, plan.replayed
        record = self._imported_game(plan, guild_id)
        seats = record.players
        moves = [
            MoveRecord(0, ply, seat, seats[seat], notation, record.finished_at or record.created_at)
            for ply, (seat, notation) in enumerate(replayed.moves, start=1)
        ]
        tournament = transcript.tournament
        mark = ImportMark(
            0,
            transcript.rated,
            None if tournament is None else tournament.event,
            None if tournament is None else tournament.round,
            self._clock.now(),
        )
        stored = await self._repository.store_imported_game(record, moves, mark)
        return Imported(stored, plan.notes)

    def _imported_game(self, plan: ImportPlan, guild_id: int | None) -> GameRecord:
        """The row of an imported game."""
        transcript, replayed = plan.transcript, plan.replayed
        players = tuple(seat.user_id for seat in transcript.seats)
        outcome = replayed.state.outcome()
        reason = transcript.reason or (outcome.reason if outcome else DEFAULT_REASON)
        ended = transcript.ended_at or transcript.started_at
        return GameRecord(
            game=transcript.game,
            options=dict(transcript.options),
            guild_id=guild_id,
            channel_id=0,
            players=(players[0], players[1]),
            names=(transcript.seats[0].name, transcript.seats[1].name),
            created_at=transcript.started_at,
            ai_levels=plan.levels,
            rated=False,
            time_control=transcript.time_control,
            status=GameStatus.FINISHED,
            ply=len(replayed.moves),
            to_move=replayed.state.to_move,
            winner=transcript.winner,
            result_reason=reason,
            updated_at=self._clock.now(),
            finished_at=ended,
        )


def read_import(data: bytes | str) -> ImportPlan:
    """A record file from outside read, replayed and checked for everything Tabula
    stores, touching no database; `ImportRefusedError` (one line) for anything wrong."""
    reading = _read(data)
    transcript = reading.transcript
    try:
        replayed = replay(transcript)
        levels = _checked_seats(transcript)
    except RecordError as exc:
        raise ImportRefusedError(one_line(str(exc))) from None
    return ImportPlan(transcript, replayed, levels, reading.notes)


def _read(data: bytes | str) -> Reading:
    """The record read from a file from outside: one line for anything wrong with it."""
    try:
        reading = read_with_notes(decode_record(data) if isinstance(data, bytes) else data)
        if reading.transcript.status is not GameStatus.FINISHED:
            finished = reading.transcript.status is GameStatus.ABORTED
            state = "aborted" if finished else "in progress"
            raise RecordError(f"only finished games can be imported; this one is {state}")
    except RecordError as exc:
        raise ImportRefusedError(one_line(str(exc))) from None
    except (ArithmeticError, LookupError, RecursionError, TypeError, ValueError) as exc:
        log.exception("a record could not be read")
        raise ImportRefusedError(
            f"the record could not be read ({type(exc).__name__}: {excerpt(str(exc))})"
        ) from None
    return reading


def _checked_seats(transcript: Transcript) -> tuple[str | None, str | None]:
    """The computer's level of each seat as stored (`RecordError` for what Tabula cannot
    store: a bad time control, one user id twice, an unknown level)."""
    try:
        parse_time_control(transcript.time_control)
    except InvalidInputError as exc:
        raise RecordError(f"the time control: {exc}") from None
    players = tuple(seat.user_id for seat in transcript.seats)
    if players[0] is not None and players[0] == players[1]:
        raise RecordError("both players have the same user id")
    levels: list[str | None] = []
    for seat in transcript.seats:
        try:
            level = parse_level(seat.level).value if seat.level else None
        except ValueError as exc:
            raise RecordError(f"{seat.name}: {exc}") from None
        levels.append(None if seat.user_id is not None else level)
    return levels[0], levels[1]
