"""PNG files from canvases, compressed band by band with a cache of the bands already seen.

A picture is cut into horizontal bands of at most 32 KB of image data. Each band is
drawn, mapped onto the theme's palette and deflated on its own, ended on a byte
boundary: the compressed bands, one after the other, are one valid zlib stream. A band of
the board uses the last `TAIL_ROWS` rows of the band above it as zlib's preset dictionary
(referring back into them, as one whole stream would). A band's compressed bytes depend
only on its operations (`renderers.canvas`) and those touching these rows above it, so they
are kept in a cache under those and reused by the next picture of the same game, where only
the bands around the last move and some lines of the header and the footer change: most of
each picture is neither drawn nor compressed again. A band under a changed one is
compressed again only if the change reaches its dictionary rows, and these rows alone are
drawn when the band above them is not.
"""

from __future__ import annotations

import bisect
import struct
import threading
import zlib
from collections import OrderedDict
from typing import Any, cast

from PIL import Image
from zlib_ng import zlib_ng as deflate  # the same streams and checksums, faster than zlib's

from renderers.canvas import Canvas, Op, op_identity

LEVEL = 6
"""zlib level of the board's bands: files about 20 % smaller than level 3."""
FAST_LEVEL = 2
"""zlib level of the header's and footer's bands, some of which change at every move: their
text gains little from a higher level."""
BAND_BYTES = 32 * 1024
"""The most image data in one band: the deflate window, so a band may refer to its first row."""
BAND_ROWS = 32
"""The most rows in one band (smaller bands redraw less around a move)."""
TAIL_ROWS = 16
"""The last rows of a band of the board that the band below uses as zlib's preset dictionary:
with fewer, the files of the largest boards grow past 40 KB (2 rows: about 45 KB, where the
whole band above gives 26-33 KB and 16 rows 29-37 KB)."""
CACHE_BANDS = 12288
"""Compressed bands kept (about 1 KB each, those of the header and footer less), enough for
a few hundred games in play (some 35 bands a picture, a few lines of the header twice)."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FINAL_BLOCK = b"\x03\x00"
"""An empty final deflate block (fixed Huffman codes): ends the stream of bands."""


class BandKey:
    """What determines one band's pixels: the page, the band's rows and its operations."""

    __slots__ = ("_hash", "value")

    def __init__(self, value: tuple[Any, ...]) -> None:
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BandKey) and (self is other or self.value == other.value)


class _BandCache:
    """Compressed bands (bytes, Adler-32 of the data, length) by key."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[BandKey, tuple[bytes, int, int]] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: BandKey) -> tuple[bytes, int, int] | None:
        """The band compressed under `key`, if kept."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self.entries.move_to_end(key)
            self.hits += 1
            return entry

    def put(self, key: BandKey, entry: tuple[bytes, int, int]) -> None:
        """Keep `entry` under `key`, forgetting the least recently used beyond `size`."""
        with self.lock:
            self.entries[key] = entry
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every band and reset the counts."""
        with self.lock:
            self.entries.clear()
            self.hits = self.misses = 0


BANDS = _BandCache(CACHE_BANDS)
"""The compressed bands of recent pictures, shared by all threads."""


def band_rows(width: int) -> int:
    """The rows per band of the board for a picture `width` pixels wide."""
    return max(1, min(BAND_ROWS, BAND_BYTES // (width + 1)))


def split(canvas: Canvas) -> tuple[list[int], list[list[Op]]]:
    """The bands of a picture (the top row of each) and the operations touching each.

    The board is cut into bands of `band_rows` rows, the header and the footer into bands
    of about as many rows each: between two moves only some of their lines change (the
    highlighted player, the last move), and the others are reused.
    """
    height = canvas.height
    board_top, board_bottom = canvas.board_rows
    rows = band_rows(canvas.width)
    tops = [
        *_even_tops(0, board_top, rows),
        *range(board_top, board_bottom, rows),
        *_even_tops(board_bottom, height, rows),
    ]
    bands: list[list[Op]] = [[] for _ in tops]
    for op in canvas.ops:
        first = bisect.bisect_right(tops, op[0]) - 1
        last = bisect.bisect_right(tops, op[1] - 1) - 1
        for index in range(first, last + 1):
            bands[index].append(op)
    return tops, bands


def _even_tops(top: int, bottom: int, rows: int) -> list[int]:
    """The tops of the fewest bands of at most `rows` rows, all about as high, from `top`
    to `bottom`."""
    count = -(-(bottom - top) // rows)
    return [top + (bottom - top) * index // count for index in range(count)]


def encode(canvas: Canvas, theme_palette: Image.Image, *, cache: _BandCache = BANDS) -> bytes:
    """The canvas as an 8-bit palette PNG on `theme_palette` (see `renderers.output.palette`)."""
    width, height = canvas.width, canvas.height
    tops, bands = split(canvas)
    ends = [*tops[1:], height]
    board_top, board_bottom = canvas.board_rows
    page_key = canvas.page_key

    def image_data(top: int, bottom: int, ops: list[Op]) -> bytes:
        """Rows `top` to `bottom` as image data: each row a zero (no filter) and its indices."""
        return _image_data(canvas.band(top, bottom, ops), theme_palette)

    chunks: list[bytes] = [b"\x78\x9c"]
    adler = 1
    above: bytes | None = None  # the image data of the band above, when drawn
    for index, (top, bottom, ops) in enumerate(zip(tops, ends, bands, strict=True)):
        on_board = board_top <= top < board_bottom
        # A board band under another uses the last rows of the one above as its dictionary,
        # so it depends on the operations drawing those rows too. The bands of the header
        # and the footer, and the board's first, stand alone: they would otherwise also be
        # compressed again for changes above them (more than they gain in size).
        chained = on_board and index > 0 and tops[index - 1] >= board_top
        tail_top = max(tops[index - 1], top - TAIL_ROWS) if chained else top
        tail_ops = [op for op in bands[index - 1] if op[1] > tail_top] if chained else []
        key = BandKey(
            (
                page_key,
                top,
                tuple(map(op_identity, ops)),
                tuple(map(op_identity, tail_ops)) if chained else None,
            )
        )
        entry = cache.get(key)
        if entry is None:
            raw = image_data(top, bottom, ops)
            if chained:
                tail = (
                    above[(tail_top - top) * (width + 1) :]  # the last rows
                    if above is not None
                    else image_data(tail_top, top, tail_ops)
                )
                compressor = deflate.compressobj(LEVEL, zlib.DEFLATED, -15, 9, zdict=tail)
            else:
                level = LEVEL if on_board else FAST_LEVEL
                compressor = deflate.compressobj(level, zlib.DEFLATED, -15, 9)
            packed = compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH)
            entry = (packed, deflate.adler32(raw), len(raw))
            cache.put(key, entry)
            above = raw
        else:
            above = None
        chunks.append(entry[0])
        adler = adler32_combine(adler, entry[1], entry[2])
    chunks.append(_FINAL_BLOCK)
    chunks.append(struct.pack(">I", adler))
    return png_file(width, height, theme_palette, b"".join(chunks))


def _image_data(picture: Image.Image, theme_palette: Image.Image) -> bytes:
    """The RGB `picture` as PNG image data on the palette: each row a zero (no filter) and
    the row's palette indices."""
    # Pillow's core, as `Image.quantize(palette=..., dither=NONE)` and `Image.tobytes` use
    # it, with a column of zeros (the filter bytes) added on the left by cropping: the same
    # bytes as joining the rows in Python, in less than half the time.
    width, height = picture.size
    theme_palette.load()  # hands the palette to the core, if it has not yet
    indices = picture.im.convert("P", Image.Dither.NONE, theme_palette.im)
    encoder = Image.core.raw_encoder("P", "P")
    encoder.setimage(indices.crop((-1, 0, width, height)), (0, 0, width + 1, height))
    _, status, data = encoder.encode(height * (width + 1))
    assert status == 1, "the raw encoder ended early"
    return cast(bytes, data)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two pieces of data from the checksums of each (zlib's formula)."""
    base = 65521
    remainder = second_length % base
    low = first & 0xFFFF
    high = (remainder * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - remainder) % base
    return low | (high << 16)


def png_file(width: int, height: int, theme_palette: Image.Image, stream: bytes) -> bytes:
    """A PNG file: the header, the palette and one IDAT chunk holding the zlib `stream`."""
    colours = theme_palette.getpalette() or []
    used = len(colours) // 3
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours[: 3 * used])),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, body: bytes) -> bytes:
    check = deflate.crc32(kind + body)
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", check)


def cache_stats(cache: _BandCache = BANDS) -> tuple[int, int]:
    """Hits and misses of the band cache so far."""
    return cache.hits, cache.misses
