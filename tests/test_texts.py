"""The words both front ends show."""

from __future__ import annotations

from bot.texts.games import game_title, options_text, rules_text
from rules import get_game, list_games


def test_options_text_hides_defaults_that_follow_other_options() -> None:
    """Stones' threshold follows the size: only a threshold set by hand is shown."""
    stones = get_game("stones")
    assert options_text(stones, stones.validate_options({"size": 13})) == "size 13"
    chosen = stones.validate_options({"size": 13, "threshold": 9})
    assert options_text(stones, chosen) == "size 13, threshold 9"
    assert options_text(stones, stones.validate_options({})) == ""
    assert game_title(stones, chosen) == "Stones (size 13, threshold 9)"


def test_rules_text_for_every_game() -> None:
    """/rules shows each game's colours, summary, notation and every option."""
    for game in list_games():
        text = rules_text(game)
        assert text.startswith(f"**{game.title}**: {game.colours[0]} moves first")
        assert game.summary in text
        for spec in game.option_specs:
            assert f"`{spec.name}`" in text
