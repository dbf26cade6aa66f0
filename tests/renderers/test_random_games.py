"""Every game renders every position of several random games without error."""

from __future__ import annotations

import pytest

from renderers import BoardView, Hint, render, rendered_games
from renderers.samples import random_game

RANDOM_GAMES: dict[str, tuple[list[dict[str, object]], int, tuple[int, ...]]] = {
    "groups": ([{}, {"start": "drop"}], 60, (1, 2)),
    "stones": ([{"size": 5}, {"size": 7, "compensation": 0}], 120, (1, 2)),
    "rekushu": ([{"size": 8}], 120, (1, 2)),
    "hexade": ([{"size": 5}, {"size": 6}], 120, (1, 2)),
    "diffusion": ([{}], 40, (1,)),
}
"""Per game: option sets, the most moves per game and the seeds. Small boards keep the test
fast and let most games run to their end; Diffusion's 19×19 board is costly, so fewer moves."""


@pytest.mark.parametrize("name", rendered_games())
def test_every_position_of_random_games_renders(name: str) -> None:
    """Each position draws at one constant size, with and without a hint overlay."""
    option_sets, plies, seeds = RANDOM_GAMES[name]
    for options in option_sets:
        for seed in seeds:
            states = random_game(name, options, seed=seed, plies=plies)
            size = None
            for index, state in enumerate(states):
                view = BoardView(players=("Ada", "Grace"), hint=Hint() if index % 7 == 0 else None)
                image = render(state, view)
                size = size or image.size
                assert image.size == size
                assert max(image.size) <= 1024


def test_random_games_reach_the_end_of_most_games() -> None:
    """The small boards above do produce finished games, so final positions are drawn too."""
    finished = sum(
        random_game(name, options, seed=seed, plies=plies)[-1].is_game_over()
        for name in ("stones", "rekushu", "hexade")
        for options in RANDOM_GAMES[name][0]
        for plies in [RANDOM_GAMES[name][1]]
        for seed in RANDOM_GAMES[name][2]
    )
    assert finished >= 4
