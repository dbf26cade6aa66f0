"""/export and /history on Discord: game records as attachments, and a paged history of
finished games with persistent Newer / Older buttons and an Export menu.

Both answer privately. The buttons and the menu are `DynamicItem`s whose custom id carries
whose history, which game and which page, so they keep working after a restart; who may
see what is decided again on every click from where it is made (`RecordService`).
"""

from __future__ import annotations

import io
import re
from typing import Any, Protocol, Self, cast

import discord

from bot.discord_ui.answers import Payload
from bot.discord_ui.origins import guarded_click, parse_id
from bot.discord_ui.replies import in_time
from bot.discord_ui.style import STYLE
from bot.services.container import Services
from bot.services.records.records import Export, HistoryPage
from bot.texts.records import (
    export_text,
    history_heading,
    history_lines,
    page_footer,
    subject_name,
)
from rules import get_game

PREFIX = "tabula"
HISTORY_COLOUR = discord.Colour.blurple()
MESSAGE_LIMIT = 2000
ALL_GAMES = "-"
"""The game part of a custom id when the history lists every game."""
OPTION_LABEL_LIMIT = 100


class HasServices(Protocol):
    """A bot that carries its services (TabulaBot)."""

    services: Services


def services_of(interaction: discord.Interaction) -> Services:
    """The services of the bot that received the interaction."""
    return cast(HasServices, interaction.client).services


def export_payload(export: Export) -> Payload:
    """The export's message: what it is, the text record inline when it fits, the files."""
    text = export_text(export)
    record = export.file("text")
    if record is not None and len(text) + len(record.content) + 9 <= MESSAGE_LIMIT:
        text = f"{text}\n```\n{record.content}```"
    files = [
        discord.File(io.BytesIO(file.content.encode()), filename=file.filename)
        for file in export.files
    ]
    return {"content": text, "files": files}


def _game_key(game: str | None) -> str:
    return game or ALL_GAMES


class HistoryPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"{PREFIX}:hp:(?P<user>\d+):(?P<game>[a-z]+|-):(?P<page>\d+)",
):
    """Newer or Older under a history: show another page in the same message."""

    def __init__(self, user_id: int, game: str | None, page: int, label: str = "Page") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:hp:{user_id}:{_game_key(game)}:{page}",
            )
        )
        self.user_id = user_id
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from a clicked id."""
        game = None if match["game"] == ALL_GAMES else match["game"]
        return cls(parse_id(match["user"]), game, parse_id(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page in place of the current one."""
        await guarded_click(
            interaction,
            self.custom_id,
            lambda: RecordFlows(services_of(interaction)).show_page(
                interaction, self.user_id, self.game, self.page
            ),
        )


class ExportMenu(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"{PREFIX}:hx:(?P<user>\d+):(?P<game>[a-z]+|-):(?P<page>\d+)",
):
    """The menu under a history: export one of the page's games."""

    def __init__(self, page: HistoryPage | None, custom_id: str) -> None:
        options = [
            discord.SelectOption(
                label=_option_label(entry.record.id, entry.record.game, entry.record.names),
                value=str(entry.record.id),
            )
            for entry in (page.entries if page is not None else ())
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                placeholder="Export a game…",
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the menu from a clicked id (the choice is in the interaction)."""
        for number in ("user", "page"):
            parse_id(match[number])  # refuse numbers no id can be
        return cls(None, match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Export the chosen game, privately."""
        data = cast(dict[str, Any], interaction.data or {})
        values = data.get("values") or ["0"]
        await guarded_click(
            interaction,
            self.custom_id,
            lambda: RecordFlows(services_of(interaction)).export(
                interaction, parse_id(str(values[0]))
            ),
        )


RECORD_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (HistoryPageButton, ExportMenu)
"""The persistent components of this module; the bot registers them at start-up."""


def _option_label(game_id: int, game: str, names: tuple[str, str]) -> str:
    return f"#{game_id} {get_game(game).title}: {names[0]} vs {names[1]}"[:OPTION_LABEL_LIMIT]


def history_view(page: HistoryPage) -> discord.ui.View | None:
    """Newer / Older (when there are such pages) and the Export menu; None when empty."""
    if not page.entries:
        return None
    view = discord.ui.View(timeout=None)
    user, game = page.query.user_id, page.query.game
    if page.page > 1:
        view.add_item(HistoryPageButton(user, game, page.page - 1, "◀ Newer"))
    if page.page < page.pages:
        view.add_item(HistoryPageButton(user, game, page.page + 1, "Older ▶"))
    menu = ExportMenu(page, f"{PREFIX}:hx:{user}:{_game_key(game)}:{page.page}")
    menu.row = 1
    view.add_item(menu)
    return view


def history_embed(page: HistoryPage, name: str | None = None) -> discord.Embed:
    """The history as an embed: a heading, one line per game, the page in the footer.
    `name` is whose history it is, when the page's games do not tell."""
    whose = subject_name(page) or name or "This player"
    embed = discord.Embed(
        title=history_heading(page, whose)[:256],
        description="\n".join(history_lines(page, STYLE)),
        colour=HISTORY_COLOUR,
    )
    embed.set_footer(text=page_footer(page))
    return embed


class RecordFlows:
    """What /export, /history and their components do."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def export(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """/export and the Export menu: the game's records as attachments, privately."""
        records = self.services.records
        location = interaction.channel_id
        async with in_time(interaction, self.services) as reply:
            record = await records.game_to_export(
                interaction.user.id, interaction.guild_id, location, game_id
            )
            export = await records.export_of(record)
            await reply.send(export_payload(export), ephemeral=True)

    async def history(
        self, interaction: discord.Interaction, user: discord.abc.User | None, game: str | None
    ) -> None:
        """/history: the first page of a user's finished games, privately."""
        whom = user or interaction.user
        async with in_time(interaction, self.services) as reply:
            page = await self._page(interaction, whom.id, game, 1)
            payload: Payload = {"embed": history_embed(page, whom.display_name)}
            view = history_view(page)
            if view is not None:
                payload["view"] = view
            await reply.send(payload, ephemeral=True)

    async def show_page(
        self, interaction: discord.Interaction, user_id: int, game: str | None, number: int
    ) -> None:
        """A Newer / Older button: the page replaces the one shown."""
        page = await self._page(interaction, user_id, game, number)
        await interaction.response.edit_message(embed=history_embed(page), view=history_view(page))

    async def _page(
        self, interaction: discord.Interaction, user_id: int, game: str | None, number: int
    ) -> HistoryPage:
        return await self.services.records.history(
            user_id,
            viewer=interaction.user.id,
            guild_id=interaction.guild_id,
            game=game,
            page=number,
        )
