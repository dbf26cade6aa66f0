"""/draw without a game number: in a thread, that thread's game; elsewhere, the one game
with the opponent's offer."""

from __future__ import annotations

from pathlib import Path

from tests.discord.test_e2e import challenge_and_accept, running
from tests.fakediscord.fixtures import FakeClub


async def test_draw_without_a_number_offers_here_or_accepts_the_one_offer(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Alice plays Bob twice, each game in its thread; Bob offers a draw in game #2. In
    game #1's thread Alice's /draw offers a draw there (it accepts nothing elsewhere); in
    the channel, where both games started, it accepts Bob's offer in #2, the one game
    with an offer to her; game #1 goes on with her offer standing."""
    fake, alice, bob, channel = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        _, first = await challenge_and_accept(fake_club, {"game": "groups"})
        play = await fake.slash(alice, channel, "play", {"game": "hexade", "opponent": bob})
        challenge = (await play.response()).message
        assert challenge is not None
        accept = await fake.click(bob, challenge, label="Accept")
        second = await fake.wait_for_thread(channel, after=accept)
        await fake.wait_for_message(second, lambda m: "The game begins" in m.content)

        offered = (await (await fake.slash(bob, second, "draw")).response()).message
        assert offered is not None and "offers a draw in game #2" in offered.content
        mine = (await (await fake.slash(alice, first, "draw")).response()).message
        assert mine is not None and "offers a draw in game #1" in mine.content
        games = bot.services.games
        assert (await games.record(2)).is_active

        answer = (await (await fake.slash(alice, channel, "draw")).response()).message
        assert answer is not None and answer.ephemeral
        assert answer.content == f"Done: see <#{second.id}>."
        await fake.wait_for_message(second, lambda m: "**Draw** (draw agreed" in m.content)
        ended = await games.record(2)
        assert not ended.is_active and ended.result_reason is not None
        assert ended.result_reason.startswith("draw agreed")
        one = await games.record(1)
        assert one.is_active and one.draw_offer is not None
        assert one.draw_offer.seat == one.seat_of(alice.id)
