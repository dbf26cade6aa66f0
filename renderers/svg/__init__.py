"""Boards as SVG for web pages, drawn from the same layouts as the pictures.

`board_svg(state)` draws the board of any game state as an SVG string whose coordinates
are the picture's own pixels (the `viewBox` is the board block of the PNG page), so a
cell sits where `renderers.locate` says it sits in the picture. The markup is a contract
for the web page and for outside tools:

- every cell or point is one element with class `cell`, `data-cell` naming it in the
  game's notation (`k10`) and an `aria-label` ("k10", "k10, white stone");
- a cell holding a stone also has `data-piece` (`white` or `black`) and the classes
  `stone` and its colour; a Diffusion Chess stone has `data-size` (its frozen group
  size, the number printed on it) and a king the class `king`; a Stones liberty with a
  stake has `data-stake` (`black`, `white` or `black white`);
- colours are CSS custom properties with the default theme's colours as fallbacks
  (`--tabula-board`, `--tabula-white`, …, see `markup.VARIABLES`), so a page can theme it;
  no script, no external font, no fixed size.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from renderers.base import renderer_for
from renderers.svg.board import Drawing, Piece, static_board, view_box
from renderers.svg.games import PAINTERS, painter_for
from renderers.svg.markup import ROOT_CLASS, VARIABLES, attrs, num, style
from renderers.theme import DEFAULT_THEME, Theme
from rules import GameState

__all__ = ["ROOT_CLASS", "VARIABLES", "board_svg", "svg_games"]


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
    name = renderer.cell_name
    stone_radius = layout.stone_diameter() / 2
    hit_radius = layout.pitch / 2
    cells: list[str] = []
    over: list[str] = []
    for coord in layout.coords():
        x, y = layout.centre(coord)
        cell = name(own, coord)
        piece = drawing.pieces.get(coord)
        words = [cell]
        classes = "cell"
        data: dict[str, str | None] = {"data_cell": cell}
        if piece is not None:
            words.append(f"{piece.colour} {piece.kind}")
            classes += f" stone {piece.colour}" + (" king" if piece.kind == "king" else "")
            data["data_piece"] = piece.colour
            if piece.size is not None:
                data["data_size"] = str(piece.size)
                words.append(f"size {piece.size}")
                over.append(_number(x, y, piece, stone_radius))
            if piece.kind == "king":
                over.append(_crown(x, y - stone_radius, layout.pitch * 0.6))
        for key, value in drawing.data.get(coord, {}).items():
            data[f"data_{key}"] = value
        words += drawing.words.get(coord, [])
        if coord in marked:
            classes += " highlight"
            words.append("highlighted")
            over.append(f'<circle class="hl"{attrs(cx=x, cy=y, r=max(8.0, layout.pitch * 0.18))}/>')
        radius = stone_radius if piece is not None else hit_radius
        cells.append(
            f'<circle class="{classes}"{attrs(**data)} aria-label="{", ".join(words)}"'
            f"{attrs(cx=x, cy=y, r=radius)}/>"
        )
    extra = [
        f".{ROOT_CLASS} .mid{{fill:var(--tabula-board-mid,{_hex(theme.board_mid())})}}",
        f".{ROOT_CLASS} pattern path{{stroke:var(--tabula-cell-edge,{_hex(theme.cell_edge())})}}",
        f".{ROOT_CLASS} .rim{{stroke:var(--tabula-line,{theme.line})}}",
        f".{ROOT_CLASS} .link{{fill:none}}",
        f".{ROOT_CLASS} .link.white{{stroke:var(--tabula-white,{theme.white})}}",
        f".{ROOT_CLASS} .link.black{{stroke:var(--tabula-black,{theme.black})}}",
        f".{ROOT_CLASS} .dot.last{{fill:var(--tabula-accent,{theme.accent})}}",
        f".{ROOT_CLASS} .dot.earlier{{fill:var(--tabula-earlier,{theme.earlier})}}",
        f".{ROOT_CLASS} .moved{{fill:var(--tabula-earlier,{theme.earlier});"
        f"stroke:var(--tabula-white,{theme.white});stroke-width:1.5}}",
        f".{ROOT_CLASS} .tb{{fill:var(--tabula-black-tile,{theme.black_tile})}}",
        f".{ROOT_CLASS} .tbp{{fill:var(--tabula-black-tile-pattern,{theme.black_tile_pattern})}}",
        f".{ROOT_CLASS} .tw{{fill:var(--tabula-white-tile,{theme.white_tile})}}",
        f".{ROOT_CLASS} .twp{{fill:var(--tabula-white-tile-pattern,{theme.white_tile_pattern})}}",
    ]
    wood, lines = static_board(layout, labels=labels)
    defs = f"<defs>{''.join(drawing.defs)}</defs>" if drawing.defs else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{ROOT_CLASS}" viewBox="{view_box(layout)}"'
        f' data-game="{state.game.name}">'
        + style(theme, extra)
        + defs
        + wood
        + "".join(drawing.floor)
        + lines
        + "".join(drawing.under)
        + "<g>"
        + "".join(cells)
        + "</g>"
        + '<g class="mark">'
        + "".join(over)
        + "".join(drawing.over)
        + "</g></svg>"
    )


def _number(x: float, y: float, piece: Piece, radius: float) -> str:
    ink = "b" if piece.colour == "black" else "w"
    size = radius * 1.05
    return f'<text class="n {ink}"{attrs(x=x, y=y, font_size=size)}>{piece.size}</text>'


def _crown(x: float, y: float, width: float) -> str:
    h = width / 2
    t = width * 0.45
    d = (
        f"M{num(x - h)} {num(y + t / 2)}L{num(x - h)} {num(y - t / 2)}L{num(x - h / 2)} {num(y)}"
        f"L{num(x)} {num(y - t / 2)}L{num(x + h / 2)} {num(y)}L{num(x + h)} {num(y - t / 2)}"
        f"L{num(x + h)} {num(y + t / 2)}z"
    )
    return f'<path class="crown" d="{d}"/>'


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)
