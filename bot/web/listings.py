"""The tournament page (`/t/<id>`) and the player page (`/u/<id>`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape

from aiohttp import web

from bot.services.container import Services
from bot.services.errors import NotFoundError
from bot.storage.competition import TournamentStatus
from bot.storage.repository import GameRecord
from bot.texts.tournaments import rating_line, resting_text, standings_message, tiebreak_note
from bot.web.access import PageRefused, game_access, not_found
from bot.web.auth import Session
from bot.web.pages import document, table
from rules import get_game

SessionOf = Callable[[web.Request], Session | None]
"""Reads a request's session (the server's cookie reader)."""


def _plain(text: str) -> str:
    return text.replace("**", "")


def _result(record: GameRecord) -> str:
    if record.winner is None:
        return "draw" if record.result_reason else "in progress"
    return f"{record.names[record.winner]} won"


class Listings:
    """Pages listing games: a tournament's rounds, a player's games."""

    def __init__(self, services: Services, session: SessionOf) -> None:
        self.services = services
        self.session = session

    async def tournament(self, request: web.Request) -> web.Response:
        """Standings with tie-breaks and every round's pairings, linking to the games."""
        tournament_id = int(request.match_info["id"])
        try:
            view = await self.services.tournaments.view(tournament_id)
        except NotFoundError:
            raise not_found("tournament") from None
        guild = view.record.guild_id
        web_setting = (await self.services.settings.guild(guild)).web
        session = self.session(request)
        if web_setting == "off":
            raise not_found("tournament")
        entered = (
            session is not None and session.guild_id == guild and view.entrant(session.user_id)
        )
        if web_setting != "public" and not entered:
            raise PageRefused(
                403,
                "Sign in to see this tournament",
                "Only its players can see this tournament: sign in with a link from /link in "
                "its server.",
            )
        standings = standings_message(view)
        parts = [f"<h1>{escape(_plain(standings.head))}</h1>"]
        if view.state is not None:
            grid = view.state.standings_grid()
            rows = [
                [cells[0], self._player_link(player, view.names), *cells[1:], escape(note)]
                for (player, cells), note in zip(grid.rows, grid.notes, strict=True)
            ]
            parts.append(table([*grid.header, ""], rows))
        elif standings.table:
            parts.append(f'<pre class="scroll">{escape(standings.table)}</pre>')
        note = tiebreak_note(view)
        if note:
            parts.append(f"<p>{escape(note)}</p>")
        names = view.names
        colours = get_game(view.record.game).colours
        for number in range(1, view.current_round + 1):
            rows = []
            for pairing in view.round_pairings(number):
                first = self._player_link(pairing.first_id, names)
                if pairing.second_id is None:
                    rows.append([first, "bye", "", ""])
                    continue
                second = self._player_link(pairing.second_id, names)
                result = escape(str(pairing.result.value)) if pairing.result is not None else "–"
                link = (
                    f'<a href="/g/{pairing.game_id}">game #{pairing.game_id}</a>'
                    if pairing.game_id is not None
                    else ""
                )
                rows.append([first, second, result, link])
            parts.append(f"<h2>Round {number}</h2>")
            parts.append(table([colours[0], colours[1], "Result", "Game"], rows))
            resting = resting_text(view, number)
            if resting:
                parts.append(f"<p>{escape(resting)}</p>")
        if view.record.status is TournamentStatus.OPEN:
            parts.append("<p>Entries are open.</p>")
        title = f"{view.record.name} ({view.game_title})"
        return web.Response(text=document(title, "".join(parts)), content_type="text/html")

    @staticmethod
    def _player_link(player: int, names: Mapping[int, str]) -> str:
        """A player's name, linking to their page."""
        return f'<a href="/u/{player}">{escape(names.get(player, "?"))}</a>'

    async def player(self, request: web.Request) -> web.Response:
        """A player's ratings per game and finished games, paged (the games the visitor
        may see: those of the visitor's server its setting shows them)."""
        user_id = int(request.match_info["id"])
        session = self.session(request)
        if session is None or session.guild_id is None:
            raise PageRefused(
                403,
                "Sign in to see players",
                "Player pages show a server's games: sign in with a link from /link there.",
            )
        web_setting = (await self.services.settings.guild(session.guild_id)).web
        if web_setting == "off":
            raise not_found("player")
        try:
            page = max(1, int(request.query.get("page", "1")))
        except ValueError:
            page = 1
        history = await self.services.records.history(
            user_id, viewer=session.user_id, guild_id=session.guild_id, page=page
        )
        rows = []
        name = None
        for entry in history.entries:
            record = entry.record
            seat = record.seat_of(user_id)
            if seat is not None:
                name = record.names[seat]
            if not self._visible(record, web_setting, session):
                continue
            rows.append(
                [
                    f'<a href="/g/{record.id}">#{record.id}</a>',
                    escape(get_game(record.game).title),
                    escape(" vs ".join(record.names)),
                    escape(_result(record)),
                    escape(record.result_reason or ""),
                ]
            )
        cards = await self.services.ratings.cards(user_id)
        parts = [f"<h1>{escape(name or f'Player {user_id}')}</h1>", "<h2>Ratings</h2>"]
        ratings = "".join(f"<li>{escape(_plain(rating_line(card)))}</li>" for card in cards)
        parts.append(f"<ul>{ratings}</ul>" if ratings else "<p>No ratings yet.</p>")
        parts.append(f"<h2>Finished games ({history.total})</h2>")
        parts.append(table(["Game", "Kind", "Players", "Result", "How"], rows))
        nav = []
        if history.page > 1:
            nav.append(f'<a href="/u/{user_id}?page={history.page - 1}">Newer</a>')
        if history.page < history.pages:
            nav.append(f'<a href="/u/{user_id}?page={history.page + 1}">Older</a>')
        parts.append(f"<p>Page {history.page} of {history.pages} {' · '.join(nav)}</p>")
        return web.Response(
            text=document(name or "Player", "".join(parts)), content_type="text/html"
        )

    @staticmethod
    def _visible(record: GameRecord, web_setting: str, session: Session) -> bool:
        try:
            game_access(record, web_setting, session)
        except PageRefused:
            return False
        return True
