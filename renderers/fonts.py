"""The fonts of the pictures (DejaVu Sans, shipped in `renderers/fonts/`) and text fitting."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_ELLIPSIS = "…"


@lru_cache(maxsize=2)
def _font_bytes(bold: bool) -> bytes:
    return (resources.files("renderers") / "fonts" / _FILES[bold]).read_bytes()


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans (or Sans Bold) at `size` pixels."""
    # The basic layout engine needs no external shaping library and draws the same
    # pixels everywhere, which keeps golden images stable across machines.
    return ImageFont.truetype(
        BytesIO(_font_bytes(bold)), size, layout_engine=ImageFont.Layout.BASIC
    )


def _glyph_pixels(char: str, bold: bool) -> bytes:
    image = Image.new("L", (48, 40))
    ImageDraw.Draw(image).text((12, 6), char, font=font(20, bold=bold), fill=255)
    return image.tobytes()


@lru_cache(maxsize=2)
def _missing_glyph(bold: bool) -> bytes:
    return _glyph_pixels("\U0010fffd", bold)


@lru_cache(maxsize=4096)
def has_glyph(char: str, *, bold: bool = False) -> bool:
    """True when the font draws `char` (rather than its missing-glyph box)."""
    return _glyph_pixels(char, bold) != _missing_glyph(bold)


def printable(text: str, *, bold: bool = False) -> str:
    """`text` without the characters the font cannot draw (emoji, most CJK), trimmed."""
    kept = "".join(ch for ch in text if ch.isspace() or has_glyph(ch, bold=bold))
    return " ".join(kept.split())


def fit(text: str, face: Font, width: float) -> str:
    """`text`, cut short with an ellipsis if needed so that it is at most `width` pixels wide."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + _ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + _ELLIPSIS if low else ""


def wrap(text: str, face: Font, width: float, *, lines: int = 2) -> list[str]:
    """Break `text` at spaces into at most `lines` lines of at most `width` pixels.

    The last line is cut with an ellipsis if the text does not fit.
    """
    result: list[str] = []
    words = text.split()
    while words and len(result) < lines - 1:
        line = words.pop(0)
        while words and face.getlength(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        if face.getlength(line) > width:
            line = fit(line, face, width)
        result.append(line)
    if words:
        result.append(fit(" ".join(words), face, width))
    return result
