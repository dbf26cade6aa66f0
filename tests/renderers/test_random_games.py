"""Every game renders every position of several random games without error."""

from __future__ import annotations

import pytest

from renderers import BoardView, Hint, render, rendered_games
from renderers.samples import random_game

RANDOM_OPTIONS: dict[str, list[dict[str, object]]] = {
    "groups": [{}, {"start": "drop"}],
    "stones": [{"size": 5}, {"size": 7, "compensation": 0}],
    "rekushu": [{"size": 8}],
    "hexade": [{"size": 5}, {"size": 6}],
    "diffusion": [{}],
}
"""Small boards keep the test fast; each option set is played with two seeds."""
PLIES = 80
SEEDS = (1, 2)


@pytest.mark.parametrize("name", rendered_games())
def test_every_position_of_random_games_renders(name: str) -> None:
    """Each position draws at one constant size, with and without a hint overlay."""
    for options in RANDOM_OPTIONS[name]:
        for seed in SEEDS:
            states = random_game(name, options, seed=seed, plies=PLIES)
            size = None
            for index, state in enumerate(states):
                view = BoardView(players=("Ada", "Grace"), hint=Hint() if index % 5 == 0 else None)
                image = render(state, view)
                size = size or image.size
                assert image.size == size
                assert max(image.size) <= 1024
