"""The text description of a picture (its alt text): what it says, and never too long."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from renderers import MAX_DESCRIPTION, BoardView, describe
from renderers.base import renderer_for
from renderers.describe import fit_description
from renderers.samples import random_game
from rules import get_game
from rules.rekushu import REKUSHU, RekushuState
from rules.squares import format_point
from rules.stones import STONES
from tests.renderers.helpers import after

VIEW = BoardView(players=("Ada", "Grace"), clocks=("2d 3h left", None))


def test_a_groups_position_is_described_in_full() -> None:
    """Game, last move, whose turn, the counts per player, then every stone by cell."""
    state = after(get_game("groups"), "d3-e2", "d4-d3")
    assert describe(state, VIEW) == (
        "Groups, move 2: d4-d3. Ada (White) to move. Ada (White): largest group 1 of 6; "
        "time 2d 3h left. Grace (Black): largest group 2 of 6. "
        "White (6): c4 d5 e2 e4 e6 f5. Black (6): c5 d3 d6 e3 e5 f4."
    )


def test_stones_says_prisoners_leads_and_stakes() -> None:
    """Counts as the header says them (the short ones first), stakes after the stones, the
    board's size with the game."""
    state = after(get_game("stones"), "a1", "j9", "stake a2", "c5")
    assert describe(state, BoardView(players=("Ada", "Grace"))) == (
        "Stones, 9×9, move 4: c5. Ada (Black) to move. Ada (Black): prisoners 0, stakes 1, "
        "6 behind (needs 1 or more ahead). Grace (White): prisoners 6, 6 ahead (needs 13 or "
        "more ahead). Black (2): a1 stake a2. White (2): c5 j9."
    )


def test_diffusion_marks_the_kings_and_the_turn() -> None:
    """Kings are named among the stones; the note says how much of the turn is left."""
    state = after(get_game("diffusion"), "k9-k10-l10")
    text = describe(state)
    assert "White to move: 3 of 4 moves left, echo possible." in text
    assert " king " in text


def test_an_ending_outside_the_rules_is_said() -> None:
    """The status the picture shows (a resignation) is the status described."""
    state = after(get_game("hexade"), "j10", "a1")
    view = BoardView(players=("Ada", "Grace"), status="Grace resigned: Ada wins")
    text = describe(state, view)
    assert "Grace resigned: Ada wins." in text
    assert "White (1): j10. Black (1): a1." in text


def test_an_empty_side_is_said_to_have_nothing() -> None:
    """Before anyone played, each colour says it has nothing on the board."""
    text = describe(get_game("hexade").new_game())
    assert text.endswith("White: none on the board. Black: none on the board.")


def test_a_full_board_fits_or_says_what_is_left_out() -> None:
    """A crowded 19×19 board stays within Discord's limit; what is cut is announced."""
    state = random_game("stones", {"size": 19}, seed=5, plies=400)[-1]
    long_names = BoardView(players=("A" * 32, "B" * 32), clocks=("12d 23h 59m left", "1h"))
    text = describe(state, long_names)
    assert len(text) <= MAX_DESCRIPTION
    if "Black (" not in text or "White (" not in text:
        assert text.endswith("(the rest of the position does not fit here)")


def test_fitting_cuts_at_a_word_and_keeps_the_head() -> None:
    """The position is cut at a space with a note; a head that alone is too long is cut."""
    head, position = "Head.", " ".join(f"a{n}" for n in range(400))
    text = fit_description(head, position, limit=100)
    assert len(text) <= 100 and text.startswith("Head. a0 a1")
    assert text.endswith("(the rest of the position does not fit here)")
    assert fit_description("x" * 2000, "y", limit=50) == "x" * 49 + "…"


@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(["groups", "stones", "rekushu", "hexade", "diffusion"]),
    seed=st.integers(0, 1000),
    plies=st.integers(0, 300),
    names=st.tuples(st.text(max_size=40), st.text(max_size=40)),
    status=st.none() | st.text(max_size=300),
)
def test_never_longer_than_discord_allows(
    game: str, seed: int, plies: int, names: tuple[str, str], status: str | None
) -> None:
    """Whatever the game, position, names and status: at most 1,024 characters, not empty."""
    state = random_game(game, seed=seed, plies=plies)[-1]
    text = describe(state, BoardView(players=names, status=status))
    assert 0 < len(text) <= MAX_DESCRIPTION


def test_rekushu_tiles_are_named_as_rectangles() -> None:
    """Each player's tiles as rectangles by opposite corners, as a claim names them."""
    state = REKUSHU.position(
        size=8, black=["h8"], black_tiles=["a1-c3", "e5"], white_tiles=["a5-c8", "c5-e6"]
    )
    text = describe(state)
    assert text.endswith(
        "Black's tiles: a1-c3 e5-f6. White's tiles: a5-c8 c5-e6. "
        "Black (1): h8. White: none on the board."
    )


def test_a_claim_says_which_corner_stones_it_removed() -> None:
    """The stones a claim removed are crossed out in the picture, and said."""
    moves = ("a1", "h8", "c1", "h7", "a3", "g8", "c3 a1-c3")
    state = after(get_game("rekushu"), *moves, size=8)
    assert describe(state).endswith(
        "The claim removed Black's corner stones a1 a3 c1 c3 (crossed out). "
        "Black's tiles: a1-c3. Black: none on the board. White (3): g8 h7 h8."
    )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 1000), plies=st.integers(0, 400), size=st.sampled_from([8, 20]))
def test_rekushu_tile_rectangles_cover_exactly_the_tiles(seed: int, plies: int, size: int) -> None:
    """The rectangles named for a player's tiles, claimed again, are exactly those tiles."""
    state = random_game("rekushu", {"size": size}, seed=seed, plies=plies)[-1]
    assert isinstance(state, RekushuState)
    renderer = renderer_for(state)
    named = [renderer.areas(state, seat) for seat in (0, 1)]
    again = REKUSHU.position(size=size, black_tiles=named[0], white_tiles=named[1])
    assert (again.black_tiles, again.white_tiles) == (state.black_tiles, state.white_tiles)
    assert sum(len(areas) for areas in named) <= sum(state.tile_counts)


def test_a_crowded_rekushu_board_keeps_its_tiles_before_its_stones() -> None:
    """On a large board late in the game the tiles (the score) are said before any stone."""
    state = random_game("rekushu", {"size": 20}, seed=1, plies=300)[-1]
    text = describe(state, BoardView(players=("A" * 30, "B" * 30)))
    assert len(text) <= MAX_DESCRIPTION
    assert "Black's tiles: " in text and "White's tiles: " in text
    assert text.index("White's tiles: ") < text.index("Black (")


def test_stones_says_what_a_capture_took() -> None:
    """A capture's stones and stakes, crossed out in the picture, are said before the board."""
    state = STONES.position(black=["b2", "c1"], white=["b1"], white_stakes=["a1"], size=5)
    state = state.play_text("a1")
    assert "The last move took White's b1 stake a1 (crossed out)." in describe(state)
    assert describe(state).endswith("Black (3): a1 b2 c1. White: none on the board.")


def test_diffusion_says_which_stones_were_captured() -> None:
    """A captured stone stays on the board, swapped: where it stands now is said, by colour."""
    states = random_game("diffusion", seed=0, plies=30)
    renderer = renderer_for(states[0])
    said = 0
    for state in states:
        crossed = renderer._crossed(state)  # type: ignore[attr-defined]
        text = describe(state)
        if crossed:
            said += 1
            names = " ".join(format_point(*cell) for cell in sorted(crossed))
            assert f"crossed out where they stand now: Black's {names}." in text or (
                f"crossed out where they stand now: White's {names}." in text
            )
        else:
            assert "crossed out" not in text
    assert said
