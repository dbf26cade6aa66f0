"""One golden picture per game, compared with a small tolerance.

To accept new pictures after an intended change, regenerate them and look at them:
`TABULA_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/renderers/test_golden.py`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from renderers import BoardView, render_png, rendered_games
from rules import get_game
from tests.renderers.helpers import after

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("TABULA_REGENERATE_GOLDEN") == "1"
MEAN_TOLERANCE = 1.5
"""Largest mean difference per channel (fonts rasterise a little differently across builds)."""
PIXEL_TOLERANCE = 64
"""A pixel differing by more than this in some channel counts as changed."""
CHANGED_FRACTION = 0.003
"""The share of changed pixels allowed."""

VIEW = BoardView(players=("Ada", "Grace"), clocks=("2d 3h left", None))

POSITIONS: dict[str, tuple[dict[str, object], list[str]]] = {
    "groups": ({}, ["d3-e2", "d4-d3", "e4-c2", "c5-b4", "c4-c3"]),
    "hexade": ({}, ["j10", "a1", "e5", "j11", "k5", "j12", "j13"]),
    "rekushu": (
        {"size": 8},
        ["a1", "h8", "a3", "h7", "c1", "h6", "c3", "f3", "a5 a1-c3"],
    ),
    "stones": (
        {},
        # Stakes of both players in their trays, two in one row, two just captured.
        [
            "a1",
            "j9",
            "stake a2",
            "stake j8",
            "stake b1",
            "stake h9",
            "c5",
            "c6",
            "a9",
            "c4",
            "stake b5",
            "e5",
            "stake d5",
            "a2",
            "f3",
            "b1",
        ],
    ),
    "diffusion": ({}, ["k9-k10-l10", "j8-j9-j10-h10", "l8-l9-m9"]),
}
"""Per game: options and the moves leading to its golden position."""


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_picture_matches_its_golden_image(name: str, tmp_path: Path) -> None:
    """The picture of a fixed position is the stored one, up to anti-aliasing noise."""
    options, moves = POSITIONS[name]
    state = after(get_game(name), *moves, **options)
    data = render_png(state, VIEW)
    path = GOLDEN / f"{name}.png"
    if REGENERATE:
        path.write_bytes(data)
    actual = Image.open(io.BytesIO(data)).convert("RGB")
    expected = Image.open(path).convert("RGB")
    assert actual.size == expected.size
    difference = ImageChops.difference(actual, expected)
    red, green, blue = difference.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    changed = sum(worst.histogram()[PIXEL_TOLERANCE + 1 :])
    mean = max(ImageStat.Stat(difference).mean)
    if mean > MEAN_TOLERANCE or changed > CHANGED_FRACTION * actual.width * actual.height:
        (tmp_path / f"{name}-actual.png").write_bytes(data)
        pytest.fail(
            f"{name} differs from {path} (mean {mean:.2f}, {changed} pixels changed); "
            f"the new picture is {tmp_path / f'{name}-actual.png'}"
        )


def test_every_rendered_game_has_a_golden_position() -> None:
    """A new renderer comes with its golden picture."""
    assert set(rendered_games()) <= set(POSITIONS)
