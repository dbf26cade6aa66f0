"""The canvas's drawing functions, which call Pillow's core directly, draw exactly what
`Image.paste` and `ImageDraw` draw, at any band offset and across the band's edges."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from renderers import FallbackFont, use_fallback_fonts
from renderers import canvas as cv
from renderers.fonts import font
from renderers.sprites import Sprite
from renderers.text import text_image
from renderers.theme import RGB

FONTS = Path(__file__).parent / "fonts"
OFFSETS = (0, 7, 32, 45)
"""Band offsets (`dy`): the whole picture, and bands cutting through what is drawn."""


@pytest.fixture(autouse=True)
def shipped_fonts() -> Iterator[None]:
    """The shipped emoji subset as a fallback, so that texts can have colour glyphs."""
    use_fallback_fonts([FallbackFont(str(FONTS / "NotoColorEmoji-Subset.ttf"), bitmap_size=109)])
    yield
    use_fallback_fonts(None)


def band(dy: int) -> Image.Image:
    """A noisy 90×40 RGB band (every pixel differs, so every blend shows)."""
    rng = random.Random(dy)
    return Image.frombytes("RGB", (90, 40), bytes(rng.randrange(256) for _ in range(90 * 40 * 3)))


def sprite(seed: int) -> Sprite:
    """An RGBA sprite of 30×26 with every alpha level."""
    rng = random.Random(seed)
    pixels = bytes(rng.randrange(256) for _ in range(30 * 26 * 4))
    return Sprite(("test sprite", seed), Image.frombytes("RGBA", (30, 26), pixels))


@pytest.mark.parametrize("dy", OFFSETS)
@pytest.mark.parametrize("corner", [(5, 3), (-10, 30), (70, 40), (30, -20), (-40, 100)])
def test_paste_is_image_paste(dy: int, corner: tuple[int, int]) -> None:
    """A sprite through its alpha, partly or wholly outside the band."""
    drawn, expected = band(dy), band(dy)
    picture = sprite(corner[0] * 7 + corner[1])
    cv._paste(drawn, dy, (picture, *corner))
    expected.paste(picture.image, (corner[0], corner[1] - dy), picture.image)
    assert drawn.tobytes() == expected.tobytes()


@pytest.mark.parametrize("dy", OFFSETS)
@pytest.mark.parametrize("text", ["Ada", "Zoë 🎲 Ñandú", "🎲"])
@pytest.mark.parametrize("anchor", ["la", "mm", "rs"])
def test_text_is_image_paste(dy: int, text: str, anchor: str) -> None:
    """A text's grey mask in its colour, and its colour glyphs, at any anchor."""
    face, fill, x, y = font(22), (250, 120, 30), 40, 38
    drawn, expected = band(dy), band(dy)
    cv._text(drawn, dy, (x, y, text, face, fill, anchor))
    line = text_image(face, text, anchor)
    corner = (x + line.left, y + line.top - dy)
    expected.paste(fill, corner, line.mask)
    if line.colour is not None:
        expected.paste(line.colour, corner, line.colour)
    assert drawn.tobytes() == expected.tobytes()


@pytest.mark.parametrize("dy", OFFSETS)
@pytest.mark.parametrize(
    ("fill", "outline", "width"),
    [
        ((10, 200, 30), None, 1),
        (None, (200, 10, 30), 1),
        (None, (200, 10, 30), 4),
        ((10, 200, 30), (200, 10, 30), 2),
        ((10, 200, 30), (10, 200, 30), 3),
        ((10, 200, 30), (200, 10, 30), 0),
        (None, None, 1),
    ],
)
def test_rectangle_is_image_draw(
    dy: int, fill: RGB | None, outline: RGB | None, width: int
) -> None:
    """Every combination of fill, outline and width, across the band's edges."""
    for box in ((3, 5, 60, 50), (-5, 30, 100, 33), (20, 44, 20, 44)):
        drawn, expected = band(dy), band(dy)
        cv._rectangle(drawn, dy, (box, fill, outline, width))
        ImageDraw.Draw(expected).rectangle(
            (box[0], box[1] - dy, box[2], box[3] - dy), fill=fill, outline=outline, width=width
        )
        assert drawn.tobytes() == expected.tobytes(), box
