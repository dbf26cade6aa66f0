"""Live updates as patches: board edits that rebuild the board exactly, only what changed
in a snapshot, clocks read again later that are the same clocks."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.web.patches import apply_edits, board_edits, board_id, patch, same_clocks
from renderers.samples import random_game
from renderers.svg import board_svg, svg_games


@pytest.mark.parametrize("game", svg_games())
def test_edits_rebuild_every_next_board_and_are_small(game: str) -> None:
    """Along a random game, the edits from each board to the next rebuild it exactly, and
    are a small part of it once the board has filled a little."""
    boards = [board_svg(state) for state in random_game(game, seed=5, plies=16)]
    for before, after in itertools.pairwise(boards):
        edits = board_edits(before, after)
        assert apply_edits(before, edits) == after
    late = board_edits(boards[-2], boards[-1])
    sent = sum(len(piece) + 1 for _, _, added in late for piece in added)
    assert sent < len(boards[-1]) / 4, (game, sent, len(boards[-1]))


def snapshot(**changes: Any) -> dict[str, Any]:
    """A spectator's snapshot of a small game, with `changes`."""
    board = '<svg class="tabula-board"><circle data-cell="a1"/><circle data-cell="a2"/></svg>'
    found: dict[str, Any] = {
        "id": 1,
        "ply": 1,
        "to_move": 1,
        "moves": [{"ply": 1, "seat": 0, "move": "a1"}],
        "board": board,
        "board_id": board_id(board),
        "draw_offer": None,
        "clocks": None,
    }
    found.update(changes)
    if "board" in changes:
        found["board_id"] = board_id(found["board"])
    return found


def test_a_patch_carries_only_what_changed() -> None:
    """The fields that changed, the move added, the board as edits; nothing for no change."""
    before = snapshot()
    board = before["board"].replace('data-cell="a2"/>', 'data-cell="a2" data-piece="white"/>')
    after = snapshot(
        ply=2,
        to_move=0,
        moves=[*before["moves"], {"ply": 2, "seat": 1, "move": "a2"}],
        board=board,
        legal=[{"move": "b1", "steps": ["b1"]}],
    )
    found = patch(before, after)
    assert found is not None
    assert found["ply"] == 2 and found["to_move"] == 0 and found["legal"] == after["legal"]
    assert "id" not in found and "draw_offer" not in found and "clocks" not in found
    assert found["moves_at"] == 1 and found["moves_add"] == [after["moves"][1]]
    assert found["board_from"] == before["board_id"] and found["board_id"] == after["board_id"]
    assert apply_edits(before["board"], found["board_edits"]) == after["board"]
    assert "board" not in found
    back = patch(after, before)
    assert back is not None and back["drop"] == ["legal"]  # a field gone is named
    assert back["moves_at"] == 1 and back["moves_add"] == []  # an undo cuts the list
    assert patch(before, snapshot()) is None


def clocks(left: list[int], running: int | None, at: datetime) -> dict[str, Any]:
    """The clocks as a snapshot shows them."""
    return {"left": left, "running": running, "at": at.isoformat()}


def test_clocks_read_later_are_the_same_clocks() -> None:
    """A running clock read a minute later, a minute shorter, is the same clock; a clock
    that was given time, or the other seat's, is not."""
    now = datetime(2025, 1, 1, 12, tzinfo=UTC)
    later = now + timedelta(minutes=1)
    first = clocks([3600, 7200], 0, now)
    assert same_clocks(first, clocks([3540, 7200], 0, later))
    assert not same_clocks(first, clocks([3600, 7200], 0, later))  # it stood still
    assert not same_clocks(first, clocks([3540, 7100], 0, later))
    assert not same_clocks(first, clocks([3540, 7200], 1, later))
    assert same_clocks(None, None) and not same_clocks(first, None)
    before = snapshot(clocks=first)
    assert patch(before, snapshot(clocks=clocks([3540, 7200], 0, later))) is None
