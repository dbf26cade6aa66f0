"""Players and spectators in a real browser: clicking moves in every game, live pages.

One Chromium serves the whole module (each test opens its own contexts), and the
module runs on SQLite only: what the web does with PostgreSQL (notifications between
processes, the same services) is covered on both backends by test_access.py and
test_processes.py, without a browser.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page

from bot.services.competition.tournaments import Member
from bot.storage.repository import GameStatus
from tests.databases import Backend
from tests.waiting import until
from tests.web.browser import (
    WAIT_MS,
    Pages,
    chromium,
    click_button,
    click_cell,
    count_answers,
    hold_answers,
    wait_answers,
    wait_ply,
)
from tests.web.conftest import ALICE, BOB, CAROL, GUILD, Site, serving

pytestmark = pytest.mark.asyncio(loop_scope="module")

DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
"""Groups with start=drop: White connects six with the last drop."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    """One Chromium for the module's tests."""
    async with chromium() as found:
        yield found


@pytest_asyncio.fixture(loop_scope="module")
async def pages(browser: Browser) -> AsyncIterator[Pages]:
    """The test's pages, each in a context of its own, closed after it."""
    found = Pages(browser)
    try:
        yield found
    finally:
        await found.close()


@pytest_asyncio.fixture(loop_scope="module")
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """The web server over services on SQLite, in the module's event loop."""
    backend = Backend("sqlite", tmp_path / "tabula.sqlite3", "unused")
    try:
        async with serving(backend) as found:
            yield found
    finally:
        await backend.cleanup()


async def board_matches_the_server(page: Page, site: Site, game_id: int) -> bool:
    """Whether the board the page shows (after live patches) is the server's board now,
    element for element (parsed by the browser the same way), but for the page's marks
    of where its player may click."""
    state = await (await page.request.get(f"{site.url}g/{game_id}/state")).json()
    return bool(
        await page.evaluate(
            """(board) => {
                const shown = document.querySelector("#board svg").cloneNode(true);
                shown.querySelector("g.web-marks")?.remove();  // the page's own marks
                for (const cell of shown.querySelectorAll("[data-target]")) {
                    cell.removeAttribute("data-target");
                }
                const fresh = document.createElement("div");
                fresh.innerHTML = board;
                return shown.outerHTML === fresh.querySelector("svg").outerHTML;
            }""",
            state["board"],
        )
    )


async def test_two_players_play_a_whole_groups_game_by_clicking(site: Site, pages: Pages) -> None:
    """Alice and Bob, each in their own browser, click every drop of a game to its end."""
    view = await site.start_game("groups", options={"start": "drop"})
    alice = await pages.open(site, ALICE, view.id)
    bob = await pages.open(site, BOB, view.id)
    for ply, cell in enumerate(DROP_WIN):
        mover, other = (alice, bob) if ply % 2 == 0 else (bob, alice)
        await click_cell(mover, cell)
        await wait_ply(mover, ply + 1)
        await wait_ply(other, ply + 1)  # live: the opponent's page follows
    await alice.wait_for_selector("text=Alice wins", timeout=WAIT_MS)
    record = await site.services.games.record(view.id)
    assert record.status is GameStatus.FINISHED and record.winner == 0
    # The pages hear of the end at its commit, maybe before the last board is announced.
    await until(lambda: len(site.env.notifier.moves) == len(DROP_WIN), "the last board")
    assert [n.move.notation for n in site.env.notifier.moves] == DROP_WIN


async def test_a_late_answer_does_not_take_the_page_back(site: Site, pages: Pages) -> None:
    """Bob's answer to his drop arrives after the stream told his page of Alice's reply:
    the page keeps showing her reply, and Bob plays on."""
    view = await site.start_game("groups", options={"start": "drop"})
    alice = await pages.open(site, ALICE, view.id)
    bob = await pages.open(site, BOB, view.id)
    await count_answers(bob)
    release = await hold_answers(bob, "**/play")
    await click_cell(alice, DROP_WIN[0])
    await wait_ply(bob, 1)
    await click_cell(bob, DROP_WIN[1])
    await wait_ply(alice, 2)  # the move is stored; Bob's page heard of it by its stream
    await wait_ply(bob, 2)
    await click_cell(alice, DROP_WIN[2])
    await wait_ply(bob, 3)
    release.set()
    await wait_answers(bob, 1)
    assert await bob.locator("#ply").get_attribute("data-ply") == "3"
    await click_cell(bob, DROP_WIN[3])
    await wait_ply(alice, 4)
    await wait_ply(bob, 4)


async def test_a_late_preview_does_not_bring_back_a_dropped_turn(site: Site, pages: Pages) -> None:
    """While the preview of Alice's first step is on its way, Bob's turn is taken back
    and played again: the step belongs to a turn the page has dropped, and stays out."""
    view = await site.start_game("diffusion")
    await site.services.games.play_turn(view.id, ALICE.id, ["f5-e5", "echo", "o5-p5", "echo"])
    state = (await site.services.games.view(view.id)).state
    bobs: list[str] = []
    while state.to_move == 1:
        bobs.append(state.legal_notations()[0])
        state = state.play(state.parse_move(bobs[-1]))
    await site.services.games.play_turn(view.id, BOB.id, bobs)
    ply = len(bobs) + 4
    alice = await pages.open(site, ALICE, view.id)
    await count_answers(alice)
    await wait_ply(alice, ply)
    release = await hold_answers(alice, "**/preview")
    step = next(m for m in state.legal_notations() if re.fullmatch(r"[a-z]+\d+-[a-z]+\d+", m))
    for cell in step.split("-"):
        await click_cell(alice, cell)
    await site.services.games.request_undo(view.id, BOB.id)
    await site.services.games.answer_undo(view.id, ALICE.id, True)
    await wait_ply(alice, 4)
    await site.services.games.play_turn(view.id, BOB.id, bobs)
    await wait_ply(alice, ply)
    release.set()
    await wait_answers(alice, 1)
    assert await alice.locator("text=Your turn so far").count() == 0


async def test_a_stone_then_its_target_with_the_targets_shown(site: Site, pages: Pages) -> None:
    """Groups: a click on a stone marks where it may go; a click there moves it."""
    view = await site.start_game("groups")
    alice = await pages.open(site, ALICE, view.id)
    await click_cell(alice, "c4")
    hints = await alice.locator("#board .hint").count()
    legal = (await site.services.games.view(view.id)).state.legal_notations()
    assert hints == sum(1 for m in legal if m.startswith("c4-"))
    # Each hint sits on a cell it marks (the cells are placed by their rows and style).
    off = await alice.evaluate(
        """() => {
            const centre = (e) => {
                const box = e.getBoundingClientRect();
                return [box.left + box.width / 2, box.top + box.height / 2];
            };
            const targets = [...document.querySelectorAll("#board [data-target]")].map(centre);
            return [...document.querySelectorAll("#board .hint")].map(centre).map(
                ([x, y]) => Math.min(...targets.map(([u, v]) => Math.hypot(x - u, y - v))));
        }"""
    )
    assert len(off) == hints and max(off) < 0.5, off
    await click_cell(alice, "b3")
    await wait_ply(alice, 1)
    assert (await site.services.games.last_turn(view.id))[0].notation == "c4-b3"


async def test_keyboard_play(site: Site, pages: Pages) -> None:
    """Arrows move the board's cursor; Enter chooses, as a click would."""
    view = await site.start_game("hexade")
    alice = await pages.open(site, ALICE, view.id)
    await alice.focus("#board")
    await alice.keyboard.press("ArrowRight")  # the first arrow puts the cursor on the board
    await alice.keyboard.press("ArrowUp")
    await alice.keyboard.press("Enter")
    await wait_ply(alice, 1)
    assert await alice.text_content("#cursor")
    assert (await site.services.games.record(view.id)).ply == 1


async def test_every_cell_is_named_for_screen_readers(site: Site, pages: Pages) -> None:
    """Chromium's accessibility tree names every cell of the board as its label says:
    "c3" for an empty cell, "c4 white" for a stone."""
    view = await site.start_game("groups")
    alice = await pages.open(site, ALICE, view.id)
    labels = await alice.evaluate(
        """() => [...document.querySelectorAll("#board [data-cell]")].map(
            (cell) => cell.getAttribute("aria-label"))"""
    )
    session = await alice.context.new_cdp_session(alice)
    tree = await session.send("Accessibility.getFullAXTree")
    names = {
        node.get("name", {}).get("value")
        for node in tree["nodes"]
        if not node.get("ignored") and node.get("role", {}).get("value") == "graphics-symbol"
    }
    assert len(labels) == 64 and "c4 white" in labels and "c3" in labels
    assert set(labels) <= names


async def test_a_diffusion_turn_with_an_echo_is_sent_whole(site: Site, pages: Pages) -> None:
    """Alice builds a four-move turn with two echoes; Bob sees nothing until it is sent."""
    view = await site.start_game("diffusion")
    alice = await pages.open(site, ALICE, view.id)
    bob = await pages.open(site, BOB, view.id)
    await click_cell(alice, "f5")
    await click_cell(alice, "e5")
    await click_button(alice, "Echo")
    await click_cell(alice, "o5")
    await click_cell(alice, "p5")
    await alice.wait_for_selector("text=Your turn so far: f5-e5, echo, o5-p5", timeout=WAIT_MS)
    # The status counts what is left after the moves chosen (once the preview is back).
    await alice.wait_for_selector("#status:has-text('1 move left in this turn')", timeout=WAIT_MS)
    await click_button(alice, "Echo")
    assert (await site.services.games.record(view.id)).ply == 0  # nothing sent yet
    assert await bob.get_attribute("#ply", "data-ply") == "0"
    await click_button(alice, "Send turn")
    await wait_ply(alice, 4)
    await wait_ply(bob, 4)
    assert await board_matches_the_server(bob, site, view.id)  # the patched board
    await until(lambda: len(site.env.notifier.moves) > 0, "the turn's board")
    moves = [m.move for m in site.env.notifier.moves]
    assert [r.notation for r in site.env.notifier.moves[0].turn_moves] == [
        "f5-e5", "echo", "o5-p5", "echo",
    ]  # fmt: skip
    assert len(moves) == 1


async def test_steps_chosen_while_a_preview_is_on_its_way_follow_it(
    site: Site, pages: Pages
) -> None:
    """Alice chooses her second move before the preview of her first is back: it is
    taken after the first, in order, not instead of it."""
    view = await site.start_game("diffusion")
    alice = await pages.open(site, ALICE, view.id)
    release = await hold_answers(alice, "**/preview")
    for cell in ("f5", "e5", "o5", "p5"):
        await click_cell(alice, cell)
    release.set()
    await alice.wait_for_selector("text=Your turn so far: f5-e5, o5-p5", timeout=WAIT_MS)


async def test_a_rekushu_claim_as_a_second_step(site: Site, pages: Pages) -> None:
    """Rekushu: a placement, then the claim's corners, or placing without a claim."""
    view = await site.start_game("rekushu", options={"size": 8}, colour="black")
    for index, cell in enumerate(["a1", "h8", "a2", "g8", "b1", "h7"]):
        await site.services.games.play(view.id, (ALICE if index % 2 == 0 else BOB).id, cell)
    alice = await pages.open(site, ALICE, view.id)
    await click_cell(alice, "b2")
    await alice.get_by_role("button", name="Place without claiming").wait_for()
    await click_cell(alice, "a1")
    await click_cell(alice, "b2")
    await wait_ply(alice, 7)
    assert (await site.services.games.last_turn(view.id))[0].notation == "b2 a1-b2"


async def test_stones_return_and_stake_are_buttons(site: Site, pages: Pages) -> None:
    """Stones: White's Return is a button; Black's stake is the Stake button, then a point."""
    view = await site.start_game("stones", colour="black")
    await site.services.games.play(view.id, ALICE.id, "a1")
    bob = await pages.open(site, BOB, view.id)
    alice = await pages.open(site, ALICE, view.id)
    await click_button(bob, "Return")
    await wait_ply(bob, 2)
    await wait_ply(alice, 2)
    await click_button(alice, "Stake")
    await click_cell(alice, "a2")
    await wait_ply(alice, 3)
    await until(lambda: len(site.env.notifier.moves) == 3, "the stake's board")
    notations = [n.move.notation for n in site.env.notifier.moves]
    assert notations == ["a1", "return", "stake a2"]


async def test_a_hexade_game_to_its_end(site: Site, pages: Pages) -> None:
    """Hexade by clicking: White's six survives Black's reply and wins."""
    view = await site.start_game("hexade")
    cells = ["j10", "a1", "j13", "a3", "j11", "a5", "j12", "a7", "j14", "a9", "j15", "a10"]
    alice = await pages.open(site, ALICE, view.id)
    bob = await pages.open(site, BOB, view.id)
    for ply, cell in enumerate(cells):
        mover = alice if ply % 2 == 0 else bob
        await click_cell(mover, cell)
        await wait_ply(mover, ply + 1)
    await alice.wait_for_selector("text=Alice wins", timeout=WAIT_MS)
    record = await site.services.games.record(view.id)
    assert record.winner == 0


async def test_a_spectator_follows_live_and_cannot_play(site: Site, pages: Pages) -> None:
    """A public game: a stranger's page follows the moves (its board patched move by move
    is the server's board) and offers no action; when the server stops showing its games
    to strangers, the open page says so and stops."""
    view = await site.start_game("groups", options={"start": "drop"})
    await site.services.settings.update(GUILD, can_manage=True, web="public")
    watcher = await pages.open(site, None, view.id)
    await wait_ply(watcher, 0)
    assert await watcher.locator("#actions button").count() == 0
    for ply, (player, cell) in enumerate([(ALICE, "c3"), (BOB, "c5"), (ALICE, "d3")], 1):
        await site.services.games.play(view.id, player.id, cell)
        await wait_ply(watcher, ply)
        piece = f'#board [data-cell="{cell}"][data-piece]'
        await watcher.wait_for_selector(piece, timeout=WAIT_MS)
    assert await board_matches_the_server(watcher, site, view.id)
    await click_cell(watcher, "e3")
    assert await watcher.locator("#board .hint").count() == 0
    assert (await site.services.games.record(view.id)).ply == 3
    await site.services.settings.update(GUILD, can_manage=True, web="players")
    await watcher.wait_for_selector("text=Only the two players of this game", timeout=WAIT_MS)


async def test_refusals_are_clear_pages(site: Site, pages: Pages) -> None:
    """A stranger and a forged link get a page saying why, and nothing changes; the
    stranger's page says how players sign in (the Board button alone cannot)."""
    view = await site.start_game()
    stranger = await pages.open(site, None, view.id)
    text = await stranger.inner_text("main")
    assert "Only the two players of this game can see it" in text
    assert f"/link game:{view.id}" in text and "Board button" in text
    await stranger.goto(f"{site.url}signin?t=forged")
    assert "not valid" in await stranger.inner_text("main")


async def test_resign_asks_for_confirmation(site: Site, pages: Pages) -> None:
    """Resign, then "Yes, resign": the game ends; the opponent's page shows it."""
    view = await site.start_game()
    alice = await pages.open(site, ALICE, view.id)
    bob = await pages.open(site, BOB, view.id)
    await click_button(alice, "Offer draw")
    await bob.get_by_role("button", name="Decline draw").wait_for(timeout=WAIT_MS)
    await click_button(bob, "Decline draw")
    await alice.get_by_role("button", name="Offer draw").wait_for(timeout=WAIT_MS)
    await click_button(alice, "Resign")
    assert (await site.services.games.record(view.id)).is_active
    await click_button(alice, "Yes, resign")
    await bob.wait_for_selector("text=Bob wins", timeout=WAIT_MS)
    assert not (await site.services.games.record(view.id)).is_active


async def test_undo_asked_refused_then_allowed(site: Site, pages: Pages) -> None:
    """Alice asks to take back her move; Bob's page offers Allow and Refuse. Refused, she
    may ask again after the next move; allowed, both pages go back to the start."""
    view = await site.start_game("groups", options={"start": "drop"})
    alice = await pages.open(site, ALICE, view.id)
    bob = await pages.open(site, BOB, view.id)
    await click_cell(alice, "c3")
    await wait_ply(bob, 1)
    await click_button(alice, "Ask to undo")
    await bob.wait_for_selector("text=Alice asks to take back their last turn", timeout=WAIT_MS)
    await click_button(bob, "Refuse undo")
    await alice.get_by_role("button", name="Ask to undo").wait_for(timeout=WAIT_MS)
    await click_button(alice, "Ask to undo")
    await alice.wait_for_selector("text=you can ask again after the next move", timeout=WAIT_MS)
    assert (await site.services.games.record(view.id)).ply == 1
    await click_cell(bob, "c5")
    await wait_ply(alice, 2)
    await click_button(alice, "Ask to undo")
    await bob.get_by_role("button", name="Allow undo").wait_for(timeout=WAIT_MS)
    await click_button(bob, "Allow undo")
    await wait_ply(bob, 0)
    await wait_ply(alice, 0)
    assert (await site.services.games.record(view.id)).ply == 0
    assert await alice.locator('#board [data-cell="c3"][data-piece]').count() == 0


async def test_clocks_replay_and_export_links(site: Site, pages: Pages) -> None:
    """A timed game's page: each player's clock (the running one marked), the replay
    slider over every position, and the export links, which download the record."""
    view = await site.start_game("groups", options={"start": "drop"}, time_control="3d")
    drops = ["c3", "c5", "d3", "d5", "e3", "e5"]
    for index, cell in enumerate(drops):
        await site.services.games.play(view.id, (ALICE if index % 2 == 0 else BOB).id, cell)
    site.env.clock.advance(timedelta(days=1, hours=18, minutes=30))
    alice = await pages.open(site, ALICE, view.id)
    await wait_ply(alice, len(drops))
    running = alice.locator('.player[data-seat="0"]')
    assert "to-move" in (await running.get_attribute("class") or "")
    assert await running.locator(".clock").inner_text() == "1d 5h"  # 3d less 1d 18h 30m
    assert await alice.locator('.player[data-seat="1"] .clock').inner_text() == "3d 0h"
    for ply in range(len(drops) + 1):
        await alice.evaluate(
            """(ply) => {
                const slider = document.getElementById("replay");
                slider.value = String(ply);
                slider.dispatchEvent(new Event("input"));
            }""",
            ply,
        )
        await alice.wait_for_function(
            "(ply) => document.querySelectorAll('#board [data-piece]').length === ply",
            arg=ply,
            timeout=WAIT_MS,
        )  # a stone dropped by each move
        shown = set(drops[:ply])
        for cell in drops:
            occupied = await alice.locator(f'#board [data-cell="{cell}"][data-piece]').count()
            assert occupied == (cell in shown), (ply, cell)
    hrefs = [await a.get_attribute("href") for a in await alice.locator("#links a").all()]
    assert hrefs == [f"/g/{view.id}/export/text"]
    for href in hrefs:
        response = await alice.request.get(f"{site.url.rstrip('/')}{href}")
        assert response.status == 200
        assert response.headers["content-disposition"].startswith("attachment")
        assert "c3" in await response.text()


async def test_the_board_follows_the_dark_theme(site: Site, pages: Pages) -> None:
    """With a dark system theme the board's wood is darker and its lines lighter."""
    view = await site.start_game("stones", options={"size": 9})
    colours = {}
    for scheme in ("light", "dark"):
        page = await pages.open(site, ALICE, view.id, colours=scheme)
        colours[scheme] = await page.evaluate(
            """() => {
                const fill = (selector) => getComputedStyle(
                    document.querySelector(`#board ${selector}`)).fill;
                return [fill(".wood"), getComputedStyle(
                    document.querySelector("#board .grid")).stroke];
            }"""
        )
    light, dark = colours["light"], colours["dark"]
    assert light != dark

    def brightness(css: str) -> int:
        found = re.fullmatch(r"rgb\((\d+), (\d+), (\d+)\)", css)
        assert found, css
        return sum(int(part) for part in found.groups())

    assert brightness(dark[0]) < brightness(light[0])  # the wood
    assert brightness(dark[1]) > brightness(light[1])  # the lines


async def test_no_horizontal_scroll_at_360_pixels(site: Site, pages: Pages) -> None:
    """The largest boards of every game, a tournament's page and a player's page fit a
    360 px wide phone without scrolling sideways; the boards' style sheets (which place
    their cells) are allowed by the pages' security policy, whatever the size."""
    views = [
        await site.start_game("rekushu", options={"size": 20}, colour="black"),
        await site.start_game("diffusion"),
        await site.start_game("hexade", options={"size": 12}),
        await site.start_game("stones", options={"size": 19}),
        await site.start_game("groups"),
    ]
    tournaments = site.services.tournaments
    cup = await tournaments.create(
        guild_id=GUILD, channel_id=1, member=Member(ALICE, can_manage=True), game="groups",
        format="round-robin", name="A tournament with a rather long name for a phone",
    )  # fmt: skip
    for player in (ALICE, BOB, CAROL):
        await tournaments.join(GUILD, cup.id, player)
    await tournaments.start(GUILD, cup.id, Member(ALICE, can_manage=True))
    await site.services.games.resign(views[-1].id, BOB.id)  # a finished game for /u
    page = await pages.open(site, ALICE, views[0].id, width=360)
    addresses = [f"g/{view.id}" for view in views] + [f"t/{cup.id}", f"u/{ALICE.id}"]
    for address in addresses:
        await page.goto(site.url + address)
        if address.startswith("g/"):
            await page.wait_for_selector("#board svg")
            placed = await page.evaluate(
                """() => [...document.querySelectorAll("#board [data-cell]")].every(
                    (cell) => cell.getBBox().width > 10)"""
            )
            assert placed, address
        else:
            await page.wait_for_selector("table")
        fits = await page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        assert fits, address
