"""Encoding pictures: a fixed palette per theme, PNG files and animated GIF replays.

Pictures only ever contain the theme's colours and the anti-aliased blends between
them, so a palette built once per theme from those blends reproduces them closely.
Mapping to a fixed palette costs about a millisecond and makes PNG encoding several
times faster and the files several times smaller than RGB; GIF replays share it, so
every frame uses one global colour table.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import lru_cache

from PIL import GifImagePlugin, Image, ImageChops

from renderers.theme import RGB, Theme, blend

PALETTE_SIZE = 255
"""Colours in the palette; one of GIF's 256 slots stays free for transparent pixels."""
PNG_COMPRESS_LEVEL = 3
"""zlib level for PNG files: about 4 ms to encode a busy board, files of 30–70 KB."""
_SURFACES = (
    "background",
    "panel",
    "board",
    "board_alt",
    "black_tile",
    "white_tile",
    "black",
    "white",
)
"""Colours that others are drawn on, so that their blends matter."""
_STEPS = (0.15, 0.3, 0.45, 0.6, 0.75, 0.9)


@lru_cache(maxsize=16)
def palette(theme: Theme) -> Image.Image:
    """A palette image holding the theme's colours and the blends between them."""
    base: list[RGB] = list(dict.fromkeys(theme.colours()))
    blends: list[RGB] = []
    surfaces = [theme.rgb(surface) for surface in _SURFACES] + [theme.board_mid()]
    for under in surfaces:
        for ink in base:
            if ink != under:
                blends.extend(blend(under, ink, t) for t in _STEPS)
    room = PALETTE_SIZE - len(base)
    sample = Image.new("RGB", (len(blends), 1))
    sample.putdata(blends)
    reduced = sample.quantize(room, method=Image.Quantize.MEDIANCUT)
    reduced_palette = reduced.getpalette() or []
    used = sorted(set(reduced.tobytes()))
    extra = [tuple(reduced_palette[3 * i : 3 * i + 3]) for i in used]
    colours = [*base, *(c for c in extra if c not in base)][:PALETTE_SIZE]
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def to_palette(image: Image.Image, theme: Theme) -> Image.Image:
    """`image` mapped onto the theme's palette (nearest colour, no dithering)."""
    return image.quantize(palette=palette(theme), dither=Image.Dither.NONE)


def encode_png(image: Image.Image, theme: Theme) -> bytes:
    """The picture as a palette PNG."""
    buffer = io.BytesIO()
    to_palette(image, theme).save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def encode_still(image: Image.Image, theme: Theme, fmt: str) -> bytes:
    """The picture as a one-frame GIF (`gif`, on the theme's palette) or lossless WebP."""
    buffer = io.BytesIO()
    if fmt == "gif":
        to_palette(image, theme).save(buffer, "GIF")
    elif fmt == "webp":
        image.save(buffer, "WEBP", lossless=True, quality=80, method=4)
    else:
        raise ValueError(f"no still format {fmt!r}")
    return buffer.getvalue()


REPLAY_FORMAT = "gif"
"""The file extension of replays: animated GIF plays everywhere, Discord included."""

_TRANSPARENT = PALETTE_SIZE
"""The palette index no picture uses: unchanged pixels of a replay frame."""
_UNCHANGED = [255, *(0,) * 255]
"""Maps an index difference to a mask that is set where the pixel did not change."""


def encode_replay(images: Iterable[Image.Image], theme: Theme, durations: Iterable[int]) -> bytes:
    """An endlessly looping animated GIF of `images`, showing each for its duration in ms.

    Frames are written one by one (only two are held at a time), each cut to the box
    that changed, with unchanged pixels left transparent: a 300-move game stays at a
    few megabytes.
    """
    out = io.BytesIO()
    previous: Image.Image | None = None
    pending: tuple[Image.Image, tuple[int, int], int] | None = None
    for image, duration in zip(images, durations, strict=True):
        frame = to_palette(image, theme)
        if previous is None:
            header, _ = GifImagePlugin.getheader(frame, info={"loop": 0})
            out.write(b"".join(header))
            pending = (frame, (0, 0), duration)
        else:
            assert pending is not None
            if frame.size != previous.size:
                raise ValueError("every picture of a replay must have the same size")
            patch = _changed_patch(previous, frame)
            if patch is None:
                pending = (pending[0], pending[1], pending[2] + duration)
                continue
            _write_frame(out, *pending)
            pending = (*patch, duration)
        previous = frame
    if pending is None:
        raise ValueError("a replay needs at least one position")
    _write_frame(out, *pending)
    out.write(b";")
    return out.getvalue()


def _indices(frame: Image.Image) -> Image.Image:
    """The palette indices of `frame` as a grey image, for comparing frames."""
    return Image.frombytes("L", frame.size, frame.tobytes())


def _changed_patch(
    previous: Image.Image, frame: Image.Image
) -> tuple[Image.Image, tuple[int, int]] | None:
    """The box of `frame` that differs from `previous`, unchanged pixels transparent."""
    difference = ImageChops.difference(_indices(previous), _indices(frame))
    box = difference.getbbox()
    if box is None:
        return None
    patch = frame.crop(box)
    patch.paste(_TRANSPARENT, mask=difference.crop(box).point(_UNCHANGED, "1"))
    return patch, (box[0], box[1])


def _write_frame(
    out: io.BytesIO, frame: Image.Image, offset: tuple[int, int], duration: int
) -> None:
    params = {"duration": duration, "disposal": 1, "transparency": _TRANSPARENT}
    out.write(b"".join(GifImagePlugin.getdata(frame, offset, **params)))
