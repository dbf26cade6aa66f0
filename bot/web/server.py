"""`WebServer`: the aiohttp application serving the pages, beside the other front ends.

It is thin over the same services as Discord and the console: every move, resignation,
offer and answer goes through `GameService` (its locks, its outbox), so the game's
thread gets each board exactly once whichever front end the move came from.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from functools import lru_cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from bot.config import Settings
from bot.refusals import refusal_text
from bot.services.container import Services
from bot.services.errors import ServiceError
from bot.services.views.results import moves_left_text
from bot.storage.repository import GameRecord
from bot.web.access import GameAccess, PageRefused, game_access, may_act, not_found
from bot.web.auth import COOKIE, SESSION_LIFETIME, Session, Signer, SignInError, new_secret
from bot.web.board import board_svg, seat_facts, style_hashes
from bot.web.clicks import all_clicks
from bot.web.links import LinkMaker
from bot.web.listings import Listings
from bot.web.live import LiveGames, Watcher
from bot.web.pages import game_page, message_page
from bot.web.snapshot import SnapshotCache, game_snapshot, visible_position
from rules import GameError, get_game

log = logging.getLogger(__name__)


COMPRESSED_TYPES = frozenset(
    {"text/html", "application/json", "image/svg+xml", "text/javascript", "text/css"}
)
"""What is worth compressing: text of the pages (boards are SVG inside them)."""


def compressible(response: web.Response) -> bool:
    """Whether an answer is text of some size, worth sending compressed."""
    size = response.content_length or 0
    return response.content_type in COMPRESSED_TYPES and size >= 1024


@lru_cache(maxsize=1)
def security_headers() -> dict[str, str]:
    """Sent with every answer: no script, style or font from anywhere but this server (the
    boards' style sheet is allowed by its hash). Made on first use, not at import."""
    return {
        "Content-Security-Policy": (
            "default-src 'none'; script-src 'self'; "
            f"style-src 'self' {' '.join(style_hashes())}; img-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
    }


MAX_TURN_MOVES = 10
MAX_MOVE_LENGTH = 200
HEARTBEAT_SECONDS = 15.0
SETTING_SECONDS = 2.0
STATIC = {"game.js": "text/javascript", "style.css": "text/css"}

AfterAction = Callable[[], Awaitable[None]]
"""Run after each action (the console prints what it announced)."""


class _AccessLog(AbstractAccessLogger):
    """Logs the method, path and status only: a query may hold a sign-in token."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.debug(
            "%s %s %s %.1fms", request.method, request.path, response.status, time * 1000
        )

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.DEBUG)


class WebServer:
    """The pages of one process, over its services."""

    def __init__(
        self,
        services: Services,
        settings: Settings,
        *,
        after_action: AfterAction | None = None,
        port: int | None = None,
        setting_seconds: float = SETTING_SECONDS,
        check_seconds: float = SETTING_SECONDS,
    ) -> None:
        self.services = services
        self._setting_seconds = setting_seconds
        self.check_seconds = check_seconds
        """How often open live pages are checked against `/config web`."""
        self._streams: dict[Watcher, tuple[GameRecord, Session | None]] = {}
        self._checking: asyncio.Task[None] | None = None
        self.settings = settings
        self.host = settings.web_host
        self.port = settings.web_port if port is None else port
        self._after_action = after_action
        self._signer: Signer | None = None
        self._runner: web.AppRunner | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.cache = SnapshotCache()
        self._web_settings: dict[int | None, tuple[float, str]] = {}
        self.live = LiveGames(services.repository.get_game, self._snapshot_for)
        self.listings = Listings(services, self.session)
        self.app = self._application()

    # --- starting and stopping ---

    @property
    def signer(self) -> Signer:
        """Signs links and cookies (available once started)."""
        if self._signer is None:
            raise RuntimeError("the web server has not been started")
        return self._signer

    @property
    def base(self) -> str:
        """The address links start with (`TABULA_WEB_URL`, or this server's own)."""
        if self.settings.web_url:
            return self.settings.web_url.rstrip("/") + "/"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def start_line(self, address: str) -> str:
        """What the bot and the console print once serving at `address`: `web: ADDRESS`,
        and the public address links use when `TABULA_WEB_URL` sets one."""
        public = f" (links use {self.base})" if self.settings.web_url else ""
        return f"web: {address}{public}"

    @property
    def links(self) -> LinkMaker:
        """Makes sign-in links."""
        return LinkMaker(self.signer, self.base)

    async def start(self) -> str:
        """Listen; return the address served, like `http://127.0.0.1:8765/`."""
        repository = self.services.repository
        await asyncio.to_thread(security_headers)  # draws a board of each game once
        secret = await repository.web_secret(new_secret(), self.services.clock.now())
        self._signer = Signer(secret)
        await repository.watch_games()
        self._unsubscribe = repository.changes.subscribe(self.live.changed)
        runner = web.AppRunner(self.app, access_log_class=_AccessLog, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self._checking = asyncio.create_task(self._check_streams(), name="tabula-web-check")
        if self.port == 0:  # tests and the benchmark: a free port
            self.port = int(runner.addresses[0][1])
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    async def stop(self) -> None:
        """Close the live pages and stop listening."""
        await self.live.close()
        if self._checking is not None:
            self._checking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checking
            self._checking = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- the application ---

    def _application(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        app.router.add_get("/", self.index)
        app.router.add_get("/signin", self.sign_in)
        app.router.add_post("/signout", self.sign_out)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get(r"/g/{id:\d+}", self.game)
        app.router.add_get(r"/g/{id:\d+}/state", self.state)
        app.router.add_get(r"/g/{id:\d+}/events", self.events)
        app.router.add_get(r"/g/{id:\d+}/position/{ply:\d+}", self.position)
        app.router.add_get(r"/g/{id:\d+}/export/{format:[a-z]+}", self.export)
        app.router.add_post(r"/g/{id:\d+}/preview", self.preview)
        app.router.add_post(r"/g/{id:\d+}/play", self.play)
        app.router.add_post(r"/g/{id:\d+}/resign", self.resign)
        app.router.add_post(r"/g/{id:\d+}/draw", self.draw)
        app.router.add_post(r"/g/{id:\d+}/undo", self.undo)
        app.router.add_get(r"/t/{id:\d+}", self.listings.tournament)
        app.router.add_get(r"/u/{id:\d+}", self.listings.player)
        return app

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Security headers on every answer; refusals as pages (or JSON for the script);
        state-changing requests only from this site's own pages."""
        try:
            if request.method == "POST":
                self._check_origin(request)
            response = await handler(request)
        except PageRefused as refused:
            response = self._refusal(request, refused.status, refused.title, refused.text)
        except web.HTTPException as error:
            if error.status >= 400:
                response = self._refusal(request, error.status, error.reason, error.reason)
            else:
                raise
        except Exception:
            log.exception("web request %s %s failed", request.method, request.path)
            response = self._refusal(
                request, 500, "Something went wrong", "Sorry, something went wrong; it was logged."
            )
        if not response.prepared:
            response.headers.update(security_headers())
            if isinstance(response, web.Response) and compressible(response):
                # A board's SVG is up to 30 KB of repeated markup and ~4 KB gzipped; aiohttp
                # compresses only for clients that say they accept it.
                response.enable_compression()
        return response

    @staticmethod
    def _refusal(request: web.Request, status: int, title: str, text: str) -> web.Response:
        if request.method == "POST" or request.path.endswith(("/state", "/preview")):
            return web.json_response({"error": text}, status=status)
        return web.Response(text=message_page(title, text), status=status, content_type="text/html")

    def _check_origin(self, request: web.Request) -> None:
        """A change must come from this site (its Origin header) with the session's
        anti-forgery value: another site's page cannot make a player act."""
        origin = request.headers.get("Origin")
        allowed = {request.host}
        if self.settings.web_url:
            allowed.add(urlsplit(self.settings.web_url).netloc)
        if not origin or urlsplit(origin).netloc not in allowed:
            raise PageRefused(403, "Refused", "This request did not come from this site's pages.")
        session = self.session(request)
        if request.path != "/signout" and (
            session is None or request.headers.get("X-Tabula-CSRF") != session.csrf
        ):
            raise PageRefused(403, "Refused", "Your sign-in has ended: open your link again.")

    # --- sessions ---

    def session(self, request: web.Request) -> Session | None:
        """The visitor's session, if signed in."""
        return self.signer.read_session(request.cookies.get(COOKIE))

    async def sign_in(self, request: web.Request) -> web.StreamResponse:
        """Exchange a sign-in link's token for a session cookie, then show the game."""
        try:
            grant = self.signer.read_link(request.query.get("t", ""))
        except SignInError as error:
            raise PageRefused(403, "Cannot sign in", str(error)) from None
        response = web.HTTPSeeOther(f"/g/{grant.game_id}")
        response.set_cookie(
            COOKIE,
            self.signer.session_cookie(grant),
            max_age=int(SESSION_LIFETIME.total_seconds()),
            httponly=True,
            samesite="Lax",
            secure=self.base.startswith("https://"),
            path="/",
        )
        response.headers.update(security_headers())
        raise response

    async def sign_out(self, request: web.Request) -> web.StreamResponse:
        """Forget the session cookie."""
        response = web.HTTPSeeOther("/")
        response.del_cookie(COOKIE, path="/")
        response.headers.update(security_headers())
        raise response

    async def index(self, request: web.Request) -> web.Response:
        """What the address alone shows."""
        session = self.session(request)
        who = f"You are signed in as {session.name}." if session else "You are not signed in."
        text = (
            f"{who} Players sign in with the link the bot gives each of them privately "
            "(/link in a game's thread); once signed in, the Board button under a game "
            "opens its page."
        )
        return web.Response(text=message_page("Tabula", text), content_type="text/html")

    async def static(self, request: web.Request) -> web.Response:
        """The pages' scripts and style sheet."""
        name = request.match_info["name"]
        if name not in STATIC:
            raise not_found("file")
        text = resources.files("bot.web").joinpath("static", name).read_text(encoding="utf-8")
        return web.Response(
            text=text,
            content_type=STATIC[name],
            headers={"Cache-Control": "no-cache"},
        )

    # --- games ---

    async def _game(self, request: web.Request) -> tuple[GameRecord, GameAccess, Session | None]:
        """The game a request names and how its visitor sees it; refusals as pages."""
        game_id = int(request.match_info["id"])
        record = await self.services.repository.get_game(game_id) if game_id < 2**62 else None
        if record is None:
            raise not_found("game")
        web_setting = await self.web_setting(record.guild_id)
        session = self.session(request)
        return record, game_access(record, web_setting, session), session

    async def web_setting(self, guild_id: int | None) -> str:
        """The server's `/config web`, read again after `setting_seconds` (a change shows
        within that time; many visitors of one page do not read it each time)."""
        now = asyncio.get_running_loop().time()
        cached = self._web_settings.get(guild_id)
        if cached is not None and now - cached[0] < self._setting_seconds:
            return cached[1]
        value = (await self.services.settings.guild(guild_id)).web
        if len(self._web_settings) > 10_000:
            self._web_settings.clear()
        self._web_settings[guild_id] = (now, value)
        return value

    async def _snapshot_for(self, record: GameRecord, seat: int | None) -> dict[str, Any]:
        return await game_snapshot(self.services, record, seat, self.cache)

    async def game(self, request: web.Request) -> web.Response:
        """A game's page."""
        record, access, session = await self._game(request)
        snapshot = await game_snapshot(self.services, record, access.seat, self.cache)
        csrf = session.csrf if session is not None and access.seat is not None else None
        return web.Response(text=game_page(snapshot, csrf), content_type="text/html")

    async def state(self, request: web.Request) -> web.Response:
        """A game as JSON, as the page sees it."""
        record, access, _ = await self._game(request)
        return web.json_response(
            await game_snapshot(self.services, record, access.seat, self.cache)
        )

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The game, live (Server-Sent Events): at once, then after every change. A page
        that reconnects (the server restarted) gets the current game at once."""
        record, access, session = await self._game(request)
        # The board the page holds: named in the address at first, then by the id of the
        # last event, which the browser sends back when it reconnects.
        board = request.headers.get("Last-Event-ID") or request.query.get("board")
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
                **security_headers(),
            }
        )
        await response.prepare(request)
        async with self.live.watching(record.id, access.seat, board) as watcher:
            self._streams[watcher] = (record, session)
            try:
                await self._stream(response, record.id, watcher)
            finally:
                del self._streams[watcher]
        return response

    async def _stream(self, response: web.StreamResponse, game_id: int, watcher: Watcher) -> None:
        """Write `watcher`'s events until the page goes, the server stops or the page may
        no longer watch. Nothing is written when a change leaves the page as it is (a
        move of a turn it may not see yet): only a keep-alive now and then."""
        with contextlib.suppress(ConnectionResetError, RuntimeError):
            await response.write(b"retry: 1000\n\n")
            self.live.changed(game_id)
            while not self.live.closing:
                await watcher.ready.wait()  # (no timer per page: `_check_streams` beats)
                if self.live.closing:
                    break
                if watcher.beat:
                    watcher.beat = False
                    await response.write(b": keep-alive\n\n")  # a page gone is noticed
                if watcher.ended is not None:
                    text = json.dumps({"text": watcher.ended})
                    await response.write(f"event: ended\ndata: {text}\n\n".encode())
                    break
                payload = self.live.take(game_id, watcher)
                if payload is not None:
                    await response.write(payload)

    async def _check_streams(self) -> None:
        """Every `check_seconds`, end the live pages their visitors may no longer see (the
        server's `/config web` changed): they are told why and stop. Every
        `HEARTBEAT_SECONDS`, have every page sent a keep-alive."""
        loop = asyncio.get_running_loop()
        beat = loop.time() + HEARTBEAT_SECONDS
        while True:
            await asyncio.sleep(min(self.check_seconds, HEARTBEAT_SECONDS))
            if loop.time() >= beat:
                beat = loop.time() + HEARTBEAT_SECONDS
                for watcher in self._streams:
                    watcher.heartbeat()
            settings: dict[int | None, str | None] = {}
            for watcher, (record, session) in list(self._streams.items()):
                guild = record.guild_id
                if guild not in settings:
                    try:
                        settings[guild] = await self.web_setting(guild)
                    except Exception:
                        log.exception("reading the web setting of server %s failed", guild)
                        settings[guild] = None
                setting = settings[guild]
                if watcher.ended is not None or setting is None:
                    continue
                try:
                    access = game_access(record, setting, session)
                except PageRefused as refused:
                    watcher.end(refused.text)
                else:
                    if access.seat != watcher.seat:
                        watcher.end("What this page may show has changed: load it again.")

    async def position(self, request: web.Request) -> web.Response:
        """The board after `ply` moves (the replay), never past what the visitor sees."""
        record, access, _ = await self._game(request)
        ply = int(request.match_info["ply"])
        visible = await visible_position(self.services, record, access.seat)
        if ply > visible.ply:
            raise not_found("position")
        game = get_game(record.game)
        state = game.initial_state(game.validate_options(record.options))
        for _, _, notation in visible.moves[:ply]:
            state = state.play_text(notation)
        return web.json_response(
            {"ply": ply, "board": board_svg(state), "facts": seat_facts(state)}
        )

    async def export(self, request: web.Request) -> web.Response:
        """The game's record as a file (the same files as /export)."""
        record, _, _ = await self._game(request)
        exported = await self.services.records.export_of(record)
        found = exported.file(request.match_info["format"])
        if found is None:
            raise not_found("record")
        return web.Response(
            text=found.content,
            content_type="text/plain" if found.format != "json" else "application/json",
            headers={"Content-Disposition": f'attachment; filename="{found.filename}"'},
        )

    # --- actions ---

    async def _acting(
        self, request: web.Request
    ) -> tuple[GameRecord, int, Session, dict[str, Any]]:
        record, access, session = await self._game(request)
        may_act(access)
        assert session is not None  # a seat needs a session
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise PageRefused(400, "Refused", "The request could not be read.")
        return record, session.user_id, session, body

    @staticmethod
    def _moves(body: dict[str, Any]) -> list[str]:
        moves = body.get("moves")
        if (
            not isinstance(moves, list)
            or not 0 < len(moves) <= MAX_TURN_MOVES
            or not all(isinstance(m, str) and 0 < len(m) <= MAX_MOVE_LENGTH for m in moves)
        ):
            raise PageRefused(400, "Refused", "The moves could not be read.")
        return moves

    async def _answer(
        self, record: GameRecord, user_id: int, work: Awaitable[object]
    ) -> web.Response:
        try:
            await work
        except (ServiceError, GameError) as error:
            return web.json_response({"error": refusal_text(error)}, status=409)
        finally:
            if self._after_action is not None:
                await self._after_action()
        fresh = await self.services.repository.get_game(record.id)
        assert fresh is not None
        return web.json_response(
            await game_snapshot(self.services, fresh, fresh.seat_of(user_id), self.cache)
        )

    async def preview(self, request: web.Request) -> web.Response:
        """The position after the moves of a turn being built (nothing is stored): the
        board, what may follow, and whether the turn is complete."""
        record, user_id, _, body = await self._acting(request)
        moves = self._moves(body)
        if not record.is_active:
            raise PageRefused(409, "Refused", "This game is over.")
        view = await self.services.games.view_of(record)
        state = view.state
        seat = record.seat_of(user_id)
        if state.to_move != seat:
            raise PageRefused(
                409, "Refused", f"It is {record.names[state.to_move]}'s turn, not yours."
            )
        try:
            for text in moves:
                if state.to_move != seat or state.outcome() is not None:
                    raise PageRefused(409, "Refused", "That is more moves than one turn.")
                state = state.play_text(text)
        except GameError as error:
            return web.json_response({"error": refusal_text(error)}, status=409)
        complete = state.to_move != seat or state.outcome() is not None
        return web.json_response(
            {
                "board": board_svg(state),
                "facts": seat_facts(state),
                "complete": complete,
                "legal": [] if complete else all_clicks(record.game, state.legal_notations()),
                "turn_info": "" if complete else moves_left_text(state) or "",
            }
        )

    async def play(self, request: web.Request) -> web.Response:
        """Play the rest of a turn (one move, or the several of a Diffusion Chess turn)
        through the game service, stored together: all of it or nothing."""
        record, user_id, _, body = await self._acting(request)
        moves = self._moves(body)
        ply = body.get("ply")
        if ply != record.ply or not isinstance(ply, int):
            raise PageRefused(
                409, "Refused", "The game has moved on since your page showed it; look again."
            )
        turn = self.services.games.play_turn(record.id, user_id, moves, at_ply=ply)
        return await self._answer(record, user_id, turn)

    async def resign(self, request: web.Request) -> web.Response:
        """Resign (the page asked for confirmation)."""
        record, user_id, _, _ = await self._acting(request)
        return await self._answer(record, user_id, self.services.games.resign(record.id, user_id))

    async def draw(self, request: web.Request) -> web.Response:
        """Offer a draw, or answer the opponent's offer (`answer`: true or false)."""
        record, user_id, _, body = await self._acting(request)
        answer = body.get("answer")
        games = self.services.games
        if isinstance(answer, bool):
            return await self._answer(
                record, user_id, games.answer_draw(record.id, user_id, answer)
            )
        return await self._answer(record, user_id, games.offer_draw(record.id, user_id))

    async def undo(self, request: web.Request) -> web.Response:
        """Ask to take back one's last turn, or answer the opponent's request."""
        record, user_id, _, body = await self._acting(request)
        answer = body.get("answer")
        games = self.services.games
        if isinstance(answer, bool):
            return await self._answer(
                record, user_id, games.answer_undo(record.id, user_id, answer)
            )
        return await self._answer(record, user_id, games.request_undo(record.id, user_id))
