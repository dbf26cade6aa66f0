"""discord.py's own calls against the fake: messages, edits, files, threads, fetches, DMs."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest

from tests.fakediscord import FakeInteraction
from tests.fakediscord.errors import FakeDiscordError
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.sample_bot import Script, ScriptedBot, board_png
from tests.fakediscord.state import THREAD_CREATED


@pytest.fixture
async def bot(fake_club: FakeClub) -> AsyncIterator[ScriptedBot]:
    """A connected scripted bot."""
    async with fake_club.fake.run_client(ScriptedBot()) as client:
        yield client


async def run(club: FakeClub, bot: ScriptedBot, script: Script) -> FakeInteraction:
    """alice runs `/do` in #games; waits until the script is done, re-raising its error."""
    bot.script = script
    before = bot.finished
    interaction = await club.fake.slash(club.alice, club.channel, "do")
    await club.fake.wait_for(lambda: bot.finished > before or None, what="the script")
    if bot.failures:
        raise bot.failures[0]
    return interaction


def png_file(name: str, width: int = 20) -> discord.File:
    """A PNG as a discord.File."""
    return discord.File(
        io.BytesIO(board_png(width, 10)), name, description=f"A test picture, {name}."
    )


def text_channel(bot: ScriptedBot, club: FakeClub) -> discord.TextChannel:
    """#games as the bot sees it."""
    channel = bot.get_channel(club.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_files_in_a_response_and_its_edit(fake_club: FakeClub, bot: ScriptedBot) -> None:
    """A response with a file, then an edit replacing it: the original shows the new file."""

    async def script(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("board", file=png_file("a.png"))
        await interaction.edit_original_response(
            content="board 2", attachments=[png_file("b.png", 30)]
        )
        fetched = await interaction.original_response()
        assert [a.filename for a in fetched.attachments] == ["b.png"]

    interaction = await run(fake_club, bot, script)
    original = interaction.original
    assert original is not None and original.content == "board 2"
    assert [(a.filename, a.width) for a in original.attachments] == [("b.png", 30)]
    assert [a.filename for a in original.edits[0].attachments] == ["a.png"]


async def test_deferred_click_edits_the_clicked_message(
    fake_club: FakeClub, bot: ScriptedBot
) -> None:
    """`defer()` on a click (type 6), then editing the original response edits that message."""
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Go", custom_id="go"))
    posted = await text_channel(bot, fake_club).send("press", view=view)

    async def script(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="pressed", view=None)

    bot.script = script
    message = fake_club.fake.messages[posted.id]
    click = await fake_club.fake.click(fake_club.bob, message, "go")
    assert (await click.response()).type == 6
    await fake_club.fake.wait_for(lambda: message.content == "pressed" or None, what="the edit")
    assert message.components == [] and click.original is message


async def test_interaction_message_edited_through_the_channel(
    fake_club: FakeClub, bot: ScriptedBot
) -> None:
    """A response message can be edited later with `message.edit` (the channel route)."""

    async def script(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("challenge")
        message = await interaction.original_response()
        await message.edit(content="challenge accepted")

    interaction = await run(fake_club, bot, script)
    assert interaction.original is not None
    assert interaction.original.content == "challenge accepted"


async def test_followups_edited_and_deleted(fake_club: FakeClub, bot: ScriptedBot) -> None:
    """Follow-ups and the original response can be edited and deleted through the token."""

    async def script(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        follow = await interaction.followup.send("second", wait=True)
        await interaction.followup.edit_message(follow.id, content="second, edited")
        extra = await interaction.followup.send("third", wait=True)
        await interaction.followup.delete_message(extra.id)
        await interaction.delete_original_response()

    interaction = await run(fake_club, bot, script)
    first, second, third = [interaction.original, *interaction.followup_messages]
    assert first is not None and first.deleted and third.deleted
    assert [m.content for m in fake_club.channel.messages] == ["second, edited"]
    assert second.edited_at is not None and second.edits[0].content == "second"


async def test_channel_messages_edits_replies_and_reactions(
    fake_club: FakeClub, bot: ScriptedBot
) -> None:
    """send / reply / edit / fetch / history / react / delete, and the bot's own events."""
    channel = text_channel(bot, fake_club)
    embed = discord.Embed(title="Hexade", description="alice vs bob")
    first = await channel.send("first", embed=embed)
    reply = await first.reply("a reply", mention_author=False)
    edited = asyncio.ensure_future(bot.wait_for("message_edit", timeout=5))
    await first.edit(content="first, edited")
    _, after = await edited
    assert after.content == "first, edited"
    fetched = await channel.fetch_message(first.id)
    assert fetched.embeds[0].title == "Hexade" and fetched.edited_at is not None
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["a reply", "first, edited"]
    await reply.add_reaction("\N{WHITE HEAVY CHECK MARK}")
    await reply.delete()
    fake_reply = fake_club.fake.messages[reply.id]
    assert fake_reply.deleted and fake_reply.reference is fake_club.fake.messages[first.id]
    assert list(fake_reply.reactions) == ["\N{WHITE HEAVY CHECK MARK}"]
    assert [m.text() for m in fake_club.channel.messages] == ["first, edited\nHexade\nalice vs bob"]


async def test_mentions_pings_and_silence(fake_club: FakeClub, bot: ScriptedBot) -> None:
    """Only allowed mentions ping; silent messages and edits ping nobody."""
    channel = text_channel(bot, fake_club)
    alice, bob, carol = fake_club.alice, fake_club.bob, fake_club.carol
    allowed = discord.AllowedMentions(users=[discord.Object(alice.id)])
    sent = await channel.send(f"{alice.mention} and {bob.mention}", allowed_mentions=allowed)
    message = fake_club.fake.messages[sent.id]
    assert message.mentions == [alice] and message.pinged == [alice]
    await sent.edit(
        content=f"{alice.mention} {carol.mention}", allowed_mentions=discord.AllowedMentions.all()
    )
    assert message.mentions == [alice, carol] and message.pinged == [alice]
    quiet = await channel.send(bob.mention, silent=True)
    assert fake_club.fake.messages[quiet.id].pinged == []


async def test_threads_through_discordpy(fake_club: FakeClub, bot: ScriptedBot) -> None:
    """A public thread without a starter, archived, revived by a post, fetched, deleted."""
    channel = text_channel(bot, fake_club)
    thread = await channel.create_thread(name="Game 9", type=discord.ChannelType.public_thread)
    (notice,) = fake_club.channel.messages
    assert notice.type == THREAD_CREATED and notice.content == "Game 9"
    await thread.add_user(discord.Object(fake_club.alice.id))
    await thread.edit(archived=True)
    fake_thread = fake_club.fake.world.channels[thread.id]
    assert fake_thread.archived
    await thread.send("still here")
    assert not fake_thread.archived
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.name == "Game 9"
    active = await channel.guild.active_threads()
    assert [t.id for t in active] == [thread.id]
    await thread.remove_user(discord.Object(fake_club.alice.id))
    assert fake_thread.thread_member_ids == [fake_club.fake.bot_user.id]
    await thread.delete()
    assert fake_thread.deleted


async def test_fetches_and_dms(fake_club: FakeClub, bot: ScriptedBot) -> None:
    """Members, users, roles and channels can be fetched; DMs reach the user's DM channel."""
    guild = bot.get_guild(fake_club.guild.id)
    assert guild is not None
    carol = await guild.fetch_member(fake_club.carol.id)
    assert carol.guild_permissions.manage_guild and not carol.guild_permissions.administrator
    user = await bot.fetch_user(fake_club.bob.id)
    assert user.name == "bob" and user.global_name == "Bob"
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(12345)
    assert [c.name for c in await guild.fetch_channels()] == ["games"]
    assert {r.name for r in await guild.fetch_roles()} >= {"@everyone", "Tabula"}
    dm = await user.create_dm()
    await dm.send("your move", file=png_file("board.png"))
    (sent,) = fake_club.fake.dm_channel(fake_club.bob).messages
    assert sent.content == "your move" and sent.attachments[0].content_type == "image/png"


async def test_command_in_a_dm(fake_club: FakeClub, bot: ScriptedBot) -> None:
    """A global command works in the user's DM with the bot; the reply lands there."""
    seen: list[object] = []

    async def script(interaction: discord.Interaction) -> None:
        seen.append(interaction.channel)
        await interaction.response.send_message(f"hi {interaction.user.name}")

    bot.script = script
    dm = fake_club.fake.dm_channel(fake_club.alice)
    interaction = await fake_club.fake.slash(fake_club.alice, dm, "do")
    response = await interaction.response()
    assert isinstance(seen[0], discord.DMChannel)
    assert response.message is not None and dm.messages == [response.message]
    assert interaction.payload()["context"] == 1 and "member" not in interaction.payload()


async def test_an_archived_thread_after_restart(fake_club: FakeClub) -> None:
    """A restarted bot has no archived threads cached; Discord's client takes no command
    there until a message (here a member's) unarchives it, and the bot learns of it."""
    fake = fake_club.fake
    first = ScriptedBot()
    async with fake.run_client(first):
        channel = first.get_channel(fake_club.channel.id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(
            name="old game", type=discord.ChannelType.public_thread
        )
        await thread.edit(archived=True)
    fake.pass_identify_window()  # the restart takes 5 seconds (one identify per 5 s)
    second = ScriptedBot()
    seen: list[object] = []

    async def script(interaction: discord.Interaction) -> None:
        seen.append(interaction.channel)
        await interaction.response.send_message("revived")

    second.script = script
    async with fake.run_client(second):
        guild = second.get_guild(fake_club.guild.id)
        assert guild is not None and guild.get_thread(thread.id) is None
        fake_thread = fake.world.channels[thread.id]
        with pytest.raises(FakeDiscordError, match="archived: Discord's client takes no commands"):
            await fake.slash(fake_club.alice, fake_thread, "do")
        await fake.post(fake_club.alice, fake_thread, "anyone here?")
        assert not fake_thread.archived
        await fake.wait_for(lambda: guild.get_thread(thread.id), what="the thread in the cache")
        interaction = await fake.slash(fake_club.alice, fake_thread, "do")
        await interaction.response()
    assert isinstance(seen[0], discord.Thread) and not seen[0].archived
    assert fake_thread.messages[-1].content == "revived"
