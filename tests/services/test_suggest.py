"""Autocomplete ranking of legal moves."""

from __future__ import annotations

from bot.services.suggest import _natural, rank_moves
from rules import get_game


def test_prefix_matches_come_first_and_are_limited() -> None:
    """Exact, then prefix, then a part's prefix (the destination), then anywhere."""
    state = get_game("groups").new_game()
    moves = state.legal_notations()
    ranked = rank_moves(state, moves, "d3-e2")
    assert ranked[0] == "d3-e2"
    assert rank_moves(state, moves, "zzz") == []
    by_destination = rank_moves(state, moves, "e2")
    assert by_destination and all(m.endswith("-e2") for m in by_destination)
    assert len(rank_moves(state, moves, "")) == 25
    assert len(rank_moves(state, moves, "", limit=5)) == 5


def test_separators_may_be_left_out() -> None:
    """`d3e2` (typed on a phone) finds d3-e2; case and spaces do not matter."""
    state = get_game("groups").new_game()
    moves = state.legal_notations()
    assert rank_moves(state, moves, "d3e2")[0] == "d3-e2"
    assert rank_moves(state, moves, " D3-E2 ")[0] == "d3-e2"


def test_near_the_last_move_first() -> None:
    """With nothing typed, drops next to the last drop come before distant ones."""
    state = get_game("groups").new_game(start="drop").play_text("c3")
    ranked = rank_moves(state, state.legal_notations(), "")
    assert set(ranked[:3]) == {"c4", "d3", "d4"}
    assert ranked.index("d4") < ranked.index("f6")


def test_natural_order_breaks_ties() -> None:
    """Candidates equal in every other respect are listed d9 before d10."""
    assert sorted(["d10", "d9", "c10"], key=_natural) == ["c10", "d9", "d10"]
