"""The computer player finds immediate wins and forced replies in hand-made positions."""

from __future__ import annotations

import random

from bot.ai import Budget, Policy, Stopwatch, choose_move, find_winning_move, policy_for
from bot.ai.mcts import search
from bot.ai.tactics import Tactics
from rules.groups import GROUPS
from rules.hexade import HEXADE
from rules.rekushu import REKUSHU, Rectangle
from tests.ai.conftest import random_position

FAR_BLACK = ["h8", "h7", "h6", "g8", "g7", "e1"]


def test_groups_connecting_the_sixth_stone_wins_at_once() -> None:
    """White's c6 steps to b5 and joins the a-file: played at once, without a search."""
    state = GROUPS.position(["a1", "a2", "a3", "a4", "a5", "c6"], FAR_BLACK)
    decision = choose_move(state, Budget(iterations=50), seed=1)
    assert decision.notation == "c6-b5"
    assert decision.reason == "wins at once"
    assert decision.iterations == 0


def test_the_bare_search_finds_a_win_in_one_too() -> None:
    """Without the pre-check and without game knowledge, UCT still plays the winning move."""
    state = GROUPS.position(["a1", "a2", "a3", "a4", "a5", "c6"], FAR_BLACK)
    result = search(state, Policy(), Stopwatch(Budget(iterations=300)), random.Random(3))
    assert state.format_move(result.move) == "c6-b5"


def test_groups_blocks_a_connection_in_one() -> None:
    """Black threatens c6-b5; White has no win of its own and must occupy b5 first."""
    state = GROUPS.position(
        ["c4", "e8", "f8", "g8", "h8", "h6"], ["a1", "a2", "a3", "a4", "a5", "c6"]
    )
    assert find_winning_move(state, policy_for("groups")) is None
    decision = choose_move(state, Budget(iterations=800), seed=2)
    assert decision.move.target == state.parse_move("c4-b5").target


def test_hexade_breaks_the_opponents_six() -> None:
    """Black's row c5–h5 wins unless White captures out of it: d4 takes d5 and d6."""
    state = HEXADE.position(
        ["d7", "a10", "b10", "c10", "s19"],
        ["c5", "d5", "e5", "f5", "g5", "h5", "d6"],
        to_move=0,
        ply=20,
    )
    assert state.has_six(1) and state.outcome() is None
    decision = choose_move(state, Budget(iterations=100), seed=1)
    assert decision.notation == "d4"
    after = state.play(decision.move)
    assert after.outcome() is None and not after.has_six(1)


def test_hexade_makes_a_six_that_cannot_be_broken() -> None:
    """White completes its row with no Black stone near enough to capture out of it."""
    state = HEXADE.position(
        ["c5", "d5", "e5", "f5", "g5", "p16"],
        ["s19", "r19", "q19", "s18", "s17", "r17"],
        to_move=0,
        ply=20,
    )
    decision = choose_move(state, Budget(iterations=200), seed=1)
    after = state.play(decision.move)
    assert after.has_six(0)
    for reply in after.legal_moves():
        outcome = after.play(reply).outcome()
        assert outcome is not None and outcome.winner == 0


def test_hexade_never_claims_a_win_in_one() -> None:
    """Under the perfect-six rule the mover's own move never wins, so nothing is pre-checked."""
    assert list(policy_for("hexade").winning_candidates(HEXADE.new_game())) == []


def test_rekushu_claiming_the_last_tiles_wins_at_once() -> None:
    """Black completes a1-c3 with c3, claims the last free tiles, and White cannot place."""
    state = REKUSHU.position(
        size=8,
        black=["a1", "c1", "a3"],
        black_tiles=["c1-h8"],
        white_tiles=["a3-c8"],
    )
    decision = choose_move(state, Budget(iterations=50), seed=1)
    assert decision.notation == "c3 a1-c3"
    assert decision.reason == "wins at once"
    outcome = state.play(decision.move).outcome()
    assert outcome is not None and outcome.winner == 0


def test_rekushu_takes_the_larger_claim() -> None:
    """Two rectangles are ready; the player claims the 5×5 one, not the 1×1."""
    state = REKUSHU.position(
        size=12,
        black=["a1", "b1", "a2", "b2", "d4", "j4", "d9", "j9"],
        white=["l12", "m12", "l11"],
        to_move=0,
        ply=20,
    )
    decision = choose_move(state, Budget(iterations=60), seed=4)
    assert decision.move.claim == Rectangle(3, 3, 8, 8)


def test_stones_decisive_capture_wins_at_once() -> None:
    """Black's f6 takes the two White stones on e5 and f5: a lead of 2 reaches Black's 1."""
    from rules.stones import STONES

    state = STONES.position(
        ["d5", "g5", "e4", "f4", "e6", "a9"], ["e5", "f5", "j1"], prisoners=(0, 0)
    )
    decision = choose_move(state, Budget(iterations=50), seed=1)
    assert decision.notation == "f6"
    assert decision.reason == "wins at once"
    outcome = state.play(decision.move).outcome()
    assert outcome is not None and outcome.winner == 0


def test_stones_a_single_stone_capture_is_not_taken_for_a_win() -> None:
    """Taking one stone is never decisive, so nothing is played without a search."""
    from rules.stones import STONES

    state = STONES.position(["d5", "f5", "e4"], ["e5", "j1"], prisoners=(0, 0))
    assert find_winning_move(state, policy_for("stones")) is None


def test_diffusion_king_capture_wins_at_once() -> None:
    """White's c4 runs to d4 and takes the open Black king on e4 (its group is as large)."""
    from rules.diffusion import DIFFUSION

    state = DIFFUSION.position(["c3", "c4", "c5"], ["f4", "g4"], black_king="e4")
    decision = choose_move(state, Budget(iterations=50), seed=1)
    assert decision.notation == "c4-d4-e4"
    assert decision.reason == "wins at once"
    outcome = state.play(decision.move).outcome()
    assert outcome is not None and outcome.winner == 0


def test_hexade_second_white_stone_beside_the_edge_has_candidates() -> None:
    """White a9, Black b9: every cell near the stones is forbidden for White's second
    stone, so the player looks further away instead of finding nothing to play."""
    state = HEXADE.new_game().play_text("b9").play_text("a9")
    decision = choose_move(state, Budget(iterations=30), seed=1)
    assert decision.move in set(state.legal_moves())


def test_the_exact_search_stops_at_its_deadline_at_once() -> None:
    """A deadline that has passed stops the search at the next position it visits (one
    of Diffusion Chess's costs milliseconds), and a new search does not even start."""
    state = random_position("diffusion", 30, 2)
    policy = policy_for("diffusion")
    tactics: Tactics | None = None

    def passed() -> bool:
        assert tactics is not None
        return tactics.nodes >= 3

    tactics = Tactics(policy, 20_000, random.Random(1), passed)
    assert tactics.forced_win(state, state.to_move, 5) is None
    assert tactics.nodes == 3
    assert tactics.winning_move(state, 4) is None
    assert tactics.nodes == 3
