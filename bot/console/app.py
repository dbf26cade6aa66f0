"""`ConsoleApp`: the bot's commands typed in a terminal, over the same services.

Each line names who types it (`alice> /play groups @bob`); later lines without a name
are typed by the same user. Replies that Discord would show only to the user
(ephemeral) are marked `(to alice)`. Boards are printed as text diagrams and, when
an image folder is given, written there as PNG files.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shlex
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Literal, TextIO

from bot.ai import DEFAULT_SECONDS
from bot.console.competition import CompetitionCommands
from bot.console.conditionals import ConditionalCommands
from bot.console.delivery import ConsoleNotifier
from bot.console.help import console_help
from bot.console.leagues import LeagueCommands
from bot.console.options import read_settings, split_option, unnamed
from bot.console.output import ConsoleOutput
from bot.console.records import RecordCommands
from bot.refusals import refusal_text, shorten
from bot.rulebook import page_path
from bot.services.background import Background
from bot.services.clock import Clock, ManualClock
from bot.services.computer.runner import TurnRunner
from bot.services.container import Services
from bot.services.correspondence.notifications import parse_switch
from bot.services.correspondence.vacations import DEFAULT_ALLOWANCE
from bot.services.durations import (
    format_span,
    parse_duration,
    parse_time_control,
)
from bot.services.errors import InvalidInputError, ServiceError, storage_failure_message
from bot.services.games.players import Player, computer_seat
from bot.services.views.results import GameView, UndoResult, UndoStatus
from bot.storage.repository import ChallengeRecord, Repository
from bot.texts.clocks import (
    dashboard_text,
    next_game_text,
    settings_text,
    vacation_change_text,
    vacation_status_text,
)
from bot.texts.games import (
    TURN_IN_PROGRESS,
    board_caption,
    challenge_text,
    closed_reason,
    game_title,
    rules_text,
)
from bot.web.links import lifetime_note
from bot.web.server import WebServer
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
    "time": "time", "default_time_control": "time", "web": "web",
}  # fmt: skip
"""/config keys: the console's names and Discord's option names."""

Handler = Callable[[Player, list[str]], Awaitable[None]]


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
        self.output = ConsoleOutput(out, clock, image_dir)
        self.out = out
        self.image_dir = image_dir
        self.users = self.output.users
        self.clock = clock
        self.style = self.output.style
        # What the services announce is printed after each command, in the order it was
        # stored (tournament rounds are paired after the command that finished a round),
        # so the transcript reads in order.
        self.services = Services.build(
            repository,
            clock,
            ConsoleNotifier(self.output),
            runner=runner,
            ai_seconds=ai_seconds,
            background=Background(deferred=True),
            vacation_allowance=vacation_allowance,
            concurrency=1,
        )
        self.output.attach(self.services)
        self.computer = self.services.computer
        """Plays the computer's seats; @tabula (its name) is the computer as an opponent."""
        self.competition = CompetitionCommands(self.output, CONSOLE_GUILD, CONSOLE_CHANNEL)
        self.leagues = LeagueCommands(self.output, CONSOLE_GUILD, CONSOLE_CHANNEL)
        self.records = RecordCommands(self, CONSOLE_GUILD)
        self.conditionals = ConditionalCommands(self, CONSOLE_GUILD, CONSOLE_CHANNEL)
        self.current: Player | None = None
        self.web: WebServer | None = None
        """The web pages, when served alongside (their links come from /link)."""
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
            "rematch": self.rematch,
            "conditional": self.conditionals.conditional,
            "games": self.games,
            "history": self.records.history,
            "export": self.records.export,
            "link": self.link,
            "rules": self.rules,
            "config": self.config,
            "rating": self.competition.rating,
            "leaderboard": self.competition.leaderboard,
            "tournament": self.competition.tournament,
            "league": self.leagues.league,
            "vacation": self.vacation,
            "settings": self.settings,
            "wait": self.wait,
            "users": self.list_users,
            "help": self.help,
        }

    # --- output ---

    def say(self, text: str) -> None:
        """Print a public reply."""
        self.output.say(text)

    def private(self, user: Player, text: str) -> None:
        """Print a reply only `user` would see in Discord."""
        self.output.private(user, text)

    async def show_board(self, view: GameView, caption: str, *, to: Player | None = None) -> None:
        """Print a caption and the board (privately with `to`)."""
        await self.output.show_board(view, caption, to=to)

    async def announce(self) -> None:
        """Print what was stored to be told: after each command, once the computer has
        answered and tournaments have moved on."""
        await self.computer.idle()
        await self.services.background.settle()
        await self.services.dispatcher.drain()

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
        await self.announce()
        await self.conditionals.show_notes(user)
        return True

    async def run(self, stream: TextIO, *, prompt: bool) -> None:
        """Read and run lines from `stream` until it ends or /quit.

        Games where the computer was to move when the last session ended go on first.
        """
        await self.services.dispatcher.resume()
        await self.computer.resume()
        await self.announce()
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

    async def _game(
        self,
        user: Player,
        game_id: int | None,
        *,
        for_move: bool = False,
        answering: Literal["draw", "undo"] | None = None,
    ) -> int:
        record = await self.services.games.find(
            user.id,
            CONSOLE_CHANNEL,
            game_id,
            guild_id=CONSOLE_GUILD,
            for_move=for_move,
            answering=answering,
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
        self._show_challenge(challenge)

    def _show_challenge(self, challenge: ChallengeRecord) -> None:
        """Print a challenge, with how to answer it here."""
        self.say(challenge_text(challenge, self.style))
        if challenge.opponent_id is not None:
            hint = f"answer with `{challenge.opponent_name}> /accept {challenge.id}` or /decline"
        else:
            hint = f"anyone else may answer with `name> /accept {challenge.id}`"
        self.say(f"({hint}; {challenge.challenger_name} can /cancel)")

    async def accept(self, user: Player, args: list[str]) -> None:
        """/accept [challenge]."""
        pending = await self.services.challenges.pending(user.id, CONSOLE_CHANNEL)
        challenge_id = await self._challenge_id(user, args, pending, "accept")
        accepted = await self.services.challenges.accept(challenge_id, user, guild_id=CONSOLE_GUILD)
        self.say(f"Challenge #{challenge_id} {closed_reason(accepted.challenge)}.")

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
        if not result.turn_complete:  # a completed turn is announced to everyone
            info = result.view.turn_info() or "your turn goes on"
            caption = f"You played {result.move.notation} (move {result.move.ply}); {info}."
            await self.show_board(result.view, caption, to=user)
            return
        waiting = await self.services.notifications.next_games(user.id, target)
        if waiting:
            await self.services.dispatcher.drain()  # the board first, as on Discord
            self.private(user, next_game_text(waiting, user.id, self.style))

    async def board(self, user: Player, args: list[str]) -> None:
        """/board [game]."""
        game_id, _ = self._split_game_id(args)
        games = self.services.games
        record = await games.record(await self._game(user, game_id))
        view = await games.public_view(record)
        if view.record.ply != record.ply and view.to_move_id == user.id:
            view = await games.view_of(record)  # the mover's turn so far, for them only
            caption = f"{board_caption(view, self.style)}\n{TURN_IN_PROGRESS}"
            await self.show_board(view, caption, to=user)
            return
        await self.show_board(view, board_caption(view, self.style))

    async def resign(self, user: Player, args: list[str]) -> None:
        """/resign [game]."""
        game_id, _ = self._split_game_id(args)
        await self.services.games.resign(await self._game(user, game_id), user.id)

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
        target = await self._game(user, game_id, answering=None if answer is None else "draw")
        games = self.services.games
        if answer is None:
            await games.offer_draw(target, user.id)
        else:
            await games.answer_draw(target, user.id, answer)

    async def undo(self, user: Player, args: list[str]) -> None:
        """/undo [game] asks to take back moves; /undo accept|decline [game] answers."""
        game_id, answer = self._answer(args)
        target = await self._game(user, game_id, answering=None if answer is None else "undo")
        games = self.services.games
        if answer is None:
            result = await games.request_undo(target, user.id)
        else:
            result = await games.answer_undo(target, user.id, answer)
        await self._show_undo(user, result)

    async def _show_undo(self, user: Player, result: UndoResult) -> None:
        """One's own unfinished turn taken back is shown privately (the rest is announced)."""
        if result.status is UndoStatus.APPLIED and not result.allowed:
            caption = f"Taken back: {result.notation}. Your turn starts again."
            await self.show_board(result.view, caption, to=user)

    async def rematch(self, user: Player, args: list[str]) -> None:
        """/rematch [game]: the same game again, colours swapped (default: the latest)."""
        game_id, rest = self._split_game_id(args)
        if rest:
            raise ServiceError("Write /rematch, or /rematch #12 for another game than your last.")
        rematches = self.services.rematches
        if game_id is None:
            game_id = await rematches.latest(user.id, CONSOLE_GUILD)
        made = await rematches.rematch(game_id, user, guild_id=CONSOLE_GUILD)
        if isinstance(made, GameView):
            seat = computer_seat(made.record)
            opponent = made.name(seat) if seat is not None else "the computer"
            title = game_title(made.game, made.record.options)
            self.say(
                f"{user.name} plays {title} against {opponent} again, colours swapped: "
                f"game #{made.id}."
            )
            self.computer.begin(made.id)
            return
        self.say(f"Rematch of game #{game_id}, colours swapped.")
        self._show_challenge(made)

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

    async def link(self, user: Player, args: list[str]) -> None:
        """/link [#game]: the user's sign-in link to the game's web page."""
        if self.web is None:
            raise ServiceError("The web pages are not served (TABULA_WEB is off).")
        game_id, rest = self._split_game_id(args)
        if rest:
            raise ServiceError("Write /link, or /link #12 for another game.")
        record = await self.services.games.find(
            user.id, CONSOLE_CHANNEL, game_id, guild_id=CONSOLE_GUILD
        )
        self.services.games.check_player(record, user.id)
        link = self.web.links.sign_in(record, user.id, user.name)
        self.private(user, f"Your board for game #{record.id}: {link}")
        self.private(user, lifetime_note())

    async def rules(self, user: Player, args: list[str]) -> None:
        """/rules GAME."""
        if not args:
            raise ServiceError("Name a game: /rules groups.")
        game = get_game(" ".join(args))
        start = game.new_game().diagram()
        self.private(
            user,
            f"{rules_text(game)}\nThe starting position:\n{start}\n"
            f"The complete rules: {page_path(game)}",
        )

    async def config(self, user: Player, args: list[str]) -> None:
        """/config [threads=on|off] [expiry=30m] [time=3d]: the simulated server's settings."""
        changes = read_settings(
            args,
            _CONFIG_KEYS,
            "write settings as threads=on|off, expiry=30m, time=3d or web=off|players|public.",
        )
        threads = parse_switch(changes["threads"], "threads") if "threads" in changes else None
        settings = await self.services.settings.update(
            CONSOLE_GUILD,
            can_manage=True,
            threads=threads,
            challenge_expiry=changes.get("expiry"),
            default_time_control=changes.get("time"),
            web=changes.get("web"),
        )
        self.private(
            user,
            f"Threads {'on' if settings.threads else 'off'} · challenges expire after "
            f"{format_span(settings.challenge_expiry)} · default clock "
            f"{parse_time_control(settings.default_time_control).describe()} · "
            f"web pages {settings.web}.",
        )

    async def list_users(self, user: Player, args: list[str]) -> None:
        """/users: everyone seen in this session."""
        names = ", ".join(p.name for p in self.users.all())
        self.private(user, f"Users: {names}.")

    async def help(self, user: Player, args: list[str]) -> None:
        """/help: the console's commands."""
        self.private(user, console_help(self.computer.name.lower()))
