"""The tournament page and the player page."""

from __future__ import annotations

from bot.services.competition.tournaments import Member
from tests.web.conftest import ALICE, BOB, CAROL, GUILD, Site


async def test_a_tournament_page_shows_standings_and_links_its_games(site: Site) -> None:
    """Entrants see the standings and the first round's pairings with links to games;
    strangers are refused until the server makes its pages public."""
    tournaments = site.services.tournaments
    created = await tournaments.create(
        guild_id=GUILD, channel_id=1, member=Member(ALICE, can_manage=True), game="groups",
        format="round-robin", name="Spring cup",
    )  # fmt: skip
    for player in (ALICE, BOB, CAROL):
        await tournaments.join(GUILD, created.id, player)
    await tournaments.start(GUILD, created.id, Member(ALICE, can_manage=True))
    await site.services.background.settle()
    view = await tournaments.view(created.id)
    game_id = next(p.game_id for p in view.pairings if p.game_id is not None)
    record = await site.services.games.record(game_id)
    player = ALICE if record.seat_of(ALICE.id) is not None else BOB
    visitor = await site.signed_in(player, game_id)
    page = await visitor.get(f"/t/{created.id}")
    text = await page.text()
    assert page.status == 200, text
    assert "Spring cup" in text and "Round 1" in text
    assert f'href="/g/{game_id}"' in text
    stranger = await site.visitor()
    assert (await stranger.get(f"/t/{created.id}")).status == 403
    await site.services.settings.update(GUILD, can_manage=True, web="public")
    assert (await stranger.get(f"/t/{created.id}")).status == 200


async def test_a_player_page_lists_ratings_and_finished_games(site: Site) -> None:
    """A finished game shows on its players' pages, with a link to it."""
    view = await site.start_game()
    await site.services.games.resign(view.id, BOB.id)
    alice = await site.signed_in(ALICE, view.id)
    page = await alice.get(f"/u/{BOB.id}")
    text = await page.text()
    assert page.status == 200, text
    assert f'href="/g/{view.id}"' in text and "alice won" in text
    assert "Groups" in text
    assert (await (await site.visitor()).get(f"/u/{BOB.id}")).status == 403
