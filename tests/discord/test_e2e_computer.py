"""The real bot against the fake Discord: a short game against the computer, whose moves
are searched in a real worker process."""

from __future__ import annotations

from pathlib import Path

from bot.client import TabulaBot
from bot.config import Settings
from bot.services.clock import ManualClock
from bot.storage.repository import NewGame
from bot.storage.sqlite import SqliteRepository
from tests.discord.test_e2e import move, private_reply
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.interactions import FakeInteraction


async def announced(fake: FakeDiscord, interaction: FakeInteraction, opening: str) -> str:
    """The public announcement an interaction in a thread produced: its answer or, when
    the bot deferred it (the computer's estimate can take longer on a busy machine), the
    post in the thread starting with `opening`."""
    response = await interaction.response()
    if response.type != 5:
        assert response.message is not None and not response.message.ephemeral
        return response.message.content
    assert response.ephemeral
    posted = await fake.wait_for_message(
        interaction.channel, lambda m: m.content.startswith(opening), after=interaction
    )
    return posted.content


async def test_a_game_against_the_computer(fake_club: FakeClub, tmp_path: Path) -> None:
    """/play against the bot at a level: a thread, the computer's replies posted like a
    player's, an undo it allows, a draw it declines, a level refused against a person."""
    fake, alice = fake_club.fake, fake_club.alice
    settings = Settings(token=fake.token, database=tmp_path / "c.sqlite3", ai_seconds=1.0)
    bot = TabulaBot(settings, tick_seconds=0.05, guild_ready_timeout=0.05)
    channel = fake_club.channel
    async with fake.run_client(bot):
        await bot.sync_commands()
        text = await private_reply(
            fake,
            fake.slash(
                alice,
                channel,
                "play",
                {"game": "groups", "opponent": fake_club.bob, "level": "easy"},
            ),
        )
        assert (
            text
            == f"A level is for games against me: choose {fake.bot_user.mention} as the opponent."
        )
        play = await fake.slash(
            alice,
            channel,
            "play",
            {"game": "groups", "opponent": fake.bot_user, "level": "easy", "colour": "white"},
        )
        announcement = (await play.response()).message
        assert announcement is not None and not announcement.ephemeral
        board = await fake.wait_for_message(None, lambda m: "The game begins" in m.content)
        thread = board.channel
        assert thread.name == "Groups #1 · Alice vs Tabula (easy)"
        edited = await fake.wait_for_message(channel, lambda m: f"<#{thread.id}>" in m.content)
        assert edited is announcement
        assert announcement.content.startswith(f"{alice.mention} plays Groups against Tabula")
        response = await move(fake, alice, thread, "d3-e2")
        assert response.message is not None
        assert "**Tabula (easy, Black)** to move." in response.message.content
        reply = await fake.wait_for_message(
            thread, lambda m: "Move 2: Tabula (easy) played" in m.content, timeout=30
        )
        assert reply.attachments and f"{alice.mention} to move (White)" in reply.content
        assert [label for _, label, _ in reply.buttons()] == [
            "Move", "Offer draw", "Undo", "Resign",
        ]  # fmt: skip
        undo_inter = await fake.slash(alice, thread, "undo")
        undo = await announced(fake, undo_inter, "Tabula (easy) allowed")
        assert "Tabula (easy) allowed taking back **d3-e2, " in undo
        draw_inter = await fake.slash(alice, thread, "draw")
        draw = await announced(fake, draw_inter, "Tabula (easy) declines")
        assert draw == "Tabula (easy) declines the draw in game #1: play on."
        record = await bot.services.games.record(1)
        assert record.ply == 0 and record.has_computer and not record.rated
        assert record.players[1] is None and record.ai_levels == (None, "easy")


async def test_a_restarted_bot_makes_the_computers_waiting_moves(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """A game stored with the computer to move (the bot stopped while it thought) gets
    its move as soon as the bot is connected again."""
    fake, alice = fake_club.fake, fake_club.alice
    database = tmp_path / "r.sqlite3"
    repository = await SqliteRepository.open(database)
    record = await repository.create_game(
        NewGame(
            game="groups",
            options={"start": "standard"},
            guild_id=fake_club.guild.id,
            channel_id=fake_club.channel.id,
            players=(None, alice.id),
            names=("Tabula (easy)", "Alice"),
            created_at=ManualClock().now(),
            ai_levels=("easy", None),
        )
    )
    await repository.close()
    settings = Settings(token=fake.token, database=database, ai_seconds=1.0)
    bot = TabulaBot(settings, tick_seconds=0.05, guild_ready_timeout=0.05)
    async with fake.run_client(bot):
        posted = await fake.wait_for_message(
            fake_club.channel, lambda m: "Move 1: Tabula (easy) played" in m.content, timeout=30
        )
        assert f"{alice.mention} to move (Black)" in posted.content
        assert (await bot.services.games.record(record.id)).ply == 1
