"""The game registry and option validation."""

from __future__ import annotations

import pytest

from rules import InvalidOptionError, Option, UnknownGameError, get_game, list_games


def test_lookup_ignores_case_spaces_and_hyphens() -> None:
    """Names and aliases are found however they are written."""
    assert get_game("GROUPS") is get_game("groups")
    assert get_game(" Group ") is get_game("groups")


def test_unknown_game_names_the_games() -> None:
    """An unknown name is rejected with the list of games."""
    with pytest.raises(UnknownGameError, match="groups"):
        get_game("checkers")


def test_list_games_is_sorted_and_unique() -> None:
    """`list_games()` lists every game once, by name."""
    names = [game.name for game in list_games()]
    assert names == sorted(set(names))


def test_unknown_option_is_named() -> None:
    """An option the game does not have is rejected, listing the real ones."""
    with pytest.raises(InvalidOptionError, match=r"no option 'size'.*start"):
        get_game("groups").new_game(size=9)


def test_bad_choice_lists_allowed_values() -> None:
    """A value outside the choices names the allowed values."""
    with pytest.raises(InvalidOptionError, match="start must be one of standard, drop"):
        get_game("groups").new_game(start="random")


@pytest.mark.parametrize(("value", "expected"), [(9, 9), ("13", 13), (" 5 ", 5), (19, 19)])
def test_integer_option_accepts_ints_and_digit_strings(value: object, expected: int) -> None:
    """Integer options take ints or their text, within the range."""
    assert Option("size", 9, "board size", minimum=5, maximum=19).validate(value) == expected


@pytest.mark.parametrize("value", [4, 20, "x", 9.5, True, None])
def test_integer_option_rejects_out_of_range_and_non_integers(value: object) -> None:
    """Values outside the range or of the wrong type are refused with the range."""
    with pytest.raises(InvalidOptionError, match="an integer from 5 to 19"):
        Option("size", 9, "board size", minimum=5, maximum=19).validate(value)


def test_choice_option_is_case_insensitive() -> None:
    """String choices are matched without regard to case."""
    assert Option("start", "standard", "", choices=("standard", "drop")).validate("DROP") == "drop"
