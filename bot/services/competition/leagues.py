"""`LeagueService`: correspondence leagues per server, season after season.

The division split, promotion and relegation and the standings live in
`bot.competition.leagues`; this service stores what they need and acts on it.

How leagues behave (the decisions the docs repeat):

- Members with Manage Server, or the server's organiser role, create leagues; the
  creator and those members cancel them.
- Players join at any time: before a season starts they play it; during a season they
  are entered for the next. Entries carry over from season to season until a player
  leaves.
- A season starts by itself when its entry window closes (with fewer than two players
  it waits one more window). Its players are split into divisions by rating (the first
  season) or by the last season's results (promotion and relegation; newcomers placed by
  rating). Every game of every division starts at once.
- A season ends when its last game ends, or when its length has passed: games still in
  progress are then aborted and score nothing for either player. The top two of each
  division go up, the bottom two go down, and the next season takes entries at once.
- A player who leaves during a season has every game of theirs without a result
  forfeited: a loss for them, a win for the opponent (games in progress end so, unrated,
  in their own records too). They finish last in their division and are out of the next
  season.
- Every announcement is stored in the outbox with the change it reports; every step is
  stored before the next, and a scheduler job does whatever a restart interrupted.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from functools import partial

from bot.competition.leagues import (
    MAX_DIVISION,
    MIN_DIVISION,
    MIN_PLAYERS,
    by_rating,
    check_bounds,
    division_games,
    final_order,
    next_ladder,
    outcomes,
    split,
)
from bot.competition.records import Result
from bot.services.announcing.announcements import Kind, league_row
from bot.services.announcing.outbox import Outbox
from bot.services.background import Background
from bot.services.clock import Clock
from bot.services.competition.ratings import RatingService
from bot.services.competition.tournaments import Member
from bot.services.durations import (
    format_span,
    parse_duration,
    parse_time_control,
)
from bot.services.errors import (
    InvalidInputError,
    InvalidStateError,
    LeagueOrganisersOnlyError,
    NotAllowedError,
    NotFoundError,
)
from bot.services.games.games import GameService, is_forfeit
from bot.services.games.players import Player
from bot.services.ids import storable
from bot.services.locks import KeyedLocks
from bot.services.settings import SettingsService
from bot.services.views.leagues import (
    Departure,
    LeagueHistory,
    LeagueView,
    SeasonSummary,
)
from bot.services.views.results import GameView
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
from bot.storage.repository import GameStatus, LockKind, NewAnnouncement, NewGame, Repository
from rules import OptionValue, get_game

log = logging.getLogger(__name__)

MIN_SEASON = timedelta(days=1)
MAX_SEASON = timedelta(days=366)
MIN_ENTRY_WINDOW = timedelta(minutes=1)
MAX_ENTRY_WINDOW = timedelta(days=30)
DEFAULT_ENTRY_WINDOW = timedelta(days=1)
"""How long entries stay open before a season when the organiser chose nothing."""
NAME_LENGTH = 60
"""The longest a league's name may be."""
ACTIVE = (LeagueStatus.OPEN, LeagueStatus.RUNNING)
"""Leagues still going on."""


class LeagueService:
    """Creates and runs leagues; front ends call it with plain ids."""

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
        """Leagues with an advance scheduled that has not taken the lock yet."""

    # --- finding ---

    async def view(self, league_id: int, season: int | None = None) -> LeagueView:
        """The league with one season (the latest by default); `NotFoundError` if none."""
        record = await self._repository.get_league(league_id) if storable(league_id) else None
        if record is None:
            raise NotFoundError(f"There is no league #{league_id}.")
        return await self._view_of(record, season)

    async def _view_of(self, record: LeagueRecord, season: int | None = None) -> LeagueView:
        number = record.season if season is None else season
        members = tuple(await self._repository.list_league_members(record.id))
        seasons = await self._repository.list_seasons(record.id)
        shown = next((s for s in seasons if s.number == number), None)
        if shown is None:
            return LeagueView(record, members, None)
        placements = await self._repository.list_placements(record.id, number)
        games = await self._repository.list_league_games(record.id, number)
        return LeagueView(record, members, shown, tuple(placements), tuple(games))

    @asynccontextmanager
    async def _locked(self, league_id: int) -> AsyncIterator[LeagueView]:
        """A transaction holding the league's lock across processes, with the league as
        stored now: each step is decided and stored in one."""
        async with self._repository.atomic():
            await self._repository.lock(LockKind.LEAGUE, league_id)
            yield await self.view(league_id)

    async def listed(
        self, guild_id: int, statuses: Sequence[LeagueStatus] = ACTIVE
    ) -> list[LeagueRecord]:
        """The server's leagues in these states, newest first."""
        return await self._repository.list_leagues(guild_id, statuses)

    async def find(
        self, guild_id: int, league_id: int | None, user_id: int | None = None
    ) -> LeagueView:
        """The league a command means: the one named, or the server's only league going
        on (of several, the only one `user_id` is in). Without any, the latest cancelled."""
        if league_id is not None:
            view = await self.view(league_id)
            if view.record.guild_id != guild_id:
                raise NotFoundError(f"There is no league #{league_id} on this server.")
            return view
        going = [await self._view_of(r) for r in await self.listed(guild_id)]
        if len(going) == 1:
            return going[0]
        if user_id is not None and len(going) > 1:
            mine = [v for v in going if v.member(user_id) or v.placement(user_id)]
            if len(mine) == 1:
                return mine[0]
        if going:
            listed = ", ".join(f"#{v.id} {v.record.name}" for v in going[:10])
            raise NotFoundError(f"Several leagues could be meant ({listed}): name one by number.")
        ended = await self.listed(guild_id, (LeagueStatus.CANCELLED,))
        if ended:
            return await self._view_of(ended[0])
        raise NotFoundError(
            "There is no league on this server. Organisers create one with /league create."
        )

    async def season(self, view: LeagueView, number: int) -> LeagueView:
        """The league with season `number`; `InvalidInputError` for a season not played."""
        if not 1 <= number <= view.record.season:
            played = (
                f"has played seasons 1 to {view.record.season}"
                if view.record.season > 1
                else "has played season 1 only"
                if view.record.season == 1
                else "has not played a season yet"
            )
            raise InvalidInputError(f"{view.record.name} {played}.")
        return await self.view(view.id, number)

    async def history(self, guild_id: int, league_id: int | None) -> LeagueHistory:
        """Every season of the league with each player's division, place and move."""
        view = await self.find(guild_id, league_id)
        seasons = []
        for season in await self._repository.list_seasons(view.id):
            placements = await self._repository.list_placements(view.id, season.number)
            seasons.append(SeasonSummary(season, tuple(placements)))
        return LeagueHistory(view.record, tuple(seasons))

    # --- permissions ---

    async def can_organise(self, guild_id: int, member: Member) -> bool:
        """True for members with Manage Server or the server's organiser role."""
        if member.can_manage:
            return True
        role = (await self._settings.guild(guild_id)).organiser_role
        return role is not None and role in member.roles

    # --- creating, joining, leaving ---

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        member: Member,
        game: str,
        season: str,
        games_per_pair: int = 1,
        smallest: int = MIN_DIVISION,
        largest: int = MAX_DIVISION,
        name: str | None = None,
        entry_window: str | None = None,
        time_control: str | None = None,
        options: Mapping[str, object] | None = None,
        rated: bool = True,
    ) -> LeagueView:
        """Create a league whose first season takes entries now, run in `channel_id`."""
        if not await self.can_organise(guild_id, member):
            raise LeagueOrganisersOnlyError(
                "Only members with the Manage Server permission or the organiser role can "
                "create leagues here."
            )
        rules = get_game(game)
        validated: dict[str, OptionValue] = dict(rules.validate_options(options or {}))
        length = parse_duration(season)
        if not MIN_SEASON <= length <= MAX_SEASON:
            raise InvalidInputError(
                f"A season lasts between {format_span(MIN_SEASON)} and "
                f"{format_span(MAX_SEASON)} (got {format_span(length)})."
            )
        if games_per_pair not in (1, 2):
            raise InvalidInputError(
                f"Each pair plays 1 game, or 2 (one with each colour), not {games_per_pair}."
            )
        try:
            check_bounds(smallest, largest)
        except ValueError:
            raise InvalidInputError(
                f"Divisions take {MIN_DIVISION} to {MAX_DIVISION} players, the smallest size "
                f"no larger than the largest (got {smallest} to {largest})."
            ) from None
        window = DEFAULT_ENTRY_WINDOW
        if entry_window is not None and entry_window.strip():
            window = parse_duration(entry_window)
            if not MIN_ENTRY_WINDOW <= window <= MAX_ENTRY_WINDOW:
                raise InvalidInputError(
                    f"The entry window must be between {format_span(MIN_ENTRY_WINDOW)} "
                    f"and {format_span(MAX_ENTRY_WINDOW)} (got {format_span(window)})."
                )
        settings = await self._settings.check_game_channel(guild_id, channel_id)
        clock_text = str(parse_time_control(time_control or settings.default_time_control))
        title = " ".join((name or "").split()) or f"{rules.title} League"
        if len(title) > NAME_LENGTH:
            raise InvalidInputError(f"A league's name has at most {NAME_LENGTH} characters.")
        now = self._clock.now()
        record = await self._repository.create_league(
            NewLeague(
                guild_id=guild_id,
                channel_id=channel_id,
                name=title,
                organiser_id=member.player.id,
                organiser_name=member.player.name,
                game=rules.name,
                options=validated,
                time_control=clock_text,
                rated=rated,
                games_per_pair=games_per_pair,
                smallest=smallest,
                largest=largest,
                season_length=length,
                entry_window=window,
                created_at=now,
                starts_at=now + window,
            )
        )
        log.info("league %s created in guild %s by %s", record.id, guild_id, member.player.id)
        return await self._view_of(record)

    async def join(self, guild_id: int, league_id: int | None, player: Player) -> LeagueView:
        """Enter the league's next season (and the ones after, until one leaves)."""
        view = await self.find(guild_id, league_id, player.id)
        if player.is_bot:
            raise NotAllowedError("Bots cannot play in leagues.")
        async with self._locks(view.id), self._locked(view.id) as view:
            if view.record.status is LeagueStatus.CANCELLED:
                raise InvalidStateError(f"{view.record.name} was cancelled.")
            if view.member(player.id) is not None:
                raise InvalidStateError(f"You have already joined {view.record.name}.")
            await self._repository.add_league_member(
                LeagueMember(view.id, player.id, player.name, self._clock.now())
            )
        return await self.view(view.id)

    async def leave(self, guild_id: int, league_id: int | None, user_id: int) -> Departure:
        """Leave the league. During a season one plays, every game of theirs without a
        result is forfeited (games in progress aborted) and they finish last."""
        view = await self.find(guild_id, league_id, user_id)
        async with self._locks(view.id):
            view = await self.view(view.id)
            placement = view.placement(user_id)
            playing = (
                view.record.status is LeagueStatus.RUNNING
                and placement is not None
                and not placement.withdrawn
            )
            if not playing:
                async with self._locked(view.id) as view:
                    member = view.member(user_id)
                    if member is None:
                        raise InvalidStateError(f"You have not joined {view.record.name}.")
                    await self._repository.remove_league_member(view.id, user_id)
                return Departure(await self.view(view.id), user_id, member.name)
            assert placement is not None
            departure = await self._withdraw(view, placement)
        self._schedule(view.id, "after a withdrawal")
        return departure

    async def _withdraw(self, view: LeagueView, placement: PlacementRecord) -> Departure:
        """Forfeit a leaving player's remaining games (under the league's lock).

        The withdrawal, its forfeits and its announcement are stored in one transaction
        first; the games in progress are ended as forfeits after. A crash in between
        leaves those games running with their forfeits stored: the next advance ends
        them (`_abort_games_of_withdrawn`), and their results stand."""
        user_id = placement.user_id
        forfeited: list[LeagueGameRecord] = []
        playing: list[int] = []
        async with self._locked(view.id) as current:
            forfeits = []
            for game in current.games:
                if game.result is not None or user_id not in (game.first_id, game.second_id):
                    continue
                found = (
                    None if game.game_id is None else await self._repository.get_game(game.game_id)
                )
                ended = found is not None and found.status is GameStatus.FINISHED
                if found is not None and ended and not is_forfeit(found):
                    # It ended before the player left: its result stands (a game
                    # forfeited just now is scored as the forfeit below).
                    await self._repository.set_league_result(
                        game.id, Result.from_winner(found.winner)
                    )
                    continue
                if found is not None and found.status is GameStatus.ACTIVE:
                    playing.append(found.id)
                result = Result.forfeit(game.first_id == user_id, game.second_id == user_id)
                forfeits.append((game.id, result))
                forfeited.append(replace(game, result=result))
            now = self._clock.now()
            await self._repository.withdraw_from_season(
                view.id, placement.season, user_id, now, forfeits
            )
            row = self._row(
                Kind.LEAGUE_WITHDRAWAL,
                view.record,
                {
                    "season": placement.season,
                    "user": user_id,
                    "name": placement.name,
                    "games": [game.id for game in forfeited],
                    "aborted": playing,
                },
            )
            await self._outbox.add([row])
        # Also any game another process made for the player just before.
        aborted = await self._abort_games_of_withdrawn(await self.view(view.id))
        await self._outbox.committed()
        log.info("league %s: player %s left season %s", view.id, user_id, placement.season)
        return Departure(
            await self.view(view.id), user_id, placement.name, tuple(forfeited), tuple(aborted)
        )

    async def _abort_games_of_withdrawn(self, view: LeagueView) -> list[GameView]:
        """End the games still in progress of the season's players who left, as forfeits
        (the opponent wins, unrated): their league results are stored already, so this
        only ends the games (again after a restart, if one came first)."""
        gone = {p.user_id: p.name for p in view.placements if p.withdrawn}
        ended = []
        for game in view.games:
            leaver = next((u for u in (game.first_id, game.second_id) if u in gone), None)
            if game.game_id is None or leaver is None:
                continue
            record = await self._games.record(game.game_id)
            seat = record.seat_of(leaver)
            if not record.is_active or seat is None:
                continue
            reason = f"{gone[leaver]} left {view.record.name}"
            forfeited = await self._games.forfeit(game.game_id, 1 - seat, reason)
            if forfeited is not None:
                ended.append(forfeited)
        return ended

    # --- cancelling ---

    async def cancel(self, guild_id: int, league_id: int | None, member: Member) -> LeagueView:
        """Cancel a league: the season in progress stops, its games are aborted."""
        view = await self.find(guild_id, league_id, member.player.id)
        if member.player.id != view.record.organiser_id and not await self.can_organise(
            guild_id, member
        ):
            raise LeagueOrganisersOnlyError(
                f"Only {view.record.organiser_name}, who created {view.record.name}, or "
                "members who may organise leagues here can cancel it."
            )
        async with self._locks(view.id):
            async with self._locked(view.id) as view:
                if view.record.status is LeagueStatus.CANCELLED:
                    raise InvalidStateError(f"{view.record.name} was cancelled already.")
                await self._store_cancelled(view, member.player.name)
            await self._outbox.committed()
            log.info("league %s cancelled by %s", view.id, member.player.id)
            await self._abort_all(await self.view(view.id), f"{view.record.name} was cancelled")
        return await self.view(view.id)

    async def cancel_for(self, league_id: int, reason: str) -> LeagueView | None:
        """Cancel a league without a command (its server removed Tabula long ago), saying
        why: as `cancel`, the season in progress stops and its games are aborted. None
        when it was cancelled already."""
        async with self._locks(league_id):
            async with self._locked(league_id) as view:
                if view.record.status is LeagueStatus.CANCELLED:
                    return None
                await self._store_cancelled(view, reason)
            await self._outbox.committed()
            log.info("league %s cancelled: %s", league_id, reason)
            await self._abort_all(await self.view(league_id), reason)
        return await self.view(league_id)

    async def _store_cancelled(self, view: LeagueView, by: str) -> None:
        """Store the league cancelled (its running season stopped) with its announcement
        saying `by` whom or why; inside the caller's locked transaction."""
        now = self._clock.now()
        record = view.record.evolve(status=LeagueStatus.CANCELLED, ends_at=None, updated_at=now)
        if view.season is not None and view.season.status is SeasonStatus.RUNNING:
            season = replace(view.season, status=SeasonStatus.CANCELLED, finished_at=now)
            await self._repository.finish_season(record, season, ())
        else:
            await self._repository.update_league(record)
        await self._outbox.add([self._row(Kind.LEAGUE_CANCELLED, record, {"by": by})])

    async def _abort_all(self, view: LeagueView, reason: str) -> list[GameView]:
        """Abort the season's games in progress."""
        aborted = []
        for game in view.games:
            if game.game_id is not None and game.result is None:
                gone = await self._games.abort(game.game_id, reason)
                if gone is not None:
                    aborted.append(gone)
        return aborted

    # --- running ---

    async def on_finish(self, view: GameView) -> None:
        """The games' finish hook: record a league game's result, then move on."""
        game = await self._repository.league_game_for(view.id)
        if game is None or game.result is not None:
            return
        result = Result.from_winner(view.record.winner)
        if await self._repository.set_league_result(game.id, result):
            log.info("league %s: game %s ended %s", game.league_id, view.id, result.label)
            self._schedule(game.league_id, f"after game {view.id}")

    def _schedule(self, league_id: int, why: str) -> None:
        """Advance the league in the background, once for the results that came in while
        an earlier advance waited for the lock."""
        if league_id in self._waiting:
            return
        self._waiting.add(league_id)
        self._background.run(f"league {league_id}: {why}", partial(self._scheduled, league_id))

    async def _scheduled(self, league_id: int) -> None:
        async with self._locks(league_id):
            self._waiting.discard(league_id)
            await self._advance(league_id)

    async def advance_all(self) -> list[int]:
        """The scheduler job: advance every league with something due."""
        ids = await self._repository.leagues_needing_work(self._clock.now())
        for league_id in ids:
            await self.advance(league_id)
        return ids

    async def advance(self, league_id: int) -> LeagueView:
        """Do whatever is due: start a season, record results, make and announce games,
        end the season. Each step is stored before the next and skipped once done, so
        running this again (after a crash, or twice at once) repeats nothing."""
        async with self._locks(league_id):
            return await self._advance(league_id)

    async def _advance(self, league_id: int) -> LeagueView:
        view = await self.view(league_id)
        if view.record.status is LeagueStatus.CANCELLED:
            await self._abort_all(view, f"{view.record.name} was cancelled")
            return await self.view(league_id)
        if await self._repository.suspension_of(view.record.guild_id, None) is not None:
            return view  # Tabula is not in the server: the league waits (its times are put off)
        if view.record.status is LeagueStatus.OPEN:
            if view.record.starts_at > self._clock.now():
                return view
            await self._open_season(league_id)
            view = await self.view(league_id)
            if view.record.status is not LeagueStatus.RUNNING:
                return view
        view = await self._collect_results(view)
        await self._abort_games_of_withdrawn(view)
        await self._make_games(view)
        await self._announce(league_id)
        view = await self.view(league_id)
        ends = view.record.ends_at
        if ends is not None and self._clock.now() >= ends:
            await self._abort_all(view, f"season {view.record.season} of {view.record.name} ended")
        await self._end_season(league_id)
        return await self.view(league_id)

    async def _open_season(self, league_id: int) -> None:
        """Start the next season, or with too few players, put it off one entry window."""
        async with self._locked(league_id) as view:
            record = view.record
            now = self._clock.now()
            if record.status is not LeagueStatus.OPEN or record.starts_at > now:
                return
            if len(view.members) < MIN_PLAYERS:
                later = record.evolve(starts_at=now + record.entry_window, updated_at=now)
                await self._repository.update_league(later)
                data = {
                    "season": record.season + 1,
                    "players": len(view.members),
                    "starts": later.starts_at.isoformat(),
                }
                await self._outbox.add([self._row(Kind.LEAGUE_POSTPONED, later, data)])
            else:
                await self._start_season(view)
        await self._outbox.committed()

    async def _start_season(self, view: LeagueView) -> None:
        """Split the members into divisions and store the season with all its games."""
        record = view.record
        number = record.season + 1
        names = {member.user_id: member.name for member in view.members}
        ids = [member.user_id for member in view.members]
        rating = await self._ratings.seeding(ids, record.game)
        if view.placements:
            finals = [
                tuple(
                    p.user_id
                    for p in sorted(view.division(d), key=lambda p: (p.place or 0, p.position))
                )
                for d in range(1, view.division_count + 1)
            ]
            before = {p.user_id for p in view.placements}
            returning = set(ids) & before
            ladder = next_ladder(finals, returning, [i for i in ids if i not in before], rating)
        else:
            ladder = by_rating(ids, rating)
        divisions = split(ladder, record.smallest, record.largest)
        position = {player: index for index, player in enumerate(ladder, start=1)}
        placements = [
            PlacementRecord(
                record.id, number, player, names[player], d, position[player], rating[player]
            )
            for d, players in enumerate(divisions, start=1)
            for player in players
        ]
        games = [
            NewLeagueGame(d, pairing)
            for d, players in enumerate(divisions, start=1)
            for pairing in division_games(players, record.games_per_pair)
        ]
        now = self._clock.now()
        season = SeasonRecord(record.id, number, now, now + record.season_length)
        running = record.evolve(
            status=LeagueStatus.RUNNING, season=number, ends_at=season.ends_at, updated_at=now
        )
        await self._repository.start_season(running, season, placements, games)
        log.info(
            "league %s: season %s started with %s players in %s divisions",
            record.id,
            number,
            len(ladder),
            len(divisions),
        )

    async def _collect_results(self, view: LeagueView) -> LeagueView:
        """Store the results of games that ended while their result did not reach us."""
        changed = False
        withdrawn = {p.user_id for p in view.placements if p.withdrawn}
        for game in view.games:
            if game.game_id is None or game.result is not None:
                continue
            found = await self._repository.get_game(game.game_id)
            if found is None or found.status is GameStatus.ACTIVE:
                continue
            first, second = game.first_id in withdrawn, game.second_id in withdrawn
            if found.status is GameStatus.FINISHED and not (
                is_forfeit(found) and (first or second)
            ):
                result = Result.from_winner(found.winner)
            else:  # forfeited or aborted: nobody scores, unless a player left
                result = Result.forfeit(first, second) if first or second else Result.DOUBLE_FORFEIT
            if await self._repository.set_league_result(game.id, result):
                changed = True
        return await self.view(view.id) if changed else view

    async def _make_games(self, view: LeagueView) -> None:
        """Create the game of every league game still without one, each under the
        league's lock: one game each, none once it has a result or the season ended."""
        record = view.record
        names = view.names
        for game in view.games:
            if not game.needs_game:
                continue
            async with self._repository.atomic():
                await self._repository.lock(LockKind.LEAGUE, record.id)
                made = await self._repository.create_league_game(
                    game.id,
                    NewGame(
                        game=record.game,
                        options=record.options,
                        guild_id=record.guild_id,
                        channel_id=record.channel_id,
                        players=(game.first_id, game.second_id),
                        names=(names[game.first_id], names[game.second_id]),
                        created_at=self._clock.now(),
                        rated=record.rated,
                        time_control=record.time_control,
                    ),
                )
            if made is not None:
                await self._games.started(made)

    async def _announce(self, league_id: int) -> None:
        """Store the season's divisions, then each new game's thread and first board,
        with the marks that record them announced, under the league's lock."""
        announced = False
        async with self._locked(league_id) as view:
            record = view.record
            if record.status is not LeagueStatus.RUNNING:
                return
            post = None
            if record.announced_season < record.season:
                record = record.evolve(announced_season=record.season)
                await self._repository.update_league(record)
                (stored,) = await self._outbox.add(
                    [self._row(Kind.LEAGUE_SEASON_STARTED, record, {"season": record.season})]
                )
                post = stored.id
                announced = True
            for game in view.games:
                if game.game_id is None or game.announced or game.result is not None:
                    continue
                made = await self._games.record(game.game_id)
                await self._repository.mark_league_game_announced(game.id)
                start, *more = await self._games.start_rows(made)
                # The game's thread opens after the season's divisions are posted.
                await self._outbox.add([replace(start, after=post), *more])
                announced = True
        if announced:
            await self._outbox.committed()

    async def _end_season(self, league_id: int) -> None:
        """When every game has a result, or the season's time is up (games without a
        result then score nothing), store the final places and open the next season."""
        async with self._locked(league_id) as locked:
            record = locked.record
            season = locked.season
            now = self._clock.now()
            if record.status is not LeagueStatus.RUNNING or season is None:
                return
            view = await self._collect_results(locked)
            unfinished = [game for game in view.games if game.result is None]
            if unfinished and now < season.ends_at:
                return
            for game in unfinished:
                await self._repository.set_league_result(game.id, Result.DOUBLE_FORFEIT)
            view = await self.view(league_id)
            finals = [final_order(view.standings(d)) for d in range(1, view.division_count + 1)]
            ended = {o.player: o for o in outcomes(finals)}
            placements = [
                replace(p, place=ended[p.user_id].place, move=ended[p.user_id].move)
                for p in view.placements
            ]
            opens = record.evolve(
                status=LeagueStatus.OPEN,
                starts_at=now + record.entry_window,
                ends_at=None,
                updated_at=now,
            )
            finished = replace(season, status=SeasonStatus.FINISHED, finished_at=now)
            await self._repository.finish_season(opens, finished, placements)
            data = {
                "season": season.number,
                "unfinished": len(unfinished),
                "starts": opens.starts_at.isoformat(),
            }
            await self._outbox.add([self._row(Kind.LEAGUE_SEASON_FINISHED, opens, data)])
        await self._outbox.committed()
        log.info("league %s: season %s finished", league_id, season.number)

    def _row(self, kind: Kind, record: LeagueRecord, data: Mapping[str, object]) -> NewAnnouncement:
        return league_row(kind, record.id, record.guild_id, data)
