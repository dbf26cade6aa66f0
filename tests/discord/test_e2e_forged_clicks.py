"""The real bot against the fake Discord: clicks from a modified client that sends custom ids
the message does not show. Every kind of component, forged on every kind of message the bot
makes, is answered privately and changes nothing; ids too large for any database are
refused as malformed, without a traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.discord_ui.origins import MALFORMED, NOT_HERE, Origin, origin_of
from tests.discord.test_e2e import challenge_and_accept, private_reply, running
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeMessage

HUGE = "9" * 25
"""A number far beyond 64 bits."""


def forged_ids(
    *, challenge: int, game: int, finished: int, user: int, tournament: int
) -> list[str]:
    """One custom id of every component kind, about the given subjects."""
    return [
        f"tabula:ch:{challenge}:accept",
        f"tabula:ch:{challenge}:cancel",
        f"tabula:g:{game}:move",
        f"tabula:g:{game}:draw",
        f"tabula:g:{game}:undo",
        f"tabula:g:{game}:resign",
        f"tabula:q:{game}:pass",
        f"tabula:dr:{game}:0:y",
        f"tabula:dr:{game}:0:n",
        f"tabula:ud:{game}:0:y",
        f"tabula:rs:{game}",
        f"tabula:rm:{finished}",
        f"tabula:sg:{game}",
        f"tabula:hp:{user}:-:1",
        f"tabula:hp:{user}:-:0",
        f"tabula:hx:{user}:-:1",
        f"tabula:te:{tournament}:join",
        f"tabula:te:{tournament}:leave",
    ]


def snapshot(message: FakeMessage) -> tuple[object, ...]:
    """What a forged click must not change about a message."""
    return (message.content, message.components, message.embeds, len(message.edits))


def own(message: FakeMessage) -> set[Origin]:
    """The purposes and subjects of the components a message shows."""
    origins = set()
    for component in message.iter_components():
        origin = origin_of(str(component.get("custom_id", "")))
        if origin is not None:
            origins.add(origin)
    return origins


async def test_forged_clicks_change_nothing(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every component kind forged on a challenge, a board, an offer, a final board, a
    tournament announcement, a history page and a resign confirmation: a private "does not
    belong" and nothing edited, accepted, resigned, joined or cancelled."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    channel = fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        # Game 1 finishes (Alice resigns): its final board has Rematch.
        first_board, thread1 = await challenge_and_accept(
            fake_club, {"game": "groups", "colour": "white"}
        )
        resigned = await fake.slash(alice, thread1, "resign", {})
        final = (await resigned.response()).message
        assert final is not None and "Rematch" in [label for _, label, _ in final.buttons()]
        # Game 2 in progress, with a draw offer and a resign confirmation.
        play = await fake.slash(
            alice, channel, "play", {"opponent": bob, "game": "groups", "colour": "white"}
        )
        second = (await play.response()).message
        assert second is not None
        await (await fake.click(bob, second, label="Accept")).response()
        board = await fake.wait_for_message(
            None, lambda m: "The game begins" in m.content and m is not first_board
        )
        thread2 = board.channel
        offer = (await (await fake.click(alice, board, label="Offer draw")).response()).message
        assert offer is not None and offer.buttons()
        resign_ask = (await (await fake.click(alice, board, label="Resign")).response()).message
        assert resign_ask is not None and resign_ask.ephemeral
        # An open challenge (3), a tournament taking entries, Alice's history page.
        play = await fake.slash(alice, channel, "play", {"opponent": bob, "game": "groups"})
        challenge = (await play.response()).message
        assert challenge is not None and challenge.buttons()
        created = await fake.slash(
            carol, channel, "tournament create", {"game": "groups", "format": "round-robin"}
        )
        announcement = (await created.response()).message
        assert announcement is not None and announcement.buttons()
        history = (await (await fake.slash(alice, channel, "history", {})).response()).message
        assert history is not None and history.ephemeral and history.components

        ids = forged_ids(challenge=3, game=2, finished=1, user=bob.id, tournament=1)
        ids += forged_ids(challenge=3, game=1, finished=2, user=alice.id, tournament=1)
        targets = [challenge, first_board, board, offer, final, announcement, history, resign_ask]
        forged = 0
        for message in targets:
            mine = own(message)
            for custom_id in dict.fromkeys(ids):
                origin = origin_of(custom_id)
                if origin in mine:
                    continue  # the message's own purpose: not a forgery
                before = snapshot(message)
                values = [str(1)] if ":hx:" in custom_id else None
                click = fake.forge(alice, message, custom_id, values=values)
                text = await private_reply(fake, click)
                assert text == NOT_HERE, (message.id, custom_id)
                assert snapshot(message) == before, (message.id, custom_id)
                forged += 1
        assert forged > 100

        # Nothing happened: game 2 goes on, undecided; the challenge and the tournament
        # are as they were; the history was not replaced.
        record = await bot.services.games.record(2)
        assert record.status.value == "active" and record.ply == 0
        assert (await bot.services.repository.get_challenge(3)).status.value == "open"  # type: ignore[union-attr]
        assert await bot.services.repository.list_entrants(1) == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert thread2.messages[-1] is offer


async def test_huge_ids_are_malformed(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Numbers beyond 64 bits in any custom id: a private "malformed", no traceback."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3"):
        board, _ = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        history = (
            await (await fake.slash(alice, fake_club.channel, "history", {})).response()
        ).message
        assert history is not None
        ids = [
            f"tabula:ch:{HUGE}:accept",
            f"tabula:g:{HUGE}:move",
            f"tabula:q:{HUGE}:pass",
            f"tabula:dr:{HUGE}:0:y",
            f"tabula:ud:1:{HUGE}:y",
            f"tabula:rs:{HUGE}",
            f"tabula:rm:{HUGE}",
            f"tabula:sg:{HUGE}",
            f"tabula:hp:{HUGE}:-:0",
            f"tabula:hp:{alice.id}:-:{HUGE}",
            f"tabula:hx:{HUGE}:-:1",
            f"tabula:te:{HUGE}:join",
        ]
        for message in (board, history):
            for custom_id in ids:
                values = ["1"] if ":hx:" in custom_id else None
                text = await private_reply(
                    fake, fake.forge(alice, message, custom_id, values=values)
                )
                assert text == MALFORMED, custom_id
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
