"""Board pictures for the front ends: the renderer's PNG (or the text diagram without one),
and the animated replay of a whole game."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.services.views.results import GameView
from bot.storage.repository import GameStatus
from renderers.page import with_colour
from rules import GameError, GameState, get_game

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BoardImage:
    """One board, ready to send."""

    png: bytes | None
    """The picture, or None when the game has no renderer (yet)."""
    diagram: str
    """The engine's text diagram (always available)."""
    filename: str
    """A file name for the picture: `game-12-move-7.png`."""
    description: str = ""
    """The picture in words, for screen readers (Discord's attachment description, at most
    1,024 characters): the game, whose turn, the last move, the counts and the position.
    Empty only when there is no picture."""


def status_line(view: GameView) -> str | None:
    """The line the picture shows instead of the turn, for endings outside the rules."""
    record = view.record
    if record.result_reason is None or view.state.outcome() is not None:
        return None
    if record.status is GameStatus.ABORTED:
        return f"Aborted: {record.result_reason}"
    if record.winner is None:
        return f"Draw: {record.result_reason}"
    return f"{record.names[record.winner]} wins: {record.result_reason}"


def board_diagram(view: GameView) -> str:
    """The engine's text diagram; once the game ended outside the rules (a resignation,
    time, an agreement), without the line saying who is to move, and with the result."""
    diagram = view.state.diagram()
    ended = status_line(view)
    if ended is None:
        return diagram
    lines = [line for line in diagram.splitlines() if " to move" not in line]
    return "\n".join([*lines, ended])


def _renderer() -> tuple[Any, Any, Any, Any, type[Exception]] | None:
    """`render_png`, `describe`, `BoardView`, `Hint` and `UnknownRendererError`, if the
    renderers exist."""
    try:
        module = importlib.import_module("renderers")
    except ImportError:
        return None
    render_png = getattr(module, "render_png", None)
    describe = getattr(module, "describe", None)
    board_view = getattr(module, "BoardView", None)
    if render_png is None or board_view is None or describe is None:
        return None
    unknown = getattr(module, "UnknownRendererError", LookupError)
    return render_png, describe, board_view, getattr(module, "Hint", None), unknown


def render_board(
    view: GameView,
    *,
    hint_origin: str | None = None,
    clocks: tuple[str | None, str | None] = (None, None),
) -> BoardImage:
    """Draw the game's current position (call it through `asyncio.to_thread`).

    `clocks`: the time shown beside each player's name (`clock_texts.board_clocks`).
    """
    record = view.record
    filename = f"game-{record.id}-move-{record.ply}.png"
    diagram = board_diagram(view)
    renderer = _renderer()
    if renderer is None:
        return BoardImage(None, diagram, filename)
    render_png, describe, board_view, hint, unknown = renderer
    options: dict[str, Any] = {"players": record.names, "status": status_line(view)}
    if clocks != (None, None):
        options["clocks"] = clocks
    if hint_origin is not None and hint is not None:
        options["hint"] = hint(hint_origin)
    try:
        shown = board_view(**options)
        png = render_png(view.state, shown)
        description = describe(view.state, shown)
    except unknown:
        return BoardImage(None, diagram, filename)
    except Exception:
        log.exception("rendering game %s at move %s failed", record.id, record.ply)
        return BoardImage(None, diagram, filename)
    return BoardImage(png, diagram, filename, description)


UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit for a bot's file, the default ceiling of a replay."""


@dataclass(frozen=True, slots=True)
class ReplayFile:
    """An animated replay of a game, ready to attach."""

    data: bytes
    filename: str
    """`game-12-replay.gif`."""
    description: str
    """The replay in words for screen readers (the attachment's description, at most
    1,024 characters): the players, the number of moves and the final position."""


def replay_file(
    view: GameView, notations: Sequence[str], *, limit: int = UPLOAD_LIMIT
) -> ReplayFile | None:
    """The animated replay of a game from its start through `notations` (its moves, as
    stored), or None when there is none to give: no renderer for the game, no move yet,
    a move log that does not replay (logged), or a replay over `limit` bytes even with
    moves left out. CPU-bound (about a second for 300 moves): call it off the event loop,
    through `asyncio.to_thread`.
    """
    record = view.record
    if not notations:
        return None
    module = _replay_renderer()
    if module is None:
        return None
    rules = get_game(record.game)
    state: GameState[Any] = rules.initial_state(rules.validate_options(record.options))
    states = [state]
    try:
        for text in notations:
            state = state.play_text(text)
            states.append(state)
    except GameError:
        log.exception("game %s: its moves do not replay; no replay file", record.id)
        return None
    shown = module.BoardView(players=record.names, status=status_line(view))
    try:
        data = module.render_replay(states, shown, limit=limit)
    except module.ReplayTooLargeError:
        log.warning("game %s: even a shortened replay is over %s bytes", record.id, limit)
        return None
    except module.UnknownRendererError:
        return None
    except Exception:
        log.exception("game %s: the replay could not be drawn", record.id)
        return None
    return ReplayFile(
        data,
        f"game-{record.id}-replay.{module.replay_format()}",
        _replay_description(module, states, shown, len(notations)),
    )


def _replay_renderer() -> Any:
    """The renderers package, if it has replays."""
    try:
        module = importlib.import_module("renderers")
    except ImportError:
        return None
    return module if hasattr(module, "render_replay") else None


def _replay_description(
    module: Any, states: Sequence[GameState[Any]], shown: Any, moves: int
) -> str:
    """ "Replay of the game, N moves." and the final position in words, within the limit."""
    game = states[-1].game
    names = shown.players
    players = (
        f"{with_colour(names[0], game.colours[0])} against {with_colour(names[1], game.colours[1])}"
    )
    head = f"Animated replay of {game.title}, {players}, {moves} move{'s' if moves != 1 else ''}. "
    final = module.describe(states[-1], shown)
    text = head + "At the end: " + final
    limit = module.MAX_DESCRIPTION
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
