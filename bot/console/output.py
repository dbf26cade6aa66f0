"""`ConsoleOutput`: how the console prints, shared by its commands and its notifier.

Public replies are printed as they are; what Discord would show only to one user is
marked `(to alice)`, direct messages `(DM to bob)`. Boards are text diagrams, and their
pictures are written to the images folder when one is given.
"""

from __future__ import annotations

import asyncio
import math
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

from bot.boards import render_board
from bot.console.users import ConsoleUsers
from bot.services.clock import Clock
from bot.services.container import Services
from bot.services.games.players import Player
from bot.services.views.results import GameView
from bot.storage.repository import GameRecord
from bot.texts.clocks import board_clocks, clock_line, format_left
from bot.texts.tournaments import TableMessage


class ConsoleStyle:
    """Mentions as @name, times relative to the clock, games by number."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    def mention(self, user_id: int | None, name: str) -> str:
        """`@name`."""
        return f"@{name}"

    def when(self, moment: datetime) -> str:
        """ "in 59m", "in 1h", "in 23h 5m", "in 5d", "in 4d 14h" (or "now"): durations
        written as everywhere else (`format_left`), rounded rather than cut: five days
        less a few seconds are "in 5d"."""
        seconds = (moment - self._clock.now()).total_seconds()
        if seconds <= 0:
            return "now"
        if seconds < 3600:
            rounded = math.ceil(seconds / 60) * 60
        elif seconds < 86400 * 2:
            rounded = round(seconds / 60) * 60
        else:
            rounded = round(seconds / 3600) * 3600
        return f"in {format_left(timedelta(seconds=rounded))}"

    def game_link(self, record: GameRecord) -> str:
        """`/board #12`."""
        return f"/board #{record.id}"


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


def plain(text: str) -> str:
    """Text without Discord's bold markers."""
    return text.replace("**", "")


class ConsoleOutput:
    """Prints replies, direct messages and boards; `attach` gives it the services."""

    def __init__(self, out: TextIO, clock: Clock, image_dir: Path | None = None) -> None:
        self.out = out
        self.clock = clock
        self.image_dir = image_dir
        self.users = ConsoleUsers()
        self.style = ConsoleStyle(clock)
        self._services: Services | None = None

    def attach(self, services: Services) -> None:
        """Give the output its services (built after it: it prints what they announce)."""
        self._services = services

    @property
    def services(self) -> Services:
        """The services."""
        if self._services is None:
            raise RuntimeError("ConsoleOutput.attach(services) was not called")
        return self._services

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


def plain_message(message: TableMessage) -> str:
    """A table message for the terminal: no code-block fences."""
    return "\n".join(part for part in (message.head, message.table, message.tail) if part)


def name_in(record: GameRecord, user_id: int) -> str:
    """The name `user_id` has in a game."""
    seat = record.seat_of(user_id)
    return record.names[seat] if seat is not None else "player"
