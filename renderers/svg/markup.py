"""SVG markup in as few bytes as will do: numbers, escaping, the style sheet of a board."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape

from renderers.sprites import Point
from renderers.theme import DEFAULT_THEME, Theme

ROOT_CLASS = "tabula-board"
"""The class of every board's `<svg>` element; the style sheet applies under it only (an SVG
put inline into a web page shares that page's styles)."""

VARIABLES: tuple[tuple[str, str], ...] = (
    ("board", "board"),
    ("board-alt", "board_alt"),
    ("board-mid", "board_mid"),
    ("cell-edge", "cell_edge"),
    ("line", "line"),
    ("black", "black"),
    ("black-edge", "black_edge"),
    ("black-text", "black_text"),
    ("white", "white"),
    ("white-edge", "white_edge"),
    ("white-text", "white_text"),
    ("accent", "accent"),
    ("earlier", "earlier"),
    ("hint", "hint"),
    ("highlight", "highlight"),
    ("forbidden", "forbidden"),
    ("black-tile", "black_tile"),
    ("black-tile-pattern", "black_tile_pattern"),
    ("white-tile", "white_tile"),
    ("white-tile-pattern", "white_tile_pattern"),
)
"""The CSS custom properties a page may set (`--tabula-board: #e8c87a`), with the `Theme`
field (or method) that gives each its default."""


def num(value: float) -> str:
    """`value` with at most one decimal, without a trailing `.0`."""
    rounded = round(value, 1)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.1f}"


def points(path: Sequence[Point]) -> str:
    """A polyline as path data: `M x y`, then each point relative to the one before it
    (`h`/`v` along an axis, `l` otherwise), every coordinate to one decimal."""
    (x0, y0), *rest = [(round(x, 1), round(y, 1)) for x, y in path]
    text = f"M{num(x0)} {num(y0)}"
    for x, y in rest:
        dx, dy = round(x - x0, 1), round(y - y0, 1)
        if dy == 0:
            text += f"h{num(dx)}"
        elif dx == 0:
            text += f"v{num(dy)}"
        else:
            text += f"l{num(dx)}{signed(dy)}"
        x0, y0 = x, y
    return text


def signed(value: float) -> str:
    """A number following another in path data: a minus sign separates them by itself."""
    text = num(value)
    return text if text.startswith("-") else " " + text


def attrs(**values: str | float | None) -> str:
    """Attributes in the order given (`data_cell` is written `data-cell`); None leaves one out."""
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        text = num(value) if isinstance(value, float | int) else escape(value, quote=True)
        parts.append(f' {name.rstrip("_").replace("_", "-")}="{text}"')
    return "".join(parts)


def rect(kind: str, x: float, y: float, width: float, height: float, *, more: str = "") -> str:
    """A rectangle of class `kind`; `more`: further attributes as markup."""
    return f'<rect class="{kind}"{attrs(x=x, y=y, width=width, height=height)}{more}/>'


def var(name: str, theme: Theme) -> str:
    """`var(--tabula-NAME, default)` for one of `VARIABLES`."""
    value = getattr(theme, dict(VARIABLES)[name])
    if callable(value):
        value = "#{:02x}{:02x}{:02x}".format(*value())
    if len(value) == 7 and value[1::2] == value[2::2]:  # #rrggbb with equal pairs: #rgb
        value = "#" + value[1::2]
    return f"var(--tabula-{name},{value})"


RULES: tuple[tuple[str, str], ...] = (
    (".wood", "fill:{board}"),
    (".alt", "fill:{board-alt}"),
    (".mid", "fill:{board-mid}"),
    (".cells path", "stroke:{cell-edge}"),
    (".grid", "stroke:{line};fill:none"),
    (".ink", "fill:{line}"),
    (".rim", "stroke:{line}"),
    (
        ".coords, .n",
        "font-family:sans-serif;font-weight:bold;text-anchor:middle;dominant-baseline:central;"
        "pointer-events:none;user-select:none",
    ),
    (".coords", "fill:{line}"),
    ("[data-cell]", "fill:#0000"),
    (".black", "fill:{black};stroke:{black-edge}"),
    (".white", "fill:{white};stroke:{white-edge}"),
    (".n.b", "fill:{black-text}"),
    (".n.w", "fill:{white-text}"),
    (".last", "fill:none;stroke:{accent}"),
    (".earlier", "fill:none;stroke:{earlier}"),
    (".taken", "fill:none;stroke:{accent};stroke-linecap:round"),
    (".path", "fill:none;stroke-linecap:round;stroke-linejoin:round"),
    (".dot.last", "fill:{accent}"),
    (".dot.earlier", "fill:{earlier}"),
    (".moved", "fill:{earlier};stroke:{white};stroke-width:1.5"),
    (".link", "fill:none"),
    (".link.white", "stroke:{white}"),
    (".link.black", "stroke:{black}"),
    (".hl", "fill:{hint};stroke:{white};stroke-width:2"),
    (".six", "fill:none;stroke:{highlight};stroke-linecap:round"),
    (".crown", "fill:{highlight};stroke:{line};stroke-width:1.5"),
    (".forbid", "fill:none;stroke:{forbidden}"),
    (".tb", "fill:{black-tile}"),
    (".tbp", "fill:{black-tile-pattern}"),
    (".tw", "fill:{white-tile}"),
    (".twp", "fill:{white-tile-pattern}"),
    (".mark", "pointer-events:none;user-select:none"),
)
"""The style sheet's rules: selectors under the board (", " between several) and their
declarations, `{name}` standing for `var(name, theme)`. A rule whose selector starts with
classes is kept only for boards that use them all (each selector's first word)."""

_PIECES = {".black": "[data-piece=black]", ".white": "[data-piece=white]"}
_VAR = re.compile(r"\{([a-z-]+)\}")


def style(
    theme: Theme = DEFAULT_THEME, classes: Iterable[str] = (), extra: Iterable[str] = ()
) -> str:
    """The style sheet of a board that uses `classes`: the rules of `RULES` it needs, every
    colour a custom property with the theme's default, then the `extra` rules as given."""
    wanted = set(classes)
    r = f".{ROOT_CLASS} "
    rules: list[tuple[str, str]] = []
    for selector, declarations in RULES:
        parts = [part for part in selector.split(", ") if _needed(part, wanted)]
        if not parts:
            continue
        if selector in _PIECES:  # a cell holding a stone is painted as the stone
            parts.append(_PIECES[selector])
        css = ",".join(r + part for part in parts)
        body = _VAR.sub(lambda m: var(m.group(1), theme), declarations)
        if rules and rules[-1][0] == css:  # what another selector shared, this one alone
            body = rules.pop()[1] + ";" + body
        rules.append((css, body))
    return (
        "<style>" + "".join(f"{css}{{{body}}}" for css, body in rules) + "".join(extra) + "</style>"
    )


def _needed(selector: str, classes: set[str]) -> bool:
    """Whether a board using `classes` needs the rule of `selector` (by its first word)."""
    first = selector.split(" ", maxsplit=1)[0]
    return not first.startswith(".") or set(first[1:].split(".")) <= classes
