"""One line of text over the chain of fonts (`renderers.fonts.chain`): its runs, width and
picture, and fitting text into a width.

A line is cut into runs, each drawn by the first font of the chain that has its
characters (combining marks and emoji modifiers stay with the character before them).
Right-to-left runs (Arabic, Hebrew) are shaped and ordered by Pillow's Raqm layout when
Pillow has it (libraqm with FriBiDi); without it their letters are only put in reading
order, unjoined. A line whose first strong character is right-to-left puts its runs
from right to left. Colour emoji are drawn at their font's one size and scaled down.
"""

from __future__ import annotations

import math
import operator
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont, features

from renderers.fonts import Face, Font, chain, covers
from renderers.fonts import font as dejavu

ELLIPSIS = "…"
_JOINERS = {"\u200d", "\ufe0e", "\ufe0f"}
"""Characters that belong to the one before them whatever fonts have them."""


def raqm_available() -> bool:
    """Whether Pillow can shape right-to-left text (libraqm and FriBiDi are installed)."""
    return bool(features.check("raqm"))


@dataclass(frozen=True)
class Run:
    """Characters drawn by one font, in one direction."""

    face: Face
    text: str
    rtl: bool


@dataclass(frozen=True)
class TextImage:
    """A line drawn once: a grey mask to paint in the text's colour, colour glyphs (emoji)
    to paste as they are, and where the mask's corner lies from the anchor point."""

    mask: Image.Image
    colour: Image.Image | None
    left: int
    top: int


def _is_rtl(char: str) -> bool:
    return unicodedata.bidirectional(char) in {"R", "AL"}


def _is_strong(char: str) -> bool:
    return unicodedata.bidirectional(char) in {"L", "R", "AL"}


@lru_cache(maxsize=4096)
def runs(face: Font, text: str) -> tuple[Run, ...]:
    """`text` as runs in visual order (left to right on the picture)."""
    faces = chain(face)
    found: list[Run] = []
    for char in text:
        attached = unicodedata.combining(char) or char in _JOINERS
        if found and (attached or (char.isspace() or not _is_strong(char))):
            last = found[-1]
            if attached or covers(last.face.font, char):
                found[-1] = Run(last.face, last.text + char, last.rtl)
                continue
        chosen = next((f for f in faces if covers(f.font, char)), faces[0])
        rtl = _is_rtl(char)
        if found and found[-1].face == chosen and found[-1].rtl == rtl:
            last = found[-1]
            found[-1] = Run(chosen, last.text + char, rtl)
        else:
            found.append(Run(chosen, char, rtl))
    first_strong = next((char for char in text if _is_strong(char)), "")
    if first_strong and _is_rtl(first_strong):
        found.reverse()
    return tuple(found)


def clear_caches() -> None:
    """Forget every line laid out (after the fallback fonts changed)."""
    for cached in (
        runs,
        text_length,
        text_image,
        text_extent,
        fit,
        _shaping,
        _advances,
        _simple_box,
    ):
        cached.cache_clear()


@lru_cache(maxsize=64)
def _shaping(font: Font) -> Font:
    """The same font with the Raqm layout, which shapes and orders right-to-left text."""
    family, style = font.getname()
    if family == "DejaVu Sans":
        return dejavu(int(font.size), bold=style == "Bold", shaping=True)
    return ImageFont.truetype(
        font.path, font.size, index=font.index, layout_engine=ImageFont.Layout.RAQM
    )


def _drawn(run: Run) -> tuple[Font, str]:
    """The font and text that draw `run` left to right."""
    if not run.rtl:
        return run.face.font, run.text
    if raqm_available() and not run.face.colour:
        return _shaping(run.face.font), run.text
    return run.face.font, run.text[::-1]


def _run_length(run: Run) -> float:
    font, text = _drawn(run)
    return font.getlength(text) * run.face.scale


@lru_cache(maxsize=8192)
def text_length(face: Font, text: str) -> float:
    """The width of `text` in pixels, drawn over the chain of fonts of `face`."""
    quick = _advances(face).length(text)
    if quick is not None:
        return quick
    if _simple(face, text):
        return face.getlength(text)
    return sum(_run_length(run) for run in runs(face, text))


class _Advances:
    """What `getlength` adds up for one font in Pillow's basic layout: each character's
    advance and each pair's kerning, in 64ths of a pixel, learnt once from `getlength`.

    Measuring a new line with these takes a few microseconds instead of tens (the header
    and footer have new lines at every move), and gives exactly the same width.
    """

    __slots__ = ("advance", "face", "kerning", "usable")

    _CHECK = "AVAToWay, Tabula (medium) · move 23: f7×Ω …"

    def __init__(self, face: Font) -> None:
        self.face = face
        self.advance: dict[str, int] = {}
        self.kerning: dict[str, int] = {}
        self.usable = face.layout_engine == ImageFont.Layout.BASIC
        if self.usable and self.length(self._CHECK) != face.getlength(self._CHECK):
            self.usable = False  # another layout than advances and pair kerning: not used

    def length(self, text: str) -> float | None:
        """The width `face.getlength(text)` gives, or None for a line that is not simple
        (see `_simple`) or has characters that are not printable."""
        if not self.usable:
            return None
        advance, kerning = self.advance, self.kerning
        try:
            total = sum(map(advance.__getitem__, text))
        except KeyError:
            if not self._learn_characters(text):
                return None
            total = sum(map(advance.__getitem__, text))
        pairs = list(map(operator.add, text, text[1:]))
        try:
            total += sum(map(kerning.__getitem__, pairs))
        except KeyError:
            for pair in pairs:
                if pair not in kerning:
                    whole = self.face.getlength(pair) * 64
                    kerning[pair] = round(whole) - advance[pair[0]] - advance[pair[1]]
            total += sum(map(kerning.__getitem__, pairs))
        return total / 64

    def _learn_characters(self, text: str) -> bool:
        """Learn the advances of the characters of `text`; False if one is not simple."""
        for char in set(text) - self.advance.keys():
            if not char.isprintable() or not _simple(self.face, char):
                return False
            width = self.face.getlength(char) * 64
            if width != round(width):
                return False
            self.advance[char] = round(width)
        return True


@lru_cache(maxsize=64)
def _advances(face: Font) -> _Advances:
    return _Advances(face)


def _simple(face: Font, text: str) -> bool:
    """Whether DejaVu alone draws `text`, left to right."""
    return text.isascii() or all(
        char.isascii() or (covers(face, char) and not _is_rtl(char)) for char in text
    )


@lru_cache(maxsize=2048)
def text_image(face: Font, text: str, anchor: str) -> TextImage:
    """`text` drawn once (see `TextImage`), placed by Pillow's `anchor` (like `la`, `mm`)."""
    if _simple(face, text):
        left, top, right, bottom = _simple_box(face, text, anchor)
        mask = Image.new("L", (max(1, right - left + 1), max(1, bottom - top + 1)))
        ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
        return TextImage(mask, None, left, top)
    return _mixed_image(face, text, anchor)


@lru_cache(maxsize=2048)
def text_extent(face: Font, text: str, anchor: str) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) that `text_image(face, text, anchor)` covers
    around the anchor point: a simple line is measured without being drawn."""
    if _simple(face, text):
        left, top, right, bottom = _simple_box(face, text, anchor)
        return left, top, left + max(1, right - left + 1), top + max(1, bottom - top + 1)
    drawn = text_image(face, text, anchor)
    return drawn.left, drawn.top, drawn.left + drawn.mask.width, drawn.top + drawn.mask.height


@lru_cache(maxsize=2048)
def _simple_box(face: Font, text: str, anchor: str) -> tuple[int, int, int, int]:
    """Pillow's box of a simple line around its anchor point, on whole pixels."""
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    return math.floor(left), math.floor(top), math.floor(right), math.floor(bottom)


def _mixed_image(face: Font, text: str, anchor: str) -> TextImage:
    ascent, descent = face.getmetrics()
    line_runs = runs(face, text)
    width = math.ceil(sum(_run_length(run) for run in line_runs)) + 2
    pad = int(face.size)
    height = ascent + descent + 2 * pad
    baseline = pad + ascent
    mask = Image.new("L", (width, height))
    colour: Image.Image | None = None
    pen = ImageDraw.Draw(mask)
    x = 0.0
    for run in line_runs:
        font, drawn = _drawn(run)
        if run.face.colour:
            colour = colour or Image.new("RGBA", (width, height), (0, 0, 0, 0))
            glyphs = _colour_glyphs(font, drawn, run.face.scale)
            if glyphs is not None:
                picture, glyph_top = glyphs
                colour.alpha_composite(picture, (round(x), max(0, baseline + glyph_top)))
        else:
            pen.text((x, baseline), drawn, font=font, fill=255, anchor="ls")
        x += _run_length(run)
    horizontal = {"l": 0.0, "m": x / 2, "r": x}[anchor[0]]
    vertical = {"a": -ascent, "m": (descent - ascent) / 2, "s": 0, "d": descent}.get(
        anchor[1], -ascent
    )
    origin_x, origin_y = round(horizontal), round(baseline + vertical)
    box = _union(mask.getbbox(), colour.getbbox() if colour is not None else None)
    if box is None:
        return TextImage(Image.new("L", (1, 1)), None, 0, 0)
    mask = mask.crop(box)
    colour = colour.crop(box) if colour is not None else None
    return TextImage(mask, colour, box[0] - origin_x, box[1] - origin_y)


def _colour_glyphs(font: Font, text: str, scale: float) -> tuple[Image.Image, int] | None:
    """Colour glyphs drawn at the font's size, scaled, and their top from the baseline."""
    left, top, right, bottom = (math.floor(v) for v in font.getbbox(text, anchor="ls"))
    if right <= left or bottom <= top:
        return None
    big = Image.new("RGBA", (right - left + 1, bottom - top + 1), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((-left, -top), text, font=font, anchor="ls", embedded_color=True)
    size = (max(1, round(big.width * scale)), max(1, round(big.height * scale)))
    return big.resize(size, Image.Resampling.LANCZOS), round(top * scale)


def _union(
    first: tuple[int, int, int, int] | None, second: tuple[int, int, int, int] | None
) -> tuple[int, int, int, int] | None:
    if first is None or second is None:
        return first or second
    return (
        min(first[0], second[0]),
        min(first[1], second[1]),
        max(first[2], second[2]),
        max(first[3], second[3]),
    )


@lru_cache(maxsize=4096)
def fit(text: str, face: Font, width: float) -> str:
    """`text`, cut short with an ellipsis if needed so that it is at most `width` pixels wide."""
    if text_length(face, text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_length(face, text[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ""


def wrap(text: str, face: Font, width: float, *, lines: int = 2) -> list[str]:
    """Break `text` at spaces into at most `lines` lines of at most `width` pixels.

    The last line is cut with an ellipsis if the text does not fit.
    """
    result: list[str] = []
    words = text.split()
    while words and len(result) < lines - 1:
        line = words.pop(0)
        while words and text_length(face, f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        if text_length(face, line) > width:
            line = fit(line, face, width)
        result.append(line)
    if words:
        result.append(fit(" ".join(words), face, width))
    return result
