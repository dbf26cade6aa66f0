"""The real bot against the fake Discord: a game is visible and addressable only in its
own server (and by its players in direct messages), and ids too large for any database
are simply no game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord.test_e2e import challenge_and_accept, private_reply, running
from tests.fakediscord.errors import FakeDiscordError
from tests.fakediscord.fixtures import FakeClub

LARGEST_OPTION = 2**53 - 1
"""The largest integer Discord's client sends in an integer option."""


async def test_another_server_sees_no_game(fake_club: FakeClub, tmp_path: Path) -> None:
    """In another server, /board, /move, /resign and /draw with Club's game number answer
    exactly as for a game that does not exist, post nothing and name no player, even to
    one of the game's own players; in direct messages only the players see it."""
    fake, alice = fake_club.fake, fake_club.alice
    other = fake.add_guild("Elsewhere")
    lobby = other.add_channel("lobby")
    dave = fake.add_user("dave", global_name="Dave")
    other.add_member(dave)
    other.add_member(alice)
    async with running(fake, tmp_path / "t.sqlite3"):
        await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        for user in (dave, alice):
            commands: list[tuple[str, dict[str, object]]] = [
                ("board", {"game": 1}),
                ("move", {"game": 1, "notation": "c3"}),
                ("resign", {"game": 1}),
                ("draw", {"game": 1}),
                ("undo", {"game": 1}),
            ]
            for command, options in commands:
                text = await private_reply(fake, fake.slash(user, lobby, command, options))
                assert text == "There is no game #1.", (user, command)
        assert lobby.messages == []
        choices = await fake.autocomplete(alice, lobby, "board", {"game": ""}, focused="game")
        assert choices == []  # her game is in Club: not offered here
        choices = await fake.autocomplete(
            alice, fake_club.channel, "board", {"game": ""}, focused="game"
        )
        assert [c["value"] for c in choices] == [1]

        in_private = fake.dm_channel(alice)
        shown = await (await fake.slash(alice, in_private, "board", {"game": 1})).response()
        assert shown.message is not None and shown.message.attachments
        assert shown.message.channel is in_private
        assert "No move yet." in shown.message.content
        dave_private = fake.dm_channel(dave)
        text = await private_reply(fake, fake.slash(dave, dave_private, "board", {"game": 1}))
        assert text == "There is no game #1."


async def test_ids_beyond_any_database_are_no_game(fake_club: FakeClub, tmp_path: Path) -> None:
    """The largest number Discord sends is refused as no game (no apology, no traceback);
    a larger one Discord's client does not even send."""
    fake, alice, channel = fake_club.fake, fake_club.alice, fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3"):
        for command in ("board", "resign"):
            text = await private_reply(
                fake, fake.slash(alice, channel, command, {"game": LARGEST_OPTION})
            )
            assert text == f"There is no game #{LARGEST_OPTION}."
        with pytest.raises(FakeDiscordError, match="must be between"):
            await fake.slash(alice, channel, "board", {"game": 99999999999999999999999})
