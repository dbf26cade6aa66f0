"""The storage interface the services depend on, and the records it stores.

Services only see this module; `bot.storage.sqlite` implements it with SQLite, and a
different database can replace it by implementing `Repository`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.competition.records import Pairing, Result
from bot.storage.changes import GameChanges
from bot.storage.competition import (
    EntrantRecord,
    NewTournament,
    PairingRecord,
    PlayerRating,
    RatingChange,
    TournamentRecord,
    TournamentStatus,
)
from bot.storage.conditionals import StoredNote, StoredTree
from bot.storage.leagues import (
    LeagueGameRecord,
    LeagueMember,
    LeagueRecord,
    LeagueStatus,
    NewLeague,
    NewLeagueGame,
    PlacementRecord,
    SeasonRecord,
)
from bot.storage.records import HistoryQuery, ImportMark
from bot.storage.suspensions import Suspension, SuspensionOutcome, SuspensionReason
from rules import OptionValue


class StaleGameError(Exception):
    """A game write based on a version of the game row that is no longer the stored one:
    another writer (perhaps another process) changed the game since it was read."""


class DuplicateMoveError(StaleGameError):
    """A move for a (game, ply) that already has a live move: another move won the race."""


class GameStatus(enum.StrEnum):
    """Where a game is in its life."""

    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class LockKind(enum.IntEnum):
    """What a cross-process lock (`Repository.lock`) protects; the number names it."""

    GAME = 1
    TOURNAMENT = 2
    RATINGS = 3
    """Every player's ratings (key 0): one game is rated at a time."""
    LEAGUE = 4


class ChallengeStatus(enum.StrEnum):
    """Where a challenge is in its life; only `OPEN` challenges can change."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class Offer:
    """A draw offer or undo request made by `seat` when the game stood at `ply`."""

    seat: int
    """The seat that made it."""
    ply: int
    """The game's ply when it was made; it refers to that position only."""
    open: bool
    """False once answered or lapsed (kept so the same offer is not repeated at once)."""


@dataclass(frozen=True, slots=True)
class NewChallenge:
    """What a challenge is created with."""

    guild_id: int | None
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int | None
    """None for an open challenge anyone may accept."""
    opponent_name: str | None
    game: str
    options: Mapping[str, OptionValue]
    challenger_seat: int | None
    """0 or 1, or None to draw the seats at random when the challenge is accepted."""
    created_at: datetime
    expires_at: datetime
    rated: bool = False
    time_control: str = "none"


@dataclass(frozen=True, slots=True)
class ChallengeRecord(NewChallenge):
    """A stored challenge."""

    id: int = 0
    status: ChallengeStatus = ChallengeStatus.OPEN
    message_id: int | None = None
    """The message showing the challenge, edited when it expires."""
    closed_at: datetime | None = None
    game_id: int | None = None
    """The game an accepted challenge started."""

    @property
    def is_open(self) -> bool:
        """True while the challenge can be accepted."""
        return self.status is ChallengeStatus.OPEN


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a game is created with."""

    game: str
    options: Mapping[str, OptionValue]
    guild_id: int | None
    channel_id: int
    players: tuple[int | None, int | None]
    """The user id in each seat; None for a computer seat."""
    names: tuple[str, str]
    """The name shown for each seat."""
    created_at: datetime
    ai_levels: tuple[str | None, str | None] = (None, None)
    """The computer's level in a computer seat."""
    challenge_id: int | None = None
    rated: bool = False
    time_control: str = "none"
    tournament_id: int | None = None


@dataclass(frozen=True, slots=True)
class GameRecord(NewGame):
    """A stored game: everything but its moves, which live in the move log."""

    id: int = 0
    thread_id: int | None = None
    """The thread the game is played in; None when it is played in `channel_id`."""
    status: GameStatus = GameStatus.ACTIVE
    ply: int = 0
    """The number of live moves in the log."""
    to_move: int = 0
    winner: int | None = None
    result_reason: str | None = None
    draw_offer: Offer | None = None
    undo_request: Offer | None = None
    updated_at: datetime | None = None
    finished_at: datetime | None = None
    version: int = 0
    """Counts the writes to the game row; every write names the version it read
    (compare-and-set), so a stale write is refused instead of undoing a newer one."""

    @property
    def location(self) -> int:
        """The channel or thread where the game's messages go."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def is_active(self) -> bool:
        """True while moves can be made."""
        return self.status is GameStatus.ACTIVE

    @property
    def has_computer(self) -> bool:
        """True when the computer plays a seat (such games are never rated)."""
        return any(level is not None for level in self.ai_levels)

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` plays, or None for someone else."""
        if self.players[0] == user_id:
            return 0
        if self.players[1] == user_id:
            return 1
        return None

    def opponent_of(self, seat: int) -> int | None:
        """The user id in the other seat."""
        return self.players[1 - seat]

    def evolve(self, **changes: object) -> GameRecord:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One game of a history."""

    record: GameRecord
    imported: bool
    """True for a game imported from a record file (it has no thread)."""


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move in a game's log."""

    game_id: int
    ply: int
    """1 for the first move of the game."""
    seat: int
    user_id: int | None
    notation: str
    played_at: datetime


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A stored state (`encode()`) after `ply` moves, so loading replays fewer moves."""

    ply: int
    encoded: str


DEFAULT_CHALLENGE_EXPIRY = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings, changed with /config."""

    guild_id: int
    game_channels: frozenset[int] = field(default_factory=frozenset)
    """Channels where games may be started; empty means every channel."""
    threads: bool = True
    """Play each game in its own thread (when the channel allows threads)."""
    challenge_expiry: timedelta = DEFAULT_CHALLENGE_EXPIRY
    default_time_control: str = "none"
    organiser_role: int | None = None
    """Members with this role may run tournaments (as may those who can manage the server)."""
    web: str = "players"
    """Who may see the server's games on the web pages: `off`, `players` or `public`."""


DEFAULT_REMINDERS = (timedelta(hours=24), timedelta(hours=1))
"""How long before a deadline players are reminded, unless they chose otherwise."""
DEFAULT_DIGEST_PERIOD = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A user's own settings (/settings)."""

    user_id: int
    dm_on_turn: bool = False
    """Send a direct message when it becomes the user's turn (unless the digest is on)."""
    reminders: tuple[timedelta, ...] = DEFAULT_REMINDERS
    """How long before each deadline to remind the user, longest first; empty: never."""
    digest: bool = False
    """One direct message per period listing the games waiting for the user."""
    digest_period: timedelta = DEFAULT_DIGEST_PERIOD
    """The least time between two digests."""

    @property
    def wants_dms(self) -> bool:
        """True when the user accepts direct messages from the bot (turn DMs or digest)."""
        return self.dm_on_turn or self.digest


@dataclass(frozen=True, slots=True)
class ClockTurn:
    """One turn of a game's clock: whose time runs since when, with which banks."""

    game_id: int
    turn: int
    """1 for the game's first turn; each new turn (also one an undo restarts) adds one."""
    seat: int
    """The seat whose clock runs."""
    start_ply: int
    """The number of moves played before the turn began."""
    started_at: datetime
    banks: tuple[timedelta, timedelta] | None = None
    """Capped increment: each seat's bank at the start of the turn; None per move."""


@dataclass(frozen=True, slots=True)
class GameClock:
    """A timed game's clock: its current turn and what is scheduled for it."""

    current: ClockTurn
    synced_ply: int
    """The game's ply the clock has caught up with."""
    deadline: datetime | None
    """When the running clock runs out; None once stopped."""
    remind_at: datetime | None
    """When the next reminder is due; None when none is pending."""
    stopped_at: datetime | None = None
    """When the game ended."""

    @property
    def game_id(self) -> int:
        """The game's id."""
        return self.current.game_id


@dataclass(frozen=True, slots=True)
class Vacation:
    """A stretch of time in which a user's clocks do not run."""

    id: int
    user_id: int
    started_at: datetime
    ends_at: datetime
    """The planned end (the length asked for, or when the yearly allowance runs out)."""
    ended_at: datetime | None = None
    """When it was closed: early by the user, or at `ends_at`; None while open."""

    @property
    def end(self) -> datetime:
        """When the vacation ends (or ended): early, or as planned."""
        if self.ended_at is not None and self.ended_at < self.ends_at:
            return self.ended_at
        return self.ends_at

    def is_on(self, now: datetime) -> bool:
        """True while the vacation pauses the user's clocks."""
        return self.started_at <= now < self.end


@dataclass(frozen=True, slots=True)
class Outage:
    """A time the bot was down: no clock ran."""

    started_at: datetime
    ended_at: datetime


class AnnouncementStatus(enum.StrEnum):
    """Where an announcement is on its way to the players."""

    PENDING = "pending"
    DELIVERED = "delivered"
    PARKED = "parked"
    """Given up on (a deleted channel, missing permissions), with the reason."""


@dataclass(frozen=True, slots=True)
class NewAnnouncement:
    """Something the players must be told, stored with the change it reports."""

    kind: str
    """What happened: `move`, `result`, `reminder`, ... (see `bot.services.announcing`)."""
    stream: str
    """Announcements of one stream are delivered in order: `game:12`, `user:55`, ..."""
    data: Mapping[str, Any]
    """What to say, as JSON-able values (kind-specific)."""
    guild_id: int | None = None
    """The server it goes to (None: a direct message); routes it to that server's shard."""
    game_id: int | None = None
    reply: Mapping[str, Any] | None = None
    """The interaction that answers it first, if any (the front end's own data)."""
    after: int | None = None
    """Another announcement (of another stream) that must be delivered first."""


@dataclass(frozen=True, slots=True)
class Announcement(NewAnnouncement):
    """A stored announcement and how its delivery stands."""

    id: int = 0
    status: AnnouncementStatus = AnnouncementStatus.PENDING
    attempts: int = 0
    """Delivery attempts so far (the one in progress included)."""
    available_at: datetime | None = None
    """Not taken before this time (a lease on it, or the backoff after a failure)."""
    claimed_by: str | None = None
    created_at: datetime | None = None
    attempted_at: datetime | None = None
    finished_at: datetime | None = None
    message_id: int | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class ShardFilter:
    """Which servers a process serves (their announcements, threads, computer games):
    those on its shards, by Discord's formula `(guild_id >> 22) % count`."""

    count: int
    ids: frozenset[int]

    @property
    def direct_messages(self) -> bool:
        """Direct messages go to the process that runs shard 0."""
        return 0 in self.ids

    def covers(self, guild_id: int | None) -> bool:
        """True when the server `guild_id` (None: direct messages) is on these shards."""
        if guild_id is None:
            return self.direct_messages
        return (guild_id >> 22) % self.count in self.ids


class Repository(Protocol):
    """Everything the services store and read. All SQL lives behind this interface."""

    async def close(self) -> None:
        """Release the database."""

    def atomic(self) -> AbstractAsyncContextManager[object]:
        """One transaction around several calls of this task: all are stored, or none."""
        ...

    async def optimize(self) -> None:
        """Bring the query planner's statistics up to date where the database does not do
        it by itself (a sampled `ANALYZE` on SQLite; on PostgreSQL, where autovacuum
        analyzes, the tables it has not analyzed yet)."""
        ...

    async def lock(self, kind: LockKind, key: int) -> None:
        """Inside `atomic()`: hold the lock on one game or tournament until the
        transaction ends, across every process sharing the database."""

    @property
    def changes(self) -> GameChanges:
        """Told of changed games (rows and clocks), once `watch_games` was called."""
        ...

    async def watch_games(self) -> None:
        """Start publishing in `changes` every committed change of a game, made by this
        process or (PostgreSQL) any other."""

    # --- challenges ---

    async def create_challenge(self, challenge: NewChallenge) -> ChallengeRecord:
        """Store a new open challenge."""
        ...

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        """The challenge with this id."""
        ...

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge."""

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, now: datetime
    ) -> ChallengeRecord | None:
        """Move an open challenge to `status`; None when it was no longer open."""
        ...

    async def accept_challenge(
        self, challenge_id: int, game: NewGame
    ) -> tuple[ChallengeRecord, GameRecord] | None:
        """Atomically mark an open challenge accepted and create its game.

        Returns None (and changes nothing) when the challenge was no longer open.
        """
        ...

    async def open_challenges(
        self, *, user_id: int | None = None, channel_id: int | None = None
    ) -> list[ChallengeRecord]:
        """Open challenges involving `user_id` and/or made in `channel_id`, newest first."""
        ...

    async def due_challenges(self, now: datetime) -> list[ChallengeRecord]:
        """Open challenges whose expiry time has come."""
        ...

    # --- games ---

    async def create_game(self, game: NewGame) -> GameRecord:
        """Store a game no challenge started (tournament rounds, computer games)."""
        ...

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id."""
        ...

    async def update_game(self, game: GameRecord) -> GameRecord:
        """Store the game row's changeable fields (not its moves); the stored record.

        Compare-and-set: raises `StaleGameError` (nothing stored) unless the stored row is
        still at `game.version`; the stored record has the next version.
        """
        ...

    async def record_move(
        self, move: MoveRecord, game: GameRecord, snapshot: Snapshot | None = None
    ) -> GameRecord:
        """In one transaction, append `move` and store `game` (and a snapshot if given).

        Raises `DuplicateMoveError` when the game already has a live move at that ply, and
        `StaleGameError` when the game row is no longer at `game.version`.
        """
        ...

    async def undo_moves(self, game: GameRecord, from_ply: int, now: datetime) -> GameRecord:
        """In one transaction, mark moves from `from_ply` on undone and store `game`
        (compare-and-set, as `update_game`)."""
        ...

    async def list_moves(self, game_id: int, after_ply: int = 0) -> list[MoveRecord]:
        """The game's live moves with ply > `after_ply`, in order."""
        ...

    async def game_ids(self) -> list[int]:
        """Every game's id, in order (checks of the whole database)."""
        ...

    async def get_snapshot(self, game_id: int) -> Snapshot | None:
        """The game's stored snapshot."""
        ...

    async def active_games(
        self,
        *,
        user_id: int | None = None,
        location: int | None = None,
        guild_id: int | None = None,
    ) -> list[GameRecord]:
        """Active games of `user_id` and/or played or started in `location` and/or of the
        server `guild_id`, oldest first."""
        ...

    # --- settings ---

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults when none were saved)."""
        ...

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> None:
        """Store a server's settings."""

    async def web_secret(self, candidate: str, now: datetime) -> str:
        """The key signing the web pages' links and cookies: the stored one, or
        `candidate`, stored now when there was none (every process gets the same)."""
        ...

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (defaults when none were saved)."""
        ...

    async def save_user_settings(self, settings: UserSettings, now: datetime) -> None:
        """Store a user's settings."""

    # --- ratings ---

    async def get_rating(self, user_id: int, game: str) -> PlayerRating | None:
        """A user's rating in a game; None before their first rated game."""
        ...

    async def ratings_of(self, user_id: int) -> list[PlayerRating]:
        """A user's ratings in every game they have played rated, by game."""
        ...

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a game did to its players' ratings (empty while it is not rated), by seat."""
        ...

    async def record_ratings(
        self, changes: Sequence[RatingChange], ratings: Sequence[PlayerRating]
    ) -> bool:
        """In one transaction, store a game's rating changes and its players' new ratings.

        Returns False (and changes nothing) when the game was rated already.
        """
        ...

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int | None = None
    ) -> list[PlayerRating]:
        """Ratings in `game` of those who played it rated in this server, best first."""
        ...

    async def unrated_games(self, since: datetime) -> list[GameRecord]:
        """Rated games between two people, finished since `since`, not rated yet."""
        ...

    # --- tournaments ---

    async def create_tournament(self, tournament: NewTournament) -> TournamentRecord:
        """Store a new tournament, open for entries."""
        ...

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """The tournament with this id."""
        ...

    async def update_tournament(self, tournament: TournamentRecord) -> None:
        """Store the tournament's changeable fields (status, rounds, times, the close of
        its entries)."""

    async def list_tournaments(
        self, guild_id: int, statuses: Sequence[TournamentStatus]
    ) -> list[TournamentRecord]:
        """A server's tournaments in these states, newest first."""
        ...

    async def due_tournaments(self, now: datetime) -> list[TournamentRecord]:
        """Open tournaments whose entry window has closed."""
        ...

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the message that announces the tournament (with its entry buttons)."""

    async def tournaments_needing_work(self) -> list[int]:
        """Running tournaments with something to do: a result to record, a round to pair,
        a game to make or announce; and cancelled ones with a game left in progress."""
        ...

    async def add_entrant(self, entrant: EntrantRecord) -> None:
        """Enter a player (the caller checked they are not entered yet)."""

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        """Take a player's entry back (before the start)."""

    async def list_entrants(self, tournament_id: int) -> list[EntrantRecord]:
        """The entrants: by seed once seeded, before that in the order they joined."""
        ...

    async def start_tournament(
        self, tournament: TournamentRecord, entrants: Sequence[EntrantRecord]
    ) -> None:
        """In one transaction, store the started tournament and its entrants' seeds."""

    async def withdraw_entrant(
        self, tournament_id: int, user_id: int, now: datetime, forfeits: Sequence[PairingRecord]
    ) -> None:
        """In one transaction, mark a player withdrawn and store the forfeits it causes."""

    async def add_pairings(
        self, tournament_id: int, pairings: Sequence[Pairing]
    ) -> list[PairingRecord]:
        """Store new pairings (with their results, for forfeits) in one transaction."""
        ...

    async def list_pairings(self, tournament_id: int) -> list[PairingRecord]:
        """The tournament's pairings in the order they were made."""
        ...

    async def pairing_for_game(self, game_id: int) -> PairingRecord | None:
        """The pairing a tournament game was played for."""
        ...

    async def set_pairing_result(self, pairing_id: int, result: Result) -> bool:
        """Store a result for a pairing that has none; False when it had one already."""
        ...

    async def create_pairing_game(self, pairing_id: int, game: NewGame) -> GameRecord | None:
        """Atomically create the game of a pairing that has none and no result, in a
        running tournament; None otherwise (another process made it, a forfeit, a stop)."""
        ...

    async def mark_pairing_announced(self, pairing_id: int) -> None:
        """Remember that the pairing's game was announced to its players."""

    # --- clocks ---

    async def get_clock(self, game_id: int) -> GameClock | None:
        """The game's clock, or None when it has none (yet)."""
        ...

    async def clock_turns(self, game_id: int) -> list[ClockTurn]:
        """Every turn of the game's clock, oldest first."""
        ...

    async def save_clock(
        self, clock: GameClock, new_turns: Sequence[ClockTurn], now: datetime
    ) -> bool:
        """In one transaction, add `new_turns` and store `clock` (its turn is the newest).

        Compare-and-set: refused (False, nothing stored) when the stored clock's turn is
        no longer the one the caller started from, i.e. `new_turns[0].turn - 1` (or,
        without new turns, `clock.current.turn`), or when a turn already exists.
        """
        ...

    async def set_clock_schedule(
        self, game_id: int, turn: int, deadline: datetime | None, remind_at: datetime | None
    ) -> bool:
        """Store the deadline and next reminder of the game's clock, if still at `turn`."""
        ...

    async def due_clocks(self, now: datetime) -> list[int]:
        """Games whose clock deadline has come, soonest first."""
        ...

    async def due_reminders(self, now: datetime) -> list[int]:
        """Games whose next reminder has come, soonest first."""
        ...

    async def clocks_to_sync(self) -> list[int]:
        """Games whose clock is missing or behind: active timed games without a clock or
        with moves it has not seen, and finished games whose clock still runs."""
        ...

    async def running_clocks(self) -> list[int]:
        """Games whose clock runs."""
        ...

    async def claim_reminder(
        self, game_id: int, turn: int, offset: timedelta, now: datetime
    ) -> bool:
        """Mark the reminder sent; False when it was claimed before (never send it then)."""
        ...

    async def sent_reminders(self, game_id: int, turn: int) -> frozenset[timedelta]:
        """The offsets of the reminders sent in this turn."""
        ...

    # --- vacations and downtime ---

    async def vacations(self, user_id: int, since: datetime) -> list[Vacation]:
        """The user's vacations that end after `since` (or are open), oldest first."""
        ...

    async def open_vacation(self, user_id: int) -> Vacation | None:
        """The user's vacation not closed yet, if any."""
        ...

    async def start_vacation(
        self, user_id: int, started_at: datetime, ends_at: datetime
    ) -> Vacation | None:
        """Store a new vacation; None when the user already has an open one."""
        ...

    async def end_vacation(self, vacation_id: int, ended_at: datetime) -> Vacation | None:
        """Close an open vacation at `ended_at`; None when it was closed already."""
        ...

    async def due_vacations(self, now: datetime) -> list[Vacation]:
        """Open vacations whose planned end has come."""
        ...

    async def outages(self, since: datetime) -> list[Outage]:
        """The bot's downtimes that end after `since`, oldest first."""
        ...

    async def record_outage(self, outage: Outage) -> None:
        """Remember a time the bot was down."""

    async def beat(self, now: datetime) -> datetime | None:
        """Record that the scheduler runs at `now`; return the previous heartbeat."""
        ...

    # --- notifications ---

    async def digest_candidates(self) -> list[tuple[UserSettings, datetime | None]]:
        """Users with the digest on and some game waiting for them, with their last digest."""
        ...

    async def claim_digest(self, user_id: int, previous: datetime | None, now: datetime) -> bool:
        """Set the user's last digest to `now` if it still is `previous` (compare-and-set)."""
        ...

    # --- announcements (the outbox) ---

    async def add_announcements(
        self,
        announcements: Sequence[NewAnnouncement],
        now: datetime,
        *,
        claimed_by: str | None = None,
        lease_until: datetime | None = None,
    ) -> list[Announcement]:
        """Store announcements (inside the caller's transaction, with what they report).

        With `claimed_by`, they are held by that deliverer until `lease_until` (the
        interaction that answers them first); otherwise they are available at once.
        """
        ...

    async def claim_announcements(
        self,
        now: datetime,
        owner: str,
        lease_until: datetime,
        *,
        limit: int = 20,
        shards: ShardFilter | None = None,
    ) -> list[Announcement]:
        """Take the next announcements to deliver: of each stream, the first pending one
        if it is available, oldest first. Each is held by `owner` until `lease_until`
        and counts one more attempt; nobody else gets it meanwhile."""
        ...

    async def claim_announcement(
        self, announcement_id: int, now: datetime, owner: str, lease_until: datetime
    ) -> Announcement | None:
        """Take one announcement now, if it is pending, available (nobody holds it) and
        the first pending one of its stream; None otherwise."""
        ...

    async def deliver_announcement(
        self, announcement_id: int, message_id: int | None, now: datetime
    ) -> bool:
        """Mark a pending announcement delivered (by message `message_id`); False when it
        was not pending any more."""
        ...

    async def supersede_announcements(self, game_id: int, kind: str, now: datetime) -> int:
        """Mark the pending announcements of `kind` about game `game_id` delivered without
        a message: a later announcement says all they would have; how many."""
        ...

    async def retry_announcement(
        self, announcement_id: int, available_at: datetime, error: str, *, failed: bool = True
    ) -> None:
        """Give a pending announcement back, to be tried again from `available_at`; with
        `failed=False` the attempt given back does not count (it was too early)."""

    async def park_announcement(self, announcement_id: int, reason: str, now: datetime) -> bool:
        """Give up on a pending announcement, keeping the reason; False if not pending."""
        ...

    async def release_announcements(self, name: str, current: str, now: datetime) -> int:
        """Make every pending announcement held by an earlier run of the deliverer `name`
        (held as `name/<run>`, but not by `current`, this run) available now; how many."""
        ...

    async def get_announcement(self, announcement_id: int) -> Announcement | None:
        """The announcement with this id."""
        ...

    async def list_announcements(
        self,
        *,
        status: AnnouncementStatus | None = None,
        game_id: int | None = None,
        limit: int | None = None,
    ) -> list[Announcement]:
        """Announcements, oldest first, optionally of one status and/or game."""
        ...

    async def count_announcements(self) -> dict[AnnouncementStatus, int]:
        """How many announcements are in each status."""
        ...

    async def message_announcements(self, game_id: int, message_id: int) -> list[Announcement]:
        """The game's announcements that message `message_id` delivered, oldest first."""
        ...

    async def last_outcome(self, game_id: int, before_id: int) -> AnnouncementStatus | None:
        """How the game's latest announcement before `before_id` that is no longer pending
        ended (delivered or parked); None when there is none."""
        ...

    # --- suspensions ---

    async def suspend(
        self, guild_id: int, game_id: int | None, reason: SuspensionReason, now: datetime
    ) -> Suspension | None:
        """Open a suspension of the server (or of one game of it, `game_id`); None when
        one is open already."""
        ...

    async def end_suspension(
        self, suspension_id: int, outcome: SuspensionOutcome, now: datetime, games: int
    ) -> Suspension | None:
        """Close an open suspension, keeping how it ended and how many games it held;
        None when it was closed already."""
        ...

    async def open_suspensions(self, guild_id: int | None = None) -> list[Suspension]:
        """The suspensions that hold now (of one server, if given), oldest first."""
        ...

    async def suspension_of(self, guild_id: int, game_id: int | None) -> Suspension | None:
        """The open suspension holding game `game_id` of server `guild_id` (the server's
        own first); with `game_id` None, only the server's."""
        ...

    async def suspensions(self, guild_id: int, since: datetime) -> list[Suspension]:
        """The server's suspensions (its own and its games') still open or ended after
        `since`, oldest first."""
        ...

    async def park_held_announcements(
        self, guild_id: int, game_id: int | None, reason: str, now: datetime
    ) -> int:
        """Give up on the pending announcements for the server (or one game of it) with
        `reason`; how many."""
        ...

    # --- game records: histories and imported games ---

    async def finished_games(
        self, query: HistoryQuery, *, limit: int, offset: int = 0
    ) -> list[FinishedGame]:
        """Finished games matching `query`, the most recently finished first."""
        ...

    async def count_finished_games(self, query: HistoryQuery) -> int:
        """How many finished games match `query`."""
        ...

    async def history_page(
        self, query: HistoryQuery, *, limit: int, offset: int = 0
    ) -> tuple[int, list[FinishedGame]]:
        """How many finished games match `query`, and `limit` of them from `offset`, the
        most recently finished first, read together."""
        ...

    async def store_finished_games(
        self, games: Sequence[GameRecord], moves: Sequence[MoveRecord] = ()
    ) -> None:
        """Store many finished games, then `moves` (naming those games by id), in one
        transaction (benchmarks filling an empty database)."""
        ...

    async def latest_game_at(self, location: int) -> GameRecord | None:
        """The newest game played in this thread or channel, whatever its status."""
        ...

    async def store_imported_game(
        self, game: GameRecord, moves: Sequence[MoveRecord], mark: ImportMark
    ) -> GameRecord:
        """In one transaction, store a whole imported game: its row (with its result),
        its moves (their game id is replaced) and its import mark."""
        ...

    async def import_mark(self, game_id: int) -> ImportMark | None:
        """How the game was imported; None for a game played here."""
        ...

    # --- conditional moves ---

    async def conditional_tree(self, game_id: int, user_id: int) -> StoredTree | None:
        """The player's current tree in the game (their row with the highest ply)."""
        ...

    async def conditional_trees(self, user_id: int) -> list[StoredTree]:
        """The player's current tree in each of their active games, by game."""
        ...

    async def save_conditional_tree(self, tree: StoredTree) -> None:
        """Store the player's tree as applying from `tree.ply`, in place of their rows at
        that ply and later."""

    async def drop_conditional_trees(
        self, game_id: int, user_id: int | None = None, *, after_ply: int | None = None
    ) -> int:
        """Delete the game's trees (of one player, or of both), or only those applying
        from after `after_ply`; how many rows."""
        ...

    async def add_conditional_note(
        self, user_id: int, game_id: int, data: Mapping[str, Any], now: datetime
    ) -> int:
        """Keep a note for the player's next command; its id."""
        ...

    async def take_conditional_notes(self, user_id: int, now: datetime) -> list[StoredNote]:
        """The player's notes not shown yet, oldest first, each marked shown."""
        ...

    async def return_conditional_notes(self, note_ids: Sequence[int]) -> None:
        """Mark notes not shown again (showing them failed): the next command shows them."""

    # --- leagues ---

    async def create_league(self, league: NewLeague) -> LeagueRecord:
        """Store a new league, open for entries to its first season."""
        ...

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        """The league with this id."""
        ...

    async def update_league(self, league: LeagueRecord) -> None:
        """Store the league's changeable fields (status, season, times)."""

    async def list_leagues(
        self, guild_id: int, statuses: Sequence[LeagueStatus]
    ) -> list[LeagueRecord]:
        """A server's leagues in these states, newest first."""
        ...

    async def leagues_needing_work(self, now: datetime) -> list[int]:
        """Leagues with something to do: a season to start or end, a result to record, a
        game to make or announce, a game a cancellation left in progress."""
        ...

    async def add_league_member(self, member: LeagueMember) -> bool:
        """Enter a player for the coming seasons; False when they are entered already."""
        ...

    async def remove_league_member(self, league_id: int, user_id: int) -> bool:
        """Take a player's entry back; False when they were not entered."""
        ...

    async def list_league_members(self, league_id: int) -> list[LeagueMember]:
        """The league's members, in the order they joined."""
        ...

    async def start_season(
        self,
        league: LeagueRecord,
        season: SeasonRecord,
        placements: Sequence[PlacementRecord],
        games: Sequence[NewLeagueGame],
    ) -> None:
        """In one transaction, store the running league, its new season, the divisions
        and every game of the season (without their games yet)."""

    async def finish_season(
        self, league: LeagueRecord, season: SeasonRecord, placements: Sequence[PlacementRecord]
    ) -> None:
        """In one transaction, store the season's end (or cancellation), every player's
        final place and move, and the league as it goes on."""

    async def list_seasons(self, league_id: int) -> list[SeasonRecord]:
        """The league's seasons, first first."""
        ...

    async def list_placements(self, league_id: int, season: int) -> list[PlacementRecord]:
        """A season's players by division, then ladder position."""
        ...

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

    async def list_league_games(self, league_id: int, season: int) -> list[LeagueGameRecord]:
        """A season's games by division, in the order they were made."""
        ...

    async def league_game_for(self, game_id: int) -> LeagueGameRecord | None:
        """The league game a game was played for."""
        ...

    async def set_league_result(self, league_game_id: int, result: Result) -> bool:
        """Store a result for a league game that has none; False when it had one."""
        ...

    async def create_league_game(self, league_game_id: int, game: NewGame) -> GameRecord | None:
        """Atomically create the game of a league game that has none and no result, in a
        running league; None otherwise (another process made it, a forfeit, a stop)."""
        ...

    async def mark_league_game_announced(self, league_game_id: int) -> None:
        """Remember that the league game's start was announced to its players."""

    async def set_season_end(self, league_id: int, number: int, ends_at: datetime) -> None:
        """Move the end of a running season (a suspension of its server put it off)."""
