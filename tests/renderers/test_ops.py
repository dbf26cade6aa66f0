"""The operations of many pictures against digests stored from the renderers before they were
made faster: building the operation list in a cheaper way must not change a single operation.

The digests live in `ops_digests.json` (and the descriptions' in `describe_digests.json`).
Run this module as a script to print the operations' digests again
(`python -m tests.renderers.test_ops > tests/renderers/ops_digests.json`, and with the word
`descriptions` for the descriptions'), but only from code whose pictures and descriptions are
known right: regenerating them after a change hides exactly what this test is for.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageFont

from renderers import describe, sprites
from renderers.base import renderer_for
from renderers.canvas import Canvas
from renderers.fonts import font
from renderers.games import diffusion as diffusion_board
from renderers.games.hexade import board_for as hexade_board
from renderers.sprites import Sprite
from renderers.text import _advances, text_extent, text_image
from renderers.theme import DEFAULT_THEME, Theme
from renderers.view import BoardView, Hint
from rules import GameState, get_game

DIGESTS = Path(__file__).with_name("ops_digests.json")
DESCRIPTIONS = Path(__file__).with_name("describe_digests.json")
"""Digests of the descriptions of the same pictures, also stored from the earlier renderers."""
GAMES: tuple[tuple[str, dict[str, object]], ...] = (
    ("diffusion", {}),
    ("groups", {}),
    ("groups", {"start": "drop"}),
    ("hexade", {}),
    ("hexade", {"size": 5}),
    ("rekushu", {}),
    ("rekushu", {"size": 8}),
    ("stones", {}),
    ("stones", {"size": 19}),
    ("stones", {"size": 5}),
)
PLIES = (0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144)
VIEWS: tuple[BoardView, ...] = (
    BoardView(),
    BoardView(players=("Ada Lovelace", "Tabula (medium)"), clocks=("2 days", None)),
    BoardView(
        players=("A name far too long to fit in the header row of the picture " * 2, "Bob"),
        clocks=("1 hour 3 minutes", "12 seconds"),
        theme=Theme(board="#e0c080"),
    ),
    BoardView(status="White resigned after a very long and tiring game " * 2, facts=False),
    BoardView(players=("Ünïcödé Ω", "ß"), move_line=False, hint=Hint()),
)


def _positions(game: str, options: dict[str, object]) -> Iterator[tuple[str, GameState[Any]]]:
    """States of one random game (the same at every run) at the plies of `PLIES`."""
    rng = random.Random(f"{game}{sorted(options.items())}")
    state: GameState[Any] = get_game(game).new_game(**options)
    for ply in range(PLIES[-1] + 1):
        if ply in PLIES:
            yield f"{game}{sorted(options.items())}@{ply}", state
        legal = list(state.legal_moves())
        if state.is_game_over() or not legal:
            yield f"{game}{sorted(options.items())}@end", state
            return
        state = state.play(rng.choice(legal))


def _hint_origin(state: GameState[Any]) -> str | None:
    """A cell holding a stone of the player to move, for a hint from it (None: no stone)."""
    renderer = renderer_for(state)
    own = renderer.narrow(state)
    for piece in renderer.pieces(own, state.to_move):
        return piece.split()[-1] if piece.startswith("stake") else piece.split()[0]
    return None


def cases() -> Iterator[tuple[str, GameState[Any], BoardView]]:
    """Every picture checked: each position in each view, and with a hint from a stone."""
    for game, options in GAMES:
        for name, state in _positions(game, options):
            for number, view in enumerate(VIEWS):
                yield f"{name}/{number}", state, view
            origin = _hint_origin(state)
            if origin is not None:
                yield f"{name}/hint", state, BoardView(hint=Hint(origin))


_SPRITES: dict[int, tuple[Any, ...]] = {}


def _canonical(value: Any) -> Any:
    """`value` as plain data that names what it draws, the same in every process."""
    if isinstance(value, Sprite):
        found = _SPRITES.get(id(value))
        if found is None:
            image = value.image
            pixels = hashlib.sha256(image.tobytes()).hexdigest()
            found = _SPRITES[id(value)] = ("sprite", image.mode, image.size, pixels)
        return found
    if isinstance(value, ImageFont.FreeTypeFont):
        return ("font", value.getname(), value.size, value.layout_engine)
    if isinstance(value, Image.Image):
        return ("image", value.mode, value.size, hashlib.sha256(value.tobytes()).hexdigest())
    if callable(value) and hasattr(value, "__qualname__"):
        return ("function", value.__module__, value.__qualname__)
    if dataclasses.is_dataclass(value):
        return repr(value)
    if isinstance(value, tuple | list):
        return tuple(_canonical(item) for item in value)
    return repr(value)


def ops_digest(canvas: Canvas) -> str:
    """A digest of the page key and every operation of `canvas`, in order."""
    data = repr((_canonical(canvas.page_key), canvas.board_rows, _canonical(canvas.ops)))
    return hashlib.sha256(data.encode()).hexdigest()


def digests() -> dict[str, str]:
    """The digest of every case."""
    return {
        name: ops_digest(renderer_for(state).canvas(state, view)) for name, state, view in cases()
    }


def description_digests() -> dict[str, str]:
    """The digest of every case's description."""
    return {
        name: hashlib.sha256(describe(state, view).encode()).hexdigest()
        for name, state, view in cases()
    }


def test_operations_are_those_of_the_stored_digests() -> None:
    """Every picture has exactly the operations the renderers made before."""
    stored = json.loads(DIGESTS.read_text())
    found = digests()
    assert found.keys() == stored.keys()
    changed = [name for name, digest in found.items() if stored[name] != digest]
    assert not changed, f"{len(changed)} of {len(found)} pictures changed: {changed[:10]}"


def test_descriptions_are_those_of_the_stored_digests() -> None:
    """Every picture's description is the one the renderers gave before."""
    stored = json.loads(DESCRIPTIONS.read_text())
    found = description_digests()
    assert found.keys() == stored.keys()
    changed = [name for name, digest in found.items() if stored[name] != digest]
    assert not changed, f"{len(changed)} of {len(found)} descriptions changed: {changed[:10]}"


@pytest.mark.parametrize("game", sorted({game for game, _ in GAMES}))
def test_repeated_pictures_have_the_same_operations(game: str) -> None:
    """Drawing a state again (with whatever it cached the first time) gives the same ops."""
    for name, state, view in cases():
        if name.startswith(game):
            renderer = renderer_for(state)
            first = ops_digest(renderer.canvas(state, view))
            assert ops_digest(renderer.canvas(state, view)) == first, name


def test_a_caption_is_computed_once_for_the_picture_and_its_description(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The picture and the description of one state share its caption."""
    state = get_game("diffusion").new_game()
    renderer = renderer_for(state)
    calls: list[object] = []
    original = type(renderer).caption

    def counted(self: Any, of: Any) -> Any:
        calls.append(of)
        return original(self, of)

    monkeypatch.setattr(type(renderer), "caption", counted)
    renderer.canvas(state, BoardView())
    describe(state)
    assert calls == [state]
    following = state.play(next(iter(state.legal_moves())))
    describe(following)
    assert calls == [state, following]


def test_remembered_pastes_are_the_pastes_of_the_canvas() -> None:
    """`paste_on` records what `Canvas.paste` records, also for sprites reaching off the page."""
    layout = hexade_board(5)
    sprite = sprites.stone(DEFAULT_THEME, "black", 200)
    for coord in ((0, 0), (4, 4), (8, 8), (0, -3), (0, 30)):
        for _ in range(2):
            remembered, direct = layout.canvas(DEFAULT_THEME), layout.canvas(DEFAULT_THEME)
            layout.paste_on(remembered, sprite, coord)
            direct.paste(sprite, layout.centre(coord))
            assert remembered.ops == direct.ops, coord
    assert (sprite, (0, 30)) in layout._pastes  # off the page: remembered as nothing


def test_links_are_the_bars_between_equal_neighbours() -> None:
    """Each bar `draw_links` takes from its table is the one drawn for that pair of stones."""
    board = diffusion_board.BOARD
    rng = random.Random(3)
    stones = {
        (col, row): rng.choice(("black", "white"))
        for col in range(board.columns)
        for row in range(board.rows)
        if rng.random() < 0.6
    }
    canvas, expected = board.canvas(DEFAULT_THEME), board.canvas(DEFAULT_THEME)
    board.draw_links(canvas, DEFAULT_THEME, stones, width=0.3)
    for (col, row), colour in stones.items():
        for direction, neighbour in enumerate(((col + 1, row), (col, row + 1))):
            if stones.get(neighbour) == colour:
                board._draw_link(
                    expected, DEFAULT_THEME, colour, (col, row), direction=direction, width=0.3
                )
    assert len(canvas.ops) > 50
    assert canvas.ops == expected.ops


@pytest.mark.parametrize("bold", [False, True])
def test_lengths_from_advances_are_those_of_pillow(bold: bool) -> None:
    """Widths summed from remembered advances and kerning equal Pillow's, to the last bit."""
    rng = random.Random(bold)
    alphabet = [chr(code) for code in range(32, 127)] + list("·×…éüßΩ—’ـ\u0301😀\t")
    for size in (17, 18, 20, 21, 24):
        face = font(size, bold=bold)
        for _ in range(400):
            line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 70)))
            quick = _advances(face).length(line)
            if quick is not None:
                assert quick == face.getlength(line), line
            else:
                assert not line.isascii() or "\t" in line
    assert _advances(font(20, shaping=True)).length("abc") is None


@pytest.mark.parametrize("anchor", ["la", "lm", "rm", "mm", "ls"])
def test_text_extents_are_the_boxes_of_the_drawn_texts(anchor: str) -> None:
    """A line measured without drawing covers the box of the line drawn, for every line."""
    lines = [
        "",
        " ",
        "g",
        "Ada (Black) to move",
        "turns 3/32  ·  ×",
        "שלום Ada",
        "مرحبا",
        "é\u0301",
    ]
    for face in (font(17), font(24, bold=True)):
        for line in lines:
            drawn = text_image(face, line, anchor)
            box = (drawn.left, drawn.top, drawn.left + drawn.mask.width)
            assert text_extent(face, line, anchor) == (*box, drawn.top + drawn.mask.height)


if __name__ == "__main__":
    import sys

    found = description_digests() if sys.argv[1:] == ["descriptions"] else digests()
    print(json.dumps(found, indent=1, sort_keys=True))
