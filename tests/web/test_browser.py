"""Players and spectators in a real browser: clicking moves in every game, live pages."""

from __future__ import annotations

from bot.storage.repository import GameStatus
from tests.web.browser import chromium, click_button, click_cell, open_as, wait_ply
from tests.web.conftest import ALICE, BOB, GUILD, Site

DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
"""Groups with start=drop: White connects six with the last drop."""


async def test_two_players_play_a_whole_groups_game_by_clicking(site: Site) -> None:
    """Alice and Bob, each in their own browser, click every drop of a game to its end."""
    view = await site.start_game("groups", options={"start": "drop"})
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        bob = await open_as(browser, site, BOB, view.id)
        for ply, cell in enumerate(DROP_WIN):
            mover, other = (alice, bob) if ply % 2 == 0 else (bob, alice)
            await click_cell(mover, cell)
            await wait_ply(mover, ply + 1)
            await wait_ply(other, ply + 1)  # live: the opponent's page follows
        await alice.wait_for_selector("text=Alice wins", timeout=15_000)
    record = await site.services.games.record(view.id)
    assert record.status is GameStatus.FINISHED and record.winner == 0
    assert [n.move.notation for n in site.env.notifier.moves] == DROP_WIN


async def test_a_stone_then_its_target_with_the_targets_shown(site: Site) -> None:
    """Groups: a click on a stone marks where it may go; a click there moves it."""
    view = await site.start_game("groups")
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        await click_cell(alice, "c4")
        hints = await alice.locator("#board .hint").count()
        legal = (await site.services.games.view(view.id)).state.legal_notations()
        assert hints == sum(1 for m in legal if m.startswith("c4-"))
        await click_cell(alice, "b3")
        await wait_ply(alice, 1)
    assert (await site.services.games.last_turn(view.id))[0].notation == "c4-b3"


async def test_keyboard_play(site: Site) -> None:
    """Arrows move the board's cursor; Enter chooses, as a click would."""
    view = await site.start_game("hexade")
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        await alice.focus("#board")
        await alice.keyboard.press("ArrowRight")  # the first arrow puts the cursor on the board
        await alice.keyboard.press("ArrowUp")
        await alice.keyboard.press("Enter")
        await wait_ply(alice, 1)
        label = await alice.text_content("#cursor")
        assert label
    assert (await site.services.games.record(view.id)).ply == 1


async def test_a_diffusion_turn_with_an_echo_is_sent_whole(site: Site) -> None:
    """Alice builds a four-move turn with two echoes; Bob sees nothing until it is sent."""
    view = await site.start_game("diffusion")
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        bob = await open_as(browser, site, BOB, view.id)
        await click_cell(alice, "f5")
        await click_cell(alice, "e5")
        await click_button(alice, "Echo")
        await click_cell(alice, "o5")
        await click_cell(alice, "p5")
        await alice.wait_for_selector("text=Your turn so far: f5-e5, echo, o5-p5", timeout=15_000)
        await click_button(alice, "Echo")
        assert (await site.services.games.record(view.id)).ply == 0  # nothing sent yet
        assert await bob.get_attribute("#ply", "data-ply") == "0"
        await click_button(alice, "Send turn")
        await wait_ply(alice, 4)
        await wait_ply(bob, 4)
    moves = [m.move for m in site.env.notifier.moves]
    assert [r.notation for r in site.env.notifier.moves[0].turn_moves] == [
        "f5-e5", "echo", "o5-p5", "echo",
    ]  # fmt: skip
    assert len(moves) == 1


async def test_a_rekushu_claim_as_a_second_step(site: Site) -> None:
    """Rekushu: a placement, then the claim's corners, or placing without a claim."""
    view = await site.start_game("rekushu", options={"size": 8}, colour="black")
    for index, cell in enumerate(["a1", "h8", "a2", "g8", "b1", "h7"]):
        await site.services.games.play(view.id, (ALICE if index % 2 == 0 else BOB).id, cell)
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        await click_cell(alice, "b2")
        await alice.get_by_role("button", name="Place without claiming").wait_for()
        await click_cell(alice, "a1")
        await click_cell(alice, "b2")
        await wait_ply(alice, 7)
    assert (await site.services.games.last_turn(view.id))[0].notation == "b2 a1-b2"


async def test_stones_return_and_stake_are_buttons(site: Site) -> None:
    """Stones: White's Return is a button; Black's stake is the Stake button, then a point."""
    view = await site.start_game("stones", colour="black")
    await site.services.games.play(view.id, ALICE.id, "a1")
    async with chromium() as browser:
        bob = await open_as(browser, site, BOB, view.id)
        alice = await open_as(browser, site, ALICE, view.id)
        await click_button(bob, "Return")
        await wait_ply(bob, 2)
        await wait_ply(alice, 2)
        await click_button(alice, "Stake")
        await click_cell(alice, "a2")
        await wait_ply(alice, 3)
    notations = [n.move.notation for n in site.env.notifier.moves]
    assert notations == ["a1", "return", "stake a2"]


async def test_a_hexade_game_to_its_end(site: Site) -> None:
    """Hexade by clicking: White's six survives Black's reply and wins."""
    view = await site.start_game("hexade")
    cells = ["j10", "a1", "j13", "a3", "j11", "a5", "j12", "a7", "j14", "a9", "j15", "a10"]
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        bob = await open_as(browser, site, BOB, view.id)
        for ply, cell in enumerate(cells):
            mover = alice if ply % 2 == 0 else bob
            await click_cell(mover, cell)
            await wait_ply(mover, ply + 1)
        await alice.wait_for_selector("text=Alice wins", timeout=15_000)
    record = await site.services.games.record(view.id)
    assert record.winner == 0


async def test_a_spectator_follows_live_and_cannot_play(site: Site) -> None:
    """A public game: a stranger's page follows the moves and offers no action."""
    view = await site.start_game("groups", options={"start": "drop"})
    await site.services.settings.update(GUILD, can_manage=True, web="public")
    async with chromium() as browser:
        watcher = await open_as(browser, site, None, view.id)
        await wait_ply(watcher, 0)
        assert await watcher.locator("#actions button").count() == 0
        await site.services.games.play(view.id, ALICE.id, "c3")
        await wait_ply(watcher, 1)
        await site.services.games.play(view.id, BOB.id, "c5")
        await wait_ply(watcher, 2)
        await click_cell(watcher, "d3")
        assert await watcher.locator("#board .hint").count() == 0
    assert (await site.services.games.record(view.id)).ply == 2


async def test_refusals_are_clear_pages(site: Site) -> None:
    """A stranger and a forged link get a page saying why, and nothing changes."""
    view = await site.start_game()
    async with chromium() as browser:
        stranger = await open_as(browser, site, None, view.id)
        assert "Only the two players of this game can see it" in await stranger.inner_text("main")
        await stranger.goto(f"{site.url}signin?t=forged")
        assert "not valid" in await stranger.inner_text("main")


async def test_resign_asks_for_confirmation(site: Site) -> None:
    """Resign, then "Yes, resign": the game ends; the opponent's page shows it."""
    view = await site.start_game()
    async with chromium() as browser:
        alice = await open_as(browser, site, ALICE, view.id)
        bob = await open_as(browser, site, BOB, view.id)
        await click_button(alice, "Offer draw")
        await bob.get_by_role("button", name="Decline draw").wait_for(timeout=15_000)
        await click_button(bob, "Decline draw")
        await alice.get_by_role("button", name="Offer draw").wait_for(timeout=15_000)
        await click_button(alice, "Resign")
        assert (await site.services.games.record(view.id)).is_active
        await click_button(alice, "Yes, resign")
        await bob.wait_for_selector("text=Bob wins", timeout=15_000)
    assert not (await site.services.games.record(view.id)).is_active


async def test_no_horizontal_scroll_at_360_pixels(site: Site) -> None:
    """The largest boards fit a 360 px wide phone without scrolling sideways."""
    views = [
        await site.start_game("rekushu", options={"size": 20}, colour="black"),
        await site.start_game("diffusion"),
        await site.start_game("hexade", options={"size": 12}),
    ]
    async with chromium() as browser:
        for view in views:
            page = await open_as(browser, site, ALICE, view.id, width=360)
            await page.wait_for_selector("#board svg")
            wide = await page.evaluate(
                "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            )
            await page.screenshot(path=str(site.env.backend.path.parent / f"{view.game}.png"))
            assert wide, view.game
