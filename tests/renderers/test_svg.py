"""The board as SVG: the cells and pieces contract, sizes, the shared geometry with the PNG."""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renderers import locate
from renderers.base import renderer_for
from renderers.samples import finished_game, random_game
from renderers.svg import board_svg, style_sheets, svg_games
from rules import GameError, GameState, get_game
from rules.diffusion import DiffusionState

SVG = "{http://www.w3.org/2000/svg}"

SMALLEST_AND_LARGEST: list[tuple[str, dict[str, object]]] = [
    ("diffusion", {}),
    ("groups", {}),
    ("hexade", {"size": 5}),
    ("hexade", {"size": 12}),
    ("rekushu", {"size": 8}),
    ("rekushu", {"size": 20}),
    ("stones", {"size": 5}),
    ("stones", {"size": 19}),
]
LARGEST = [
    ("diffusion", {}),
    ("groups", {}),
    ("hexade", {"size": 12}),
    ("rekushu", {"size": 20}),
    ("stones", {"size": 19}),
]
SIZE_LIMIT = 30 * 1024
"""The most bytes of a board as sent compressed (gzip), the web pages' budget."""
RAW_LIMIT = 30 * 1024
"""The most bytes of a board uncompressed."""


def cells_of(svg: str) -> dict[str, ET.Element]:
    """Every element with `data-cell`, by its value (each value once)."""
    root = ET.fromstring(svg)
    found: dict[str, ET.Element] = {}
    for element in root.iter():
        name = element.get("data-cell")
        if name is not None:
            assert name not in found, f"{name} twice"
            found[name] = element
    return found


def stones_of(state: GameState[Any], seat: int) -> list[tuple[int, int]]:
    """The cells of `seat`'s stones (every game's state has `stones(seat)`)."""
    return list(getattr(state, "stones")(seat))  # noqa: B009


def expected_pieces(state: GameState[Any]) -> dict[str, str]:
    """What `data-piece` each occupied cell must show."""
    renderer = renderer_for(state)
    colours = (
        ("white", "black")
        if state.game.name in {"diffusion", "groups", "hexade"}
        else ("black", "white")
    )
    return {
        renderer.cell_name(state, cell): colours[seat]
        for seat in (0, 1)
        for cell in stones_of(state, seat)
    }


def densest(states: list[GameState[Any]]) -> GameState[Any]:
    """The position with the most stones."""
    return max(states, key=lambda s: sum(len(stones_of(s, seat)) for seat in (0, 1)))


def test_every_game_is_drawn() -> None:
    """The five games all have an SVG board."""
    assert svg_games() == ["diffusion", "groups", "hexade", "rekushu", "stones"]


@pytest.mark.parametrize(("name", "options"), SMALLEST_AND_LARGEST)
def test_every_cell_is_one_element_and_pieces_match(name: str, options: dict[str, object]) -> None:
    """Each cell of the board has one `data-cell` element with a label; stones show in
    `data-piece`, empty cells have none; every legal target is a cell."""
    for state in random_game(name, options, seed=3, plies=120)[::7]:
        svg = board_svg(state)
        cells = cells_of(svg)
        renderer = renderer_for(state)
        layout = renderer.layout(state)
        assert set(cells) == {renderer.cell_name(state, c) for c in layout.coords()}
        pieces = expected_pieces(state)
        shown = {name: e.get("data-piece") for name, e in cells.items() if e.get("data-piece")}
        assert shown == pieces
        for cell, element in cells.items():
            label = element.get("aria-label") or ""
            first = label.split(",")[0]  # the cell and its piece: "k10 black"
            assert first.split(" ")[0] == cell
            if cell in pieces:
                assert first.split(" ")[1] == pieces[cell]
            else:
                assert first == cell
        targets = {renderer.cell_name(state, c) for c in renderer.hint_targets(state, None)}
        assert targets <= set(cells)


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(SMALLEST_AND_LARGEST),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 300),
)
def test_random_positions_show_the_state(
    game: tuple[str, dict[str, object]], seed: int, plies: int
) -> None:
    """In random positions of every game, `data-piece` is exactly the state's stones."""
    name, options = game
    state = random_game(name, options, seed=seed, plies=plies)[-1]
    cells = cells_of(board_svg(state))
    shown = {name: e.get("data-piece") for name, e in cells.items() if e.get("data-piece")}
    assert shown == expected_pieces(state)


def geometry(svg: str) -> dict[str, tuple[float, float, float]]:
    """Each cell's centre and radius as a browser draws it: the style sheet's `cx` of its
    column and `r` (a stone's if it holds one), moved by its row's `translate`."""
    root = ET.fromstring(svg)
    scope = (root.get("class") or "").split()[1]
    sheet = root.findtext(f"{SVG}style") or ""
    rules = dict(re.findall(rf"\.{scope} (\[data-[a-z]+(?:\^=[a-z]+)?\])\{{([^}}]*)\}}", sheet))
    radius = float(re.findall(r"r:([\d.]+)px", rules["[data-cell]"])[0])
    stone = float(re.findall(r"r:([\d.]+)px", rules["[data-piece]"])[0])
    found: dict[str, tuple[float, float, float]] = {}
    for row in root.iter(f"{SVG}g"):
        moved = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", row.get("transform") or "")
        for element in row:
            cell = element.get("data-cell")
            if cell is None:
                continue
            assert moved, f"{cell} is not in a row"
            assert element.get("cx") is None and element.get("cy") is None
            column = rules[f"[data-cell^={cell.rstrip('0123456789')}]"]
            x = float(moved[1]) + float(re.findall(r"cx:([-\d.]+)px", column)[0])
            found[cell] = (x, float(moved[2]), stone if element.get("data-piece") else radius)
    return found


def test_a_cell_sits_where_the_picture_puts_it() -> None:
    """One geometry: a cell's centre in the SVG is its centre in the PNG picture; a stone
    is the picture's stone, an empty cell takes clicks up to half way to its neighbours."""
    for name, options in SMALLEST_AND_LARGEST:
        state = random_game(name, options, seed=5, plies=30)[-1]
        svg = board_svg(state)
        layout = renderer_for(state).layout(state)
        cells = cells_of(svg)
        centres = geometry(svg)
        assert set(centres) == set(cells)
        for cell, (x, y, r) in centres.items():
            assert (x, y) == (
                pytest.approx(locate(state, cell)[0], abs=0.05),
                pytest.approx(locate(state, cell)[1], abs=0.05),
            )
            stone = cells[cell].get("data-piece") is not None
            assert r == (layout.stone_diameter() / 2 if stone else layout.pitch / 2)


MARKERS = frozenset({"highlight", "king", "stake"})
"""Classes that name what an element is, for tools, and need no style."""


@pytest.mark.parametrize(("name", "options"), SMALLEST_AND_LARGEST)
def test_every_class_drawn_has_its_style(name: str, options: dict[str, object]) -> None:
    """A board's style sheet keeps only its game's rules: every class it draws has one."""
    for state in random_game(name, options, seed=6, plies=200)[::11]:
        renderer = renderer_for(state)
        first = [renderer.cell_name(state, c) for c in list(renderer.layout(state).coords())[:2]]
        svg = board_svg(state, highlights=first)
        sheet = svg[svg.index("<style>") : svg.index("</style>")]
        styled = set(re.findall(r"\.([a-z][a-z0-9-]*)", sheet))
        drawn = {c for found in re.findall(r'class="([^"]*)"', svg) for c in found.split()}
        assert drawn - styled <= MARKERS, drawn - styled - MARKERS


def test_every_style_sheet_is_known() -> None:
    """Every board's style sheet is one of `style_sheets()` (the pages' security policy
    allows exactly those), whatever the size and position."""
    known = set(style_sheets())
    more: list[tuple[str, dict[str, object]]] = [("stones", {"size": 12}), ("rekushu", {})]
    for name, options in SMALLEST_AND_LARGEST + more:
        for state in random_game(name, options, seed=4, plies=40)[::13]:
            svg = board_svg(state)
            assert svg[svg.index("<style>") : svg.index("</style>") + 8] in known


def test_diffusion_stones_carry_their_size_and_the_king() -> None:
    """A Diffusion Chess stone has `data-size`, its frozen group size; kings the class king."""
    state = get_game("diffusion").new_game()
    assert isinstance(state, DiffusionState)
    cells = cells_of(board_svg(state))
    for seat in (0, 1):
        for cell in state.stones(seat):
            element = cells[renderer_for(state).cell_name(state, cell)]
            assert element.get("data-size") == str(state.frozen_size(*cell))
        king = state.king(seat)
        assert king is not None
        classes = (cells[renderer_for(state).cell_name(state, king)].get("class") or "").split()
        assert "king" in classes


def test_a_completed_diffusion_turn_is_shown_whole() -> None:
    """As in the picture: after a turn, its earlier paths are drawn thin and every stone it
    moved is marked and labelled as moved last turn."""
    state = get_game("diffusion").new_game()
    for move in ("k9-k10-l10", "j8-j9-j10-h10", "l8-l9-m9", "m7-m8-n8"):
        state = state.play_text(move)
    svg = board_svg(state)
    assert svg.count('class="path earlier"') == 3 and svg.count('class="moved"') == 4
    cells = cells_of(svg)
    for moved in ("l10", "h10", "m9", "n8"):
        assert "moved last turn" in (cells[moved].get("aria-label") or ""), moved


def test_stakes_are_data_on_their_liberty() -> None:
    """A Stones stake shows as `data-stake` on the point of its liberty."""
    game = get_game("stones")
    state = game.new_game(size=9)
    for text in ("a1", "j9", "stake a2", "stake j8", "stake b1"):
        state = state.play_text(text)
    cells = cells_of(board_svg(state))
    staked = {name: e.get("data-stake") for name, e in cells.items() if e.get("data-stake")}
    assert staked == {"a2": "black", "b1": "black", "j8": "white"}
    assert cells["a2"].get("aria-label") == "a2, black stake"


def test_highlights_mark_cells_and_reject_others() -> None:
    """Highlighted cells get the class `highlight`; a cell off the board is refused."""
    state = get_game("groups").new_game()
    cells = cells_of(board_svg(state, highlights=["d4", "e5"]))
    marked = {n for n, e in cells.items() if "highlight" in (e.get("class") or "").split()}
    assert marked == {"d4", "e5"}
    with pytest.raises(GameError):
        board_svg(state, highlights=["z99"])


@pytest.mark.parametrize(("name", "options"), SMALLEST_AND_LARGEST)
def test_markup_is_self_contained_and_scalable(name: str, options: dict[str, object]) -> None:
    """A `viewBox`, no fixed width or height, no script, no external reference or font."""
    state = random_game(name, options, seed=2, plies=60)[-1]
    svg = board_svg(state)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    assert root.get("width") is None and root.get("height") is None
    assert "<script" not in svg and "@import" not in svg and "@font-face" not in svg
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert " on" not in svg.replace("opacity", "")  # no event handler attributes


@pytest.mark.parametrize(("name", "options"), LARGEST)
def test_the_largest_boards_full_of_stones_stay_small(
    name: str, options: dict[str, object]
) -> None:
    """The densest position of a whole random game on the largest board stays within budget."""
    states: list[GameState[Any]] = []
    for seed in range(2):
        states += finished_game(name, options, seed=seed, plies=3000)
    svg = board_svg(densest(states)).encode()
    assert len(gzip.compress(svg)) <= SIZE_LIMIT
    assert len(svg) <= RAW_LIMIT
