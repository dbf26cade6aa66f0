"""SVG markup in as few bytes as will do: numbers, escaping, the style sheet of a board."""

from __future__ import annotations

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
field that gives each its default."""


def num(value: float) -> str:
    """`value` with at most one decimal, without a trailing `.0`."""
    rounded = round(value, 1)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.1f}"


def points(path: Sequence[Point]) -> str:
    """A polyline as path data: `M x y L x y …`."""
    first, *rest = path
    text = f"M{num(first[0])} {num(first[1])}"
    for x, y in rest:
        text += f"L{num(x)} {num(y)}"
    return text


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
    field = dict(VARIABLES)[name]
    return f"var(--tabula-{name},{getattr(theme, field)})"


def style(theme: Theme = DEFAULT_THEME, extra: Iterable[str] = ()) -> str:
    """The style sheet of a board: every colour a custom property with the theme's default."""
    r = f".{ROOT_CLASS} "
    rules = [
        f"{r}.wood{{fill:{var('board', theme)}}}",
        f"{r}.alt{{fill:{var('board-alt', theme)}}}",
        f"{r}.grid{{stroke:{var('line', theme)};fill:none}}",
        f"{r}.ink{{fill:{var('line', theme)}}}",
        f"{r}.coords{{fill:{var('line', theme)};font-family:sans-serif;font-weight:bold;"
        "text-anchor:middle;dominant-baseline:central}",
        f"{r}text{{pointer-events:none;user-select:none}}",
        f"{r}.cell{{fill:transparent;stroke:none}}",
        f"{r}.cell:focus{{outline:none;stroke:{var('hint', theme)};stroke-width:4}}",
        f"{r}.black{{fill:{var('black', theme)};stroke:{var('black-edge', theme)}}}",
        f"{r}.white{{fill:{var('white', theme)};stroke:{var('white-edge', theme)}}}",
        f"{r}.stone{{stroke-width:2}}",
        f"{r}.n{{font-family:sans-serif;font-weight:bold;text-anchor:middle;"
        "dominant-baseline:central}",
        f"{r}.n.b{{fill:{var('black-text', theme)}}}",
        f"{r}.n.w{{fill:{var('white-text', theme)}}}",
        f"{r}.last{{fill:none;stroke:{var('accent', theme)}}}",
        f"{r}.earlier{{fill:none;stroke:{var('earlier', theme)}}}",
        f"{r}.taken{{fill:none;stroke:{var('accent', theme)};stroke-linecap:round}}",
        f"{r}.path{{fill:none;stroke-linecap:round;stroke-linejoin:round}}",
        f"{r}.hl{{fill:{var('hint', theme)};stroke:{var('white', theme)};stroke-width:2;"
        "pointer-events:none}",
        f"{r}.six{{fill:none;stroke:{var('highlight', theme)};stroke-linecap:round}}",
        f"{r}.crown{{fill:{var('highlight', theme)};stroke:{var('line', theme)};"
        "stroke-width:1.5;pointer-events:none}",
        f"{r}.forbid{{fill:none;stroke:{var('forbidden', theme)}}}",
        f"{r}.mark{{pointer-events:none}}",
        *extra,
    ]
    return "<style>" + "".join(rules) + "</style>"
