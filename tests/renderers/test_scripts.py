"""Names in any script: CJK, emoji, Arabic (right to left) and combining marks are drawn.

The fallback fonts are the small subsets of Noto Sans CJK and Noto Color Emoji in
`tests/renderers/fonts/` (with their licence), so these tests draw the same everywhere,
whatever fonts the machine has.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from renderers import BoardView, FallbackFont, describe, render, use_fallback_fonts
from renderers.fonts import font
from renderers.page import seat_name
from renderers.text import TextImage, raqm_available, runs, text_image, text_length
from rules import get_game
from tests.renderers.helpers import texts

FONTS = Path(__file__).parent / "fonts"
CJK = FallbackFont(str(FONTS / "NotoSansCJK-Subset.otf"))
EMOJI = FallbackFont(str(FONTS / "NotoColorEmoji-Subset.ttf"), bitmap_size=109)
NAME = font(24, bold=True)


@pytest.fixture(autouse=True)
def shipped_fonts() -> Iterator[None]:
    """Only the shipped subsets as fallbacks, for every test here; then the installed ones."""
    use_fallback_fonts([CJK, EMOJI])
    yield
    use_fallback_fonts(None)


def ink(drawn: TextImage) -> int:
    """How many pixels a drawn line covers (grey or colour)."""
    covered = sum(drawn.mask.histogram()[40:])
    if drawn.colour is not None:
        covered += sum(drawn.colour.getchannel("A").histogram()[40:])
    return covered


def reddish(image: Image.Image) -> int:
    """How many opaque, clearly red pixels `image` has (the die's pips)."""
    rgba = image.convert("RGBA")
    red, green, _, alpha = (channel.tobytes() for channel in rgba.split())
    return sum(1 for r, g, a in zip(red, green, alpha, strict=True) if a > 200 and r > 180 > g + 60)


def test_a_name_with_an_emoji_keeps_every_character() -> None:
    """ "Zoë 🎲 Ñandú": DejaVu draws the letters, Noto Color Emoji the die, in colour."""
    parts = runs(NAME, "Zoë 🎲 Ñandú")
    assert [(run.text, run.face.colour) for run in parts] == [
        ("Zoë ", False),
        ("🎲", True),
        (" Ñandú", False),
    ]
    drawn = text_image(NAME, "Zoë 🎲 Ñandú", "la")
    assert drawn.colour is not None
    assert reddish(drawn.colour) > 5  # the die's red pips: a colour glyph, not a grey box
    assert text_length(NAME, "Zoë 🎲 Ñandú") > text_length(NAME, "Zoë Ñandú") + 20


def test_cjk_names_are_drawn_not_replaced() -> None:
    """ "田中" is drawn by Noto Sans CJK and stays the player's name."""
    state = get_game("groups").new_game()
    view = BoardView(players=("田中", "Bob"))
    assert seat_name(state, view, 0) == "田中"
    (run,) = runs(NAME, "田中")
    assert run.face.font.getname()[0] == "Noto Sans CJK JP"
    assert ink(text_image(NAME, "田中", "la")) > 150
    assert describe(state, view).startswith("Groups, start of the game. 田中 (White) to move.")


def test_arabic_runs_right_to_left() -> None:
    """An Arabic name is one right-to-left run; a line that starts in Arabic puts its runs
    from right to left (the Latin part ends up on the left)."""
    parts = runs(NAME, "محمد Ada")
    assert [(run.text, run.rtl) for run in parts] == [("Ada", False), ("محمد ", True)]
    (run,) = runs(NAME, "علي")
    assert run.rtl and run.face.font.getname()[0] == "DejaVu Sans"


def basic_drawing(text: str) -> bytes:
    """`text` drawn by DejaVu alone with Pillow's basic layout, cropped to its ink."""
    canvas = Image.new("L", (400, 80))
    ImageDraw.Draw(canvas).text((10, 50), text, font=NAME, fill=255, anchor="ls")
    return canvas.crop(canvas.getbbox()).tobytes()


@pytest.mark.skipif(not raqm_available(), reason="this Pillow has no Raqm (libfribidi)")
def test_arabic_is_shaped_when_pillow_has_raqm() -> None:
    """With Raqm the letters take their joined forms: not the isolated letters in either
    order, and narrower than them."""
    drawn = text_image(NAME, "محمد", "la").mask.tobytes()
    assert drawn not in {basic_drawing("محمد"), basic_drawing("محمد"[::-1])}
    assert text_length(NAME, "محمد") < sum(NAME.getlength(letter) for letter in "محمد")


def test_arabic_without_raqm_is_put_in_reading_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Raqm (Pillow's basic layout draws left to right, unjoined) the letters are
    reversed, so that the word reads right to left; it is still drawn, never dropped."""
    monkeypatch.setattr("renderers.text.raqm_available", lambda: False)
    use_fallback_fonts([CJK, EMOJI])
    drawn = text_image(NAME, "علي", "la")
    assert drawn.mask.tobytes() == basic_drawing("علي"[::-1])
    assert text_length(NAME, "علي") == pytest.approx(sum(NAME.getlength(c) for c in "علي"))


def test_combining_marks_stay_on_their_letter() -> None:
    """A decomposed "é" (e + U+0301) is one run, drawn with its accent above the letter."""
    (run,) = runs(NAME, "Jose\u0301")
    assert run.text == "Jose\u0301"
    plain = text_image(NAME, "Jose", "la")
    accented = text_image(NAME, "Jose\u0301", "la")
    assert accented.top < plain.top  # the accent reaches above the letters
    assert text_length(NAME, "Jose\u0301") == pytest.approx(text_length(NAME, "Jose"))


def test_a_character_no_font_has_is_kept_as_a_box() -> None:
    """A glyph missing everywhere (Linear B) is drawn as DejaVu's box: the name stays."""
    state = get_game("groups").new_game()
    view = BoardView(players=("\U00010000", "Bob"))
    assert seat_name(state, view, 0) == "\U00010000"
    assert ink(text_image(NAME, "\U00010000", "la")) > 10


def test_the_whole_picture_draws_every_script() -> None:
    """Header and footer of a real picture carry CJK, emoji and Arabic names in full."""
    state = get_game("groups").new_game().play_text("d3-e2")
    view = BoardView(players=("Zoë 🎲 Ñandú", "田中 محمد"), status="田中 محمد resigned")
    picture = render(state, view)
    header = picture.crop((0, 0, picture.width, 122))
    assert reddish(header) > 5  # the die
    text = describe(state, view)
    assert "Zoë 🎲 Ñandú (White)" in text and "田中 محمد resigned." in text


def test_a_long_cjk_name_with_an_emoji_is_drawn_whole_beside_stakes() -> None:
    """On the smallest Stones board, with stakes on both sides (the widest facts), a
    19-character CJK name with an emoji shrinks but is not cut: the short facts share a
    line so the long one has its own."""
    name = "山田花子中山太郎あいうアイウ김민수한국🎲"
    state = get_game("stones").new_game(size=5)
    for move in ("a1", "e5", "stake a2", "stake e4", "stake b1", "d4", "b2"):
        state = state.play_text(move)
    view = BoardView(players=("Maximilian Alexander WorthingX", name), clocks=("2d 3h", "6d"))
    lines = texts(state, view, part="header")
    assert name in lines
    assert "prisoners 6   stakes 1" in lines
    assert not any(line.endswith("…") for line in lines)
