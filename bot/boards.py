"""Board pictures for the front ends: the renderer's PNG, or the text diagram without one."""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from typing import Any

from bot.services.results import GameView
from bot.storage.repository import GameStatus

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
