"""The real bot against the fake Discord: clicks from a modified client that sends custom ids
the message does not show. Every kind of component, forged on every kind of message the bot
makes, is answered privately and changes nothing; ids too large for any database are
refused as malformed, without a traceback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from datetime import timedelta
from pathlib import Path

import pytest

from bot.discord_ui.origins import _BY_KIND, MALFORMED, NOT_HERE
from bot.services.clock import ManualClock
from rules import get_game
from tests.discord.test_e2e import private_reply, running
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.interactions import FakeInteraction
from tests.fakediscord.state import FakeChannel, FakeMessage

HUGE = "9" * 25
"""A number far beyond 64 bits."""


async def new_game(
    club: FakeClub, options: dict[str, object]
) -> tuple[FakeMessage, FakeMessage, FakeChannel]:
    """Alice challenges Bob, Bob accepts: the challenge (accepted now), the new game's
    first board and its thread."""
    fake = club.fake
    play = await fake.slash(club.alice, club.channel, "play", {"opponent": club.bob, **options})
    challenge = (await play.response()).message
    assert challenge is not None
    accept = await fake.click(club.bob, challenge, label="Accept")
    thread = await fake.wait_for_thread(club.channel, after=accept)
    board = await fake.wait_for_message(thread, lambda m: "The game begins" in m.content)
    return challenge, board, thread


def values(custom_id: str) -> list[str] | None:
    """A forged menu choice for the Export menu (a game of the history), else none."""
    return ["1"] if ":hx:" in custom_id else None


async def public_answer(interaction: Awaitable[FakeInteraction]) -> FakeMessage:
    """The public message an interaction was answered with."""
    response = await (await interaction).response()
    assert response.message is not None and not response.ephemeral, response
    return response.message


def forged_ids(
    *, challenge: int, game: int, finished: int, user: int, tournament: int, ply: int
) -> list[str]:
    """One custom id of every component kind, about the given subjects (`ply`: the move
    the draw offer or undo request was made at)."""
    return [
        f"tabula:ch:{challenge}:accept",
        f"tabula:ch:{challenge}:decline",
        f"tabula:ch:{challenge}:cancel",
        f"tabula:g:{game}:move",
        f"tabula:g:{game}:draw",
        f"tabula:g:{game}:undo",
        f"tabula:g:{game}:resign",
        f"tabula:q:{game}:pass",
        f"tabula:dr:{game}:{ply}:y",
        f"tabula:dr:{game}:{ply}:n",
        f"tabula:ud:{game}:{ply}:y",
        f"tabula:ud:{game}:{ply}:n",
        f"tabula:dr:{game}:{ply + 1}:y",  # an offer made at another move
        f"tabula:ud:{game}:{ply + 1}:y",
        f"tabula:rs:{game}",
        f"tabula:rm:{finished}",
        f"tabula:sg:{game}",
        f"tabula:hp:{user}:-:1",
        f"tabula:hp:{user}:-:0",
        f"tabula:hx:{user}:-:1",
        f"tabula:te:{tournament}:join",
        f"tabula:te:{tournament}:leave",
    ]


SAMPLE = forged_ids(challenge=1, game=1, finished=1, user=1, tournament=1, ply=0)
"""The forged ids' shapes (subjects aside)."""


def snapshot(message: FakeMessage) -> tuple[object, ...]:
    """What a forged click must not change about a message."""
    return (message.content, message.components, message.embeds, len(message.edits))


FAMILIES = {"g": "board", "q": "board", "rm": "board", "hp": "history", "hx": "history"}
"""Kinds of components that sit together on one message (the rest are on their own)."""


def purpose(custom_id: str) -> tuple[str, ...]:
    """What a component is for, as this test sees it: its family of kinds, its subject
    and, for an answer to a draw offer or an undo request, the move the offer was at."""
    _, kind, subject, *rest = custom_id.split(":")
    if kind in ("dr", "ud"):
        return (kind, subject, rest[0])
    return (FAMILIES.get(kind, kind), subject)


def own(message: FakeMessage) -> set[tuple[str, ...]]:
    """The purposes of the components a message shows."""
    return {
        purpose(str(component["custom_id"]))
        for component in message.iter_components()
        if str(component.get("custom_id", "")).startswith("tabula:")
    }


async def test_every_component_of_the_bot_is_forged(fake_club: FakeClub, tmp_path: Path) -> None:
    """Every persistent component the running bot registered (its dynamic items, and any
    persistent view) has a custom id in `forged_ids`, and every kind `origins` knows is
    forged: a component added later without a forged-click test fails here."""
    async with running(fake_club.fake, tmp_path / "t.sqlite3") as bot:
        # discord.py has no public list of the registered dynamic items.
        registered = list(bot._connection._view_store._dynamic_items.values())
        views = bot.persistent_views
    assert len(registered) >= 8
    for item in registered:
        template = item.__discord_ui_compiled_template__
        assert any(template.fullmatch(custom_id) for custom_id in SAMPLE), item.__name__
    for view in views:  # components that are not dynamic items
        for child in view.children:
            assert getattr(child, "custom_id", None) in SAMPLE, child
    kinds = {custom_id.split(":")[1] for custom_id in SAMPLE}
    assert kinds == set(_BY_KIND), set(_BY_KIND) ^ kinds


async def test_forged_clicks_change_nothing(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every component kind forged on every kind of message the bot makes: an open, an
    accepted and an expired challenge, boards in play and over, a draw offer and an undo
    request, a tournament and a league announcement, and (privately) a turn preview, a
    "Show game" offer, a history page and a resign confirmation; by Alice, and on the
    public messages by Carol, who plays in none of the games. Each gets a
    private "does not belong" and nothing is edited, answered, accepted, resigned,
    joined or cancelled. A draw offer is not an undo request: answering one on the
    other's message is a forgery too."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    channel = fake_club.channel
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock) as bot:
        # Challenge 1 expires (its buttons stay, disabled).
        await private_reply(fake, fake.slash(carol, channel, "config", {"challenge_expiry": "10m"}))
        play = await fake.slash(alice, channel, "play", {"opponent": bob, "game": "groups"})
        expired = (await play.response()).message
        assert expired is not None
        clock.advance(timedelta(minutes=11))
        await fake.wait_for(lambda: True if "expired" in expired.content else None)
        # Game 1 (challenge 2) finishes: Alice resigns; its final board has Rematch.
        accepted, first_board, thread1 = await new_game(
            fake_club, {"game": "groups", "colour": "white"}
        )
        assert "accepted" in accepted.content and not accepted.components
        resigned = await fake.slash(alice, thread1, "resign", {})
        final = (await resigned.response()).message
        assert final is not None and "Rematch" in [label for _, label, _ in final.buttons()]
        # Game 2 (groups) and game 3 (Diffusion): Alice to move in both.
        _, _, thread2 = await new_game(fake_club, {"game": "groups", "colour": "white"})
        _, _, thread3 = await new_game(fake_club, {"game": "diffusion", "colour": "white"})
        # Alice moves in game 2: its board, and "Show game #3" offered to her privately.
        played = await fake.slash(alice, thread2, "move", {"notation": "d3-e2"})
        board = (await played.response()).message
        assert board is not None and not board.ephemeral
        (show,) = await played.followups()
        assert show.ephemeral and [label for _, label, _ in show.buttons()] == ["Show game #3"]
        # She asks to take d3-e2 back and offers a draw: both wait for Bob's answer.
        undo_request = await public_answer(fake.click(alice, board, label="Undo"))
        offer = await public_answer(fake.click(alice, board, label="Offer draw"))
        assert undo_request.buttons() and offer.buttons()
        resign_ask = (await (await fake.click(alice, board, label="Resign")).response()).message
        assert resign_ask is not None and resign_ask.ephemeral
        # A move inside a Diffusion turn is previewed privately.
        first_step = get_game("diffusion").new_game().legal_notations()[0]
        preview = (
            await (await fake.slash(alice, thread3, "move", {"notation": first_step})).response()
        ).message
        assert preview is not None and preview.ephemeral and preview.components
        # An open challenge (5), a tournament and a league taking entries, a history.
        play = await fake.slash(alice, channel, "play", {"opponent": bob, "game": "groups"})
        challenge = (await play.response()).message
        assert challenge is not None and challenge.buttons()
        created = await fake.slash(
            carol, channel, "tournament create", {"game": "groups", "format": "round-robin"}
        )
        announcement = (await created.response()).message
        assert announcement is not None and announcement.buttons()
        league = await public_answer(
            fake.slash(carol, channel, "league create", {"game": "groups", "season": "30d"})
        )
        history = (await (await fake.slash(alice, channel, "history", {})).response()).message
        assert history is not None and history.ephemeral and history.components

        # Each kind about other subjects than a message's own (when the first is its
        # own, the second is not).
        first = forged_ids(challenge=5, game=2, finished=1, user=bob.id, tournament=1, ply=1)
        second = forged_ids(challenge=1, game=3, finished=2, user=alice.id, tournament=2, ply=0)
        public = [expired, accepted, first_board, final, board, undo_request, offer]
        public += [challenge, announcement, league]
        private = [show, resign_ask, preview, history]
        clicks = [(alice, message) for message in public + private]
        clicks += [(carol, message) for message in public]  # she plays in none of them
        forged = 0
        for user, message in clicks:
            mine = own(message)
            batch = [
                one if purpose(one) not in mine else two
                for one, two in zip(first, second, strict=True)
            ]
            assert not {purpose(custom_id) for custom_id in batch} & mine
            before = snapshot(message)
            texts = await asyncio.gather(  # all at once: a test of seconds, not half a minute
                *(
                    private_reply(
                        fake, fake.forge(user, message, custom_id, values=values(custom_id))
                    )
                    for custom_id in batch
                )
            )
            refused = {
                custom_id for custom_id, text in zip(batch, texts, strict=True) if text == NOT_HERE
            }
            assert refused == set(batch), (user.name, message.content[:40], set(batch) - refused)
            assert snapshot(message) == before, (user.name, message.content[:40])
            forged += len(batch)
        assert forged == len(clicks) * len(first)

        # Nothing happened: game 2 waits for Bob, its offer and request unanswered, game 3
        # in Alice's turn; no challenge, rematch or entry was made, accepted or cancelled.
        repository = bot.services.repository
        assert (await bot.services.games.record(2)).ply == 1
        assert (await bot.services.games.record(3)).ply == 1
        assert undo_request.buttons() and offer.buttons()
        assert (await repository.get_challenge(5)).status.value == "open"  # type: ignore[union-attr]
        assert await repository.get_challenge(6) is None
        assert await repository.list_entrants(1) == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_huge_ids_are_malformed(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Numbers beyond 64 bits in any custom id: a private "malformed", no traceback."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3"):
        _, board, _ = await new_game(fake_club, {"game": "groups", "colour": "white"})
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
