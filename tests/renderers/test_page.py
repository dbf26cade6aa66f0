"""Header and footer texts: names, status line, move line, fitting and unprintable characters."""

from __future__ import annotations

from renderers import BoardView
from renderers.fonts import font, printable
from renderers.page import Caption, move_line, seat_name, status_line
from renderers.text import fit
from rules import get_game

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
