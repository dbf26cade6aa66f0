"""Autocomplete ranking of legal moves."""

from __future__ import annotations

from bot.services.games.suggest import _natural, rank_moves
from rules import get_game
from rules.diffusion import DIFFUSION


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


def test_captures_and_claims_come_first() -> None:
    """Stones: the capturing placement is offered before the others."""
    stones = get_game("stones").new_game(size=5)
    # Black surrounds the White stone on c3 from three sides; c4 captures it.
    for move in ("b3", "c3", "d3", "a1", "c2", "a5"):
        stones = stones.play_text(move)
    assert rank_moves(stones, stones.legal_notations(), "")[0] == "c4"
    rekushu = get_game("rekushu").new_game(size=8)
    for move in ("b2", "g7", "b4", "g6", "d2", "f7"):
        rekushu = rekushu.play_text(move)
    legal = rekushu.legal_notations()
    claims = [move for move in legal if " " in move]
    assert claims, "the position should offer a claim"
    ranked = rank_moves(rekushu, legal, "")
    assert all(" " in move for move in ranked[: min(len(claims), 25)])


def test_diffusion_captures_come_first() -> None:
    """Diffusion Chess: a path ending on an opponent's stone is offered first."""
    state = DIFFUSION.position(
        white=["d4", "d5", "d6"], black=["e6", "f6", "g6", "h6", "k10"], to_move=0
    )
    legal = state.legal_notations()
    captures = [m for m in legal if m.endswith("-e6")]
    assert captures
    ranked = rank_moves(state, legal, "")
    assert ranked[0] in captures


def test_long_moves_are_left_out_when_asked() -> None:
    """Moves longer than max_length (Discord's 100 characters) are never offered."""
    state = get_game("diffusion").new_game()
    legal = state.legal_notations()
    longest = max(len(m) for m in legal)
    ranked = rank_moves(state, legal, "f5", limit=5000, max_length=20)
    assert ranked and all(len(m) <= 20 for m in ranked)
    assert len(rank_moves(state, legal, "", limit=5000)) == len(legal)
    assert longest > 20
