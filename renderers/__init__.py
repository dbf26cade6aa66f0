"""Board images: each game state drawn as a Pillow image.

`render(state, view)` dispatches on `state.game.name` to that game's renderer (one
module per game in `renderers/games/`, built on one module per board geometry:
`square`, `intersections`, `hexagons`). Everything the picture shows besides the
position comes in one `BoardView`; colours come from a `Theme`, overridable key by key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from renderers import png, text
from renderers.base import UnknownRendererError, rendered_games, renderer_for
from renderers.describe import MAX_DESCRIPTION, describe
from renderers.fonts import FallbackFont, set_fallback_fonts
from renderers.output import encode_still, palette
from renderers.replay import (
    FINAL_FRAME_MS,
    FRAME_MS,
    REPLAY_FORMAT,
    UPLOAD_LIMIT,
    ReplayTooLargeError,
    replay_gif,
)
from renderers.sprites import Point
from renderers.theme import DEFAULT_THEME, LIGHT_THEME, Theme
from renderers.view import BoardView, Hint
from rules import GameState

# Importing the game modules registers their renderers.
from renderers import games  # isort: skip

_PLAIN = BoardView()


def render(state: GameState[Any], view: BoardView | None = None) -> Image.Image:
    """The picture of `state` as an RGB image.

    Raises `UnknownRendererError` for a game without a renderer and `rules.GameError`
    when `view.hint.origin` is not a cell of the board.
    """
    return renderer_for(state).draw(state, view or _PLAIN)


def render_png(state: GameState[Any], view: BoardView | None = None) -> bytes:
    """The picture of `state` as PNG bytes (a palette PNG, typically 10–40 KB).

    Bands of the picture that an earlier call already drew and compressed (the previous
    move of the same game, say) are taken from a cache instead (`renderers.png`).
    """
    view = view or _PLAIN
    canvas = renderer_for(state).canvas(state, view)
    return png.encode(canvas, palette(view.theme or DEFAULT_THEME))


PICTURE_FORMATS = ("png", "gif", "webp")
"""The still-picture formats `render_picture` writes (WebP lossless)."""


def render_picture(state: GameState[Any], view: BoardView | None = None, fmt: str = "png") -> bytes:
    """The picture of `state` in one of `PICTURE_FORMATS`."""
    view = view or _PLAIN
    if fmt == "png":
        return render_png(state, view)
    if fmt not in PICTURE_FORMATS:
        raise ValueError(f"pictures are written as {', '.join(PICTURE_FORMATS)}, not {fmt!r}")
    return encode_still(render(state, view), view.theme or DEFAULT_THEME, fmt)


def render_replay(
    states: Sequence[GameState[Any]],
    view: BoardView | None = None,
    *,
    frame_ms: int = FRAME_MS,
    limit: int = UPLOAD_LIMIT,
) -> bytes:
    """An animated GIF showing `states` in order, `frame_ms` each; the last one is held longer.

    All states must come from one game with the same options. Frames show the board and
    the names; the last frame shows everything the picture of the final position shows
    (`view.status`, clocks, counts). Never over `limit` bytes (Discord's 10 MiB by
    default): moves are left out rather than exceed it, and `ReplayTooLargeError` is
    raised when even the first and last positions do not fit. See `renderers.replay`.
    """
    return replay_gif(states, view or _PLAIN, frame_ms=frame_ms, limit=limit)


def replay_format() -> str:
    """The file extension of `render_replay`'s output: `gif`."""
    return REPLAY_FORMAT


def use_fallback_fonts(fonts: Sequence[FallbackFont] | None) -> None:
    """Draw glyphs DejaVu Sans lacks with `fonts`, in order (None: the installed Noto CJK and
    Noto Color Emoji, see `renderers.fonts.FALLBACK_CANDIDATES`); forgets what was drawn."""
    set_fallback_fonts(fonts)
    text.clear_caches()
    png.BANDS.clear()


def locate(state: GameState[Any], cell: str) -> Point:
    """The pixel centre of the cell named `cell` (in the game's notation) in `render(state)`."""
    return renderer_for(state).locate(state, cell)


__all__ = [
    "DEFAULT_THEME",
    "FINAL_FRAME_MS",
    "LIGHT_THEME",
    "MAX_DESCRIPTION",
    "PICTURE_FORMATS",
    "UPLOAD_LIMIT",
    "BoardView",
    "FallbackFont",
    "Hint",
    "ReplayTooLargeError",
    "Theme",
    "UnknownRendererError",
    "describe",
    "games",
    "locate",
    "render",
    "render_picture",
    "render_png",
    "render_replay",
    "rendered_games",
    "replay_format",
    "use_fallback_fonts",
]
