"""The game page's HTML: the board once, as the text the server drew."""

from __future__ import annotations

import json
import re

from bot.web.pages import game_page


def snapshot(board: str) -> dict[str, object]:
    """The least a game page needs."""
    return {"id": 3, "title": "Groups", "ply": 0, "names": ["a", "b"], "colours": ["W", "B"],
            "board": board, "board_id": "x"}  # fmt: skip


def test_the_board_is_in_the_page_once_as_drawn() -> None:
    """The board's markup as it is, in a text block, and not in the JSON beside it."""
    board = '<svg class="tabula-board"><style>.a>b{fill:red}</style><circle data-cell="a1"/></svg>'
    page = game_page(snapshot(board), None)
    found = re.search(r'<script type="text/plain" id="board-text">(.*?)</script>', page)
    assert found and found[1] == board
    data = re.search(r'<script type="application/json" id="snapshot">(.*?)</script>', page)
    assert data and json.loads(data[1])["board"] is None
    assert page.count('data-cell="a1"') == 1


def test_a_board_that_would_end_its_block_goes_as_json() -> None:
    """Markup holding `</script` or `<!--` is written as JSON that cannot end the block."""
    board = "<svg><text>x</script><!--<script>alert(1)</script>--></text></svg>"
    page = game_page(snapshot(board), None)
    found = re.search(r'<script type="application/json" id="board-text">(.*?)</script>', page)
    assert found and "</script" not in found[1] and "<!--" not in found[1]
    assert json.loads(found[1]) == board
