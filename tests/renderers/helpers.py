"""Helpers for the renderer tests: positions from moves, pixel colours."""

from __future__ import annotations

from typing import Any, TypeVar

from PIL import Image, ImageChops

from renderers.base import renderer_for
from renderers.canvas import _text
from renderers.sprites import Point
from renderers.theme import RGB
from renderers.view import BoardView
from rules import Game, GameState

StateT = TypeVar("StateT", bound=GameState[Any])


def after(game: Game[StateT], *moves: str, **options: object) -> StateT:
    """The state of `game` (started with `options`) after `moves`."""
    state = game.new_game(**options)
    for move in moves:
        state = state.play_text(move)
    return state


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """The largest per-channel difference between two colours."""
    return max(abs(x - y) for x, y in zip(a[:3], b[:3], strict=True))


def pixel(image: Image.Image, point: Point) -> RGB:
    """The RGB colour at a (possibly fractional) point."""
    value = image.getpixel((int(point[0]), int(point[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def count_near(
    image: Image.Image, box: tuple[int, int, int, int], colour: RGB, tolerance: int = 24
) -> int:
    """How many pixels in `box` are within `tolerance` of `colour`."""
    region = image.crop(box).convert("RGB")
    difference = ImageChops.difference(region, Image.new("RGB", region.size, colour))
    red, green, blue = difference.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return sum(worst.histogram()[: tolerance + 1])


def around(point: Point, radius: float) -> tuple[int, int, int, int]:
    """The box of half-side `radius` around `point`."""
    x, y = point
    return round(x - radius), round(y - radius), round(x + radius), round(y + radius)


def texts(state: GameState[Any], view: BoardView | None = None, *, part: str = "all") -> list[str]:
    """The lines of text the picture of `state` writes, from the top down: all of them, or
    those of the `header` or the `footer`."""
    canvas = renderer_for(state).canvas(state, view or BoardView())
    board_top, board_bottom = canvas.board_rows
    found = [
        (op[0], op[3][2])
        for op in canvas.ops
        if op[2] is _text
        and (part == "all" or (op[1] <= board_top if part == "header" else op[0] >= board_bottom))
    ]
    return [text for _, text in sorted(found, key=lambda item: item[0])]


def footer_text(state: GameState[Any], view: BoardView | None = None) -> str:
    """The status line of the picture of `state` (its lines joined)."""
    return " ".join(texts(state, view, part="footer"))
