"""The console's /conditional add|list|clear, and the notes shown after a user's command.

As on Discord, everything here is shown to its user only (`(to alice)`); the position at
the end of a line is printed as a diagram and, with an image folder, written there as
`game-N-line-K.png`.
"""

from __future__ import annotations

import asyncio
import re

from bot.boards import render_board
from bot.console.options import split_option
from bot.console.output import plain_message, save_picture
from bot.console.records import ConsoleHost
from bot.services.correspondence.conditionals import LineEnd
from bot.services.errors import InvalidInputError
from bot.services.games.players import Player
from bot.texts.conditionals import (
    PICTURES,
    added_text,
    cleared_text,
    removed_text,
    trees_message,
)

_NUMBER = re.compile(r"#?(\d+)")
USAGE = (
    "Write /conditional add [#game] LINE (like e5 d4 f6 c3), /conditional list [#game] or "
    "/conditional clear [#game]."
)


class ConditionalCommands:
    """/conditional at the console."""

    def __init__(self, host: ConsoleHost, guild_id: int, channel_id: int) -> None:
        self._host = host
        self._guild = guild_id
        self._channel = channel_id

    async def conditional(self, user: Player, args: list[str]) -> None:
        """/conditional add [#game] LINE | list [#game] | clear [#game]."""
        action = args[0].lower() if args else ""
        game_id, rest = _game_and_rest(args[1:])
        if action == "add":
            await self.add(user, game_id, " ".join(rest))
        elif action == "list" and not rest:
            await self.list(user, game_id)
        elif action == "clear" and not rest:
            await self.clear(user, game_id)
        else:
            raise InvalidInputError(USAGE)

    async def _game(self, user: Player, game_id: int | None) -> int:
        return await self._host.services.conditionals.which(
            user.id, self._channel, guild_id=self._guild, game_id=game_id
        )

    async def add(self, user: Player, game_id: int | None, line: str) -> None:
        """Store a line; show where it leads."""
        conditionals = self._host.services.conditionals
        added = await conditionals.add(await self._game(user, game_id), user.id, line)
        self._host.private(user, added_text(added))
        await self._show_end(user, added.line, None)

    async def list(self, user: Player, game_id: int | None) -> None:
        """The user's trees here (or in one game), with the end of each line for one."""
        trees = await self._host.services.conditionals.trees(
            user.id, guild_id=self._guild, game_id=game_id
        )
        single = len(trees) == 1
        self._host.private(user, plain_message(trees_message(trees, pictures=False)))
        if single:
            for number, end in enumerate(trees[0].ends[:PICTURES], 1):
                await self._show_end(user, end, number)

    async def clear(self, user: Player, game_id: int | None) -> None:
        """Remove the user's tree in a game."""
        conditionals = self._host.services.conditionals
        removed = await conditionals.clear(await self._game(user, game_id), user.id,
                                           guild_id=self._guild)  # fmt: skip
        self._host.private(user, removed_text(removed))

    async def show_notes(self, user: Player) -> None:
        """After a command: what became of the user's cleared conditional moves."""
        for notice in await self._host.services.conditionals.take_notes(user.id):
            self._host.private(user, cleared_text(notice, self._host.style))

    async def _show_end(self, user: Player, end: LineEnd, number: int | None) -> None:
        """The position after a line (the one just stored, or line `number` of a tree):
        its diagram, and its picture in the image folder."""
        image = await asyncio.to_thread(render_board, end.view)
        which = "this line" if number is None else f"line {number}"
        self._host.private(user, f"The position after {which}:")
        self._host.private(user, image.diagram)
        folder = self._host.image_dir
        if image.png is not None and folder is not None:
            name = f"game-{end.view.id}-line-{number or 'new'}.png"
            path = await asyncio.to_thread(save_picture, folder, name, image.png)
            self._host.private(user, f"[picture: {path}]")


def _game_and_rest(args: list[str]) -> tuple[int | None, list[str]]:
    """A leading `#12` (or `game=12`, `game:12`) names the game; `line=...` is the line."""
    game_id: int | None = None
    rest: list[str] = []
    for index, arg in enumerate(args):
        option = split_option(arg)
        if option is not None and option[0] == "game" and _NUMBER.fullmatch(option[1]):
            game_id = int(option[1].lstrip("#"))
        elif option is not None and option[0] == "line":
            rest.append(option[1])
        elif index == 0 and (match := _NUMBER.fullmatch(arg)):
            game_id = int(match[1])
        else:
            rest.append(arg)
    return game_id, rest
