"""The public API: render, render_png, render_replay, sizes, themes and errors."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any, cast

import pytest
from PIL import GifImagePlugin, Image, ImageChops, ImageStat

from renderers import (
    LIGHT_THEME,
    BoardView,
    Theme,
    UnknownRendererError,
    page,
    render,
    render_png,
    render_replay,
    rendered_games,
    replay_format,
)
from renderers.games import diffusion, groups, hexade, rekushu, stones
from renderers.samples import random_game
from renderers.sprites import number_size
from renderers.theme import DEFAULT_THEME
from rules import get_game

LARGEST_OPTIONS: dict[str, dict[str, object]] = {
    "groups": {},
    "stones": {"size": 19},
    "rekushu": {"size": 20},
    "hexade": {"size": 12},
    "diffusion": {},
}
"""The largest board of each game."""


def test_every_registered_game_is_in_the_size_table() -> None:
    """The size checks below cover every game that has a renderer."""
    assert set(rendered_games()) <= set(LARGEST_OPTIONS)


@pytest.mark.parametrize("name", rendered_games())
def test_largest_board_fits_the_size_limits(name: str) -> None:
    """A busy position of the largest board: ≤ 1024 px, an RGB image, a PNG ≤ 150 KB."""
    plies = 50 if name == "diffusion" else 120  # Diffusion's random play is slow
    state = random_game(name, LARGEST_OPTIONS[name], seed=2, plies=plies)[-1]
    view = BoardView(players=("Ada Lovelace", "Grace Hopper"), clocks=("1d", "2h"))
    image = render(state, view)
    assert image.mode == "RGB"
    assert max(image.size) <= 1024
    data = render_png(state, view)
    assert len(data) <= 150 * 1024
    with Image.open(io.BytesIO(data)) as decoded:
        assert decoded.format == "PNG"
        assert decoded.size == image.size
        difference = ImageChops.difference(decoded.convert("RGB"), image)
    assert max(ImageStat.Stat(difference).mean) < 2.0, "the palette distorts the picture"


def test_unknown_game_raises_unknown_renderer_error() -> None:
    """A game without a renderer is a LookupError naming the game."""
    state = cast(Any, SimpleNamespace(game=SimpleNamespace(name="nosuch", title="No Such Game")))
    with pytest.raises(UnknownRendererError, match="No Such Game"):
        render(state)
    assert issubclass(UnknownRendererError, LookupError)


def test_background_is_opaque_and_follows_the_theme() -> None:
    """The frame colour fills the corners; the light theme changes it."""
    state = get_game("groups").new_game()
    assert render(state).getpixel((2, 2)) == DEFAULT_THEME.rgb("background")
    light = render(state, BoardView(theme=LIGHT_THEME))
    assert light.getpixel((2, 2)) == LIGHT_THEME.rgb("background")


def test_theme_overrides_one_colour_at_a_time() -> None:
    """Theme(board=...) changes the board and keeps every other default."""
    theme = Theme(board="#102030")
    assert theme.rgb("board") == (16, 32, 48)
    assert theme.white == DEFAULT_THEME.white
    with pytest.raises(ValueError, match="#rrggbb"):
        Theme(accent="orange")


def test_replay_is_an_animated_gif_of_every_position() -> None:
    """One frame per position, the chosen frame time, the last frame held, exact final picture."""
    states = random_game("groups", seed=4, plies=12)
    view = BoardView(players=("Ada", "Grace"), status="Grace resigned")
    data = render_replay(states, view, frame_ms=400)
    assert replay_format() == "gif"
    with Image.open(io.BytesIO(data)) as replay:
        assert isinstance(replay, GifImagePlugin.GifImageFile)
        assert replay.n_frames == len(states)
        assert replay.info["loop"] == 0
        durations = []
        for index in range(replay.n_frames):
            replay.seek(index)
            durations.append(replay.info["duration"])
        last = replay.convert("RGB")
    assert durations[:-1] == [400] * (len(states) - 1)
    assert durations[-1] >= 2000
    expected = Image.open(io.BytesIO(render_png(states[-1], view))).convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(last, expected)).mean) < 0.5


def test_replay_rejects_mixed_games_and_empty_input() -> None:
    """All positions must share one game and options; there must be at least one."""
    groups = get_game("groups")
    with pytest.raises(ValueError, match="one game"):
        render_replay([groups.new_game(), groups.new_game(start="drop")])
    with pytest.raises(ValueError, match="at least one"):
        render_replay([])


def test_smallest_text_is_at_least_14_pixels() -> None:
    """Coordinates, header, footer and the numbers on Diffusion's stones: all ≥ 14 px fonts."""
    layouts = [
        diffusion.BOARD,
        groups.BOARD,
        hexade.board_for(12),
        hexade.board_for(5),
        rekushu.board_for(20),
        stones.board_for(19),
        stones.board_for(5),
    ]
    assert min(layout.label_size for layout in layouts) >= 14
    assert min(page.NAME_SIZE, page.FACT_SIZE, page.SUB_SIZE, page.SMALL_SIZE) >= 14
    assert number_size(diffusion.BOARD.stone_diameter(), "41") >= 14


def test_replay_frames_stay_within_the_size_budget() -> None:
    """40 moves of Groups take at most 40/300 of the 8 MB allowed for a 300-move game."""
    states = random_game("groups", seed=6, plies=40)
    assert len(states) == 41
    data = render_replay(states, BoardView(players=("Ada", "Grace")))
    assert len(data) <= 8 * 1024 * 1024 * 40 / 300


def test_rendering_in_threads_draws_the_same_pictures() -> None:
    """The bot renders through asyncio.to_thread: shared caches must not mix pictures up."""
    states = random_game("hexade", {"size": 6}, seed=3, plies=30)[::3]
    states += random_game("groups", seed=3, plies=30)[::3]
    view = BoardView(players=("Ada", "Grace"))
    alone = [render(state, view).tobytes() for state in states]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda state: render(state, view).tobytes(), states * 2))
    assert together == alone * 2
