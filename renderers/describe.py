"""The text description of a board picture, for screen readers (Discord's alt text).

`describe(state, view)` says in words what `render(state, view)` shows: the game and its
board, whose turn it is (or how the game ended), the last move, each player's counts from
the header (captures, stones, stakes, leads...), and, when it fits, the position: what the
picture crosses out, the areas each player holds (Rekushu's tiles, as rectangles), then
each player's pieces by cell. It is never longer than `MAX_DESCRIPTION` characters (Discord's
limit for an attachment's description): the position is left out, then shortened,
before anything else is.
"""

from __future__ import annotations

from typing import Any

from renderers.base import renderer_for
from renderers.page import move_line, seat_name, status_line, with_colour
from renderers.view import BoardView
from rules import GameState

MAX_DESCRIPTION = 1024
"""Discord's limit for an attachment's description."""
_PLAIN = BoardView()


def describe(state: GameState[Any], view: BoardView | None = None) -> str:
    """The picture of `state` in words, at most `MAX_DESCRIPTION` characters."""
    view = view or _PLAIN
    renderer = renderer_for(state)
    own = renderer.narrow(state)
    caption = renderer.cached_caption(own)
    lines = [
        f"{_sentence(move_line(state, caption))}",
        _sentence(status_line(state, view, caption)),
    ]
    for seat in (0, 1):
        facts = ", ".join(caption.facts[seat])
        clock = view.clocks[seat]
        details = "; ".join(part for part in (facts, f"time {clock}" if clock else "") if part)
        if details:
            lines.append(_sentence(f"{_who(state, view, seat)}: {details}"))
    head = " ".join(lines)
    colours = state.game.colours
    parts = [renderer.crossed_out(own)]
    for seat in (0, 1):  # areas (Rekushu's tiles: the score) before the pieces, if cut
        areas = renderer.areas(own, seat)
        if areas:
            parts.append(f"{colours[seat]}'s {renderer.area_noun}: {' '.join(areas)}")
    for seat in (0, 1):
        items = renderer.pieces(own, seat)
        parts.append(
            f"{colours[seat]} ({len(items)}): {' '.join(items)}"
            if items
            else f"{colours[seat]}: none on the board"
        )
    position = " ".join(_sentence(part) for part in parts if part)
    return fit_description(head, position)


def fit_description(head: str, position: str, limit: int = MAX_DESCRIPTION) -> str:
    """`head` and `position` joined within `limit` characters: the position is cut at a
    word (and says so) when needed, and the head itself only when it alone is too long."""
    if len(head) > limit:
        return head[: limit - 1].rstrip() + "…"
    whole = f"{head} {position}"
    if len(whole) <= limit:
        return whole
    note = " (the rest of the position does not fit here)"
    room = limit - len(head) - len(note) - 1
    if room < 40:
        return head
    cut = position[:room]
    cut = cut[: cut.rfind(" ")] if " " in cut else ""
    return f"{head} {cut.rstrip(' .;:')}{note}" if cut else head


def _who(state: GameState[Any], view: BoardView, seat: int) -> str:
    colour = state.game.colours[seat]
    name = seat_name(state, view, seat) if view.players is None else view.players[seat]
    return colour if name == colour else with_colour(name, colour)


def _sentence(text: str) -> str:
    """`text` with the picture's middle dots as commas, ending in a full stop."""
    text = text.replace("  ·  ", ", ").strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."
