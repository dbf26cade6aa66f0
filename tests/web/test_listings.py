"""The tournament page and the player page."""

from __future__ import annotations

import re
from html import escape

from bot.services.competition.tournaments import Member
from bot.services.records.records import PAGE_SIZE
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
    # Three players: one of them has no game in round 1, and the page says who.
    resting = [
        p for p in (ALICE, BOB, CAROL) if all(p.id not in q.pairing.players for q in view.pairings)
    ]
    assert len(resting) == 1
    assert f"<p>Not playing this round: {resting[0].name}.</p>" in text
    # The standings are a table, one row a player, each name linking to their page.
    head = re.search(r"<thead><tr>(.*?)</tr></thead>", text)
    assert head and re.findall(r">([^<]*)</th>", head[1])[:3] == ["#", "Player", "Pts"]
    for entrant in (ALICE, BOB, CAROL):
        assert f'<a href="/u/{entrant.id}">{entrant.name}</a>' in text
    tiebreaks = [t for t in view.record.format.tiebreaks if t.value != "Wins"]
    assert tiebreaks  # a round robin breaks ties
    note = re.search(r"<p>Tie-breaks: ([^<]*)\.</p>", text)
    assert note, text
    assert note[1].split(", ") == [f"{t.value} = {escape(t.label)}" for t in tiebreaks]
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


async def test_a_player_page_is_paged_and_shows_ratings(site: Site) -> None:
    """Twelve finished rated games: ten on the first page, newest first, with a link to
    the older ones; the rest on the second, with a link back; Bob's Groups rating."""
    ids = []
    for _ in range(PAGE_SIZE + 2):
        view = await site.start_game()
        await site.services.games.play(view.id, ALICE.id, "c4-b3")  # rated once moved
        await site.services.games.resign(view.id, BOB.id)
        ids.append(view.id)
    alice = await site.signed_in(ALICE, ids[0])
    first = await (await alice.get(f"/u/{BOB.id}")).text()
    listed = [int(n) for n in re.findall(r'<a href="/g/(\d+)">', first)]
    assert listed == ids[::-1][:PAGE_SIZE]
    assert f"Finished games ({len(ids)})" in first and "Page 1 of 2" in first
    assert f'<a href="/u/{BOB.id}?page=2">Older</a>' in first and "Newer" not in first
    second = await (await alice.get(f"/u/{BOB.id}?page=2")).text()
    assert [int(n) for n in re.findall(r'<a href="/g/(\d+)">', second)] == ids[1::-1]
    assert "Page 2 of 2" in second and f'<a href="/u/{BOB.id}?page=1">Newer</a>' in second
    ratings = re.search(r"<h2>Ratings</h2><ul>(.*?)</ul>", first)
    assert ratings, first
    assert re.fullmatch(r"<li>Groups: \d+.*? · 12 games: 0 won, 0 drawn, 12 lost</li>", ratings[1])
    nonsense = await (await alice.get(f"/u/{BOB.id}?page=nonsense")).text()
    assert "Page 1 of 2" in nonsense
