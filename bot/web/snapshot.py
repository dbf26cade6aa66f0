"""A game as one visitor may see it, as JSON for the page (first load and live updates).

The opponent of a player in the middle of a multi-move turn (Diffusion Chess) sees the
position where that turn began: nothing of it shows before the turn is complete.
Conditional moves are never shown.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.services.container import Services
from bot.services.views.results import GameView
from bot.storage.repository import GameRecord
from bot.texts.games import game_title, result_text
from bot.web.board import board_svg, seat_facts
from bot.web.clicks import all_clicks
from bot.web.patches import board_id
from rules import GameState, get_game


@dataclass(frozen=True)
class Visible:
    """The position a visitor sees: the ply and state, and the moves up to it."""

    ply: int
    state: GameState[Any]
    moves: list[tuple[int, int, str]]
    """(ply, seat, notation) of each move shown."""


async def visible_position(services: Services, record: GameRecord, seat: int | None) -> Visible:
    """What a visitor in `seat` (None: a spectator) sees of the game now."""
    games = services.games
    view = await games.view_of(record)
    if seat is not None and seat == view.state.to_move and record.is_active:
        ply, state = record.ply, view.state
    else:
        ply, state = await games.turn_start(record)
    moves = [
        (move.ply, move.seat, move.notation)
        for move in await services.repository.list_moves(record.id)
        if move.ply <= ply
    ]
    return Visible(ply, state, moves)


def _plain(text: str) -> str:
    return text.replace("**", "").strip()


class SnapshotCache:
    """The costly part of recent snapshots (board, moves, legal moves), by game version and
    seat: a page viewed by many is drawn once per move, not once per visitor; and the
    boards, by game version and ply shown: the players and the spectators of a game see
    the same position but for a turn in progress, and it is drawn once."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[int, int, int | None], dict[str, Any]] = OrderedDict()
        self._boards: OrderedDict[tuple[int, int, int], tuple[str, str]] = OrderedDict()

    def board(self, key: tuple[int, int, int], state: GameState[Any]) -> tuple[str, str]:
        """The board of `state` (the game, its version and the ply shown) and its name."""
        found = self._boards.get(key)
        if found is None:
            svg = board_svg(state)
            found = self._boards[key] = (svg, board_id(svg))
            while len(self._boards) > self._size:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        return found

    def get(self, key: tuple[int, int, int | None]) -> dict[str, Any] | None:
        """The cached part for this (game, version, seat), if any."""
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: tuple[int, int, int | None], value: dict[str, Any]) -> None:
        """Remember a snapshot's costly part."""
        self._entries[key] = value
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)


async def game_snapshot(
    services: Services,
    record: GameRecord,
    seat: int | None,
    cache: SnapshotCache | None = None,
) -> dict[str, Any]:
    """Everything the game page shows, for a visitor in `seat` (None: a spectator)."""
    key = (record.id, record.version, seat)
    cached = cache.get(key) if cache is not None else None
    snapshot = dict(cached) if cached is not None else await _drawn(services, record, seat, cache)
    if cache is not None and cached is None:
        cache.put(key, dict(snapshot))
    clock = None if record.time_control == "none" else await services.clocks.status(record)
    if clock is not None and not clock.control.is_none:
        snapshot["clocks"] = {
            "left": [int(left.total_seconds()) for left in clock.left],
            "running": None if clock.stopped or clock.paused or clock.suspended else clock.seat,
            "at": clock.at.isoformat(),
        }
    return snapshot


async def _drawn(
    services: Services, record: GameRecord, seat: int | None, cache: SnapshotCache | None
) -> dict[str, Any]:
    """The part of a snapshot that only changes with the game's version. It does not
    carry the version: that grows with each move of a turn kept hidden."""
    visible = await visible_position(services, record, seat)
    view = GameView(record, (await services.games.view_of(record)).state)
    game = get_game(record.game)
    state = visible.state
    key = (record.id, record.version, visible.ply)
    board, name = cache.board(key, state) if cache is not None else _named(board_svg(state))
    active = record.is_active
    my_turn = active and seat is not None and state.to_move == seat
    snapshot: dict[str, Any] = {
        "id": record.id,
        "game": record.game,
        "title": game_title(game, record.options),
        "status": str(record.status),
        "active": active,
        "ply": visible.ply,
        "names": list(record.names),
        "colours": list(game.colours),
        "to_move": state.to_move if active else None,
        "seat": seat,
        "my_turn": my_turn,
        "result": _plain(result_text(view)) if not active else "",
        "moves": [{"ply": p, "seat": s, "move": m} for p, s, m in visible.moves],
        "board": board,
        "board_id": name,
        "facts": seat_facts(state),
        "draw_offer": _offer(record.draw_offer),
        "undo_request": _offer(record.undo_request),
        "tournament_id": record.tournament_id,
        "clocks": None,
    }
    if my_turn:
        snapshot["legal"] = all_clicks(record.game, state.legal_notations())
        snapshot["turn_info"] = view.turn_info() or ""
    return snapshot


def _named(svg: str) -> tuple[str, str]:
    return svg, board_id(svg)


def _offer(offer: Any) -> int | None:
    return offer.seat if offer is not None and offer.open else None
