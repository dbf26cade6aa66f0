"""`ConsoleApp`: the bot's commands typed in a terminal, over the same services.

Each line names who types it (`alice> /play groups @bob`); later lines without a name
are typed by the same user. Replies that Discord would show only to the user
(ephemeral) are marked `(to alice)`. Boards are printed as text diagrams and, when
an image folder is given, written there as PNG files.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import shlex
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

from bot.ai import DEFAULT_SECONDS
from bot.boards import render_board
from bot.clock_texts import (
    board_clocks,
    clock_line,
    dashboard_text,
    digest_text,
    reminder_text,
    settings_text,
    timeout_dm_text,
    timeout_text,
    turn_text,
    vacation_change_text,
    vacation_dm,
    vacation_post,
    vacation_status_text,
)
from bot.console.competition import CompetitionCommands
from bot.console.help import console_help
from bot.console.options import read_settings, split_option, unnamed
from bot.console.users import ConsoleUsers
from bot.refusals import refusal_text, shorten
from bot.services.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
)
from bot.services.background import Background
from bot.services.clock import Clock, ManualClock
from bot.services.computer_runner import TurnRunner
from bot.services.container import Services
from bot.services.durations import format_duration, parse_duration
from bot.services.errors import InvalidInputError, ServiceError, storage_failure_message
from bot.services.notifications import parse_switch
from bot.services.players import Player
from bot.services.results import DrawStatus, GameView, MoveResult, UndoResult, UndoStatus
from bot.services.tournament_views import TournamentView
from bot.services.vacations import DEFAULT_ALLOWANCE
from bot.storage.competition import PairingRecord
from bot.storage.repository import ChallengeRecord, GameRecord, Repository
from bot.texts import (
    board_caption,
    challenge_text,
    closed_reason,
    end_caption,
    move_caption,
    rules_text,
    start_caption,
)
from rules import GameError, get_game, list_games

log = logging.getLogger(__name__)

CONSOLE_GUILD = 1
"""The simulated server's id."""
CONSOLE_CHANNEL = 1
"""The simulated channel's id: every console game is played here."""

_LINE = re.compile(r"\s*(?:(?P<user>[^\s>/]+)>)?\s*(?P<text>.*)")
_GAME_ID = re.compile(r"#?(\d+)")
_ANSWERS = {"accept": True, "yes": True, "decline": False, "no": False}
_SETTINGS_KEYS = {
    "turns": "turns", "turn_messages": "turns", "reminders": "reminders",
    "digest": "digest", "period": "period", "digest_period": "period",
}  # fmt: skip
"""/settings keys: the console's names and Discord's option names."""
_CONFIG_KEYS = {
    "threads": "threads", "expiry": "expiry", "challenge_expiry": "expiry",
    "time": "time", "default_time_control": "time",
}  # fmt: skip
"""/config keys: the console's names and Discord's option names."""

Handler = Callable[[Player, list[str]], Awaitable[None]]


class ConsoleStyle:
    """Mentions as @name, times relative to the clock, games by number."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    def mention(self, user_id: int | None, name: str) -> str:
        """`@name`."""
        return f"@{name}"

    def when(self, moment: datetime) -> str:
        """ "in 59 min", "in 23 h 5 min", "in 5 days", "in 4 days 14 h" (or "now"), rounded
        rather than cut: five days less a few seconds are "in 5 days"."""
        seconds = (moment - self._clock.now()).total_seconds()
        if seconds <= 0:
            return "now"
        if seconds < 3600:
            return f"in {math.ceil(seconds / 60)} min"
        if seconds < 86400 * 2:
            hours, minutes = divmod(round(seconds / 60), 60)
            return f"in {hours} h {minutes} min"
        days, hours = divmod(round(seconds / 3600), 24)
        return f"in {days} days" + (f" {hours} h" if hours else "")

    def game_link(self, record: GameRecord) -> str:
        """`/board #12`."""
        return f"/board #{record.id}"


def plain(text: str) -> str:
    """Text without Discord's bold markers."""
    return text.replace("**", "")


def save_picture(folder: Path, filename: str, data: bytes) -> Path:
    """Write a picture into `folder` under `filename`, or `name-2.png`, `name-3.png`...
    when that is taken (the same position again after an undo, the end of a game): no
    picture is ever overwritten."""
    folder.mkdir(parents=True, exist_ok=True)
    name = Path(filename)
    path, number = folder / name, 1
    while True:
        try:
            with path.open("xb") as file:
                file.write(data)
            return path
        except FileExistsError:
            number += 1
            path = folder / f"{name.stem}-{number}{name.suffix}"


class ConsoleApp:
    """Runs console commands against the services and prints the replies."""

    def __init__(
        self,
        repository: Repository,
        clock: Clock,
        *,
        out: TextIO,
        image_dir: Path | None = None,
        runner: TurnRunner | None = None,
        ai_seconds: float = DEFAULT_SECONDS,
        vacation_allowance: timedelta = DEFAULT_ALLOWANCE,
    ) -> None:
        self.out = out
        self.image_dir = image_dir
        self.users = ConsoleUsers()
        self.clock = clock
        self.style = ConsoleStyle(clock)
        # Tournament rounds are paired after the command that finished a round has
        # printed its result, so the transcript reads in order.
        self.services = Services.build(
            repository,
            clock,
            self,
            runner=runner,
            ai_seconds=ai_seconds,
            background=Background(deferred=True),
            vacation_allowance=vacation_allowance,
        )
        self.computer = self.services.computer
        """Plays the computer's seats; @tabula (its name) is the computer as an opponent."""
        self.competition = CompetitionCommands(self, CONSOLE_GUILD, CONSOLE_CHANNEL)
        self.current: Player | None = None
        self._handlers: dict[str, Handler] = {
            "play": self.play,
            "accept": self.accept,
            "decline": self.decline,
            "cancel": self.cancel,
            "challenges": self.challenges,
            "move": self.move,
            "board": self.board,
            "resign": self.resign,
            "draw": self.draw,
            "undo": self.undo,
            "games": self.games,
            "rules": self.rules,
            "config": self.config,
            "rating": self.competition.rating,
            "leaderboard": self.competition.leaderboard,
            "tournament": self.competition.tournament,
            "vacation": self.vacation,
            "settings": self.settings,
            "wait": self.wait,
            "users": self.list_users,
            "help": self.help,
        }

    # --- output ---

    def say(self, text: str) -> None:
        """Print a public reply."""
        print(plain(text), file=self.out)

    def private(self, user: Player, text: str) -> None:
        """Print a reply only `user` would see in Discord."""
        for line in plain(text).splitlines():
            print(f"(to {user.name}) {line}", file=self.out)

    def direct(self, user_id: int, fallback: str, text: str) -> None:
        """Print a direct message to a user."""
        name = self.users.name(user_id, fallback)
        for line in plain(text).splitlines():
            print(f"(DM to {name}) {line}", file=self.out)

    async def show_board(self, view: GameView, caption: str, *, to: Player | None = None) -> None:
        """Print a caption (with the clock line) and the board; write the picture when an
        image folder is set."""
        status = await self.services.clocks.status(view.record)
        line = clock_line(view, status, self.style)
        if line is not None:
            caption = f"{caption}\n{line}"
        clocks = board_clocks(status, view.record)
        image = await asyncio.to_thread(render_board, view, clocks=clocks)
        if to is None:
            self.say(caption)
            print(image.diagram, file=self.out)
        else:
            self.private(to, caption)
            self.private(to, image.diagram)
        if image.png is not None and self.image_dir is not None:
            path = await asyncio.to_thread(save_picture, self.image_dir, image.filename, image.png)
            print(f"[picture: {path}]", file=self.out)

    # --- the Notifier port ---

    async def challenge_expired(self, challenge: ChallengeRecord) -> None:
        """Announce an expired challenge."""
        self.say(challenge_text(challenge, self.style))

    async def move_played(self, result: MoveResult) -> None:
        """Show a move no command answered (a computer's move); a turn of several moves
        is shown once, when it is complete."""
        if result.turn_complete:
            await self.show_board(result.view, move_caption(result, self.style))

    async def game_finished(self, view: GameView) -> None:
        """Announce a game that ended without a move or command."""
        await self.show_board(view, end_caption(view, self.style))

    async def turn_waiting(self, notice: TurnNotice) -> None:
        """A direct message: it is the user's turn."""
        record = notice.view.record
        self.direct(notice.user_id, _name_in(record, notice.user_id), turn_text(notice, self.style))

    async def reminder(self, notice: ReminderNotice) -> None:
        """A reminder, by direct message or in the game's channel."""
        text = reminder_text(notice, self.style)
        if notice.by_dm:
            self.direct(notice.user_id, notice.record.names[notice.seat], text)
        else:
            self.say(text)

    async def timed_out(self, notice: TimeoutNotice) -> None:
        """A loss on time: the board with the result, and direct messages."""
        await self.show_board(notice.view, timeout_text(notice, self.style))
        record = notice.view.record
        for user in notice.dm_user_ids:
            self.direct(user, _name_in(record, user), timeout_dm_text(notice, user, self.style))

    async def digest(self, notice: DigestNotice) -> None:
        """The digest, as a direct message."""
        name = _name_in(notice.games[0].record, notice.user_id)
        self.direct(notice.user_id, name, digest_text(notice, self.style))

    async def vacation_changed(self, notice: VacationNotice) -> None:
        """Tell each game that a player is away or back (and them, when it ended by itself)."""
        for record in notice.games:
            self.say(f"[game #{record.id}] {vacation_post(notice, record, self.style)}")
        if notice.dm:
            name = self.users.name(notice.user_id, "player")
            self.direct(notice.user_id, name, vacation_dm(notice, self.style))

    async def tournament_round_started(self, tournament: TournamentView, number: int) -> None:
        """Print a new round's pairings."""
        await self.competition.round_started(tournament, number)

    async def tournament_game_started(
        self, tournament: TournamentView, pairing: PairingRecord, game: GameView
    ) -> None:
        """Show a tournament game's first board."""
        await self.competition.game_started(tournament, pairing, game)

    async def tournament_games_aborted(
        self, tournament: TournamentView, games: Sequence[GameView]
    ) -> None:
        """Say which tournament games were aborted."""
        await self.competition.games_aborted(tournament, games)

    async def tournament_finished(self, tournament: TournamentView) -> None:
        """Print the final standings."""
        await self.competition.finished(tournament)

    async def tournament_cancelled(self, tournament: TournamentView, reason: str) -> None:
        """Say that a tournament was cancelled."""
        await self.competition.cancelled(tournament, reason)

    # --- the loop ---

    async def execute(self, line: str) -> bool:
        """Run one line; return False when the session should end."""
        await self.services.scheduler.tick()
        match = _LINE.fullmatch(line.rstrip("\n"))
        assert match is not None  # the pattern matches every line
        text = match["text"].strip()
        if match["user"]:
            try:
                self.current = self.users.get(match["user"])
            except ServiceError as exc:
                self.say(str(exc))
                return True
        if not text or text.startswith("#"):
            return True
        command, _, rest = text.partition(" ")
        name = command.lstrip("/").lower()
        if name in ("quit", "exit"):
            return False
        if self.current is None:
            if name == "help":
                self.say(console_help(self.computer.name.lower()))
            self.say("Say who is typing first, like: alice> /play groups @bob")
            return True
        user = self.current
        handler = self._handlers.get(name)
        if handler is None or not command.startswith("/"):
            self.private(user, f"Unknown command {command!r}. Type /help for the commands.")
            return True
        try:
            args = shlex.split(rest)
        except ValueError as exc:
            self.private(user, f"Cannot read that line: {exc}.")
            return True
        try:
            await handler(user, args)
        except (ServiceError, GameError) as exc:
            self.private(user, refusal_text(exc))
        except Exception as exc:
            log.exception("console command %r failed", text)
            apology = "Sorry, something went wrong; the error was logged."
            self.private(user, storage_failure_message(exc) or apology)
        # Let the computer answer and tournaments move on before the next line, so a
        # session reads in order.
        await self.computer.idle()
        await self.services.background.settle()
        return True

    async def run(self, stream: TextIO, *, prompt: bool) -> None:
        """Read and run lines from `stream` until it ends or /quit.

        Games where the computer was to move when the last session ended go on first.
        """
        if await self.computer.resume():
            await self.computer.idle()
        while True:
            if prompt:
                who = self.current.name if self.current else ""
                print(f"{who}> ", end="", file=self.out, flush=True)
            line = await asyncio.to_thread(stream.readline)
            if not line:
                break
            if not prompt:  # echo scripted input so the transcript reads like a session
                print(line.rstrip("\n"), file=self.out)
            if not await self.execute(line):
                break

    # --- helpers ---

    @staticmethod
    def _split_game_id(args: list[str]) -> tuple[int | None, list[str]]:
        """A leading `12` or `#12` names a game; the rest are the command's arguments."""
        if args and (match := _GAME_ID.fullmatch(args[0])):
            return int(match[1]), args[1:]
        if args and args[0].startswith("#"):
            shown = shorten(args[0], 20)
            raise InvalidInputError(f"{shown!r} is not a game number: write one like #12.")
        return None, args

    async def _game(self, user: Player, game_id: int | None, *, for_move: bool = False) -> int:
        record = await self.services.games.find(
            user.id, CONSOLE_CHANNEL, game_id, guild_id=CONSOLE_GUILD, for_move=for_move
        )
        return record.id

    async def _challenge_id(
        self, user: Player, args: list[str], candidates: list[ChallengeRecord], what: str
    ) -> int:
        if args:
            match = _GAME_ID.fullmatch(args[0])
            if match is None:
                raise ServiceError(f"Write the challenge's number, like /{what} 3.")
            return int(match[1])
        if len(candidates) == 1:
            return candidates[0].id
        if not candidates:
            raise ServiceError(f"There is no challenge for you to {what}.")
        numbers = ", ".join(f"#{c.id}" for c in candidates)
        raise ServiceError(f"Several challenges could be meant ({numbers}): add the number.")

    # --- commands ---

    async def play(self, user: Player, args: list[str]) -> None:
        """/play GAME [@opponent] [option=value ...] [colour=white|black|random] [casual];
        against the computer: /play GAME @tabula [level=easy|medium|hard]."""
        if not args:
            games = ", ".join(g.name for g in list_games())
            raise ServiceError(
                f"Name a game: /play GAME [@opponent] [option=value]. Games: {games}. "
                f"Against the computer: /play GAME @{self.computer.name.lower()} level=easy."
            )
        game = unnamed(args[0], "game")
        opponent, options, colour, rated = None, {}, "random", True
        time: str | None = None
        level: str | None = None
        against_computer = False
        for arg in (unnamed(typed, "opponent") for typed in args[1:]):  # opponent:@bob
            option = split_option(arg)
            if arg.startswith("@"):
                if arg[1:].lower() == self.computer.name.lower():
                    against_computer = True
                else:
                    opponent = self.users.get(arg)
            elif option is None and arg.lower() == "casual":
                rated = False
            elif option is not None:
                key, value = option
                if key in ("colour", "color"):
                    colour = value
                elif key == "level":
                    level = value
                elif key == "time":
                    time = value
                elif key == "casual":
                    rated = not parse_switch(value, "casual")
                else:
                    options[key] = value
            else:
                raise ServiceError(
                    f"{arg!r}: write options as key=value (or key:value) and opponents as @name."
                )
        if against_computer and time is not None:
            raise InvalidInputError(
                f"Games against the computer have no clock: leave out time={time}."
            )
        if level is not None and not against_computer:
            raise ServiceError(
                f"A level is for games against the computer: /play {game} "
                f"@{self.computer.name.lower()} level={level}."
            )
        if against_computer:
            view = await self.computer.start(
                guild_id=CONSOLE_GUILD,
                channel_id=CONSOLE_CHANNEL,
                player=user,
                game=game,
                options=options,
                level=level,
                colour=colour,
            )
            await self.show_board(view, start_caption(view, self.style))
            self.computer.begin(view.id)
            return
        challenge = await self.services.challenges.create(
            guild_id=CONSOLE_GUILD,
            channel_id=CONSOLE_CHANNEL,
            challenger=user,
            opponent=opponent,
            game=game,
            options=options,
            colour=colour,
            rated=rated,
            time_control=time,
        )
        self.say(challenge_text(challenge, self.style))
        if opponent is not None:
            hint = f"answer with `{opponent.name}> /accept {challenge.id}` or /decline"
        else:
            hint = f"anyone else may answer with `name> /accept {challenge.id}`"
        self.say(f"({hint}; {user.name} can /cancel)")

    async def accept(self, user: Player, args: list[str]) -> None:
        """/accept [challenge]."""
        pending = await self.services.challenges.pending(user.id, CONSOLE_CHANNEL)
        challenge_id = await self._challenge_id(user, args, pending, "accept")
        accepted = await self.services.challenges.accept(challenge_id, user, guild_id=CONSOLE_GUILD)
        self.say(f"Challenge #{challenge_id} {closed_reason(accepted.challenge)}.")
        await self.show_board(accepted.view, start_caption(accepted.view, self.style))

    async def decline(self, user: Player, args: list[str]) -> None:
        """/decline [challenge]."""
        pending = [
            c for c in await self.services.challenges.pending(user.id) if c.opponent_id == user.id
        ]
        challenge_id = await self._challenge_id(user, args, pending, "decline")
        closed = await self.services.challenges.decline(challenge_id, user.id)
        self.say(f"Challenge #{closed.id} {closed_reason(closed)}.")

    async def cancel(self, user: Player, args: list[str]) -> None:
        """/cancel [challenge]."""
        mine = await self.services.challenges.mine(user.id)
        challenge_id = await self._challenge_id(user, args, mine, "cancel")
        closed = await self.services.challenges.cancel(challenge_id, user.id)
        self.say(f"Challenge #{closed.id} {closed_reason(closed)}.")

    async def challenges(self, user: Player, args: list[str]) -> None:
        """/challenges: the open challenges here."""
        found = await self.services.repository.open_challenges(channel_id=CONSOLE_CHANNEL)
        if not found:
            self.private(user, "There are no open challenges.")
        for challenge in found:
            self.private(user, challenge_text(challenge, self.style))

    async def move(self, user: Player, args: list[str]) -> None:
        """/move [game] NOTATION."""
        game_id, rest = self._split_game_id(args)
        notation = " ".join(rest)
        if not notation:
            raise ServiceError("Write the move after /move, like /move d3-e2.")
        target = await self._game(user, game_id, for_move=True)
        result = await self.services.games.play(target, user.id, notation)
        if result.turn_complete:
            await self.show_board(result.view, move_caption(result, self.style))
        else:
            info = result.view.turn_info() or "your turn goes on"
            caption = f"You played {result.move.notation} (move {result.move.ply}); {info}."
            await self.show_board(result.view, caption, to=user)

    async def board(self, user: Player, args: list[str]) -> None:
        """/board [game]."""
        game_id, _ = self._split_game_id(args)
        view = await self.services.games.view(await self._game(user, game_id))
        await self.show_board(view, board_caption(view, self.style))

    async def resign(self, user: Player, args: list[str]) -> None:
        """/resign [game]."""
        game_id, _ = self._split_game_id(args)
        view = await self.services.games.resign(await self._game(user, game_id), user.id)
        await self.show_board(view, end_caption(view, self.style))

    @staticmethod
    def _answer(args: list[str]) -> tuple[int | None, bool | None]:
        game_id, answer = None, None
        for arg in args:
            if match := _GAME_ID.fullmatch(arg):
                game_id = int(match[1])
            elif arg.lower() in _ANSWERS:
                answer = _ANSWERS[arg.lower()]
            else:
                raise ServiceError(f"{arg!r}: write accept or decline, and optionally the game.")
        return game_id, answer

    async def draw(self, user: Player, args: list[str]) -> None:
        """/draw [game] offers a draw; /draw accept|decline [game] answers one."""
        game_id, answer = self._answer(args)
        target = await self._game(user, game_id)
        games = self.services.games
        if answer is None:
            result = await games.offer_draw(target, user.id)
        else:
            result = await games.answer_draw(target, user.id, answer)
        view = result.view
        if result.status is DrawStatus.OFFERED:
            opponent = view.name(1 - result.seat)
            self.say(
                f"{user.name} offers a draw in game #{view.id}. "
                f"{opponent}: /draw accept or /draw decline."
            )
        elif result.status is DrawStatus.DECLINED:
            self.say(f"{view.name(result.seat)} declined the draw offer in game #{view.id}.")
        else:
            await self.show_board(view, end_caption(view, self.style))

    async def undo(self, user: Player, args: list[str]) -> None:
        """/undo [game] asks to take back moves; /undo accept|decline [game] answers."""
        game_id, answer = self._answer(args)
        target = await self._game(user, game_id)
        games = self.services.games
        if answer is None:
            result = await games.request_undo(target, user.id)
        else:
            result = await games.answer_undo(target, user.id, answer)
        await self._show_undo(user, result)

    async def _show_undo(self, user: Player, result: UndoResult) -> None:
        view = result.view
        asker = view.name(result.seat)
        if result.status is UndoStatus.REQUESTED:
            opponent = view.name(1 - result.seat)
            self.say(
                f"{asker} asks to take back {result.notation} in game #{view.id}. "
                f"{opponent}: /undo accept or /undo decline."
            )
        elif result.status is UndoStatus.DECLINED:
            self.say(f"{user.name} refused to take back {result.notation}.")
        else:
            caption = f"Taken back: {result.notation}.\n{board_caption(view, self.style)}"
            await self.show_board(view, caption)

    async def games(self, user: Player, args: list[str]) -> None:
        """/games: the user's games in progress, most urgent first."""
        lines = await self.services.notifications.dashboard(user.id)
        self.private(user, dashboard_text(lines, self.style))

    async def vacation(self, user: Player, args: list[str]) -> None:
        """/vacation [status] | start [LENGTH] | end."""
        action = args[0].lower() if args else "status"
        vacations = self.services.vacations
        if action == "start" and len(args) <= 2:
            change = await vacations.start(user.id, args[1] if len(args) > 1 else None)
            self.private(user, vacation_change_text(change, self.style))
        elif action == "end" and len(args) == 1:
            self.private(user, vacation_change_text(await vacations.end(user.id), self.style))
        elif action == "status" and len(args) <= 1:
            self.private(user, vacation_status_text(await vacations.status(user.id), self.style))
        else:
            raise ServiceError(
                "Write /vacation start [length like 7d], /vacation end or /vacation."
            )

    async def settings(self, user: Player, args: list[str]) -> None:
        """/settings [turns=on|off] [reminders=24h,1h|none] [digest=on|off] [period=1d]."""
        changes = read_settings(
            args,
            _SETTINGS_KEYS,
            "write settings as turns=on|off, reminders=24h,1h (or none), digest=on|off, period=1d.",
        )
        notifications = self.services.notifications
        if changes:
            settings = await notifications.update(
                user.id,
                turn_dms=parse_switch(changes["turns"], "turns") if "turns" in changes else None,
                reminders=changes.get("reminders"),
                digest=parse_switch(changes["digest"], "digest") if "digest" in changes else None,
                digest_period=changes.get("period"),
            )
        else:
            settings = await notifications.settings(user.id)
        self.private(user, settings_text(settings))

    async def wait(self, user: Player, args: list[str]) -> None:
        """/wait DURATION: move a manual clock forward (scripts, --manual-clock)."""
        if not isinstance(self.clock, ManualClock):
            raise ServiceError("/wait needs the console started with --manual-clock.")
        if len(args) != 1:
            raise ServiceError("Write how long to wait, like /wait 2d.")
        now = self.clock.advance(parse_duration(args[0]))
        self.say(f"(the clock is now {now:%Y-%m-%d %H:%M} UTC)")
        await self.services.scheduler.tick()

    async def rules(self, user: Player, args: list[str]) -> None:
        """/rules GAME."""
        if not args:
            raise ServiceError("Name a game: /rules groups.")
        self.private(user, rules_text(get_game(" ".join(args))))

    async def config(self, user: Player, args: list[str]) -> None:
        """/config [threads=on|off] [expiry=30m] [time=3d]: the simulated server's settings."""
        changes = read_settings(
            args, _CONFIG_KEYS, "write settings as threads=on|off, expiry=30m or time=3d."
        )
        threads = parse_switch(changes["threads"], "threads") if "threads" in changes else None
        settings = await self.services.settings.update(
            CONSOLE_GUILD,
            can_manage=True,
            threads=threads,
            challenge_expiry=changes.get("expiry"),
            default_time_control=changes.get("time"),
        )
        self.private(
            user,
            f"Threads {'on' if settings.threads else 'off'} · challenges expire after "
            f"{format_duration(settings.challenge_expiry)} · "
            f"default clock {settings.default_time_control}.",
        )

    async def list_users(self, user: Player, args: list[str]) -> None:
        """/users: everyone seen in this session."""
        names = ", ".join(p.name for p in self.users.all())
        self.private(user, f"Users: {names}.")

    async def help(self, user: Player, args: list[str]) -> None:
        """/help: the console's commands."""
        self.private(user, console_help(self.computer.name.lower()))


def _name_in(record: GameRecord, user_id: int) -> str:
    """The name `user_id` has in a game."""
    seat = record.seat_of(user_id)
    return record.names[seat] if seat is not None else "player"
