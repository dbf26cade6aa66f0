"""The fonts of the pictures and text fitting.

DejaVu Sans (shipped in `renderers/fonts/`) draws Latin, Greek, Cyrillic, Arabic, Hebrew
and most symbols. What it lacks is drawn by fallback fonts when they are installed:
Noto Sans CJK (Chinese, Japanese, Korean) and Noto Color Emoji (see
`FALLBACK_CANDIDATES`); a character no font has is drawn as a box, never dropped.
`renderers.text` lays a line out over this chain of fonts and fits text into a width.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=2)
def _font_bytes(bold: bool) -> bytes:
    return (resources.files("renderers") / "fonts" / _FILES[bold]).read_bytes()


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False, shaping: bool = False) -> Font:
    """DejaVu Sans (or Sans Bold) at `size` pixels; `shaping`: with Pillow's Raqm layout,
    which shapes and orders right-to-left text (only when Pillow has Raqm)."""
    # The basic layout engine needs no external shaping library and draws the same
    # pixels everywhere, which keeps golden images stable across machines.
    engine = ImageFont.Layout.RAQM if shaping else ImageFont.Layout.BASIC
    return ImageFont.truetype(BytesIO(_font_bytes(bold)), size, layout_engine=engine)


@dataclass(frozen=True)
class FallbackFont:
    """A font file drawing what DejaVu Sans lacks (CJK, emoji), if it is installed."""

    path: str
    bold_path: str | None = None
    """The bold face, when there is one (else the regular face draws bold text too)."""
    index: int = 0
    """The face within a collection (`.ttc`)."""
    bitmap_size: int | None = None
    """For a colour bitmap font (Noto Color Emoji): the only size it draws, scaled after."""


FALLBACK_CANDIDATES: tuple[FallbackFont, ...] = tuple(
    FallbackFont(f"{folder}/NotoSansCJK-Regular.ttc", f"{folder}/NotoSansCJK-Bold.ttc")
    for folder in (
        "/usr/share/fonts/opentype/noto",  # Debian, Ubuntu: fonts-noto-cjk
        "/usr/share/fonts/noto-cjk",  # Arch: noto-fonts-cjk
        "/usr/share/fonts/google-noto-cjk",  # Fedora: google-noto-sans-cjk-fonts
        "/opt/homebrew/share/fonts",  # macOS with Homebrew
    )
) + tuple(
    FallbackFont(f"{folder}/NotoColorEmoji.ttf", bitmap_size=109)
    for folder in (
        "/usr/share/fonts/truetype/noto",  # Debian, Ubuntu: fonts-noto-color-emoji
        "/usr/share/fonts/noto",  # Arch: noto-fonts-emoji
        "/usr/share/fonts/google-noto-color-emoji",  # Fedora: google-noto-color-emoji-fonts
    )
)
"""Where the fallback fonts are looked for, in order; the first of each kind found is used."""


@dataclass(frozen=True)
class FallbackFamily:
    """One kind of fallback font, what it draws and the package that installs it."""

    name: str
    draws: str
    """What it lets the pictures draw in names ("emoji")."""
    debian_package: str
    """The Debian and Ubuntu package that installs it (the Docker image installs it)."""
    colour: bool
    """A colour bitmap font (its candidates have a `bitmap_size`)."""


FALLBACK_FAMILIES = (
    FallbackFamily("Noto Sans CJK", "Chinese, Japanese or Korean letters", "fonts-noto-cjk", False),
    FallbackFamily("Noto Color Emoji", "emoji", "fonts-noto-color-emoji", True),
)
"""The fallback fonts the pictures want, one per kind of `FALLBACK_CANDIDATES`."""

file_exists: Callable[[str], bool] = os.path.exists
"""How a font file is looked for (tests put another lookup here)."""


def missing_fallback_families() -> tuple[FallbackFamily, ...]:
    """The fallback fonts of which no candidate file is installed."""
    found = {c.bitmap_size is not None for c in FALLBACK_CANDIDATES if file_exists(c.path)}
    return tuple(family for family in FALLBACK_FAMILIES if family.colour not in found)


def missing_fonts_warning() -> str | None:
    """A sentence saying which names will be drawn as boxes and the packages to install;
    None when every fallback font is installed."""
    missing = missing_fallback_families()
    if not missing:
        return None
    names = " and ".join(family.name for family in missing)
    draws = " and ".join(family.draws for family in missing)
    packages = " ".join(family.debian_package for family in missing)
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"{names} {verb} not installed, so {draws} in names are drawn as boxes in the "
        f"pictures; install with `apt-get install {packages}` (Debian, Ubuntu; the Docker "
        "image has them)"
    )


_chosen: list[tuple[FallbackFont, ...]] = []
"""The fallback fonts chosen by `set_fallback_fonts` (none chosen: the installed ones)."""


def set_fallback_fonts(fonts: Sequence[FallbackFont] | None) -> None:
    """Draw missing glyphs with `fonts` (in order); None: the installed `FALLBACK_CANDIDATES`.

    Call it through `renderers.text.use_fallback_fonts`, which also forgets what was drawn.
    """
    _chosen[:] = [] if fonts is None else [tuple(fonts)]
    _chain.cache_clear()
    covers.cache_clear()
    _glyph_pixels.cache_clear()


def fallback_fonts() -> tuple[FallbackFont, ...]:
    """The fallback fonts in use."""
    if _chosen:
        return _chosen[0]
    found: list[FallbackFont] = []
    kinds: set[bool] = set()
    for candidate in FALLBACK_CANDIDATES:
        colour = candidate.bitmap_size is not None
        if colour not in kinds and file_exists(candidate.path):
            found.append(candidate)
            kinds.add(colour)
    return tuple(found)


@dataclass(frozen=True)
class Face:
    """One font of a fallback chain at one size; `scale` shrinks a colour bitmap font."""

    font: Font
    colour: bool = False
    scale: float = 1.0


@lru_cache(maxsize=64)
def _chain(size: int, bold: bool) -> tuple[Face, ...]:
    faces = [Face(font(size, bold=bold))]
    for fallback in fallback_fonts():
        path = (fallback.bold_path if bold else None) or fallback.path
        if not os.path.exists(path):
            path = fallback.path
        try:
            if fallback.bitmap_size is not None:
                loaded = ImageFont.truetype(path, fallback.bitmap_size, index=fallback.index)
                faces.append(Face(loaded, colour=True, scale=size / fallback.bitmap_size))
            else:
                loaded = ImageFont.truetype(
                    path, size, index=fallback.index, layout_engine=ImageFont.Layout.BASIC
                )
                faces.append(Face(loaded))
        except OSError:
            continue
    return tuple(faces)


def chain(face: Font) -> tuple[Face, ...]:
    """DejaVu Sans at `face`'s size and weight, then each installed fallback font."""
    return _chain(int(face.size), face.getname()[1] == "Bold")


@lru_cache(maxsize=8192)
def covers(face: Font, char: str) -> bool:
    """True when `face` draws `char` (rather than its missing-glyph box, or nothing)."""
    return _glyph_pixels(face, char) != _glyph_pixels(face, "\U0010fffd")


@lru_cache(maxsize=64)
def _glyph_pixels(face: Font, char: str) -> bytes:
    size = int(face.size)
    image = Image.new("L", (size * 3, size * 2))
    ImageDraw.Draw(image).text((size // 2, size // 4), char, font=face, fill=255)
    return image.tobytes()


def printable(text: str, *, bold: bool = False) -> str:
    """`text` with its whitespace made single spaces and trimmed; every other character is
    kept (drawn by a fallback font, or as a box when no installed font has it)."""
    return " ".join(text.split())
