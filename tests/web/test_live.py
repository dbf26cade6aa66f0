"""The live stream of a game page: small patches after the first event, one encoding per
kind of visitor, nothing told of a hidden turn, and pages that stop when the server's
setting no longer shows them."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import aiohttp

from bot.storage.repository import GameRecord
from bot.web.live import LiveGames
from bot.web.patches import apply_edits, patch
from tests.web.conftest import ALICE, BOB, GUILD, Event, Site, next_event

WAIT = 15.0
"""Seconds a test waits for an event (generous: the machine is shared)."""


async def events(site: Site, http: aiohttp.ClientSession, game_id: int, query: str = "") -> Any:
    """A game's live stream, opened."""
    return await http.get(f"{site.url}g/{game_id}/events{query}")


async def event(response: aiohttp.ClientResponse) -> Event:
    """The stream's next event, waited for."""
    return await asyncio.wait_for(next_event(response), WAIT)


async def event_with(response: aiohttp.ClientResponse, key: str) -> Event:
    """The stream's next event that sets `key` (a patch of the clocks alone may come
    first: the clock moved on before the move)."""
    while True:
        found = await event(response)
        if key in found.data:
            return found


async def test_after_the_first_event_a_move_is_a_small_patch(site: Site) -> None:
    """Rekushu 20×20 after 40 moves: the first event is the whole game with its board;
    a move then comes as a patch of a few hundred bytes that rebuilds the next board."""
    view = await site.start_game("rekushu", options={"size": 20}, colour="black")
    cells = [f"{col}{row}" for row in (1, 3, 5, 7) for col in "abcdefghjk"]
    for index, cell in enumerate(cells):
        await site.services.games.play(view.id, (ALICE if index % 2 == 0 else BOB).id, cell)
    await site.services.settings.update(GUILD, can_manage=True, web="public")
    stranger = await site.visitor()
    stream = await events(site, stranger.http, view.id)
    first = await event(stream)
    assert first.data["full"] is True and first.data["ply"] == len(cells)
    board = first.data["board"]
    assert len(board) > 20_000 and first.id == first.data["board_id"]
    await site.services.games.play(view.id, ALICE.id, "t20")
    moved = await event(stream)
    assert moved.size < 1_500, moved.size  # the board alone is 20 KB and more
    assert moved.data["ply"] == len(cells) + 1
    assert moved.data["moves_add"] == [{"ply": len(cells) + 1, "seat": 0, "move": "t20"}]
    assert moved.data["board_from"] == first.data["board_id"]
    state = await (await stranger.get(f"/g/{view.id}/state")).json()
    assert apply_edits(board, moved.data["board_edits"]) == state["board"]
    assert moved.id == state["board_id"]
    stream.close()


async def test_a_page_that_has_the_board_is_not_sent_it_again(site: Site) -> None:
    """The page names the board it holds (in the address, then by the last event's id):
    the first event leaves it out while it is still the board."""
    view = await site.start_game()
    bob = await site.signed_in(BOB, view.id)
    state = await (await bob.get(f"/g/{view.id}/state")).json()
    named = await events(site, bob.http, view.id, f"?board={state['board_id']}")
    first = await event(named)
    assert first.data["full"] is True and "board" not in first.data
    named.close()
    headers = {"Last-Event-ID": state["board_id"]}
    again = await bob.http.get(f"{site.url}g/{view.id}/events?board=old", headers=headers)
    assert "board" not in (await event(again)).data
    again.close()
    stale = await events(site, bob.http, view.id, "?board=0123456789abcdef")
    assert (await event(stale)).data["board"] == state["board"]
    stale.close()


async def test_a_hidden_turn_tells_the_opponent_nothing(site: Site) -> None:
    """Diffusion Chess, Alice's turn under way: Bob's view is the same before and after
    each of its moves (no version that counts them, clocks that run out at the same
    time), and his stream's next event is the whole turn."""
    view = await site.start_game("diffusion", time_control="1d+1h max 2d")
    bob = await site.signed_in(BOB, view.id)
    alice = await site.signed_in(ALICE, view.id)
    before = await (await bob.get(f"/g/{view.id}/state")).json()
    bob_stream = await events(site, bob.http, view.id)
    alice_stream = await events(site, alice.http, view.id)
    assert (await event(bob_stream)).data["ply"] == 0
    assert (await event(alice_stream)).data["ply"] == 0
    for ply, move in enumerate(["f5-e5", "echo", "o5-p5"], 1):
        site.env.clock.advance(timedelta(minutes=7))
        await site.services.games.play(view.id, ALICE.id, move)
        assert (await event_with(alice_stream, "ply")).data["ply"] == ply  # the mover sees it
        now = await (await bob.get(f"/g/{view.id}/state")).json()
        assert now["clocks"] != before["clocks"]  # read later...
        assert patch(before, now) is None  # ...but nothing to tell
        assert {k: v for k, v in now.items() if k != "clocks"} == {
            k: v for k, v in before.items() if k != "clocks"
        }
    await site.services.games.play(view.id, ALICE.id, "echo")
    whole = await event(bob_stream)
    assert whole.data["ply"] == 4 and whole.data["my_turn"] is True
    bob_stream.close()
    alice_stream.close()


async def test_open_pages_stop_when_the_server_stops_showing_them(site: Site) -> None:
    """/config web public → players: a stranger's open page is told why and its stream
    ends; players → off: so is a player's."""
    view = await site.start_game()
    await site.services.settings.update(GUILD, can_manage=True, web="public")
    stranger = await site.visitor()
    bob = await site.signed_in(BOB, view.id)
    watching = await events(site, stranger.http, view.id)
    playing = await events(site, bob.http, view.id)
    await event(watching)
    await event(playing)
    await site.services.settings.update(GUILD, can_manage=True, web="players")
    ended = await event(watching)
    assert ended.kind == "ended"
    assert "Only the two players of this game can see it" in ended.data["text"]
    assert await asyncio.wait_for(watching.content.read(), WAIT) == b""  # closed
    await site.services.settings.update(GUILD, can_manage=True, web="off")
    ended = await event(playing)
    assert ended.kind == "ended" and "There is no such game here" in ended.data["text"]
    assert await asyncio.wait_for(playing.content.read(), WAIT) == b""


async def test_each_kind_of_visitor_gets_one_encoding() -> None:
    """Five spectators and a player of one game: after a change, one event object for
    all the spectators, another for the player; the snapshots are built once per kind."""
    record: Any = object()
    built: list[int | None] = []
    ply = 0

    async def read(_game_id: int) -> GameRecord:
        return record

    async def snapshot(_record: GameRecord, seat: int | None) -> dict[str, Any]:
        built.append(seat)
        return {"ply": ply, "seat": seat, "moves": [], "board": "<svg/>", "board_id": "b"}

    live = LiveGames(read, snapshot)
    async with (
        live.watching(1, None) as s1, live.watching(1, None) as s2, live.watching(1, None) as s3,
        live.watching(1, None) as s4, live.watching(1, None) as s5, live.watching(1, 0) as p,
    ):  # fmt: skip
        spectators = [s1, s2, s3, s4, s5]
        live.changed(1)
        await asyncio.wait_for(p.ready.wait(), WAIT)
        assert sorted(built, key=str) == [0, None]
        firsts = [live.take(1, w) for w in spectators]
        assert all(first is firsts[0] for first in firsts) and firsts[0] is not None
        first = live.take(1, p)
        assert first is not None and first is not firsts[0]
        ply = 1
        live.changed(1)
        await asyncio.wait_for(p.ready.wait(), WAIT)
        assert len(built) == 4
        sent = [live.take(1, w) for w in spectators]
        assert all(one is sent[0] for one in sent)
        assert sent[0] == b'id: b\ndata: {"ply":1}\n\n'
        player = live.take(1, p)
        assert player is not None and player is not sent[0]  # its own, made for its seat
        assert live.take(1, s1) is None  # nothing new since
