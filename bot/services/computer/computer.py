"""Games against the computer: starting them, answering for the computer, resuming them.

The computer sits in a seat with no user id and a level (`easy`, `medium`, `hard`).
Whenever a turn of its begins (the game starts with it, a player's move hands it the
turn, or the bot restarts with it to move) a task asks the `TurnRunner` for its moves,
off the event loop, and plays them through `GameService.play_computer_move`, which
commits them and announces them like a player's moves.
Games against the computer are never rated.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Mapping

from bot.ai import DEFAULT_SECONDS, parse_level
from bot.services.clock import Clock
from bot.services.computer.runner import TurnRequest, TurnRunner
from bot.services.errors import InvalidInputError, InvalidStateError, NotAllowedError, ServiceError
from bot.services.games.challenges import challenger_seat
from bot.services.games.games import GameService
from bot.services.games.players import Player, computer_seat
from bot.services.settings import SettingsService
from bot.services.views.results import GameView, MoveResult
from bot.storage.repository import GameRecord, NewGame, Repository, ShardFilter
from rules import GameError, get_game

log = logging.getLogger(__name__)

COMPUTER_NAME = "Tabula"
"""The name the computer plays under (the bot's own name in Discord)."""
DEFAULT_LEVEL = "medium"
MAX_COMPUTER_GAMES = 5
"""Games against the computer one player may have in progress at a time."""
DRAW_ACCEPTED_BELOW = 0.2
"""The computer accepts a draw when it rates its own chance of winning below this."""


class ComputerService:
    """Starts games against the computer and plays the computer's turns."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        games: GameService,
        settings: SettingsService,
        runner: TurnRunner,
        *,
        seconds: float = DEFAULT_SECONDS,
        name: str = COMPUTER_NAME,
        rng: random.Random | None = None,
        shards: ShardFilter | None = None,
    ) -> None:
        self._repository = repository
        self.shards = shards
        """The servers whose games this process plays for the computer (None: all)."""
        self._clock = clock
        self._games = games
        self._settings = settings
        self.runner = runner
        self.seconds = seconds
        """The `hard` level's time budget for one answer."""
        self.name = name
        self._rng = rng or random.Random()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._look_again: set[int] = set()
        games.move_hooks.append(self._after_move)
        games.computer = self

    # --- starting ---

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
        """Start a game between `player` and the computer.

        The computer does not move yet: call `begin(game_id)` once the game's first board
        is shown, so that its opening move is announced after it.
        """
        rules = get_game(game)
        validated = rules.validate_options(options or {})
        try:
            chosen = parse_level(level or DEFAULT_LEVEL)
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from None
        seat = challenger_seat(rules, colour)
        if seat is None:
            seat = self._rng.randrange(2)
        if player.is_bot:
            raise NotAllowedError("Bots cannot start games.")
        await self._settings.check_game_channel(guild_id, channel_id)
        mine = [g for g in await self._repository.active_games(user_id=player.id) if g.has_computer]
        if len(mine) >= MAX_COMPUTER_GAMES:
            raise InvalidStateError(
                f"You already have {len(mine)} games against me in progress; finish or "
                "resign one first."
            )
        computer = f"{self.name} ({chosen.value})"
        players: tuple[int | None, int | None] = (
            (player.id, None) if seat == 0 else (None, player.id)
        )
        names = (player.name, computer) if seat == 0 else (computer, player.name)
        levels = (None, chosen.value) if seat == 0 else (chosen.value, None)
        async with self._repository.atomic():
            record = await self._repository.create_game(
                NewGame(
                    game=rules.name,
                    options=validated,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    players=players,
                    names=names,
                    created_at=self._clock.now(),
                    ai_levels=levels,
                    rated=False,
                )
            )
            await self._games.outbox.add(await self._games.start_rows(record))
        view = await self._games.started(record)
        await self._games.outbox.committed()
        return view

    def begin(self, game_id: int) -> None:
        """Let the computer think in `game_id` if it is to move (e.g. it opens the game)."""
        self._schedule(game_id)

    async def resume(self) -> int:
        """After a restart: start thinking in every active game where the computer is to
        move, of the servers on this process's shards (the process that receives a
        server's commands plays the computer there). Returns how many games that was."""
        held = {s.guild_id for s in await self._repository.open_suspensions() if s.game_id is None}
        waiting = [
            g.id
            for g in await self._repository.active_games()
            if computer_seat(g) == g.to_move
            and (self.shards is None or self.shards.covers(g.guild_id))
            and g.guild_id not in held
        ]
        for game_id in waiting:
            self._schedule(game_id)
        return len(waiting)

    # --- playing ---

    async def _after_move(self, result: MoveResult) -> None:
        """A move was committed: if it handed the turn to the computer, it starts thinking."""
        record = result.view.record
        if record.is_active and result.turn_complete and computer_seat(record) == record.to_move:
            self._schedule(record.id)

    def _schedule(self, game_id: int) -> None:
        """Think about `game_id`; a task already at it looks at the game once more before
        it stops (it may have read the game just before the move that woke it)."""
        if game_id in self._tasks:
            self._look_again.add(game_id)
            return
        task = asyncio.create_task(self._play(game_id), name=f"computer move in game {game_id}")
        self._tasks[game_id] = task
        task.add_done_callback(functools.partial(self._forget, game_id))

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        """`task` no longer thinks about `game_id` (unless a newer task does)."""
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]

    async def _play(self, game_id: int) -> None:
        """Play the computer's turns in `game_id` for as long as it is the one to move."""
        try:
            while True:
                self._look_again.discard(game_id)
                view = await self._games.view(game_id)
                record = view.record
                seat = computer_seat(record)
                if not record.is_active or seat is None or view.state.to_move != seat:
                    if game_id in self._look_again:
                        continue
                    return
                if await self._suspended(record):
                    return  # it thinks again when the game goes on

                level = record.ai_levels[seat]
                assert level is not None
                notations = await self.runner.choose(self._request(view, level))
                for offset, notation in enumerate(notations):
                    try:
                        await self._games.play_computer_move(
                            game_id, notation, expected_ply=record.ply + offset
                        )
                    except (ServiceError, GameError) as exc:
                        # The game changed while the computer thought (an undo, a
                        # resignation): look at it again.
                        log.info("game %s: computer move %s dropped: %s", game_id, notation, exc)
                        break
        except Exception:
            log.exception("the computer failed to move in game %s", game_id)
        finally:
            # Leave at once, not in a done-callback a loop turn later: a move committed
            # in between would find this task still listed and count on it to look again.
            task = asyncio.current_task()
            if task is not None:
                self._forget(game_id, task)

    async def _suspended(self, record: GameRecord) -> bool:
        """True while the game is suspended (Tabula removed from its server, its channel
        gone): the computer does not move then."""
        if record.guild_id is None:
            return False
        return await self._repository.suspension_of(record.guild_id, record.id) is not None

    def _request(self, view: GameView, level: str) -> TurnRequest:
        record = view.record
        return TurnRequest(
            game=record.game,
            encoded=view.state.encode(),
            level=level,
            seconds=self.seconds,
            seed=record.id * 100_003 + record.ply,
        )

    async def idle(self) -> None:
        """Wait until the computer has answered in every game where it is thinking."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def thinking(self, game_id: int) -> bool:
        """True while the computer works on its move in `game_id`."""
        return game_id in self._tasks

    async def close(self) -> None:
        """Stop thinking (the games resume on the next start) and stop the workers."""
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self.runner.close()

    # --- answering for the computer ---

    async def accepts_draw(self, view: GameView, seat: int) -> bool:
        """The computer in `seat` accepts a draw when it rates its chances as poor."""
        level = view.record.ai_levels[seat] or DEFAULT_LEVEL
        chance = await self.runner.estimate(self._request(view, level))
        if view.state.to_move != seat:
            chance = 1.0 - chance
        return chance < DRAW_ACCEPTED_BELOW

    async def accepts_undo(self, view: GameView, seat: int) -> bool:
        """The computer always lets its opponent take back a move (its games are unrated)."""
        return True
