"""The game page's HTML: the board once, as the text the server drew."""

from __future__ import annotations

import json
import re
from html import escape

from bot.web.pages import game_page
from renderers.base import renderer_for
from rules import get_game
from tests.web.conftest import ALICE, BOB, Site


def snapshot(board: str) -> dict[str, object]:
    """The least a game page needs."""
    return {"id": 3, "title": "Groups", "ply": 0, "names": ["a", "b"], "colours": ["W", "B"],
            "board": board, "board_id": "x", "facts": [["stones 1"], []]}  # fmt: skip


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


async def test_each_players_facts_are_shown_as_in_the_pictures(site: Site) -> None:
    """Stones' prisoners and leads beside each name, in the page, its live state and the
    replay's positions, as the picture's header has them."""
    view = await site.start_game("stones", colour="black")
    await site.services.games.play(view.id, ALICE.id, "e5")
    await site.services.games.play(view.id, BOB.id, "return")
    alice = await site.signed_in(ALICE, view.id)
    state = json.loads(await (await alice.get(f"/g/{view.id}/state")).text())
    now = (await site.services.games.view_of(await site.services.games.record(view.id))).state
    expected = [list(seat) for seat in renderer_for(now).caption(now).facts]
    assert state["facts"] == expected
    assert any(fact.startswith("prisoners") for fact in expected[1])
    page = await (await alice.get(f"/g/{view.id}")).text()
    for seat in (0, 1):
        assert f'<span class="facts">{escape(" · ".join(expected[seat]))}</span>' in page
    first = json.loads(await (await alice.get(f"/g/{view.id}/position/0")).text())
    initial = get_game("stones").new_game()
    assert first["facts"] == [list(seat) for seat in renderer_for(initial).caption(initial).facts]
    assert first["facts"] != expected  # the return gave a prisoner back
