"""Board pictures and replays for the front ends (`bot.boards`)."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from PIL import GifImagePlugin, Image

from bot.boards import render_board, replay_file
from bot.services.views.results import GameView
from bot.storage.repository import GameRecord, GameStatus
from renderers.samples import finished_game
from rules import get_game

MOVES = ("d3-e2", "d4-d3", "e4-c2")


def view_of(game: str, notations: tuple[str, ...], **record: object) -> GameView:
    """A stored game (record and state) after `notations`."""
    state = get_game(game).new_game()
    for text in notations:
        state = state.play_text(text)
    values: dict[str, object] = {
        "game": game,
        "options": dict(state.options),
        "guild_id": 1,
        "channel_id": 2,
        "players": (10, 11),
        "names": ("Alice", "Bob"),
        "created_at": datetime(2026, 1, 1, tzinfo=UTC),
        "id": 12,
        "ply": len(notations),
        **record,
    }
    return GameView(GameRecord(**values), state)  # type: ignore[arg-type]


def frame_count(data: bytes) -> int:
    """How many frames a GIF has."""
    with Image.open(io.BytesIO(data)) as animation:
        assert isinstance(animation, GifImagePlugin.GifImageFile)
        return animation.n_frames


def test_the_board_comes_with_its_description() -> None:
    """`render_board` gives the PNG and its alt text, naming the players and the position."""
    image = render_board(view_of("groups", MOVES))
    assert image.png is not None and image.png.startswith(b"\x89PNG")
    assert image.filename == "game-12-move-3.png"
    assert image.description.startswith("Groups, move 3: e4-c2. Bob (Black) to move.")
    assert "White (6): " in image.description


def test_a_replay_has_one_frame_per_position_and_says_what_it_shows() -> None:
    """The GIF has the start and every move; its description names the players and the end."""
    view = view_of(
        "groups", MOVES, status=GameStatus.FINISHED, winner=1, result_reason="resignation"
    )
    replay = replay_file(view, MOVES)
    assert replay is not None
    assert replay.filename == "game-12-replay.gif"
    with Image.open(io.BytesIO(replay.data)) as animation:
        assert isinstance(animation, GifImagePlugin.GifImageFile)
        assert animation.n_frames == 4
        assert animation.size == (840, 1016)
    assert replay.description.startswith(
        "Animated replay of Groups, Alice (White) against Bob (Black), 3 moves. "
        "At the end: Groups, move 3: e4-c2. Bob wins: resignation."
    )
    assert len(replay.description) <= 1024


def test_a_long_game_is_shortened_to_fit_the_limit() -> None:
    """Over the limit, moves are left out (the first and last positions stay)."""
    states = finished_game("stones", {"size": 9}, seed=3)
    notations = tuple(state.format_move(state.last_move) for state in states[1:])
    view = view_of("stones", notations)
    whole = replay_file(view, notations)
    assert whole is not None
    short = replay_file(view, notations, limit=len(whole.data) // 2)
    assert short is not None and len(short.data) <= len(whole.data) // 2
    assert 2 <= frame_count(short.data) < frame_count(whole.data)


@pytest.mark.parametrize(
    ("notations", "limit"),
    [((), 10_000_000), (("d3-e2", "nonsense"), 10_000_000), (MOVES, 1_000)],
)
def test_no_replay_when_there_is_none_to_give(notations: tuple[str, ...], limit: int) -> None:
    """No move yet, a move log that does not replay, or not even two frames under the
    limit: None, and the caller posts the end without a replay."""
    assert replay_file(view_of("groups", ()), notations, limit=limit) is None
