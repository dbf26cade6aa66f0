"""Stroked paths drawn band by band: exactly the pixels of the former whole-box drawing."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from renderers.sprites import Point, stroke_box, stroke_masks, strokes_on
from renderers.theme import RGB

Dots = list[tuple[Point, float]]
COLOUR = (200, 100, 50)
EDGE = (10, 20, 30)


def reference(
    image: Image.Image,
    lines: list[list[Point]],
    colour: RGB,
    width: float,
    *,
    edge: RGB | None,
    dots: Dots,
    box: tuple[int, int, int, int],
    dy: int = 0,
) -> None:
    """The former algorithm: the whole box drawn 3x supersampled with ImageDraw, reduced and
    pasted whole."""
    left, top, right, bottom = box
    scale = 3

    def at(point: Point) -> Point:
        return (point[0] - left) * scale, (point[1] - top) * scale

    layers = [(edge, 3.0), (colour, 0.0)] if edge is not None else [(colour, 0.0)]
    for ink, extra in layers:
        assert ink is not None
        mask = Image.new("L", ((right - left) * scale, (bottom - top) * scale))
        draw = ImageDraw.Draw(mask)
        thickness = (width + extra) * scale
        ends: list[tuple[Point, float]] = []
        for stroke in lines:
            scaled = [at(point) for point in stroke]
            if len(scaled) > 1:
                draw.line(scaled, fill=255, width=round(thickness), joint="curve")
            ends += [(point, thickness / 2) for point in scaled]
        ends += [(at(centre), (radius + extra / 2) * scale) for centre, radius in dots]
        for (x, y), r in ends:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
        image.paste(ink, (left, top - dy, right, bottom - dy), mask.reduce(scale))


def random_case(
    rng: random.Random,
) -> tuple[tuple[int, int], list[list[Point]], float, RGB | None, Dots]:
    """Polylines through cell centres (square or odd pitches) or anywhere, partly outside
    the picture, with repeated points, of many widths, with or without an edge and a dot."""
    size = rng.randint(40, 400), rng.randint(40, 500)
    lines: list[list[Point]] = []
    for _ in range(rng.randint(1, 3)):
        count = rng.randint(1, 10)
        if rng.random() < 0.5:
            cell = rng.choice([19, 24.5, 38, 41.25, 33.3])
            columns, rows = max(1, int(size[0] // cell)), max(1, int(size[1] // cell))
            points = [
                (rng.randint(0, columns) * cell + cell / 2, rng.randint(0, rows) * cell + cell / 2)
                for _ in range(count)
            ]
        else:
            points = [
                (rng.uniform(-10, size[0] + 10), rng.uniform(-10, size[1] + 10))
                for _ in range(count)
            ]
        if count > 2 and rng.random() < 0.2:
            points.insert(1, points[1])
        lines.append(points)
    width = rng.choice([rng.uniform(0.2, 14), 0.1, 1.2, 3.0, 6.08, 3.8, 2.66])
    edge = rng.choice([None, EDGE])
    dots: Dots = []
    if rng.random() < 0.6:
        dots = [(lines[0][0], width * rng.choice([1.3, 1.4, 0.5]))]
    return size, lines, width, edge, dots


@pytest.mark.parametrize("seed", range(60))
def test_bands_and_the_whole_match_the_former_drawing(seed: int) -> None:
    """Whole and in bands of any height and offset, strokes have exactly the pixels of the
    whole box drawn with ImageDraw and pasted whole."""
    rng = random.Random(seed)
    size, lines, width, edge, dots = random_case(rng)
    box = stroke_box(lines, width, dots, size)
    if box is None:
        return
    page = Image.new("RGB", size, (240, 230, 220))
    expected = page.copy()
    reference(expected, lines, COLOUR, width, edge=edge, dots=dots, box=box)
    whole = page.copy()
    strokes_on(whole, lines, COLOUR, width, edge=edge, dots=dots)
    assert whole.tobytes() == expected.tobytes()
    # The first band draws the bands of its grid at once; the second grid's are drawn alone.
    for rows in rng.sample([1, 2, 5, 17, 32], 2):
        for top in range(-rng.randrange(rows), size[1], rows):
            crop = (0, max(0, top), size[0], min(size[1], top + rows))
            band = page.crop(crop)
            strokes_on(band, lines, COLOUR, width, edge=edge, dots=dots, box=box, dy=crop[1])
            assert band.tobytes() == expected.crop(crop).tobytes(), crop


def test_a_band_draws_only_near_its_rows() -> None:
    """A long winding path: a band's masks cover only its rows and the columns the path
    reaches there, not the whole box."""
    points = [(20.0 + 30 * (k % 2) + 15 * k, 20.0 + 40 * k) for k in range(12)]
    box = stroke_box([points], 6.0, [], (600, 600))
    assert box is not None
    masks = stroke_masks((tuple(points),), 6.0, True, (), box)
    for first in range(box[1], box[3] - 32, 32):
        # Bands on the grid of the first one, then bands drawn alone.
        for mask, x, y in masks.masks(first, first + 32, (box[1], 32)) + masks.masks(
            first + 5, first + 37, (first + 5, 32)
        ):
            assert mask is not None
            width, height = mask.size
            assert y in {first, first + 5}
            assert height == 32
            assert box[0] <= x
            assert x + width <= box[2]
            assert width < (box[2] - box[0]) / 2


def test_masks_of_a_band_are_kept() -> None:
    """Drawing the same band of unchanged strokes again reuses its masks, on the grid of
    the first band or not."""
    points = ((30.0, 30.0), (200.0, 150.0), (60.0, 300.0))
    box = stroke_box([points], 4.0, [], (300, 400))
    assert box is not None
    masks = stroke_masks((points,), 4.0, False, (), box)
    assert masks.masks(64, 96, (0, 32)) is masks.masks(64, 96, (0, 32))
    assert masks.masks(70, 102, (6, 32)) is masks.masks(70, 102, (6, 32))
