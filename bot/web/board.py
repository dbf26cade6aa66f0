"""The board as SVG for the pages (`renderers.svg`, the pictures' own layouts), and the
hashes of the style sheets those boards carry, which the pages' security policy allows."""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from typing import Any

from renderers.base import renderer_for
from renderers.svg import board_svg as _board_svg
from renderers.svg import style_sheets
from rules import GameState

_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def board_svg(state: GameState[Any]) -> str:
    """The position as SVG: `data-cell` on every cell, `data-piece` on occupied ones."""
    return _board_svg(state)


def seat_facts(state: GameState[Any]) -> list[list[str]]:
    """Each seat's short facts, as the pictures show them beside the names ("prisoners 6",
    "largest group 3 of 6")."""
    facts = renderer_for(state).caption(state).facts
    return [list(facts[0]), list(facts[1])]


@lru_cache(maxsize=1)
def style_hashes() -> tuple[str, ...]:
    """The CSP sources (`'sha256-…'`) of the style sheets boards carry (one per game and
    board size)."""
    found: set[str] = set()
    for element in style_sheets():
        for sheet in _STYLE.findall(element):
            digest = hashlib.sha256(sheet.encode()).digest()
            found.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return tuple(sorted(found))
