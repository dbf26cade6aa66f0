"""The banded PNG encoder: valid files, the same pixels as one whole drawing, bands reused."""

from __future__ import annotations

import io
import random
import struct
import zlib
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops

from renderers import LIGHT_THEME, BoardView, Hint, render, render_png
from renderers import png as banded
from renderers.base import renderer_for
from renderers.canvas import Canvas, Op
from renderers.output import palette, to_palette
from renderers.samples import random_game
from renderers.theme import DEFAULT_THEME
from tests.renderers.helpers import distance, pixel

VIEW = BoardView(players=("Ada", "Grace"), clocks=("2d 3h left", None))
GAMES = {
    "groups": {},
    "stones": {"size": 19},
    "rekushu": {"size": 12},
    "hexade": {"size": 8},
    "diffusion": {},
}


def chunks(data: bytes) -> dict[bytes, bytes]:
    """The chunks of a PNG file by type (IDAT joined), checking every CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found: dict[bytes, bytes] = {}
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body)
        found[kind] = found.get(kind, b"") + body
        at += 12 + length
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_band_matches_the_whole_picture(name: str) -> None:
    """Drawn band by band, with and without cached bands, a picture has exactly the pixels
    of the whole drawing mapped onto the palette, at every move of a game (hints too)."""
    banded.BANDS.clear()
    states = random_game(name, GAMES[name], seed=4, plies=40)
    for index, state in enumerate(states):
        view = BoardView(players=VIEW.players, hint=Hint()) if index % 15 == 14 else VIEW
        data = render_png(state, view)
        if index % 5:
            continue
        with Image.open(io.BytesIO(data)) as picture:
            expected = to_palette(render(state, view), DEFAULT_THEME)
            assert picture.mode == "P"
            assert picture.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


def test_a_move_redraws_only_the_bands_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a placement on a 19×19 board only the bands of the header's and the footer's
    lines that changed, the bands around the new stone and the old ring, and a band below
    one of them whose dictionary (the last rows above it) changed are compressed again; no
    band is redrawn whole for its dictionary."""
    states = random_game("stones", {"size": 19}, seed=4, plies=12)
    banded.BANDS.clear()
    render_png(states[0], VIEW)
    render_png(states[1], VIEW)  # the header with either player highlighted is now known
    drawn: list[int] = []
    draw = Canvas.band

    def counted(canvas: Canvas, top: int, bottom: int, ops: Sequence[Op]) -> Image.Image:
        drawn.append(bottom - top)
        return draw(canvas, top, bottom, ops)

    monkeypatch.setattr(Canvas, "band", counted)
    for state in states[2:]:
        misses = banded.cache_stats()[1]
        drawn.clear()
        render_png(state, VIEW)
        assert banded.cache_stats()[1] - misses <= 7
        assert sum(drawn) <= 250  # of 1020 rows
    assert banded.cache_stats()[0] >= 11 * 25


def _rows_canvas(*rectangles: tuple[int, int]) -> Canvas:
    """A 60×200 board (bands of 32 rows) with a grey rectangle over each pair of rows."""
    canvas = Canvas(Image.new("RGB", (60, 200), (40, 40, 40)), ("rows test",))
    for top, bottom in rectangles:
        canvas.rectangle((5, top, 50, bottom), fill=(200, 200, 200))
    return canvas


@pytest.mark.parametrize(
    ("moved", "compressed"),
    [
        (((34, 40), (70, 75)), 1),  # the top of band 1: band 2's dictionary is the same
        (((40, 60), (70, 75)), 2),  # into band 1's last rows, band 2's dictionary: both again
        (((36, 38), (72, 76)), 1),  # the top of band 2 only: band 3 is under its last rows
        (((36, 38), (88, 92)), 2),  # band 2's last rows: band 3 again
    ],
)
def test_a_band_under_a_change_is_reused_when_its_dictionary_is_not(
    monkeypatch: pytest.MonkeyPatch, moved: tuple[tuple[int, int], ...], compressed: int
) -> None:
    """A band is compressed again only if its own operations or those of the rows above it
    that are its dictionary changed; the file is still the whole drawing."""
    theme_palette = palette(DEFAULT_THEME)
    cache = banded._BandCache(100)
    before = _rows_canvas((10, 20), (36, 38), (70, 75))
    banded.encode(before, theme_palette, cache=cache)
    drawn: list[tuple[int, int]] = []
    draw = Canvas.band

    def counted(canvas: Canvas, top: int, bottom: int, ops: Sequence[Op]) -> Image.Image:
        drawn.append((top, bottom))
        return draw(canvas, top, bottom, ops)

    monkeypatch.setattr(Canvas, "band", counted)
    after = _rows_canvas((10, 20), *moved)
    misses = banded.cache_stats(cache)[1]
    data = banded.encode(after, theme_palette, cache=cache)
    assert banded.cache_stats(cache)[1] - misses == compressed
    # The bands compressed again are drawn whole; a band above them only for its last rows.
    assert len([top for top, bottom in drawn if bottom - top > banded.TAIL_ROWS]) == compressed
    assert len(drawn) <= 2 * compressed
    with Image.open(io.BytesIO(data)) as picture:
        expected = after.image().quantize(palette=theme_palette, dither=Image.Dither.NONE)
        assert picture.tobytes() == expected.tobytes()


def test_the_stream_is_one_valid_zlib_stream() -> None:
    """zlib itself (checking the Adler-32) decodes the image data: one filter byte and
    the palette indices per row."""
    state = random_game("stones", {"size": 9}, seed=2, plies=30)[-1]
    banded.BANDS.clear()
    data = render_png(state, VIEW)
    parts = chunks(data)
    width, height, depth, colour_type = struct.unpack(">IIBB", parts[b"IHDR"][:10])
    assert (depth, colour_type) == (8, 3)
    raw = zlib.decompress(parts[b"IDAT"])
    assert len(raw) == height * (width + 1)
    assert raw[:: width + 1] == bytes(height)
    assert len(parts[b"PLTE"]) // 3 == len(palette(DEFAULT_THEME).getpalette() or []) // 3


def test_a_cached_band_gives_the_same_file_as_a_fresh_one() -> None:
    """The file does not depend on what the cache held before."""
    states = random_game("hexade", {"size": 6}, seed=3, plies=12)
    banded.BANDS.clear()
    for state in states:
        render_png(state, VIEW)
    warm = render_png(states[-1], VIEW)
    banded.BANDS.clear()
    assert render_png(states[-1], VIEW) == warm


def test_themes_keep_their_own_palettes() -> None:
    """The same position in two themes: the same indices may mean other colours."""
    state = random_game("groups", {}, seed=1, plies=6)[-1]
    dark = Image.open(io.BytesIO(render_png(state, VIEW))).convert("RGB")
    light_view = BoardView(players=VIEW.players, theme=LIGHT_THEME)
    light = Image.open(io.BytesIO(render_png(state, light_view))).convert("RGB")
    # The palette mapping is nearest within Pillow's colour cache: within a few levels.
    assert distance(pixel(dark, (2, 2)), DEFAULT_THEME.rgb("background")) <= 4
    assert distance(pixel(light, (2, 2)), LIGHT_THEME.rgb("background")) <= 4


@pytest.mark.parametrize(
    ("first", "second"),
    [(b"", b"abc"), (b"Wikipedia", b""), (b"x" * 70000, bytes(range(256)) * 300)],
)
def test_adler32_of_two_pieces(first: bytes, second: bytes) -> None:
    """The combined checksum is the checksum of the joined data."""
    combined = banded.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_operations_say_which_rows_they_touch() -> None:
    """Every operation of busy pictures stays within the rows it declares."""
    for name in ("diffusion", "stones", "rekushu", "hexade"):
        state = random_game(name, GAMES[name], seed=6, plies=60)[-1]
        canvas = renderer_for(state).canvas(state, BoardView(players=VIEW.players, hint=Hint()))
        for top, bottom, draw, args in canvas.ops:
            page = canvas.page.copy()
            draw(page, 0, args)
            box = ImageChops.difference(page, canvas.page).getbbox()
            assert box is None or (top <= box[1] and box[3] <= bottom), (draw.__name__, box)


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (840, 32), (300, 400)])
def test_image_data_is_the_quantized_rows_each_after_a_zero(size: tuple[int, int]) -> None:
    """The core path gives the bytes of `Image.quantize` and a filter byte per row."""
    width, height = size
    noise = random.Random(width).randbytes(width * height * 3)
    picture = Image.frombytes("RGB", size, noise)
    theme_palette = palette(DEFAULT_THEME)
    indices = picture.quantize(palette=theme_palette, dither=Image.Dither.NONE).tobytes()
    expected = b"".join(b"\0" + indices[at : at + width] for at in range(0, len(indices), width))
    assert banded._image_data(picture, theme_palette) == expected


def test_header_and_footer_are_cut_into_even_bands() -> None:
    """Bands of at most `band_rows` rows, about as high, the board's bands where they were."""
    state = random_game("stones", {"size": 19}, seed=1, plies=3)[-1]
    canvas = renderer_for(state).canvas(state, VIEW)
    tops, _ = banded.split(canvas)
    rows = banded.band_rows(canvas.width)
    board_top, board_bottom = canvas.board_rows
    heights = [end - top for top, end in zip(tops, [*tops[1:], canvas.height], strict=True)]
    assert tops[0] == 0 and max(heights) <= rows
    assert [top for top in tops if board_top <= top < board_bottom] == list(
        range(board_top, board_bottom, rows)
    )
    header = heights[: tops.index(board_top)]
    footer = heights[tops.index(board_bottom) :]
    assert len(header) > 1 and max(header) - min(header) <= 1
    assert len(footer) > 1 and max(footer) - min(footer) <= 1
