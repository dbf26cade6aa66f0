"""What every game's renderer shares: board layouts, the drawing sequence, the registry."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from functools import cached_property, lru_cache
from typing import Any, ClassVar, Generic, TypeVar, cast

from PIL import Image

from renderers import sprites
from renderers.canvas import Canvas, Op
from renderers.page import BOARD_TOP, WIDTH, Caption, blank_page, draw_footer, draw_header
from renderers.sprites import Point, Sprite
from renderers.theme import DEFAULT_THEME, Theme
from renderers.view import BoardView
from rules import GameState

Coord = tuple[int, int]
"""A cell or point in a game's own coordinates: (col, row) on square boards, (q, r) on hexes."""
_MAX_PASTES = 20_000
"""Past this many remembered pastes a layout forgets them all (a few megabytes at most)."""


class UnknownRendererError(LookupError):
    """The game has no renderer (yet)."""


class BoardLayout(ABC):
    """Where the cells of one board sit on the page; subclasses are frozen dataclasses."""

    height: int
    """The height of the board block (board and coordinates) on the page."""
    label_size: int
    """The font size of the coordinates."""

    @property
    @abstractmethod
    def pitch(self) -> int:
        """The distance between neighbouring cell centres, which sizes stones and marks."""

    def centre(self, coord: Coord) -> Point:
        """The pixel centre of a cell or point."""
        centres = self._centres
        found = centres.get(coord)
        if found is None:
            found = centres[coord] = self._centre(coord)
        return found

    @abstractmethod
    def _centre(self, coord: Coord) -> Point:
        """The pixel centre of a cell or point, computed (`centre` remembers it)."""

    @cached_property
    def _centres(self) -> dict[Coord, Point]:
        return {}

    @cached_property
    def _pastes(self) -> dict[tuple[Sprite, Coord], Op | None]:
        return {}

    def paste_on(self, canvas: Canvas, sprite: Sprite, coord: Coord) -> None:
        """Paste `sprite` centred on the cell or point `coord`, as `canvas.paste` does.

        The operation is remembered per sprite and cell: boards paste the same stones on
        the same cells at every move. (A layout's pages all have the same height.)
        """
        key = (sprite, coord)
        pastes = self._pastes
        op = pastes.get(key)
        if op is not None:
            canvas.ops.append(op)
        elif key not in pastes:  # else it lies off the page
            if len(pastes) >= _MAX_PASTES:
                pastes.clear()
            ops = canvas.ops
            count = len(ops)
            canvas.paste(sprite, self.centre(coord))
            pastes[key] = ops[-1] if len(ops) > count else None

    @abstractmethod
    def coords(self) -> tuple[Coord, ...]:
        """Every cell or point of the board."""

    @abstractmethod
    def labels(self) -> Iterable[tuple[str, Point]]:
        """Each coordinate label printed around the board, with the point it is centred on."""

    @property
    @abstractmethod
    def block(self) -> tuple[int, int, int, int]:
        """The box (left, top, right, bottom) of the board and its coordinates on the page."""

    @abstractmethod
    def draw_static(self, image: Image.Image, theme: Theme) -> None:
        """Draw the parts that never change: the board, its lines and coordinates."""

    @property
    def page_width(self) -> int:
        """The width of the page the board sits on."""
        return WIDTH

    def canvas(self, theme: Theme) -> Canvas:
        """An empty canvas over the page with the static board drawn (cached per theme)."""
        return Canvas(
            _static_page(self, theme), (self, theme), (BOARD_TOP, BOARD_TOP + self.height)
        )

    def stone_diameter(self) -> int:
        """The diameter of a stone."""
        return round(self.pitch * 0.84)

    def draw_stones(
        self, canvas: Canvas, theme: Theme, stones: Iterable[tuple[Coord, str]]
    ) -> None:
        """Paste a plain stone on each (cell, colour), colour being `black` or `white`."""
        diameter = self.stone_diameter()
        chosen: dict[str, Sprite] = {}
        for coord, colour in stones:
            sprite = chosen.get(colour)
            if sprite is None:
                sprite = chosen[colour] = sprites.stone(theme, colour, diameter)
            self.paste_on(canvas, sprite, coord)

    def mark_last(self, canvas: Canvas, theme: Theme, coord: Coord) -> None:
        """Ring the stone the last move placed or moved."""
        width = max(3.0, self.pitch * 0.08)
        mark = sprites.ring(theme.rgb("accent"), round(self.stone_diameter() * 0.5), width)
        self.paste_on(canvas, mark, coord)

    def mark_captured(self, canvas: Canvas, theme: Theme, coord: Coord, colour: str) -> None:
        """Mark where a stone taken by the last move stood: a faint stone struck by a cross."""
        diameter = self.stone_diameter()
        centre = self.centre(coord)
        canvas.paste(sprites.stone(theme, colour, diameter, alpha=90), centre)
        mark = sprites.cross(
            theme.rgb("accent"),
            theme.rgb("line"),
            round(diameter * 0.5),
            max(3.0, self.pitch * 0.08),
        )
        canvas.paste(mark, centre)

    def mark_forbidden(self, canvas: Canvas, theme: Theme, coord: Coord) -> None:
        """A struck-through circle on a cell the player to move may not use."""
        mark = sprites.no_entry(theme.rgb("forbidden"), theme.rgb("white"), round(self.pitch * 0.5))
        canvas.paste(mark, self.centre(coord))


@lru_cache(maxsize=24)  # a page is about 2.5 MB; a few sizes and two themes fit
def _static_page(layout: BoardLayout, theme: Theme) -> Image.Image:
    image = blank_page(theme, layout.height, layout.page_width)
    layout.draw_static(image, theme)
    return image


StateT = TypeVar("StateT", bound=GameState[Any])
ValueT = TypeVar("ValueT")


class StateMemo(Generic[ValueT]):
    """Values computed from the last few states, by identity (the engines' states are
    immutable): a picture and its description ask for the same things about one state."""

    __slots__ = ("_items", "_lock", "_size")

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._items: dict[int, tuple[object, ValueT]] = {}
        self._lock = threading.Lock()  # pictures are drawn in worker threads

    def get(self, state: object, compute: Callable[[], ValueT]) -> ValueT:
        """The value remembered for `state`, or `compute()` remembered."""
        items = self._items
        found = items.get(id(state))
        if found is not None and found[0] is state:
            return found[1]
        value = compute()
        with self._lock:
            while len(items) >= self._size:
                del items[next(iter(items))]
            items[id(state)] = (state, value)
        return value


class GameRenderer(ABC, Generic[StateT]):
    """Draws the states of one game: the template is `draw`, each game fills in the hooks."""

    game_name: ClassVar[str]
    """The `rules` name of the game drawn."""
    area_noun: ClassVar[str] = "areas"
    """What the description calls the areas `areas` names (Rekushu: tiles)."""
    state_type: ClassVar[type[GameState[Any]]]
    """The engine's state class."""

    def __init__(self) -> None:
        self._captions: StateMemo[Caption] = StateMemo()

    def narrow(self, state: GameState[Any]) -> StateT:
        """Return `state` as this game's state type, or raise `UnknownRendererError`."""
        if not isinstance(state, self.state_type):
            raise UnknownRendererError(f"{type(state).__name__} is not a {self.game_name} state")
        return cast(StateT, state)

    @abstractmethod
    def layout(self, state: StateT) -> BoardLayout:
        """The board layout for this state's options."""

    @abstractmethod
    def paint(self, canvas: Canvas, state: StateT, layout: BoardLayout, theme: Theme) -> Caption:
        """Draw the position (stones, last move, game-specific marks); return the caption."""

    @abstractmethod
    def caption(self, state: StateT) -> Caption:
        """The game-specific words around the board (facts per seat, a note, details)."""

    def cached_caption(self, state: StateT) -> Caption:
        """`caption(state)`, remembered for the last few states."""
        return self._captions.get(state, lambda: self.caption(state))

    @abstractmethod
    def parse_cell(self, state: StateT, text: str) -> Coord:
        """The coordinates of a cell named in the game's notation (raises `GameError`)."""

    @abstractmethod
    def cell_name(self, state: StateT, coord: Coord) -> str:
        """The name of a cell in the game's notation (`d4`)."""

    @abstractmethod
    def pieces(self, state: StateT, seat: int) -> list[str]:
        """What `seat` has on the board, one item per piece (`d4`, or `k9 king`), in order."""

    def areas(self, state: StateT, seat: int) -> list[str]:
        """What `seat` holds besides its pieces, each area named compactly (Rekushu's tiles as
        rectangles by opposite corners, `c3-f6`); empty for games without areas."""
        return []

    def crossed_out(self, state: StateT) -> str:
        """A sentence saying which stones the picture crosses out (those the last move took),
        or '' when it crosses out none."""
        return ""

    @abstractmethod
    def hint_targets(self, state: StateT, origin: Coord | None) -> Iterable[Coord]:
        """The legal destinations of the stone on `origin`, or every legal target cell."""

    def hint_paths(self, state: StateT, origin: Coord | None) -> Iterable[list[Coord]]:
        """Lines a hint draws under its dots: an echo's course, a rectangle one could claim."""
        return ()

    def canvas(self, state: GameState[Any], view: BoardView) -> Canvas:
        """The picture of `state` as drawing operations."""
        theme = view.theme or DEFAULT_THEME
        own = self.narrow(state)
        layout = self.layout(own)
        canvas = layout.canvas(theme)
        caption = self.paint(canvas, own, layout, theme)
        if view.hint is not None:
            self._paint_hint(canvas, own, layout, theme, view.hint.origin)
        draw_header(canvas, own, view, caption, theme)
        draw_footer(canvas, own, view, caption, theme)
        return canvas

    def draw(self, state: GameState[Any], view: BoardView) -> Image.Image:
        """The whole picture of `state`."""
        return self.canvas(state, view).image()

    def locate(self, state: GameState[Any], cell: str) -> Point:
        """The pixel centre of the cell named `cell` in the picture of `state`."""
        own = self.narrow(state)
        return self.layout(own).centre(self.parse_cell(own, cell))

    def _paint_hint(
        self,
        canvas: Canvas,
        state: StateT,
        layout: BoardLayout,
        theme: Theme,
        origin_text: str | None,
    ) -> None:
        origin = None if origin_text is None else self.parse_cell(state, origin_text)
        pitch = layout.pitch
        strokes = [[layout.centre(c) for c in path] for path in self.hint_paths(state, origin)]
        canvas.strokes(strokes, theme.rgb("hint"), max(3.0, pitch * 0.07))
        if origin is not None:
            mark = sprites.square(theme.rgb("hint"), round(pitch * 0.92), max(2.5, pitch * 0.08))
            canvas.paste(mark, layout.centre(origin))
        dot = sprites.dot(theme.rgb("hint"), theme.rgb("white"), max(16, round(pitch * 0.36)))
        for target in sorted(set(self.hint_targets(state, origin))):
            canvas.paste(dot, layout.centre(target))


_RENDERERS: dict[str, GameRenderer[Any]] = {}


def register(renderer: GameRenderer[Any]) -> GameRenderer[Any]:
    """Make `renderer` the one used for its game; return it."""
    _RENDERERS[renderer.game_name] = renderer
    return renderer


def renderer_for(state: GameState[Any]) -> GameRenderer[Any]:
    """The renderer of `state`'s game, or raise `UnknownRendererError`."""
    name = state.game.name
    renderer = _RENDERERS.get(name)
    if renderer is None:
        raise UnknownRendererError(f"there is no board picture for {state.game.title} yet")
    return renderer


def rendered_games() -> list[str]:
    """The names of the games that have a renderer, sorted."""
    return sorted(_RENDERERS)
