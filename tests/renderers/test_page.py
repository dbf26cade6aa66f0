"""Header and footer texts: names, status line, move line, fitting and unprintable characters."""

from __future__ import annotations

from renderers import BoardView
from renderers.base import renderer_for
from renderers.fonts import font, printable
from renderers.page import Caption, move_line, seat_name, status_line
from renderers.samples import random_game
from renderers.text import fit
from rules import get_game
from tests.renderers.helpers import texts

GROUPS = get_game("groups")


def test_status_says_whose_turn_it_is() -> None:
    """Colour names alone, or names with colours."""
    state = GROUPS.new_game()
    assert status_line(state, BoardView(), Caption()) == "White to move"
    named = BoardView(players=("Ada", "Grace"))
    assert status_line(state.play_text("d3-e2"), named, Caption()) == "Grace (Black) to move"


def test_status_reports_the_result_and_reason() -> None:
    """A finished game names the winner and the reason; a view's status replaces it."""
    moves = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
    state = GROUPS.new_game(start="drop")
    for move in moves:
        state = state.play_text(move)
    assert status_line(state, BoardView(), Caption()) == "White won: all six stones connected"
    resigned = BoardView(status="Black resigned")
    assert status_line(state, resigned, Caption()) == "Black resigned"
    computer = BoardView(players=("Tabula (medium)", "Grace"))
    assert status_line(state, computer, Caption()) == (
        "Tabula (medium, White) won: all six stones connected"
    )


def test_move_line_names_game_and_last_move() -> None:
    """The move line gives the title, the move count and the last move."""
    state = GROUPS.new_game()
    assert move_line(state, Caption()) == "Groups  ·  start of the game"
    assert move_line(state.play_text("d3-e2"), Caption(details=("8×8",))) == (
        "Groups  ·  8×8  ·  move 1: d3-e2"
    )


def test_names_keep_every_character() -> None:
    """Whitespace is tidied but no character is dropped; an empty name is the colour."""
    state = GROUPS.new_game()
    assert printable("Ada  中文\tLovelace ") == "Ada 中文 Lovelace"
    assert seat_name(state, BoardView(players=("中文", "Bob")), 0) == "中文"
    assert seat_name(state, BoardView(players=("  ", "Bob")), 0) == "White"


def test_fit_cuts_long_text_with_an_ellipsis() -> None:
    """Long text is cut to the width; short text is unchanged."""
    face = font(20)
    assert fit("Ada", face, 200) == "Ada"
    cut = fit("A rather long display name indeed", face, 120)
    assert cut.endswith("…") and face.getlength(cut) <= 120


def test_long_names_and_all_facts_fit_the_header() -> None:
    """A name of 28 characters and every fact (a Stones player's stakes too) are drawn whole
    on the smallest and the largest boards: the facts shrink or take two lines first."""
    name = "Alexandra Montgomery-Smithe"
    view = BoardView(players=(name, "Bo"), clocks=("2 d 3 h", None))
    stones = get_game("stones").new_game(size=5)
    for move in ("a1", "e5", "stake a2", "stake e4", "stake b1"):
        stones = stones.play_text(move)
    states = [stones] + [
        random_game(game, options, seed=3, plies=40)[-1]
        for game, options in (
            ("diffusion", {}),
            ("groups", {}),
            ("hexade", {"size": 5}),
            ("hexade", {"size": 12}),
            ("rekushu", {"size": 8}),
            ("rekushu", {"size": 20}),
            ("stones", {"size": 19}),
        )
    ]
    for state in states:
        lines = texts(state, view, part="header")
        assert name in lines, state.game.name
        caption = renderer_for(state).caption(state)
        header = " ".join(lines)
        for fact in caption.facts[0] + caption.facts[1]:
            assert fact in header, (state.game.name, fact)
        assert not any(line.endswith("…") for line in lines)
