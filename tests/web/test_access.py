"""The web server without a browser: sign-in, who sees what, refusals, forgery checks."""

from __future__ import annotations

import asyncio
import json
import re
import time

from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from tests.web.conftest import ALICE, BOB, CAROL, GUILD, Site


async def test_a_player_signs_in_and_sees_the_game(site: Site) -> None:
    """The link sets a session cookie; the page shows the board, the ply and the moves."""
    view = await site.start_game()
    alice = await site.signed_in(ALICE, view.id)
    page = await alice.get(f"/g/{view.id}")
    text = await page.text()
    assert page.status == 200
    assert 'data-ply="0"' in text
    assert page.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert page.headers["Content-Encoding"] in ("gzip", "deflate")  # the SVG compresses well
    cookie = page.headers.get("Set-Cookie", "")
    assert "tabula_session" not in cookie  # set once, by the sign-in
    state = json.loads(await (await alice.get(f"/g/{view.id}/state")).text())
    assert state["seat"] == 0 and state["my_turn"] is True
    assert {"move": "c4-b3", "steps": ["c4", "b3"]} in state["legal"]


async def test_the_session_cookie_is_httponly_and_samesite(site: Site) -> None:
    """The cookie cannot be read by scripts nor sent by other sites' forms."""
    view = await site.start_game()
    visitor = await site.visitor()
    record = await site.services.games.record(view.id)
    link = site.server.links.sign_in(record, ALICE.id, ALICE.name)
    response = await visitor.http.get(link, allow_redirects=False)
    assert response.status == 303
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


async def test_strangers_forged_and_expired_links_are_refused(site: Site) -> None:
    """Without a session, with a forged token or one past 10 minutes: a clear page."""
    view = await site.start_game()
    stranger = await site.visitor()
    page = await stranger.get(f"/g/{view.id}")
    assert page.status == 403
    assert "Only the two players of this game can see it" in await page.text()
    forged = await stranger.get("/signin?t=not-a-token")
    assert forged.status == 403
    assert "not valid" in await forged.text()
    secret = await site.services.repository.web_secret("unused", site.env.clock.now())

    class Past(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - 601  # eleven seconds past the ten minutes

    signer = URLSafeTimedSerializer(secret, salt="tabula-link", signer=Past)
    old = signer.dumps({"u": ALICE.id, "g": view.id, "s": GUILD, "n": "alice"})
    expired = await stranger.get(f"/signin?t={old}")
    assert expired.status == 403
    assert "expired" in await expired.text()


async def test_a_signed_in_member_who_does_not_play_is_refused(site: Site) -> None:
    """Carol, signed in for her own game on the server, cannot see Alice and Bob's."""
    view = await site.start_game()
    other = await site.env.start()
    record = await site.services.games.record(other.id)
    carol_view = await site.services.repository.get_game(other.id)
    assert carol_view is not None
    visitor = await site.visitor()
    link = site.server.links.sign_in(record, CAROL.id, CAROL.name)
    await visitor.http.get(link, allow_redirects=False)
    page = await visitor.get(f"/g/{view.id}")
    assert page.status == 403
    assert "Only the two players" in await page.text()


async def test_another_servers_game_is_refused(site: Site) -> None:
    """A session for one server's games does not open another server's game."""
    view = await site.start_game()
    elsewhere = await site.services.challenges.create(
        guild_id=GUILD + 1, channel_id=1, challenger=ALICE, opponent=BOB, game="groups",
        options=None, colour="white",
    )  # fmt: skip
    accepted = await site.services.challenges.accept(elsewhere.id, BOB, guild_id=GUILD + 1)
    alice = await site.signed_in(ALICE, view.id)
    page = await alice.get(f"/g/{accepted.view.id}")
    assert page.status == 403
    assert "another server" in await page.text()


async def test_public_games_are_watched_but_not_played_by_strangers(site: Site) -> None:
    """With /config web public anyone sees the game; only its players act."""
    view = await site.start_game()
    await site.services.settings.update(GUILD, can_manage=True, web="public")
    stranger = await site.visitor()
    page = await stranger.get(f"/g/{view.id}")
    assert page.status == 200
    refused = await stranger.post(f"/g/{view.id}/play", {"moves": ["c4-b3"], "ply": 0})
    assert refused.status == 403
    assert (await site.services.games.record(view.id)).ply == 0


async def test_off_means_no_page(site: Site) -> None:
    """With /config web off the pages of the server's games do not exist."""
    view = await site.start_game()
    alice = await site.signed_in(ALICE, view.id)
    await site.services.settings.update(GUILD, can_manage=True, web="off")
    page = await alice.get(f"/g/{view.id}")
    assert page.status == 404


async def test_changes_need_the_sites_origin_and_the_sessions_value(site: Site) -> None:
    """A forged request (another origin, no origin, a wrong value) changes nothing."""
    view = await site.start_game()
    alice = await site.signed_in(ALICE, view.id)
    body = {"moves": ["c4-b3"], "ply": 0}
    for origin, csrf in (("https://evil.invalid", None), ("", None), (None, "wrong")):
        refused = await alice.post(f"/g/{view.id}/play", body, origin=origin, csrf=csrf)
        assert refused.status == 403, (origin, csrf)
    assert (await site.services.games.record(view.id)).ply == 0
    assert site.env.notifier.moves == []


async def test_a_move_from_the_page_is_stored_and_announced_once(site: Site) -> None:
    """The page's move goes through the game service: stored, announced once."""
    view = await site.start_game()
    alice = await site.signed_in(ALICE, view.id)
    played = await alice.post(f"/g/{view.id}/play", {"moves": ["c4-b3"], "ply": 0})
    assert played.status == 200, await played.text()
    assert (await site.services.games.record(view.id)).ply == 1
    assert [n.move.notation for n in site.env.notifier.moves] == ["c4-b3"]
    again = await alice.post(f"/g/{view.id}/play", {"moves": ["c4-b3"], "ply": 1})
    assert again.status == 409
    assert "not yours" in json.loads(await again.text())["error"]
    stale = await alice.post(f"/g/{view.id}/play", {"moves": ["c4-b3"], "ply": 0})
    assert stale.status == 409


async def test_resign_draw_and_undo(site: Site) -> None:
    """Offers and answers go through the services as on Discord."""
    view = await site.start_game()
    alice = await site.signed_in(ALICE, view.id)
    bob = await site.signed_in(BOB, view.id)
    assert (await alice.post(f"/g/{view.id}/draw", {})).status == 200
    state = json.loads(await (await bob.get(f"/g/{view.id}/state")).text())
    assert state["draw_offer"] == 0
    assert (await bob.post(f"/g/{view.id}/draw", {"answer": False})).status == 200
    assert (await alice.post(f"/g/{view.id}/play", {"moves": ["c4-b3"], "ply": 0})).status == 200
    assert (await alice.post(f"/g/{view.id}/undo", {})).status == 200
    assert (await bob.post(f"/g/{view.id}/undo", {"answer": True})).status == 200
    assert (await site.services.games.record(view.id)).ply == 0
    assert (await bob.post(f"/g/{view.id}/resign", {})).status == 200
    record = await site.services.games.record(view.id)
    assert not record.is_active and record.winner == 0


async def test_a_diffusion_turn_in_progress_is_hidden_from_the_opponent(site: Site) -> None:
    """Moves of an unfinished turn show to their player only, not to the opponent."""
    view = await site.start_game("diffusion")
    await site.services.games.play(view.id, ALICE.id, "f5-e5")
    alice = await site.signed_in(ALICE, view.id)
    bob = await site.signed_in(BOB, view.id)
    mine = json.loads(await (await alice.get(f"/g/{view.id}/state")).text())
    theirs = json.loads(await (await bob.get(f"/g/{view.id}/state")).text())
    assert mine["ply"] == 1 and [m["move"] for m in mine["moves"]] == ["f5-e5"]
    assert theirs["ply"] == 0 and theirs["moves"] == []
    assert (await bob.get(f"/g/{view.id}/position/1")).status == 404


async def test_a_whole_diffusion_turn_with_an_echo(site: Site) -> None:
    """The preview lists the echo after a plain move; the turn is sent whole, and stored
    whole or not at all."""
    view = await site.start_game("diffusion")
    alice = await site.signed_in(ALICE, view.id)
    first = await alice.post(f"/g/{view.id}/preview", {"moves": ["f5-e5"]})
    preview = json.loads(await first.text())
    assert {"move": "echo", "steps": ["echo"]} in preview["legal"]
    assert preview["complete"] is False
    turn = ["f5-e5", "echo", "o5-p5", "echo"]
    done = json.loads(await (await alice.post(f"/g/{view.id}/preview", {"moves": turn})).text())
    assert done["complete"] is True, done
    for broken in ([*turn[:3], "a1-a2"], turn[:2]):  # refused partway, or not a whole turn
        refused = await alice.post(f"/g/{view.id}/play", {"moves": broken, "ply": 0})
        assert refused.status == 409, await refused.text()
        assert (await site.services.games.record(view.id)).ply == 0  # none of it stored
    assert "not a whole turn" in json.loads(await refused.text())["error"]
    played = await alice.post(f"/g/{view.id}/play", {"moves": turn, "ply": 0})
    assert played.status == 200, await played.text()
    assert (await site.services.games.record(view.id)).ply == 4
    assert len(site.env.notifier.moves) == 1  # one board for the whole turn


async def test_a_page_hears_of_a_move_made_elsewhere(site: Site) -> None:
    """The live stream sends the game at once, then again after a move (no polling)."""
    view = await site.start_game()
    bob = await site.signed_in(BOB, view.id)
    response = await bob.http.get(site.url + f"g/{view.id}/events")
    assert response.headers["Content-Type"] == "text/event-stream"

    async def next_state() -> dict[str, object]:
        while True:
            line = (await response.content.readline()).decode()
            if line.startswith("data: "):
                return json.loads(line[6:])

    first = await asyncio.wait_for(next_state(), 10)
    assert first["ply"] == 0
    await site.services.games.play(view.id, ALICE.id, "c4-b3")
    second = await asyncio.wait_for(next_state(), 10)
    assert second["ply"] == 1 and second["my_turn"] is True
    response.close()


def test_sign_in_links_never_reach_the_log() -> None:
    """A record holding a sign-in link (discord.py's debug log of a reply) is redacted."""
    from bot.logs import redact

    text = 'POST {"content": "Your board: http://127.0.0.1:8765/signin?t=eyJ1IjoxfQ.abc.def"}'
    assert (
        redact(text) == 'POST {"content": "Your board: http://127.0.0.1:8765/signin?t=[redacted]"}'
    )


NAMESPACE = "http://www.w3.org/2000/svg"
"""The SVG namespace: an address in name only, never fetched."""


async def test_no_page_loads_anything_from_elsewhere(site: Site) -> None:
    """Every page, script and style sheet served names no other site: no absolute or
    protocol-relative address but the SVG namespace, every src and href on this site."""
    view = await site.start_game()
    await site.services.games.resign(view.id, BOB.id)
    alice = await site.signed_in(ALICE, view.id)
    stranger = await site.visitor()
    served = [
        await (await alice.get(path)).text()
        for path in ("/", f"/g/{view.id}", f"/u/{BOB.id}", "/static/game.js", "/static/style.css")
    ]
    served.append(await (await stranger.get(f"/g/{view.id}")).text())  # a refusal
    served.append(await (await stranger.get("/signin?t=forged")).text())
    assert all(text for text in served)
    for text in served:
        elsewhere = [
            found
            for found in re.findall(r"(?:https?:)?//[^\s\"'<>)\\]+", text)
            if found != NAMESPACE
        ]
        assert elsewhere == [], elsewhere
        for value in re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", text):
            assert value.startswith(("/", "#")) and not value.startswith("//"), value
        # url() only for the board's own patterns (`url(#tabula-…)`), never an address
        assert "@import" not in text and not re.search(r"url\((?!#)", text)
