"""The console's /history and /export: finished games, and records written as files.

An export is written into the console's image folder (`--images`) and the text record is
printed; the console is one server, so a history lists the games played in it.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Protocol

from bot.console.options import split_option
from bot.console.users import ConsoleUsers
from bot.services.container import Services
from bot.services.errors import InvalidInputError
from bot.services.games.players import Player
from bot.texts.games import Style
from bot.texts.records import (
    export_text,
    history_heading,
    history_lines,
    page_footer,
    subject_name,
)

_NUMBER = re.compile(r"#?(\d+)")


class ConsoleHost(Protocol):
    """What the record commands use of the console (`ConsoleApp`)."""

    @property
    def services(self) -> Services:
        """The services."""

    @property
    def users(self) -> ConsoleUsers:
        """The console's users."""

    @property
    def style(self) -> Style:
        """How the console writes mentions, times and links."""

    @property
    def image_dir(self) -> Path | None:
        """Where pictures (and exports) are written; None: nowhere."""

    def private(self, user: Player, text: str) -> None:
        """Print a reply only `user` would see in Discord."""


class RecordCommands:
    """/history and /export at the console."""

    def __init__(self, host: ConsoleHost, guild_id: int) -> None:
        self._host = host
        self._guild = guild_id

    async def history(self, user: Player, args: list[str]) -> None:
        """/history [@user] [GAME] [page=N]: finished games here, newest first."""
        whom, game, page = user, None, 1
        for arg in args:
            option = split_option(arg)
            if arg.startswith("@"):
                whom = self._host.users.get(arg)
            elif option is not None and option[0] == "page" and option[1].isdigit():
                page = int(option[1])
            elif option is not None and option[0] == "game":
                game = option[1]
            elif option is None:
                game = arg
            else:
                raise InvalidInputError(f"{arg!r}: write /history [@user] [GAME] [page=N].")
        found = await self._host.services.records.history(
            whom.id, viewer=user.id, guild_id=self._guild, game=game, page=page
        )
        heading = history_heading(found, subject_name(found) or whom.name)
        lines = [heading, *history_lines(found, self._host.style), page_footer(found)]
        if found.page < found.pages:
            lines.append(f"(older games: /history page={found.page + 1})")
        if page > found.pages:
            pages = f"{found.pages} page{'s' if found.pages != 1 else ''}"
            lines.insert(0, f"There is no page {page}: the history has {pages}; the last one:")
        self._host.private(user, "\n".join(lines))

    async def export(self, user: Player, args: list[str]) -> None:
        """/export [#game]: the game's records written to files, the text printed."""
        game_id = None
        if args:
            match = _NUMBER.fullmatch(args[0])
            if match is None or len(args) > 1:
                raise InvalidInputError("Name the game by its number: /export #12.")
            game_id = int(match[1])
        records = self._host.services.records
        record = await records.game_to_export(user.id, self._guild, None, game_id)
        export = await records.export_of(record)
        lines = [export_text(export)]
        folder = self._host.image_dir
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            for file in export.files:
                path = folder / file.filename
                await asyncio.to_thread(path.write_text, file.content, encoding="utf-8")
                lines.append(f"[written: {path}]")
        text = export.file("text")
        if text is not None:
            lines.append(text.content.rstrip("\n"))
        self._host.private(user, "\n".join(lines))
