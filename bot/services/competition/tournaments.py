"""`TournamentService`: community tournaments per server, from entries to final standings.

The pairing algorithms live in `bot.competition`; this service stores what they need
(players in seed order, the format, the rounds, the withdrawn players, one row per
pairing), rebuilds a `Tournament` value from it and asks it what comes next.

How tournaments behave (the decisions docs/servers/tournaments.md repeats):

- Members with Manage Server, or the server's organiser role (`/config`), create
  tournaments. The creator and those members start, cancel and withdraw players.
- Entries are open until the organiser starts the tournament, or until the entry window
  closes, when it starts by itself (or is cancelled with fewer than two players). A
  tournament takes 2 to `MAX_PLAYERS` players.
- Tournament games are rated unless the tournament was created casual.
- Starting a round creates all its games at once (a thread each, players mentioned).
  A game's end reaches the tournament through the games' finish hook, whatever ended it
  (the rules, a resignation, an agreed draw, a timeout: a loss on time is a loss, unrated
  when the loser never moved). When
  a round's last game ends, the next round is paired and started; after the last round
  the final standings are posted. A scheduler job does the same for anything a crash
  interrupted, so every step survives a restart.
- A player who withdraws resigns the games they are playing (rated like any
  resignation); a game in which nobody has moved yet is won by the opponent by forfeit
  instead (unrated), in the game's own record as in the pairings. They are not paired
  again; in a round robin their remaining games are forfeits. Results so far stand.
- Cancelling ends the tournament without final standings: no more rounds, and games in
  progress are aborted (no result, unrated).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import partial

from bot.competition.records import Entrant, Result
from bot.competition.tournament import MIN_PLAYERS, Format, Tournament
from bot.services.announcing.announcements import Kind, tournament_row
from bot.services.announcing.outbox import Outbox
from bot.services.background import Background
from bot.services.clock import Clock
from bot.services.competition.ratings import RatingService
from bot.services.durations import (
    format_span,
    parse_duration,
    parse_time_control,
)
from bot.services.errors import (
    InvalidInputError,
    InvalidStateError,
    NotAllowedError,
    NotFoundError,
    TournamentOrganisersOnlyError,
)
from bot.services.games.games import GameService, is_forfeit
from bot.services.games.players import Player
from bot.services.ids import storable
from bot.services.locks import KeyedLocks
from bot.services.settings import SettingsService
from bot.services.views.results import GameView
from bot.services.views.tournaments import (
    Cancellation,
    TournamentPage,
    TournamentView,
    Withdrawal,
)
from bot.storage.competition import (
    EntrantRecord,
    NewTournament,
    TournamentRecord,
    TournamentStatus,
)
from bot.storage.repository import GameStatus, LockKind, NewAnnouncement, NewGame, Repository
from rules import OptionValue, get_game

log = logging.getLogger(__name__)

MAX_PLAYERS = 128
"""The most players a tournament takes."""
MAX_SWISS_ROUNDS = 30
"""The most rounds a Swiss can be asked for."""
MIN_ENTRY_WINDOW = timedelta(minutes=1)
MAX_ENTRY_WINDOW = timedelta(days=30)
NAME_LENGTH = 60
"""The longest a tournament's name may be."""

FORMAT_NAMES: Mapping[str, Format] = {
    "round-robin": Format.ROUND_ROBIN,
    "round robin": Format.ROUND_ROBIN,
    "rr": Format.ROUND_ROBIN,
    "double-round-robin": Format.DOUBLE_ROUND_ROBIN,
    "double round robin": Format.DOUBLE_ROUND_ROBIN,
    "double": Format.DOUBLE_ROUND_ROBIN,
    "swiss": Format.SWISS,
    "single-elimination": Format.SINGLE_ELIMINATION,
    "single elimination": Format.SINGLE_ELIMINATION,
    "elimination": Format.SINGLE_ELIMINATION,
    "knockout": Format.SINGLE_ELIMINATION,
}
"""What players may type for a format."""

ACTIVE = (TournamentStatus.OPEN, TournamentStatus.RUNNING)
ENDED = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
LIST_PAGE = 15
"""Tournaments per page of /tournament list."""
"""Tournaments still going on."""


def parse_format(text: str) -> Format:
    """A format from its name; `InvalidInputError` naming the formats otherwise."""
    found = FORMAT_NAMES.get(text.strip().lower())
    if found is None:
        names = ", ".join(f.keyword for f in Format)
        raise InvalidInputError(f"{text.strip()!r} is not a tournament format: choose {names}.")
    return found


def default_swiss_rounds(players: int) -> int:
    """Rounds for a Swiss when the organiser chose none: enough to single out a winner."""
    return max(1, math.ceil(math.log2(players)))


@dataclass(frozen=True, slots=True)
class Member:
    """A server member acting on a tournament, with what Discord lets them do."""

    player: Player
    can_manage: bool = False
    """True with the Manage Server permission."""
    roles: frozenset[int] = field(default_factory=frozenset)
    """The member's role ids."""


class TournamentService:
    """Creates and runs tournaments; front ends call it with plain ids."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        games: GameService,
        ratings: RatingService,
        settings: SettingsService,
        *,
        outbox: Outbox,
        background: Background,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._games = games
        self._ratings = ratings
        self._settings = settings
        self._outbox = outbox
        self._background = background
        self._locks = KeyedLocks()
        self._waiting: set[int] = set()
        """Tournaments with an advance scheduled that has not taken the lock yet."""

    # --- finding ---

    async def view(self, tournament_id: int) -> TournamentView:
        """The tournament with its entrants and pairings; `NotFoundError` if there is none."""
        found = storable(tournament_id)
        record = await self._repository.get_tournament(tournament_id) if found else None
        if record is None:
            raise NotFoundError(f"There is no tournament #{tournament_id}.")
        return await self._view_of(record)

    async def _view_of(self, record: TournamentRecord) -> TournamentView:
        entrants = await self._repository.list_entrants(record.id)
        pairings = await self._repository.list_pairings(record.id)
        return TournamentView(record, tuple(entrants), tuple(pairings))

    @asynccontextmanager
    async def _locked(self, tournament_id: int) -> AsyncIterator[TournamentView]:
        """A transaction holding the tournament's lock across processes, with the
        tournament as stored now: every change of a tournament is decided and stored in
        one, so two processes never both take a step, nor undo each other's. Games are
        changed outside it (their own locks come first)."""
        async with self._repository.atomic():
            await self._repository.lock(LockKind.TOURNAMENT, tournament_id)
            yield await self.view(tournament_id)

    async def listed(
        self, guild_id: int, statuses: Sequence[TournamentStatus] = ACTIVE
    ) -> list[TournamentRecord]:
        """The server's tournaments in these states, newest first."""
        return await self._repository.list_tournaments(guild_id, statuses)

    async def listing(self, guild_id: int, page: int = 1) -> TournamentPage:
        """A page of the server's tournaments: going ones first, newest first, then the
        finished and cancelled ones, the most recently ended first. A page past the end
        is refused with the number of pages."""
        going = await self._repository.list_tournaments(guild_id, ACTIVE)
        ended = await self._repository.list_tournaments(guild_id, ENDED)
        ended.sort(
            key=lambda r: (r.finished_at or r.updated_at or r.created_at, r.id), reverse=True
        )
        records = going + ended
        pages = max(1, math.ceil(len(records) / LIST_PAGE))
        if page < 1 or page > pages:
            raise InvalidInputError(
                f"There is no page {page}: the list has {pages} page{'s' if pages != 1 else ''}."
            )
        shown = records[(page - 1) * LIST_PAGE : page * LIST_PAGE]
        return TournamentPage(tuple(shown), page, pages, len(records))

    async def find(
        self,
        guild_id: int,
        tournament_id: int | None,
        user_id: int | None = None,
        *,
        statuses: Sequence[TournamentStatus] = ACTIVE,
    ) -> TournamentView:
        """The tournament a command means: the one named, or the only candidate.

        Without a number, the server's tournaments in `statuses` are the candidates; the
        ones `user_id` entered are preferred. Without candidates, the latest finished
        tournament is meant when finished ones were asked for.
        """
        if tournament_id is not None:
            view = await self.view(tournament_id)
            if view.record.guild_id != guild_id:
                raise NotFoundError(f"There is no tournament #{tournament_id} on this server.")
            return view
        candidates = [
            await self._view_of(record)
            for record in await self._repository.list_tournaments(guild_id, statuses)
        ]
        going = [c for c in candidates if c.record.status in ACTIVE]
        if not going and candidates:
            return candidates[0]  # the latest finished or cancelled one
        if user_id is not None and len(going) > 1:
            mine = [c for c in going if c.entrant(user_id) is not None]
            if len(mine) == 1:
                return mine[0]
        if len(going) == 1:
            return going[0]
        if not going:
            if statuses == (TournamentStatus.OPEN,):
                raise NotFoundError(
                    "No tournament is taking entries on this server. Organisers create one "
                    "with /tournament create."
                )
            raise NotFoundError("There is no tournament on this server right now.")
        raise _ambiguous(going)

    async def find_shown(
        self, guild_id: int, tournament_id: int | None, user_id: int | None = None
    ) -> TournamentView:
        """The tournament a command that shows one means (standings, pairings, info).

        The one named; else the running one (of several, the one `user_id` plays in);
        else the one taking entries; else the latest finished, else the latest cancelled.
        """
        if tournament_id is not None:
            return await self.find(guild_id, tournament_id)
        records = await self._repository.list_tournaments(guild_id, tuple(TournamentStatus))
        for status in (TournamentStatus.RUNNING, TournamentStatus.OPEN):
            candidates = [await self._view_of(r) for r in records if r.status is status]
            if len(candidates) == 1:
                return candidates[0]
            mine = [c for c in candidates if user_id is not None and c.entrant(user_id)]
            if len(mine) == 1:
                return mine[0]
            if candidates:
                raise _ambiguous(candidates)
        for status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            ended = [r for r in records if r.status is status]
            if ended:
                return await self._view_of(ended[0])
        raise NotFoundError(
            "There is no tournament on this server yet. Organisers create one with "
            "/tournament create."
        )

    # --- permissions ---

    async def can_organise(self, guild_id: int, member: Member) -> bool:
        """True for members with Manage Server or the server's organiser role."""
        if member.can_manage:
            return True
        role = (await self._settings.guild(guild_id)).organiser_role
        return role is not None and role in member.roles

    async def _check_runs(self, record: TournamentRecord, member: Member, action: str) -> None:
        """Only the tournament's creator and organisers may `action` it."""
        if member.player.id == record.organiser_id:
            return
        if not await self.can_organise(record.guild_id, member):
            raise TournamentOrganisersOnlyError(
                f"Only {record.organiser_name}, who created {record.name}, or members who "
                f"may organise tournaments here can {action} it."
            )

    # --- creating and entering ---

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        member: Member,
        game: str,
        format: str,
        options: Mapping[str, object] | None = None,
        name: str | None = None,
        rounds: int | None = None,
        time_control: str | None = None,
        entry_window: str | None = None,
        rated: bool = True,
        max_players: int = MAX_PLAYERS,
    ) -> TournamentView:
        """Create a tournament taking entries, run in `channel_id`."""
        if not await self.can_organise(guild_id, member):
            raise TournamentOrganisersOnlyError(
                "Only members with the Manage Server permission or the organiser role can "
                "create tournaments here."
            )
        rules = get_game(game)
        validated: dict[str, OptionValue] = dict(rules.validate_options(options or {}))
        chosen = parse_format(format)
        if rounds is not None and chosen is not Format.SWISS:
            raise InvalidInputError(
                f"A {chosen.label.lower()} has as many rounds as it needs; rounds are chosen "
                "for a Swiss only."
            )
        if rounds is not None and not 1 <= rounds <= MAX_SWISS_ROUNDS:
            raise InvalidInputError(f"A Swiss has 1 to {MAX_SWISS_ROUNDS} rounds, not {rounds}.")
        if not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
            raise InvalidInputError(
                f"A tournament takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {max_players}."
            )
        settings = await self._settings.check_game_channel(guild_id, channel_id)
        clock_text = str(parse_time_control(time_control or settings.default_time_control))
        now = self._clock.now()
        closes = None
        if entry_window is not None and entry_window.strip():
            window = parse_duration(entry_window)
            if not MIN_ENTRY_WINDOW <= window <= MAX_ENTRY_WINDOW:
                raise InvalidInputError(
                    f"The entry window must be between {format_span(MIN_ENTRY_WINDOW)} "
                    f"and {format_span(MAX_ENTRY_WINDOW)} (got {format_span(window)})."
                )
            closes = now + window
        title = " ".join((name or "").split()) or f"{rules.title} {chosen.label}"
        if len(title) > NAME_LENGTH:
            raise InvalidInputError(f"A tournament's name has at most {NAME_LENGTH} characters.")
        record = await self._repository.create_tournament(
            NewTournament(
                guild_id=guild_id,
                channel_id=channel_id,
                name=title,
                organiser_id=member.player.id,
                organiser_name=member.player.name,
                game=rules.name,
                options=validated,
                format=chosen,
                swiss_rounds=rounds,
                time_control=clock_text,
                rated=rated,
                max_players=max_players,
                entry_closes_at=closes,
                created_at=now,
            )
        )
        log.info("tournament %s created in guild %s by %s", record.id, guild_id, member.player.id)
        return await self._view_of(record)

    async def attach_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the message announcing the tournament, to close its entry buttons later."""
        await self._repository.set_tournament_message(tournament_id, message_id)

    async def join(
        self, guild_id: int, tournament_id: int | None, player: Player
    ) -> TournamentView:
        """Enter a tournament taking entries."""
        view = await self.find(guild_id, tournament_id, statuses=(TournamentStatus.OPEN,))
        if player.is_bot:
            raise NotAllowedError("Bots cannot play in tournaments.")
        async with self._locks(view.id), self._locked(view.id) as view:
            record = self._require_open(view.record)
            if view.entrant(player.id) is not None:
                raise InvalidStateError(f"You have already entered {record.name}.")
            if len(view.entrants) >= record.max_players:
                raise InvalidStateError(f"{record.name} is full ({record.max_players} players).")
            await self._repository.add_entrant(
                EntrantRecord(record.id, player.id, player.name, self._clock.now())
            )
            return await self.view(record.id)

    async def leave(self, guild_id: int, tournament_id: int | None, user_id: int) -> TournamentView:
        """Take back one's entry before the tournament starts."""
        view = await self.find(guild_id, tournament_id, user_id, statuses=ACTIVE)
        async with self._locks(view.id), self._locked(view.id) as view:
            if view.record.status is TournamentStatus.RUNNING:
                raise InvalidStateError(
                    f"{view.record.name} has started: use /tournament withdraw to leave it "
                    "(your results so far stand)."
                )
            self._require_open(view.record)
            if view.entrant(user_id) is None:
                raise InvalidStateError(f"You have not entered {view.record.name}.")
            await self._repository.remove_entrant(view.id, user_id)
            return await self.view(view.id)

    def _require_open(self, record: TournamentRecord) -> TournamentRecord:
        if record.status is not TournamentStatus.OPEN:
            raise InvalidStateError(f"{record.name} is not taking entries: it {_state(record)}.")
        closes = record.entry_closes_at
        if closes is not None and self._clock.now() >= closes:
            raise InvalidStateError(f"Entries to {record.name} have closed.")
        return record

    # --- starting ---

    async def start(
        self, guild_id: int, tournament_id: int | None, member: Member
    ) -> TournamentView:
        """Close entries and start: the first round is paired and started in the background."""
        view = await self.find(guild_id, tournament_id, statuses=(TournamentStatus.OPEN,))
        await self._check_runs(view.record, member, "start")
        async with self._locks(view.id), self._locked(view.id) as view:
            if view.record.status is not TournamentStatus.OPEN:
                raise InvalidStateError(f"{view.record.name} {_state(view.record)}.")
            if len(view.entrants) < MIN_PLAYERS:
                raise InvalidStateError(
                    f"{view.record.name} needs at least {MIN_PLAYERS} players to start; "
                    f"{_players(len(view.entrants))} entered."
                )
            started = await self._start(view)
        self._schedule(started.id, "round 1")
        return started

    async def _start(self, view: TournamentView) -> TournamentView:
        """Seed the entrants by rating and store the running tournament (in `_locked`)."""
        record = view.record
        ratings = await self._ratings.seeding((e.user_id for e in view.entrants), record.game)
        swiss = record.swiss_rounds or default_swiss_rounds(len(view.entrants))
        state = Tournament.start(
            record.format,
            [Entrant(entrant.user_id, ratings[entrant.user_id]) for entrant in view.entrants],
            swiss_rounds=swiss,
        )
        by_user = {entrant.user_id: entrant for entrant in view.entrants}
        seeded = [
            EntrantRecord(
                record.id,
                user_id,
                by_user[user_id].name,
                by_user[user_id].joined_at,
                seed=index,
                rating=ratings[user_id],
            )
            for index, user_id in enumerate(state.players, start=1)
        ]
        now = self._clock.now()
        running = record.evolve(
            status=TournamentStatus.RUNNING, rounds=state.rounds, started_at=now, updated_at=now
        )
        await self._repository.start_tournament(running, seeded)
        log.info("tournament %s started: %s players", record.id, len(seeded))
        return await self.view(record.id)

    async def start_due(self) -> list[int]:
        """Start (or, with too few players, cancel) tournaments whose entry window closed."""
        handled = []
        for record in await self._repository.due_tournaments(self._clock.now()):
            if await self._suspended(record.guild_id):
                continue  # its entries close when Tabula is back (the window is put off)
            async with self._locks(record.id), self._locked(record.id) as view:
                if view.record.status is not TournamentStatus.OPEN:
                    continue  # another process got there first
                if len(view.entrants) >= MIN_PLAYERS:
                    await self._start(view)
                else:
                    reason = (
                        f"entries closed with {_players(len(view.entrants))}; at least "
                        f"{MIN_PLAYERS} are needed"
                    )
                    await self._store_cancelled(view.record, announce=reason)
            await self._outbox.committed()
            handled.append(record.id)
            await self.advance(record.id)
        return handled

    # --- running ---

    async def on_finish(self, view: GameView) -> None:
        """The games' finish hook: record a tournament game's result, then move on."""
        tournament_id = view.record.tournament_id
        if tournament_id is None:
            return
        pairing = await self._repository.pairing_for_game(view.id)
        if pairing is None or pairing.result is not None:
            return
        result = Result.from_winner(view.record.winner)
        if await self._store_result(tournament_id, pairing.id, result):
            log.info("tournament %s: game %s ended %s", tournament_id, view.id, result.label)
            self._schedule(tournament_id, f"after game {view.id}")

    async def _store_result(self, tournament_id: int, pairing_id: int, result: Result) -> bool:
        """Store a pairing's result (False if it had one), and with it, when the result
        drew a knockout match to its end, the news that the better seed goes through."""
        async with self._repository.atomic():
            if not await self._repository.set_pairing_result(pairing_id, result):
                return False
            if result is Result.DRAW:
                view = await self.view(tournament_id)
                if _decided_by_seed(view, pairing_id):
                    row = self._row(Kind.SEED_ADVANCED, view.record, {"pairing": pairing_id})
                    await self._outbox.add([row])
        await self._outbox.committed()
        return True

    def _schedule(self, tournament_id: int, why: str) -> None:
        """Advance the tournament in the background, once for all the results that came in
        while an earlier advance was waiting for the tournament's lock."""
        if tournament_id in self._waiting:
            return
        self._waiting.add(tournament_id)
        self._background.run(
            f"tournament {tournament_id}: {why}", partial(self._scheduled, tournament_id)
        )

    async def _scheduled(self, tournament_id: int) -> None:
        async with self._locks(tournament_id):
            # From here on, a new result schedules another advance.
            self._waiting.discard(tournament_id)
            await self._advance(tournament_id)

    async def advance_all(self) -> list[int]:
        """The scheduler job: advance every running tournament that has something to do."""
        ids = await self._repository.tournaments_needing_work()
        for tournament_id in ids:
            await self.advance(tournament_id)
        return ids

    async def advance(self, tournament_id: int) -> TournamentView:
        """Do whatever is due: record results, pair rounds, make and announce games, finish.

        Every step is stored before the next, and each is skipped when done already, so
        running this again (after a crash, or twice at once) never repeats anything.
        """
        async with self._locks(tournament_id):
            return await self._advance(tournament_id)

    async def _advance(self, tournament_id: int) -> TournamentView:
        """`advance`, under the tournament's lock."""
        view = await self.view(tournament_id)
        if view.record.status is TournamentStatus.CANCELLED:
            await self._abort_games(view)  # what a crash after the cancellation left
            return await self.view(tournament_id)
        if view.record.status is not TournamentStatus.RUNNING:
            return view
        if await self._suspended(view.record.guild_id):
            return view  # nothing is paired or started while Tabula is not in the server
        view = await self._collect_results(view)
        state = view.state
        assert state is not None
        while await self._pair_next(tournament_id):
            pass
        await self._make_games(await self.view(tournament_id))
        await self._announce(tournament_id)
        finished = False
        async with self._locked(tournament_id) as view:
            state = view.state
            running = view.record.status is TournamentStatus.RUNNING
            if running and state is not None and state.is_finished:
                now = self._clock.now()
                record = view.record.evolve(
                    status=TournamentStatus.FINISHED, finished_at=now, updated_at=now
                )
                await self._repository.update_tournament(record)
                await self._outbox.add([self._row(Kind.TOURNAMENT_FINISHED, record, {})])
                finished = True
        if finished:
            await self._outbox.committed()
            log.info("tournament %s finished", tournament_id)
        return await self.view(tournament_id)

    async def _pair_next(self, tournament_id: int) -> bool:
        """Pair whatever can be paired now, in one transaction holding the tournament's
        lock (other processes wait, then see the pairings); False when nothing could be."""
        async with self._locked(tournament_id) as view:
            state = view.state
            if state is None or view.record.status is not TournamentStatus.RUNNING:
                return False
            made = await asyncio.to_thread(state.advance)
            if not made:
                return False
            await self._repository.add_pairings(tournament_id, made)
        return True

    async def _collect_results(self, view: TournamentView) -> TournamentView:
        """Store results of games that ended while their result did not reach us."""
        changed = False
        withdrawn = {e.user_id for e in view.entrants if e.withdrawn}
        for pairing in view.pairings:
            if pairing.game_id is None or pairing.result is not None:
                continue
            game = await self._repository.get_game(pairing.game_id)
            if game is None or game.status is GameStatus.ACTIVE:
                continue
            first_gone = pairing.first_id in withdrawn
            second_gone = pairing.second_id in withdrawn
            gone = first_gone or second_gone
            forfeit = Result.forfeit(first_gone, second_gone) if gone else Result.DOUBLE_FORFEIT
            if game.status is GameStatus.FINISHED:
                played = Result.from_winner(game.winner)
                # ended as the withdrawal's forfeit, the one who stayed winning
                unplayed = is_forfeit(game) and forfeit.winner_seat == played.winner_seat
                result = forfeit if gone and unplayed else played
            else:  # aborted outside the tournament: nobody scores, unless one withdrew
                result = forfeit
            if await self._store_result(view.id, pairing.id, result):
                changed = True
        return await self.view(view.id) if changed else view

    async def _make_games(self, view: TournamentView) -> None:
        """Create the game of every pairing still without one (the same path challenges
        use), each under the tournament's lock: a pairing gets one game, and none once it
        has a result (a withdrawal's forfeit) or the tournament stopped running."""
        record = view.record
        names = view.names
        for pairing in view.pairings:
            if not pairing.needs_game:
                continue
            assert pairing.second_id is not None
            async with self._repository.atomic():
                await self._repository.lock(LockKind.TOURNAMENT, record.id)
                game = await self._repository.create_pairing_game(
                    pairing.id,
                    NewGame(
                        game=record.game,
                        options=record.options,
                        guild_id=record.guild_id,
                        channel_id=record.channel_id,
                        players=(pairing.first_id, pairing.second_id),
                        names=(names[pairing.first_id], names[pairing.second_id]),
                        created_at=self._clock.now(),
                        rated=record.rated,
                        time_control=record.time_control,
                        tournament_id=record.id,
                    ),
                )
            if game is not None:
                await self._games.started(game)

    def _row(
        self, kind: Kind, record: TournamentRecord, data: dict[str, object]
    ) -> NewAnnouncement:
        return tournament_row(kind, record.id, record.guild_id, data)

    async def _announce(self, tournament_id: int) -> None:
        """Store the announcements of each new round (its pairings, then each new game's
        thread and first board) with the steps that record them as announced, all under
        the tournament's lock: each is stored once, whichever process gets there."""
        announced = False
        async with self._locked(tournament_id) as view:
            record = view.record
            if record.status is not TournamentStatus.RUNNING:
                return
            round_posts: dict[int, int] = {}
            for number in range(record.announced_round + 1, view.current_round + 1):
                record = record.evolve(announced_round=number, updated_at=self._clock.now())
                await self._repository.update_tournament(record)
                (stored,) = await self._outbox.add(
                    [self._row(Kind.ROUND, record, {"round": number})]
                )
                round_posts[number] = stored.id
                announced = True
            for pairing in view.pairings:
                if pairing.game_id is None or pairing.announced or pairing.result is not None:
                    continue
                game = await self._games.record(pairing.game_id)
                await self._repository.mark_pairing_announced(pairing.id)
                start, *more = await self._games.start_rows(game, pairing)
                # The game's thread opens after its round's pairings are posted.
                await self._outbox.add(
                    [replace(start, after=round_posts.get(pairing.round)), *more]
                )
                announced = True
        if announced:
            await self._outbox.committed()

    # --- leaving a running tournament ---

    async def withdraw(
        self,
        guild_id: int,
        tournament_id: int | None,
        member: Member,
        player_id: int | None = None,
    ) -> Withdrawal:
        """Withdraw oneself (or, for organisers, `player_id`) from a tournament.

        Before the start this takes the entry back. Once running, the player's games in
        progress are resigned (aborted as forfeits if nobody has moved), and they are not
        paired again.
        """
        target = member.player.id if player_id is None else player_id
        view = await self.find(guild_id, tournament_id, target, statuses=ACTIVE)
        if target != member.player.id:
            await self._check_runs(view.record, member, "withdraw players from")
        whom = "You have" if target == member.player.id else "That player has"
        async with self._locks(view.id):
            async with self._locked(view.id) as view:
                entrant = view.entrant(target)
                if entrant is None:
                    raise InvalidStateError(f"{whom} not entered {view.record.name}.")
                if view.record.status is TournamentStatus.OPEN:
                    await self._repository.remove_entrant(view.id, target)
                    return Withdrawal(await self.view(view.id), target)
            if view.record.status is not TournamentStatus.RUNNING:
                raise InvalidStateError(f"{view.record.name} {_state(view.record)}.")
            if entrant.withdrawn:
                raise InvalidStateError(f"{whom} already withdrawn from {view.record.name}.")
            reason = f"{entrant.name} withdrew from the tournament"
            resigned, aborted = await self._end_games_of(view, target, reason)
            async with self._locked(view.id) as view:
                # Decided on the tournament as stored now: another process may have paired
                # a round meanwhile; the player's unplayed games there are forfeits too.
                state = view.state
                if view.record.status is TournamentStatus.RUNNING and state is not None:
                    after = state.withdraw(target)
                    forfeits = [
                        replace(stored, result=changed.result)
                        for stored, changed in zip(view.pairings, after.pairings, strict=True)
                        if stored.result is None and changed.result is not None
                    ]
                    await self._repository.withdraw_entrant(
                        view.id, target, self._clock.now(), forfeits
                    )
            # A game another process made for the player just before: ended as well.
            more_resigned, more_aborted = await self._end_games_of(
                await self.view(view.id), target, reason
            )
            resigned += more_resigned
            aborted += more_aborted
            if aborted:
                async with self._repository.atomic():
                    await self._outbox.add([self._aborted_row(view.record, aborted)])
            await self._outbox.committed()
            view = await self.view(view.id)
        log.info("tournament %s: player %s withdrew", view.id, target)
        self._schedule(view.id, "after a withdrawal")
        return Withdrawal(view, target, tuple(resigned), tuple(aborted))

    async def _end_games_of(
        self, view: TournamentView, target: int, reason: str
    ) -> tuple[list[GameView], list[GameView]]:
        """Resign `target`'s games in progress; those nobody has moved in are won by the
        opponent by forfeit, unrated: (resigned, forfeited)."""
        resigned: list[GameView] = []
        aborted: list[GameView] = []
        for pairing in view.pairings:
            if pairing.game_id is None or target not in (pairing.first_id, pairing.second_id):
                continue
            game = await self._games.record(pairing.game_id)
            if not game.is_active:
                continue
            seat = 0 if pairing.first_id == target else 1
            if game.ply == 0 or pairing.result is not None:
                gone = await self._games.forfeit(game.id, 1 - seat, reason)
                if gone is not None:
                    aborted.append(gone)
                continue
            try:
                resigned.append(await self._games.finish(game.id, 1 - seat, reason))
            except InvalidStateError:
                continue  # it ended a moment ago; its result stands
        return resigned, aborted

    # --- cancelling ---

    async def cancel(
        self, guild_id: int, tournament_id: int | None, member: Member
    ) -> Cancellation:
        """Cancel a tournament: no more rounds, games in progress aborted, no standings."""
        view = await self.find(guild_id, tournament_id, member.player.id, statuses=ACTIVE)
        await self._check_runs(view.record, member, "cancel")
        async with self._locks(view.id):
            async with self._locked(view.id) as view:
                if view.record.status not in ACTIVE:
                    raise InvalidStateError(f"{view.record.name} {_state(view.record)}.")
                await self._store_cancelled(view.record)
            await self._outbox.committed()
            log.info("tournament %s cancelled by %s", view.id, member.player.id)
            aborted = await self._abort_games(
                await self.view(view.id),
                f"{view.record.name} was cancelled by {member.player.name}",
            )
            return Cancellation(await self.view(view.id), tuple(aborted))

    async def cancel_for(self, tournament_id: int, reason: str) -> Cancellation | None:
        """Cancel a tournament without a command (its server removed Tabula long ago),
        saying why: as `cancel`, its games in progress are aborted. None when it had
        ended already."""
        async with self._locks(tournament_id):
            async with self._locked(tournament_id) as view:
                if view.record.status not in ACTIVE:
                    return None
                await self._store_cancelled(view.record, announce=reason)
            await self._outbox.committed()
            log.info("tournament %s cancelled: %s", tournament_id, reason)
            aborted = await self._abort_games(await self.view(tournament_id), reason)
            return Cancellation(await self.view(tournament_id), tuple(aborted))

    async def _suspended(self, guild_id: int) -> bool:
        """True while Tabula is not in the server (removed from it): its tournaments wait."""
        return await self._repository.suspension_of(guild_id, None) is not None

    def _aborted_row(self, record: TournamentRecord, games: Sequence[GameView]) -> NewAnnouncement:
        return self._row(Kind.ROUND_ABORTED, record, {"games": [game.id for game in games]})

    async def _store_cancelled(self, record: TournamentRecord, announce: str | None = None) -> None:
        """Store the cancellation (in `_locked`): nothing more is paired or made from now
        on. With `announce` (why it was cancelled by itself), that is posted where the
        tournament is run."""
        now = self._clock.now()
        record = record.evolve(status=TournamentStatus.CANCELLED, finished_at=now, updated_at=now)
        await self._repository.update_tournament(record)
        if announce is not None:
            await self._outbox.add(
                [self._row(Kind.TOURNAMENT_CANCELLED, record, {"reason": announce})]
            )

    async def _abort_games(self, view: TournamentView, reason: str | None = None) -> list[GameView]:
        """Abort the games in progress of a cancelled tournament (after the cancellation is
        stored, so no process makes another), with the news of them."""
        reason = reason or f"{view.record.name} was cancelled"
        aborted = []
        for pairing in view.pairings:
            if pairing.game_id is not None and pairing.result is None:
                gone = await self._games.abort(pairing.game_id, reason)
                if gone is not None:
                    aborted.append(gone)
        if aborted:
            async with self._repository.atomic():
                await self._outbox.add([self._aborted_row(view.record, aborted)])
            await self._outbox.committed()
        return aborted


def _ambiguous(candidates: Sequence[TournamentView]) -> NotFoundError:
    """The refusal when several tournaments could be meant, naming (some of) them."""
    listed = ", ".join(f"#{c.id} {c.record.name}" for c in candidates[:10])
    return NotFoundError(f"Several tournaments could be meant ({listed}): name one by number.")


def _decided_by_seed(view: TournamentView, pairing_id: int) -> bool:
    """True when this drawn pairing ended a knockout match, the better seed going through."""
    state = view.state
    stored = next((p for p in view.pairings if p.id == pairing_id), None)
    return (
        state is not None and stored is not None and state.seed_decision(stored.pairing) is not None
    )


def _players(count: int) -> str:
    """ "1 player", "3 players"."""
    return "1 player" if count == 1 else f"{count} players"


def _state(record: TournamentRecord) -> str:
    """What a tournament is doing, as a phrase: "has started", "is over"."""
    return {
        TournamentStatus.OPEN: "is taking entries",
        TournamentStatus.RUNNING: "has started",
        TournamentStatus.FINISHED: "is over",
        TournamentStatus.CANCELLED: "was cancelled",
    }[record.status]
