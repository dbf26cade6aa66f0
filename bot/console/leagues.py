"""The console's /league commands, with the same texts as on Discord.

Everyone at the console may organise leagues (the console is a server of one's own);
the simulated server and channel are the console's. /wait lets a season's entry window
close or its time run out.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.console.options import split_option, unnamed
from bot.console.output import ConsoleOutput, plain_message
from bot.services.competition.leagues import LeagueService
from bot.services.competition.tournaments import Member
from bot.services.errors import ServiceError
from bot.services.games.players import Player
from bot.services.views.leagues import LeagueView
from bot.texts.leagues import (
    departure_text,
    divisions_message,
    history_message,
    league_heading,
    league_list_message,
    league_summary,
    standings_message,
)

LEAGUE_HELP = (
    "/league create GAME SEASON [pairs=1|2] [smallest=6] [largest=10] [entry=1d] [time=3d] "
    '[name="..."] [casual] [option=value ...], SEASON a length like 30d. Then /league '
    "join|leave|cancel|info|history, /league standings|divisions [season=N]; name a league "
    "with #3 (or league=3)."
)
_NUMBER_KEYS = {"pairs": "games_per_pair", "games_per_pair": "games_per_pair"}
_SIZE_KEYS = ("smallest", "largest")
_TEXT_KEYS = {
    "entry": "entry_window",
    "entry_window": "entry_window",
    "time": "time_control",
    "time_control": "time_control",
    "name": "name",
}
_NO = ("no", "off", "false", "0", "casual")


def _number(key: str, value: str) -> int:
    if not value.lstrip("#").isdigit():
        raise ServiceError(f"{key} must be a whole number, like {key}=2, not {value!r}.")
    return int(value.lstrip("#"))


class LeagueCommands:
    """Leagues at the console, in its one server and channel."""

    def __init__(self, output: ConsoleOutput, guild_id: int, channel_id: int) -> None:
        self.output = output
        self._guild = guild_id
        self._channel = channel_id

    @property
    def _leagues(self) -> LeagueService:
        return self.output.services.leagues

    async def league(self, user: Player, args: list[str]) -> None:
        """/league SUBCOMMAND ...: see `LEAGUE_HELP`."""
        if not args:
            raise ServiceError(LEAGUE_HELP)
        sub, rest = args[0].lower(), args[1:]
        handler = {
            "create": self._create,
            "join": self._join,
            "leave": self._leave,
            "cancel": self._cancel,
            "standings": self._standings,
            "divisions": self._divisions,
            "history": self._history,
            "info": self._info,
            "list": self._list,
        }.get(sub)
        if handler is None:
            raise ServiceError(f"Unknown /league command {sub!r}. {LEAGUE_HELP}")
        await handler(user, rest)

    def _ids(self, args: Sequence[str], keys: Sequence[str] = ()) -> dict[str, int]:
        """`#3` or league=3, and the numbers named by `keys` (season=2)."""
        found: dict[str, int] = {}
        for arg in args:
            option = split_option(arg)
            if option is not None and option[0] in ("league", *keys):
                found[option[0]] = _number(option[0], option[1])
            elif arg.startswith("#") and arg[1:].isdigit() and "league" not in found:
                found["league"] = int(arg[1:])
            else:
                allowed = " or ".join(f"{key}=N" for key in keys)
                more = f" (and {allowed})" if keys else ""
                raise ServiceError(f"{arg!r}: name a league by its number, like #3{more}.")
        return found

    async def _create(self, user: Player, args: list[str]) -> None:
        if len(args) < 2:
            raise ServiceError(f"Name a game and a season length. {LEAGUE_HELP}")
        game, season, *rest = args
        game, season = unnamed(game, "game"), unnamed(season, "season")
        texts: dict[str, str] = {}
        numbers: dict[str, int] = {}
        options: dict[str, object] = {}
        rated = True
        for arg in rest:
            option = split_option(arg)
            if option is None:
                if arg.strip().lower() not in _NO:
                    raise ServiceError(f"{arg!r}: write settings as key=value, or casual.")
                rated = False
                continue
            key, value = option
            if key in _NUMBER_KEYS:
                numbers[_NUMBER_KEYS[key]] = _number(key, value)
            elif key in _SIZE_KEYS:
                numbers[key] = _number(key, value)
            elif key in _TEXT_KEYS:
                texts[_TEXT_KEYS[key]] = value
            elif key == "casual":
                rated = value.lower() not in ("yes", "on", "true", "1")
            else:
                options[key] = value
        view = await self._leagues.create(
            guild_id=self._guild,
            channel_id=self._channel,
            member=Member(user, can_manage=True),
            game=game,
            season=season,
            options=options,
            rated=rated,
            name=texts.get("name"),
            entry_window=texts.get("entry_window"),
            time_control=texts.get("time_control"),
            **numbers,
        )
        self.output.say(league_summary(view, self.output.style))

    async def _join(self, user: Player, args: list[str]) -> None:
        view = await self._leagues.join(self._guild, self._ids(args).get("league"), user)
        self.output.say(
            f"{user.name} joined {league_heading(view)}: {len(view.members)} entered for "
            f"season {view.record.season + 1}."
        )

    async def _leave(self, user: Player, args: list[str]) -> None:
        departure = await self._leagues.leave(self._guild, self._ids(args).get("league"), user.id)
        if departure.forfeited:
            self.output.private(user, departure_text(departure))
        else:
            self.output.say(departure_text(departure))

    async def _cancel(self, user: Player, args: list[str]) -> None:
        view = await self._leagues.cancel(
            self._guild, self._ids(args).get("league"), Member(user, can_manage=True)
        )
        self.output.say(f"{league_heading(view)} was cancelled by {user.name}.")

    async def _season(self, user: Player, args: list[str]) -> LeagueView:
        found = self._ids(args, ("season",))
        view = await self._leagues.find(self._guild, found.get("league"), user.id)
        if "season" in found:
            view = await self._leagues.season(view, found["season"])
        return view

    async def _standings(self, user: Player, args: list[str]) -> None:
        self.output.say(plain_message(standings_message(await self._season(user, args))))

    async def _divisions(self, user: Player, args: list[str]) -> None:
        self.output.say(plain_message(divisions_message(await self._season(user, args))))

    async def _history(self, user: Player, args: list[str]) -> None:
        history = await self._leagues.history(self._guild, self._ids(args).get("league"))
        self.output.say(plain_message(history_message(history)))

    async def _info(self, user: Player, args: list[str]) -> None:
        view = await self._leagues.find(self._guild, self._ids(args).get("league"), user.id)
        self.output.say(league_summary(view, self.output.style))

    async def _list(self, user: Player, args: list[str]) -> None:
        records = await self._leagues.listed(self._guild)
        self.output.private(user, plain_message(league_list_message(records)))
