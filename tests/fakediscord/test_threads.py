"""Threads as Discord runs them: archiving after inactivity, what an archived or locked
thread allows, and thread types that follow their parent channel."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import permissions as perm
from tests.fakediscord.errors import FakeDiscordError
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.rest_client import Api, first_error
from tests.fakediscord.sample_bot import ScriptedBot
from tests.fakediscord.state import FakeChannel, iso

MINUTE = 60.0


async def new_thread(api: Api, parent: FakeChannel, duration: int = 60) -> FakeChannel:
    """A public thread started by the bot in `parent`."""
    body = {"name": "game", "type": 11, "auto_archive_duration": duration}
    status, data = await api.call("POST", f"/channels/{parent.id}/threads", body)
    assert status == 201, data
    return api.fake.world.channels[int(data["id"])]


async def test_a_thread_archives_after_its_duration_without_activity(
    fake_club: FakeClub, api: Api
) -> None:
    """Messages restart the countdown; an hour of silence archives a 60-minute thread,
    stamped with the moment it became due."""
    fake = fake_club.fake
    thread = await new_thread(api, fake_club.channel)
    fake.advance_time(59 * MINUTE)
    assert not thread.archived
    await api.post_message(thread, {"content": "still here"})
    last = thread.last_activity
    fake.advance_time(59 * MINUTE)
    assert not thread.archived
    fake.advance_time(2 * MINUTE)
    assert thread.archived
    status, data = await api.call("GET", f"/channels/{thread.id}")
    assert status == 200
    metadata = data["thread_metadata"]
    assert metadata["archived"] is True
    assert metadata["archive_timestamp"] == iso(last + 60 * MINUTE)
    status, active = await api.call("GET", f"/guilds/{fake_club.guild.id}/threads/active")
    assert status == 200 and active["threads"] == []


async def test_a_new_archive_duration_counts_as_activity(fake_club: FakeClub, api: Api) -> None:
    """Changing `auto_archive_duration` restarts the countdown; the same value does not;
    a value Discord does not offer is refused."""
    fake = fake_club.fake
    thread = await new_thread(api, fake_club.channel, duration=1440)
    path = f"/channels/{thread.id}"
    fake.advance_time(1400 * MINUTE)
    status, _ = await api.call("PATCH", path, {"auto_archive_duration": 1440})
    assert status == 200
    fake.advance_time(41 * MINUTE)
    assert thread.archived  # the unchanged value was no activity
    status, _ = await api.call("PATCH", path, {"archived": False})
    assert status == 200 and not thread.archived
    fake.advance_time(1400 * MINUTE)
    status, data = await api.call("PATCH", path, {"auto_archive_duration": 4320})
    assert data["thread_metadata"]["archive_timestamp"] == iso(thread.last_activity)
    fake.advance_time(1400 * MINUTE)
    assert not thread.archived
    status, body = await api.call("PATCH", path, {"auto_archive_duration": 100})
    assert (status, first_error(body)) == (400, (["auto_archive_duration"], "BASE_TYPE_CHOICES"))


async def test_what_an_archived_thread_allows_the_bot(fake_club: FakeClub, api: Api) -> None:
    """No edits, reactions or changes other than unarchiving (400 50083); a bot message
    unarchives it, and so does a member's."""
    fake = fake_club.fake
    thread = await new_thread(api, fake_club.channel)
    _, message = await api.post_message(thread, {"content": "Move 1"})
    fake.advance_time(61 * MINUTE)
    assert thread.archived
    message_path = f"/channels/{thread.id}/messages/{message['id']}"
    refused = [
        await api.call("PATCH", message_path, {"content": "edited"}),
        await api.call("PUT", f"{message_path}/reactions/%E2%9C%85/@me"),
        await api.call("PATCH", f"/channels/{thread.id}", {"name": "renamed"}),
        await api.call("PUT", f"/channels/{thread.id}/thread-members/{fake_club.alice.id}"),
    ]
    assert [(status, body["code"]) for status, body in refused] == [(400, 50083)] * 4
    assert thread.messages[-1].content == "Move 1" and thread.name == "game"
    status, _ = await api.post_message(thread, {"content": "Move 2"})
    assert status == 200 and not thread.archived
    fake.advance_time(61 * MINUTE)
    assert thread.archived
    await fake.post(fake_club.alice, thread, "hello?")
    assert not thread.archived


async def test_a_locked_archived_thread_needs_manage_threads(fake_club: FakeClub, api: Api) -> None:
    """Locked and archived: neither the bot's message nor unarchiving works without Manage
    Threads, and a member cannot write there."""
    fake = fake_club.fake
    thread = await new_thread(api, fake_club.channel)
    status, _ = await api.call("PATCH", f"/channels/{thread.id}", {"locked": True})
    assert status == 200
    fake.advance_time(61 * MINUTE)
    assert thread.archived and thread.locked
    bot_role = fake_club.guild.bot_role
    assert bot_role is not None
    fake_club.channel.set_overwrite(bot_role, deny=perm.MANAGE_THREADS)
    status, body = await api.post_message(thread, {"content": "hello"})
    assert (status, body["code"]) == (403, 160005)
    status, body = await api.call("PATCH", f"/channels/{thread.id}", {"archived": False})
    assert (status, body["code"]) == (403, 50013)
    with pytest.raises(FakeDiscordError, match="is locked"):
        await fake.post(fake_club.alice, thread, "hello?")
    assert thread.archived and thread.messages == []


async def test_an_open_locked_thread_takes_no_edits_without_manage_threads(
    fake_club: FakeClub, api: Api
) -> None:
    """Locked but not archived: without Manage Threads the bot may neither edit its message
    (403 160005) nor change the thread's archive duration or name (403 50013), even in its
    own thread; with Manage Threads both work."""
    thread = await new_thread(api, fake_club.channel, duration=1440)
    _, message = await api.post_message(thread, {"content": "Move 1"})
    status, _ = await api.call("PATCH", f"/channels/{thread.id}", {"locked": True})
    assert status == 200 and thread.locked and not thread.archived
    bot_role = fake_club.guild.bot_role
    assert bot_role is not None
    fake_club.channel.set_overwrite(bot_role, deny=perm.MANAGE_THREADS)
    message_path = f"/channels/{thread.id}/messages/{message['id']}"
    refused = [
        await api.call("PATCH", message_path, {"content": "edited"}),
        await api.call("PATCH", f"/channels/{thread.id}", {"auto_archive_duration": 4320}),
        await api.call("PATCH", f"/channels/{thread.id}", {"name": "renamed"}),
    ]
    assert [(status, body["code"]) for status, body in refused] == [
        (403, 160005),
        (403, 50013),
        (403, 50013),
    ]
    assert thread.messages[-1].content == "Move 1" and not thread.messages[-1].edits
    assert (thread.auto_archive_duration, thread.name) == (1440, "game")
    fake_club.channel.set_overwrite(bot_role)
    status, _ = await api.call("PATCH", message_path, {"content": "edited"})
    assert status == 200 and thread.messages[-1].content == "edited"
    status, _ = await api.call("PATCH", f"/channels/{thread.id}", {"auto_archive_duration": 4320})
    assert status == 200 and thread.auto_archive_duration == 4320


async def test_no_commands_or_clicks_in_an_archived_thread(fake_club: FakeClub) -> None:
    """Discord's client runs no command and sends no click in an archived thread; the
    bot learns of the archiving (THREAD_UPDATE) and its next message brings it back."""
    fake, alice = fake_club.fake, fake_club.alice
    bot = ScriptedBot()
    async with fake.run_client(bot):
        channel = bot.get_channel(fake_club.channel.id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(
            name="game", type=discord.ChannelType.public_thread, auto_archive_duration=60
        )
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Move", custom_id="move"))
        sent = await thread.send("Your move", view=view)
        fake_thread = fake.world.channels[thread.id]
        message = fake.messages[sent.id]
        guild = channel.guild
        assert guild.get_thread(thread.id) is not None
        fake.advance_time(61 * MINUTE)
        await fake.wait_for(  # discord.py drops archived threads from its cache
            lambda: True if guild.get_thread(thread.id) is None else None,
            what="THREAD_UPDATE archived",
        )
        with pytest.raises(FakeDiscordError, match="takes no commands there"):
            await fake.slash(alice, fake_thread, "do")
        with pytest.raises(FakeDiscordError, match="takes no clicks there"):
            await fake.click(alice, message, "move")
        await thread.send("Still your move")
        assert not fake_thread.archived
        await fake.wait_for(lambda: guild.get_thread(thread.id), what="unarchived")
        assert (await fake.click(alice, message, "move")).channel is fake_thread


async def test_thread_types_follow_the_parent(fake_club: FakeClub, api: Api) -> None:
    """Announcement channels hold announcement threads (10), text channels public (11) and
    private (12) ones; any other pairing is refused with 400 50024."""
    guild = fake_club.guild
    news = guild.add_channel("news", announcement=True)
    text = fake_club.channel

    async def start(parent: FakeChannel, kind: int | None) -> tuple[int, object]:
        body: dict[str, object] = {"name": "t"}
        if kind is not None:
            body["type"] = kind
        status, data = await api.call("POST", f"/channels/{parent.id}/threads", body)
        return status, data["type"] if status == 201 else data["code"]

    assert await start(news, 10) == (201, 10)
    assert await start(news, 11) == (400, 50024)
    assert await start(news, None) == (400, 50024)  # private by default: not in news
    assert await start(text, 11) == (201, 11)
    assert await start(text, 12) == (201, 12)
    assert await start(text, 10) == (400, 50024)
    _, posted = await api.post_message(news, {"content": "Big news"})
    path = f"/channels/{news.id}/messages/{posted['id']}/threads"
    status, data = await api.call("POST", path, {"name": "talk"})
    assert (status, data["type"]) == (201, 10)


async def test_discord_py_makes_announcement_threads(fake_club: FakeClub) -> None:
    """discord.py's `create_thread(type=news_thread)` in an announcement channel works;
    a public thread there is refused."""
    fake = fake_club.fake
    news = fake_club.guild.add_channel("news", announcement=True)
    bot = ScriptedBot()
    async with fake.run_client(bot):
        channel = bot.get_channel(news.id)
        assert isinstance(channel, discord.TextChannel) and channel.is_news()
        with pytest.raises(discord.HTTPException) as refused:
            await channel.create_thread(name="x", type=discord.ChannelType.public_thread)
        assert refused.value.code == 50024
        thread = await channel.create_thread(name="y", type=discord.ChannelType.news_thread)
        assert thread.type is discord.ChannelType.news_thread
    assert [t.type for t in news.threads] == [10]
