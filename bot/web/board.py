"""The board as SVG for the pages (a placeholder until the SVG renderer lands)."""

from __future__ import annotations

import html
from typing import Any

from rules import GameState


def board_svg(state: GameState[Any]) -> str:
    """The position as SVG."""
    lines = state.diagram().splitlines()
    rows = "".join(
        f'<text x="4" y="{14 * (i + 1)}" font-family="monospace" font-size="12">'
        f"{html.escape(line)}</text>"
        for i, line in enumerate(lines)
    )
    width = 8 * max((len(line) for line in lines), default=1)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {14 * len(lines) + 6}" '
        f'role="img" aria-label="board">{rows}</svg>'
    )
