"""The console's /rating, /leaderboard and /tournament commands, and tournament news.

Everyone at the console may organise tournaments (the console is a server of one's
own); the simulated server and channel are the console's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.console.options import split_option, unnamed
from bot.console.output import ConsoleOutput, plain_message
from bot.services.competition.tournaments import Member, TournamentService
from bot.services.errors import ServiceError
from bot.services.games.players import Player
from bot.services.views.tournaments import TournamentView
from bot.texts.tournaments import (
    cancellation_text,
    leaderboard_message,
    pairings_message,
    rating_text,
    standings_message,
    tournament_heading,
    tournament_list_message,
    tournament_summary,
    withdrawal_text,
)
from rules import get_game

_NUMBER = re.compile(r"#?(\d+)")
_YES = ("yes", "on", "true", "1", "rated")
_NO = ("no", "off", "false", "0", "casual")
_CREATE_KEYS = {"rounds", "time", "entry", "name", "max", "rated"}
_CREATE_ALIASES = {"time_control": "time", "entry_window": "entry", "max_players": "max"}
"""Discord's /tournament create option names, read as the console's."""

TOURNAMENT_HELP = (
    "/tournament create GAME FORMAT [rounds=N] [time=3d] [entry=1h] [name=...] [max=N] "
    "[casual] [option=value ...]; FORMAT is round-robin, double-round-robin, swiss or "
    "knockout. Then /tournament join|leave|start|standings|pairings [round]|"
    "withdraw [@user]|cancel|info, and /tournament list [page=N]; name a tournament with #3 (or "
    "tournament=3), a round with round=2 (or a bare 2 after pairings)."
)


def _named_numbers(args: Sequence[str], keys: Sequence[str]) -> dict[str, int]:
    """The numbers given as key=value (or key:value) for `keys`, like round=2."""
    found = {}
    for arg in args:
        option = split_option(arg)
        if option is None:
            continue
        key, value = option
        if key not in keys:
            raise ServiceError(f"{arg!r}: this command takes {' and '.join(keys)} only.")
        if not value.lstrip("#").isdigit():
            raise ServiceError(f"{key} must be a number, like {key}=2, not {value!r}.")
        found[key] = int(value.lstrip("#"))
    return found


class CompetitionCommands:
    """Ratings and tournaments at the console, in its one server and channel."""

    def __init__(self, output: ConsoleOutput, guild_id: int, channel_id: int) -> None:
        self.output = output
        self._guild = guild_id
        self._channel = channel_id

    @property
    def _tournaments(self) -> TournamentService:
        return self.output.services.tournaments

    def _member(self, user: Player) -> Member:
        return Member(user, can_manage=True)

    # --- ratings ---

    async def rating(self, user: Player, args: list[str]) -> None:
        """/rating [@user] [game]."""
        whom = user
        game = None
        for arg in args:
            if arg.startswith("@"):
                whom = self.output.users.get(arg)
            else:
                game = get_game(arg).name
        ratings = self.output.services.ratings
        if game is None:
            cards = await ratings.cards(whom.id)
            rank = None
        else:
            cards = [await ratings.card(whom.id, game, whom.name)]
            rank = await ratings.rank(self._guild, game, whom.id)
        self.output.private(user, rating_text(whom.name, cards, rank=rank, style=self.output.style))

    async def leaderboard(self, user: Player, args: list[str]) -> None:
        """/leaderboard GAME."""
        if not args:
            raise ServiceError("Name a game: /leaderboard groups.")
        game = get_game(" ".join(args)).name
        entries = await self.output.services.ratings.leaderboard(self._guild, game)
        self.output.say(plain_message(leaderboard_message(game, entries)))

    # --- tournaments ---

    async def tournament(self, user: Player, args: list[str]) -> None:
        """/tournament SUBCOMMAND ...: see `TOURNAMENT_HELP`."""
        if not args:
            raise ServiceError(TOURNAMENT_HELP)
        sub, rest = args[0].lower(), args[1:]
        handler = {
            "create": self._create,
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "withdraw": self._withdraw,
            "cancel": self._cancel,
            "standings": self._standings,
            "pairings": self._pairings,
            "info": self._info,
            "list": self._list,
        }.get(sub)
        if handler is None:
            raise ServiceError(f"Unknown /tournament command {sub!r}. {TOURNAMENT_HELP}")
        await handler(user, rest)

    @staticmethod
    def _numbers(args: Sequence[str]) -> tuple[list[int], list[str]]:
        """Leading numbers (`#3`, `3`) and the other arguments."""
        numbers, others = [], []
        for arg in args:
            if match := _NUMBER.fullmatch(arg):
                numbers.append(int(match[1]))
            else:
                others.append(arg)
        return numbers, others

    def _one_id(self, args: Sequence[str]) -> int | None:
        named = _named_numbers(args, ("tournament",))
        numbers, others = self._numbers([a for a in args if split_option(a) is None])
        if others:
            raise ServiceError(f"{others[0]!r}: name a tournament by its number, like #3.")
        if len(numbers) + len(named) > 1:
            raise ServiceError("Name one tournament only, like #3.")
        return named.get("tournament", numbers[0] if numbers else None)

    async def _create(self, user: Player, args: list[str]) -> None:
        if len(args) < 2:
            raise ServiceError(f"Name a game and a format. {TOURNAMENT_HELP}")
        game, format, *rest = args
        game, format = unnamed(game, "game"), unnamed(format, "format")
        settings: dict[str, str] = {}
        options: dict[str, object] = {}
        rated = True
        for arg in rest:
            option = split_option(arg)
            if option is None:
                if arg.strip().lower() not in _NO:
                    raise ServiceError(
                        f"{arg!r}: write settings as key=value (or key:value), or casual."
                    )
                rated = False
                continue
            key, value = option
            key = _CREATE_ALIASES.get(key, key)
            if key == "casual":
                if value.lower() not in _YES + _NO:
                    raise ServiceError("Write casual=yes or casual=no.")
                rated = value.lower() in _NO
            elif key == "rated":
                if value.lower() not in _YES + _NO:
                    raise ServiceError("Write rated=yes or rated=no.")
                rated = value.lower() in _YES
            elif key in _CREATE_KEYS:
                settings[key] = value
            else:
                options[key] = value
        numbers = {}
        for key in ("rounds", "max"):
            if key in settings:
                if not settings[key].isdigit():
                    raise ServiceError(f"{key} must be a whole number, not {settings[key]!r}.")
                numbers[key] = int(settings[key])
        view = await self._tournaments.create(
            guild_id=self._guild,
            channel_id=self._channel,
            member=self._member(user),
            game=game,
            format=format,
            options=options,
            name=settings.get("name"),
            rounds=numbers.get("rounds"),
            time_control=settings.get("time"),
            entry_window=settings.get("entry"),
            rated=rated,
            **({"max_players": numbers["max"]} if "max" in numbers else {}),
        )
        self.output.say(tournament_summary(view, self.output.style))

    async def _join(self, user: Player, args: list[str]) -> None:
        view = await self._tournaments.join(self._guild, self._one_id(args), user)
        self.output.say(
            f"{user.name} joined {tournament_heading(view)}: "
            f"{len(view.entrants)} of {view.record.max_players} players."
        )

    async def _leave(self, user: Player, args: list[str]) -> None:
        view = await self._tournaments.leave(self._guild, self._one_id(args), user.id)
        self.output.say(f"{user.name} left {tournament_heading(view)}.")

    async def _start(self, user: Player, args: list[str]) -> None:
        view = await self._tournaments.start(self._guild, self._one_id(args), self._member(user))
        self.output.say(f"{user.name} started {tournament_heading(view)}.")

    async def _withdraw(self, user: Player, args: list[str]) -> None:
        named = [arg for arg in args if arg.startswith("@")]
        target = self.output.users.get(named[0]).id if named else None
        others = [arg for arg in args if not arg.startswith("@")]
        withdrawal = await self._tournaments.withdraw(
            self._guild, self._one_id(others), self._member(user), target
        )
        self.output.say(withdrawal_text(withdrawal))

    async def _cancel(self, user: Player, args: list[str]) -> None:
        cancelled = await self._tournaments.cancel(
            self._guild, self._one_id(args), self._member(user)
        )
        self.output.say(cancellation_text(cancelled, f"by {user.name}"))

    async def _standings(self, user: Player, args: list[str]) -> None:
        view = await self._find(user, self._one_id(args))
        self.output.say(plain_message(standings_message(view)))

    async def _pairings(self, user: Player, args: list[str]) -> None:
        """/tournament pairings [round] [#tournament]: a bare number is the round, as on
        Discord, where `round` is the first option; round=2 and tournament=3 also work."""
        named = _named_numbers(args, ("round", "tournament"))
        tournament_id, number = named.get("tournament"), named.get("round")
        for arg in args:
            if split_option(arg) is not None:
                continue
            if arg.startswith("#") and arg[1:].isdigit() and tournament_id is None:
                tournament_id = int(arg[1:])
            elif arg.isdigit() and number is None:
                number = int(arg)
            else:
                raise ServiceError(
                    "Write /tournament pairings [round] [#tournament], like /tournament "
                    "pairings 2 #3 (or round=2 tournament=3)."
                )
        view = await self._find(user, tournament_id)
        self.output.say(plain_message(pairings_message(view, number)))

    async def _info(self, user: Player, args: list[str]) -> None:
        view = await self._find(user, self._one_id(args))
        self.output.say(tournament_summary(view, self.output.style))

    async def _list(self, user: Player, args: list[str]) -> None:
        """/tournament list [page=N]: the same list as on Discord, privately."""
        named = _named_numbers(args, ("page",))
        if len(named) != len(args):
            raise ServiceError("Write /tournament list [page=N], like /tournament list page=2.")
        listed = await self._tournaments.listing(self._guild, named.get("page", 1))
        message = tournament_list_message(listed)
        self.output.private(user, plain_message(message))

    async def _find(self, user: Player, tournament_id: int | None) -> TournamentView:
        return await self._tournaments.find_shown(self._guild, tournament_id, user.id)
