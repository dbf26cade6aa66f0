"""The colours of a board picture, overridable key by key."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

RGB = tuple[int, int, int]
"""A colour as red, green and blue from 0 to 255."""


@dataclass(frozen=True)
class Theme:
    """Every colour a picture uses, as `#rrggbb`; override any of them: `Theme(board="#e0c080")`.

    The default frame is a dark slate that stands apart from both Discord themes; the
    playing surface is light wood so that black and white stones both keep their contrast.
    Marks never rely on hue alone: each kind has its own shape (see `renderers.sprites`).
    """

    background: str = "#23262d"
    """The frame around the board and behind the header and footer."""
    panel: str = "#353a45"
    """The band behind the player to move."""
    text: str = "#f2f3f5"
    """Names and the status line."""
    muted: str = "#aab0bb"
    """Secondary text: colour names, clocks, the move line, hex coordinates."""
    board: str = "#dcb56c"
    """The wooden playing surface."""
    board_alt: str = "#d0a75c"
    """Alternate cells of square boards (a faint checker that helps count rows)."""
    line: str = "#3d2b13"
    """Grid lines, cell edges and the coordinates printed on the wood."""
    black: str = "#1c1c1e"
    """Black stones."""
    black_edge: str = "#000000"
    """The outline of black stones."""
    black_rim: str = "#8c8c8c"
    """A thin light rim outside black stones, so they stand out on dark tiles too."""
    black_text: str = "#f7f7f7"
    """Numbers printed on black stones."""
    white: str = "#f7f4ed"
    """White stones."""
    white_edge: str = "#262626"
    """The outline of white stones."""
    white_text: str = "#121212"
    """Numbers printed on white stones."""
    accent: str = "#ff5a1f"
    """The last move (a ring, a path) and stones it captured (a cross)."""
    earlier: str = "#2f6fd6"
    """Earlier moves of the same turn (thinner paths) in Diffusion Chess."""
    hint: str = "#1c7ed6"
    """Legal-move hints (dots) and the hinted stone (a square)."""
    highlight: str = "#ffc61a"
    """Sixes in Hexade, kings' crowns, the winner's star."""
    forbidden: str = "#d6336c"
    """Cells the player to move may not use (a struck-through circle, or hatching)."""
    black_tile: str = "#4a4036"
    """Tiles claimed by Black in Rekushu (with diagonal stripes)."""
    black_tile_pattern: str = "#6b5f52"
    """The stripes on Black's tiles."""
    white_tile: str = "#fbf6ea"
    """Tiles claimed by White in Rekushu (with dots)."""
    white_tile_pattern: str = "#cdbf9f"
    """The dots on White's tiles."""

    def __post_init__(self) -> None:
        for field in fields(self):
            parse_colour(getattr(self, field.name))

    def rgb(self, key: str) -> RGB:
        """The colour called `key` as an RGB triple."""
        value: str = getattr(self, key)
        return parse_colour(value)

    def colours(self) -> tuple[RGB, ...]:
        """Every colour of the theme, in field order, then the shades derived from them."""
        derived = [self.grid(), self.cell_edge(), self.board_mid()]
        for colour in ("black", "white"):
            shade, lit = self.stone_light(colour)
            derived += [blend(shade, lit, step / 6) for step in range(7)]
        return (*(self.rgb(field.name) for field in fields(self)), *derived)

    def grid(self) -> RGB:
        """The thin lines between cells of square boards."""
        return blend(self.rgb("board"), self.rgb("line"), 0.45)

    def cell_edge(self) -> RGB:
        """The sides of hexagonal cells."""
        return blend(self.rgb("board"), self.rgb("line"), 0.7)

    def board_mid(self) -> RGB:
        """The third shade of hexagonal cells, between `board` and `board_alt`."""
        return blend(self.rgb("board"), self.rgb("board_alt"), 0.5)

    def stone_light(self, colour: str) -> tuple[RGB, RGB]:
        """The darkest and the lightest shade of a `black` or `white` stone's face."""
        fill = self.rgb(colour)
        if colour == "black":
            return fill, blend(fill, (255, 255, 255), 0.16)
        return blend(fill, (0, 0, 0), 0.1), blend(fill, (255, 255, 255), 0.6)


@lru_cache(maxsize=512)
def parse_colour(value: str) -> RGB:
    """Parse `#rrggbb` (or `#rgb`) into an RGB triple; raise `ValueError` otherwise."""
    text = value.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    if len(text) != 6:
        raise ValueError(f"a colour is written #rrggbb, not {value!r}")
    try:
        number = int(text, 16)
    except ValueError:
        raise ValueError(f"a colour is written #rrggbb, not {value!r}") from None
    return number >> 16, (number >> 8) & 0xFF, number & 0xFF


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


DEFAULT_THEME = Theme()
"""The dark frame: reads well on Discord's dark and light themes alike."""

LIGHT_THEME = Theme(
    background="#eef0f3",
    panel="#d9dee6",
    text="#1b1d22",
    muted="#545b66",
)
"""A light frame, for light-themed servers that prefer it."""
