"""What a picture shows besides the position itself: names, status, clocks, hints, theme."""

from __future__ import annotations

from dataclasses import dataclass

from renderers.theme import Theme


@dataclass(frozen=True)
class Hint:
    """Marks legal destinations of the stone on `origin` (a cell in notation), or all legal
    target cells when origin is None."""

    origin: str | None = None
    """The cell of the stone whose moves are shown, like `d3`; None shows every legal cell."""


@dataclass(frozen=True)
class BoardView:
    """What the picture shows besides the position itself."""

    players: tuple[str, str] | None = None
    """Display names of seat 0 and seat 1; None: colour names only."""
    status: str | None = None
    """Replaces the turn/result line, e.g. "Black resigned" or "White lost on time"."""
    clocks: tuple[str | None, str | None] = (None, None)
    """Time-left text per seat, shown beside the names (correspondence play)."""
    hint: Hint | None = None
    """The legal overlay."""
    theme: Theme | None = None
    """None: the default theme."""
    move_line: bool = True
    """Show the line under the status naming the game, the move number and the last move."""
    facts: bool = True
    """Show each player's counts in the header ("prisoners 6"); replay frames leave them
    out (they change at every move; the last frame shows them)."""
