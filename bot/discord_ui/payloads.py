"""`Payloads`: the Discord messages of boards and game announcements.

One builder for each announcement the players see, used both when an interaction answers
with it and when the dispatcher posts it (so both say the same). Pictures are drawn off
the event loop.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import Literal

import discord

from bot.boards import render_board, replay_file
from bot.discord_ui.answers import Payload
from bot.discord_ui.buttons import answer_buttons, board_buttons
from bot.discord_ui.style import STYLE
from bot.services.announcing.announcements import (
    AnswerNotice,
    EndNotice,
    MoveNotice,
    OfferNotice,
    ResumedNotice,
    StartNotice,
    UndoNotice,
)
from bot.services.container import Services
from bot.services.delivery.dispatcher import Answerable
from bot.services.views.alerts import TimeoutNotice
from bot.services.views.results import GameView
from bot.storage.repository import GameRecord, GameStatus
from bot.texts.clocks import board_clocks, clock_line, timeout_text
from bot.texts.games import board_caption, end_caption, move_caption, start_caption
from bot.texts.servers import resumed_text
from bot.texts.tournaments import tournament_game_caption
from rules import get_game

DIAGRAM_LIMIT = 1900
"""Longer text diagrams are attached as a file (a message holds at most 2000 characters)."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""Game threads stay open for a week without messages (correspondence games are slow)."""


def mention(view: GameView, seat: int) -> str:
    """A mention of the player in `seat`."""
    return STYLE.mention(view.record.players[seat], view.name(seat))


def thread_name(view: GameView) -> str:
    """A readable thread name with the game's number, which finds the thread again if
    its creation was not recorded: "Hexade #12 · alice vs bob" (at most 100 characters)."""
    return record_thread_name(view.record)


def record_thread_name(record: GameRecord) -> str:
    """`thread_name` from the game's record alone."""
    title = get_game(record.game).title
    return f"{title} #{record.id} · {record.names[0]} vs {record.names[1]}"[:100]


class Payloads:
    """Builds board messages (picture, caption, clocks, buttons) and announcement texts."""

    def __init__(self, services: Callable[[], Services]) -> None:
        self._services = services
        self.web_base: str | None = None
        """Where the web pages are served (set while they are): boards link to theirs."""

    async def board(
        self, view: GameView, caption: str, *, buttons: discord.ui.View | None
    ) -> Payload:
        """The board picture (or diagram) with the clocks, the caption (with the time
        left in a timed game) and the buttons, ready to send; a finished game's final
        board also carries the game's animated replay."""
        status = await self._services().clocks.status(view.record)
        line = clock_line(view, status, STYLE)
        if line is not None:
            caption = f"{caption}\n{line}"
        clocks = board_clocks(status, view.record)
        image = await asyncio.to_thread(render_board, view, clocks=clocks)
        payload: Payload = {"content": caption}
        if image.png is not None:
            payload["file"] = discord.File(
                io.BytesIO(image.png), filename=image.filename, description=image.description
            )
        elif len(caption) + len(image.diagram) + 8 <= DIAGRAM_LIMIT:
            payload["content"] = f"{caption}\n```\n{image.diagram}\n```"
        else:
            data = io.BytesIO(image.diagram.encode())
            payload["file"] = discord.File(data, filename=image.filename.replace(".png", ".txt"))
        buttons = await self._with_page_link(view, buttons)
        if buttons is not None:
            payload["view"] = buttons
        if view.record.status is GameStatus.FINISHED and "file" in payload:
            replay = await self._replay(view)
            if replay is not None:
                payload["files"] = [payload.pop("file"), replay]
        return payload

    async def _with_page_link(
        self, view: GameView, buttons: discord.ui.View | None
    ) -> discord.ui.View | None:
        """The buttons and a link button "Board" to the game's web page, when the pages
        are served and the game's server shows them."""
        if self.web_base is None:
            return buttons
        settings = await self._services().settings.guild(view.record.guild_id)
        if settings.web == "off":
            return buttons
        buttons = buttons if buttons is not None else discord.ui.View(timeout=None)
        url = f"{self.web_base}g/{view.id}"
        buttons.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label="Board", url=url))
        return buttons

    async def _replay(self, view: GameView) -> discord.File | None:
        """The finished game's animated replay, drawn off the event loop (None: none)."""
        record = view.record
        notations = await self._services().games.notations(record.id, record.ply)
        replay = await asyncio.to_thread(replay_file, view, notations)
        if replay is None:
            return None
        return discord.File(
            io.BytesIO(replay.data), filename=replay.filename, description=replay.description
        )

    async def answerable(self, notice: Answerable) -> Payload:
        """The message of an announcement an interaction may answer with."""
        if isinstance(notice, MoveNotice):
            return await self.move(notice)
        if isinstance(notice, EndNotice):
            return await self.end(notice)
        if isinstance(notice, OfferNotice):
            return self.offer(notice)
        if isinstance(notice, AnswerNotice):
            return self.declined(notice)
        return await self.undone(notice)

    async def move(self, notice: MoveNotice) -> Payload:
        """The board after a completed turn (the final board, with Rematch, after the last)."""
        view = notice.view
        return await self.board(view, move_caption(notice, STYLE), buttons=board_buttons(view))

    async def end(self, notice: EndNotice) -> Payload:
        """The final board of a game that ended without a move (with Rematch)."""
        view = notice.view
        return await self.board(view, end_caption(view, STYLE), buttons=board_buttons(view))

    async def timeout(self, notice: TimeoutNotice) -> Payload:
        """The final board of a game lost on time, mentioning both players (with Rematch)."""
        view = notice.view
        return await self.board(view, timeout_text(notice, STYLE), buttons=board_buttons(view))

    async def start(self, notice: StartNotice) -> Payload:
        """The first board of a game, calling both players."""
        view = notice.view
        if notice.tournament is not None and notice.pairing is not None:
            caption = tournament_game_caption(notice.tournament, notice.pairing, view, STYLE)
        else:
            caption = start_caption(view, STYLE)
        return await self.board(view, caption, buttons=board_buttons(view))

    @staticmethod
    def offer(notice: OfferNotice) -> Payload:
        """A draw offer or an undo request, with the opponent's answer buttons."""
        view = notice.view
        asker, opponent = mention(view, notice.seat), mention(view, 1 - notice.seat)
        if notice.what == "draw":
            text = (
                f"{asker} offers a draw in game #{view.id}. {opponent}, do you accept? "
                "(Moving instead declines it.)"
            )
            return {"content": text, "view": answer_buttons("dr", view.id, notice.ply)}
        text = (
            f"{asker} asks to take back **{notice.notation}** in game #{view.id}. "
            f"{opponent}, allow it?"
        )
        return {"content": text, "view": answer_buttons("ud", view.id, notice.ply)}

    @staticmethod
    def declined(notice: AnswerNotice) -> Payload:
        """A draw offer or an undo request declined."""
        view = notice.view
        name = view.name(notice.seat)
        if notice.what == "draw":
            if notice.by_computer:
                return {"content": f"{name} declines the draw in game #{view.id}: play on."}
            return {"content": f"{name} declined the draw offer in game #{view.id}."}
        return {"content": f"{name} refused to take back {notice.notation} in game #{view.id}."}

    async def undone(self, notice: UndoNotice) -> Payload:
        """The board after moves were taken back with the opponent's consent."""
        view = notice.view
        if notice.by_computer:
            allowed = f"{view.name(1 - notice.seat)} allowed taking back **{notice.notation}**."
        else:
            allowed = f"Taken back: **{notice.notation}**."
        caption = f"{allowed}\n{board_caption(view, STYLE)}"
        return await self.board(view, caption, buttons=board_buttons(view))

    async def current(self, view: GameView, line: str) -> Payload:
        """The game's board as it stands, under a line saying why it is shown."""
        caption = f"{line}\n{board_caption(view, STYLE)}"
        return await self.board(view, caption, buttons=board_buttons(view))

    async def resumed(self, notice: ResumedNotice) -> Payload:
        """The board of a suspended game that goes on, saying so."""
        view = notice.view
        return await self.board(view, resumed_text(notice, STYLE), buttons=board_buttons(view))
