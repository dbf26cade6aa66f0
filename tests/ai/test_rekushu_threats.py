"""Rekushu's threats: what one stone cannot spoil, and how the player reads it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.ai.games import rekushu
from bot.ai.policy import policy_for
from rules.rekushu import REKUSHU, RekushuState


def _bit(name: str, size: int = 8) -> int:
    """The bit index of intersection `name` ("b2") on a board of `size`."""
    return (int(name[1:]) - 1) * size + "abcdefghjklmnopqrstu".index(name[0])


threat_lists = st.lists(st.tuples(st.integers(1, 30), st.integers(0, (1 << 12) - 1)), max_size=6)


@given(threat_lists)
def test_sure_gain_is_what_the_best_single_spoiler_leaves(threats: list[rekushu.Threat]) -> None:
    """sure_gain() equals trying every intersection (or none) as the opponent's one stone."""
    tried = [
        max((area for area, spoil in threats if not spoil >> c & 1), default=0) for c in range(13)
    ]
    assert rekushu.sure_gain(threats) == min(tried)


def test_sure_gain_of_lone_shared_and_double_threats() -> None:
    """A lone threat is spoiled, two sharing a spoiling cell are both spoiled, two apart
    leave the smaller, and one nothing can spoil is sure."""
    assert rekushu.sure_gain([]) == 0
    assert rekushu.sure_gain([(4, 0b1)]) == 0
    assert rekushu.sure_gain([(4, 0b11), (2, 0b10)]) == 0
    assert rekushu.sure_gain([(4, 0b01), (2, 0b10)]) == 2
    assert rekushu.sure_gain([(3, 0)]) == 3


def _around_b2(seat: str, centre: bool) -> RekushuState:
    """b1, a2, c2, b3 (and b2 when `centre`) for `seat`, the other player on h8, Black to move."""
    stones = ["b1", "a2", "c2", "b3"] + (["b2"] if centre else [])
    other = ["h8"]
    black, white = (stones, other) if seat == "black" else (other, stones)
    return REKUSHU.position(size=8, black=black, white=white, ply=6)


def test_a_double_threat_is_prepared_first() -> None:
    """b2 makes four unit squares three-cornered at once, each spoiled at another corner:
    it comes first among the placements that prepare a claim."""
    state = _around_b2("black", centre=False)
    placements = [y * 8 + x for x, y in state.legal_placements()]
    ranked = rekushu._preparing(state, rekushu._Board(state), state.black, placements)
    assert ranked[0] == _bit("b2")
    # a1 makes a single threat, which one stone on b2 spoils.
    assert _bit("a1") in ranked[1:]


def test_a_threat_only_the_banned_mirror_cell_spoils_is_sure() -> None:
    """With e4 and d5 placed, d4 threatens d4-e5 at e5: when White's last move was a
    half-turn mirror, e5 (d4's half-turn mirror) is banned to White, so d4 comes first,
    with e5 (the same, turned); without the ban, larger threats come first."""
    for kind in ("r", None):
        state = REKUSHU.position(
            size=8, black=["e4", "d5", "a7", "c8"], white=["h1"], mirror_types=(None, kind), ply=6
        )
        placements = [y * 8 + x for x, y in state.legal_placements()]
        ranked = rekushu._preparing(state, rekushu._Board(state), state.black, placements)
        assert (set(ranked[:2]) == {_bit("d4"), _bit("e5")}) is (kind == "r"), kind


def test_the_evaluation_fears_an_opponents_double_threat() -> None:
    """Black to move, nothing to claim: White's four threats around b2 (one stone spoils
    only one) are worse for Black than White's lone threat, which Black spoils."""
    policy = policy_for("rekushu")
    double = _around_b2("white", centre=True)
    lone = REKUSHU.position(size=8, black=["h8"], white=["b1", "a2", "b2"], ply=6)
    assert policy.evaluate(double) < policy.evaluate(lone)
    # Black's own claim on the board counts for Black, as before.
    claim = REKUSHU.position(size=8, black=["b1", "a2", "b2"], white=["h8"], ply=6)
    assert policy.evaluate(claim) > policy.evaluate(lone)
