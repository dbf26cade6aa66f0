"""Boards as SVG for web pages, drawn from the same layouts as the pictures.

`board_svg(state)` draws the board of any game state as an SVG string whose coordinates
are the picture's own pixels (the `viewBox` is the board block of the PNG page), so a
cell sits where `renderers.locate` says it sits in the picture. The markup is a contract
for the web page and for outside tools:

- every cell or point is one `<circle>` with `data-cell` naming it in the game's
  notation (`k10`) and an `aria-label` ("k10", "k10 white", "k10, black stake");
- a cell holding a stone also has `data-piece` (`white` or `black`), and draws the stone;
  a Diffusion Chess stone has `data-size` (its frozen group size, the number printed on
  it) and a king the class `king`; a Stones liberty with a stake has `data-stake`
  (`black`, `white` or `black white`);
- a cell's circle is placed by the style sheet and its row: the sheet gives the radius of
  a cell and of a stone and the `cx` of each column (under the board's class
  `t-<game><size>`), the row's `<g transform="translate(…)">` its y;
- colours are CSS custom properties with the default theme's colours as fallbacks
  (`--tabula-board`, `--tabula-white`, …, see `markup.VARIABLES`), so a page can theme it;
  no script, no external font, no fixed size.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from renderers.base import renderer_for
from renderers.svg.board import CellGrid, Drawing, layout_classes, static_board, view_box
from renderers.svg.games import CLASSES, PAINTERS, painter_for
from renderers.svg.markup import ROOT_CLASS, VARIABLES, attrs, num, style
from renderers.theme import DEFAULT_THEME, Theme
from rules import GameError, GameState, get_game

__all__ = ["ROOT_CLASS", "VARIABLES", "board_svg", "style_sheets", "svg_games"]


def svg_games() -> list[str]:
    """The `rules` names of the games `board_svg` draws, sorted."""
    return sorted(PAINTERS)


def board_svg(
    state: GameState[Any],
    *,
    last_move: bool = True,
    highlights: Iterable[str] = (),
    labels: bool = True,
    theme: Theme | None = None,
) -> str:
    """The board of `state` as an SVG document (a string), scaled by its `viewBox`.

    `last_move`: mark the last move as the picture does (ring, path, captures).
    `highlights`: cells (in the game's notation) to mark with a dot and the class
    `highlight`, such as legal targets. `labels`: print the coordinates around the board.
    `theme`: the colours used where the page sets no custom property.
    Raises `UnknownRendererError` for a game without a picture and `rules.GameError` for a
    highlighted cell that is not on the board.
    """
    theme = theme or DEFAULT_THEME
    renderer = renderer_for(state)
    own = renderer.narrow(state)
    layout = renderer.layout(own)
    drawing: Drawing = painter_for(own)(own, layout, last_move)
    marked = {renderer.parse_cell(own, cell) for cell in highlights}
    grid = _grid(own)
    stone_radius = layout.stone_diameter() / 2
    numbers: dict[str, list[str]] = {"b": [], "w": []}
    marks: list[str] = []
    rows: list[str] = []
    for shift, y, coords in grid.rows():
        cells: list[str] = []
        for coord in coords:
            cell = grid.names[coord]
            x = shift + grid.columns[grid.column(cell)]
            piece = drawing.pieces.get(coord)
            words = [cell]  # the cell and its piece are one phrase: "k10 black"
            classes: list[str] = []
            data: dict[str, str | None] = {"data_cell": cell}
            if piece is not None:
                words[0] += f" {piece.colour}" + (f" {piece.kind}" if piece.kind != "stone" else "")
                data["data_piece"] = piece.colour
                if piece.size is not None:
                    data["data_size"] = str(piece.size)
                    words.append(f"size {piece.size}")
                    ink = "b" if piece.colour == "black" else "w"
                    numbers[ink].append(f"<text{attrs(x=x, y=y)}>{piece.size}</text>")
                if piece.kind == "king":
                    classes.append("king")
                    marks.append(_crown(x, y - stone_radius, layout.pitch * 0.6))
            for key, value in drawing.data.get(coord, {}).items():
                data[f"data_{key}"] = value
            words += drawing.words.get(coord, [])
            if coord in marked:
                classes.append("highlight")
                words.append("highlighted")
                radius = max(8.0, layout.pitch * 0.18)
                marks.append(f'<circle class="hl"{attrs(cx=x, cy=y, r=radius)}/>')
            kind = f' class="{" ".join(classes)}"' if classes else ""
            cells.append(f'<circle{kind}{attrs(**data)} aria-label="{", ".join(words)}"/>')
        rows.append(f'<g transform="translate({num(shift)} {num(y)})">{"".join(cells)}</g>')
    size = num(stone_radius * 1.05)
    over = "".join(
        f'<g class="n {ink}" font-size="{size}">{"".join(texts)}</g>'
        for ink, texts in numbers.items()
        if texts
    )
    wood, lines = static_board(layout, labels=labels, scope=grid.scope)
    defs = f"<defs>{''.join(drawing.defs)}</defs>" if drawing.defs else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{ROOT_CLASS} {grid.scope}"'
        f' viewBox="{view_box(layout)}" data-game="{state.game.name}">'
        + _style_sheet(own, grid, theme)
        + defs
        + wood
        + "".join(drawing.floor)
        + lines
        + "".join(drawing.under)
        + "".join(rows)
        + '<g class="mark">'
        + over
        + "".join(marks)
        + "".join(drawing.over)
        + "</g></svg>"
    )


def style_sheets(theme: Theme | None = None) -> list[str]:
    """Every `<style>` element `board_svg` may write with `theme`: one per game and board
    size (a page's security policy can allow them by their hashes)."""
    sheets: list[str] = []
    for name in svg_games():
        game = get_game(name)
        sizes: list[int | None] = [None]
        if any(option.name == "size" for option in game.option_specs):
            option = game.option("size")
            if option.choices:
                sizes = [int(value) for value in option.choices]
            elif option.minimum is not None and option.maximum is not None:
                sizes = list(range(option.minimum, option.maximum + 1))
        for size in sizes:
            try:
                state = game.new_game() if size is None else game.new_game(size=size)
            except GameError:
                continue
            own = renderer_for(state).narrow(state)
            sheets.append(_style_sheet(own, _grid(own), theme or DEFAULT_THEME))
    return sheets


def _grid(state: GameState[Any]) -> CellGrid:
    renderer = renderer_for(state)
    layout = renderer.layout(state)
    names = {coord: renderer.cell_name(state, coord) for coord in layout.coords()}
    return CellGrid(layout, names, f"t-{state.game.name}{state.options.get('size', '')}")


def _style_sheet(state: GameState[Any], grid: CellGrid, theme: Theme) -> str:
    """The style sheet of a board: the rules its game and layout use, then where its cells
    are: the radius of a cell and of a stone, the x of each column (`cx`; a row's `<g>`
    moves its cells to their y)."""
    layout = grid.layout
    scope = grid.scope
    geometry = [
        f".{scope} [data-cell]{{r:{num(layout.pitch / 2)}px}}",
        f".{scope} [data-piece]{{r:{num(layout.stone_diameter() / 2)}px;stroke-width:2}}",
        *(f".{scope} [data-cell^={column}]{{cx:{num(x)}px}}" for column, x in grid.columns.items()),
    ]
    return style(theme, CLASSES[state.game.name] | layout_classes(layout), geometry)


def _crown(x: float, y: float, width: float) -> str:
    h = width / 2
    t = width * 0.45
    d = (
        f"M{num(x - h)} {num(y + t / 2)}L{num(x - h)} {num(y - t / 2)}L{num(x - h / 2)} {num(y)}"
        f"L{num(x)} {num(y - t / 2)}L{num(x + h / 2)} {num(y)}L{num(x + h)} {num(y - t / 2)}"
        f"L{num(x + h)} {num(y + t / 2)}z"
    )
    return f'<path class="crown" d="{d}"/>'
