"""The fake Discord driven end to end by the real discord.py client (the sample bot)."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from tests.fakediscord import FakeDiscordError, FakeDiscordTimeout
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.rest_client import Api
from tests.fakediscord.sample_bot import SampleBot, SampleStore
from tests.fakediscord.state import EPHEMERAL, LOADING, PRIVATE_THREAD, PUBLIC_THREAD


async def test_login_sync_and_guild_cache(fake_club: FakeClub) -> None:
    """The bot logs in, syncs its commands and sees the server, but only itself as a member."""
    fake = fake_club.fake
    async with fake.run_client(SampleBot()) as bot:
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        assert bot.application_id == fake.application_id
        guild = bot.get_guild(fake_club.guild.id)
        assert guild is not None and guild.name == "Club"
        assert [c.name for c in guild.text_channels] == ["games"]
        assert [m.id for m in guild.members] == [fake.bot_user.id]
        assert guild.me.guild_permissions.create_public_threads
    assert {"hello", "game", "slow", "config", "overflow"} <= set(fake.commands)
    game = fake.commands["game"]
    assert [(o["name"], o["type"]) for o in game["options"]] == [("start", 1), ("move", 1)]
    assert fake.commands["config"]["default_member_permissions"] == str(1 << 5)
    paths = [(r.method, r.path) for r in fake.requests[:3]]
    assert paths == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
        ("PUT", f"/applications/{fake.application_id}/commands"),
    ]
    assert fake.gateway.identifies == 1


async def test_slash_command_typed_options(fake_club: FakeClub) -> None:
    """Options are typed from the synced declaration; the reply lands in the channel."""
    fake, alice = fake_club.fake, fake_club.alice
    async with fake.run_client(SampleBot()):
        interaction = await fake.slash(
            alice, fake_club.channel, "hello", {"name": "bob", "times": 2}
        )
        response = await interaction.response()
    assert response.type == 4 and not response.ephemeral
    assert response.message is not None
    assert response.message.content == "hello bob hello bob"
    assert fake_club.channel.messages == [response.message]
    assert interaction.original is response.message
    assert response.message.interaction is interaction
    options = interaction.data["options"]
    assert options == [
        {"type": 3, "name": "name", "value": "bob"},
        {"type": 4, "name": "times", "value": 2},
    ]


async def test_slash_refuses_what_discord_would(fake_club: FakeClub) -> None:
    """Unknown, missing, out-of-range options and unsynced commands are refused by the fake."""
    fake, alice, channel = fake_club.fake, fake_club.alice, fake_club.channel
    async with fake.run_client(SampleBot()):
        with pytest.raises(FakeDiscordError, match="required option 'name'"):
            await fake.slash(alice, channel, "hello", {})
        with pytest.raises(FakeDiscordError, match="no option 'nmae'"):
            await fake.slash(alice, channel, "hello", {"nmae": "x"})
        with pytest.raises(FakeDiscordError, match="between 1 and 3"):
            await fake.slash(alice, channel, "hello", {"name": "x", "times": 9})
        with pytest.raises(FakeDiscordError, match="not synced"):
            await fake.slash(alice, channel, "nope")
        with pytest.raises(FakeDiscordError, match="pick one of its sub-commands"):
            await fake.slash(alice, channel, "game")
        with pytest.raises(FakeDiscordError, match="lacks the permissions /config requires"):
            await fake.slash(alice, channel, "config")
        allowed = await fake.slash(fake_club.carol, channel, "config")
        assert (await allowed.response()).ephemeral


async def test_subcommand_buttons_thread_and_file(fake_club: FakeClub) -> None:
    """`/game start` replies with buttons, starts a thread from the reply and posts a PNG."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with fake.run_client(SampleBot()) as bot:
        start = await fake.slash(alice, fake_club.channel, "game start", {"opponent": bob})
        challenge = (await start.response()).message
        assert challenge is not None
        thread = await fake.wait_for_thread(fake_club.channel, after=start)
        board = await fake.wait_for_message(thread, lambda m: m.attachments)
        cached = bot.get_channel(thread.id)
        assert isinstance(cached, discord.Thread) and cached.parent_id == fake_club.channel.id
    resolved = start.data["options"][0]["options"][0]
    assert resolved == {"type": 6, "name": "opponent", "value": str(bob.id)}
    assert str(bob.id) in start.data["resolved"]["members"]
    assert challenge.buttons() == [
        ("sample:1:move", "Move", False),
        ("sample:1:resign", "Resign", False),
    ]
    assert thread.id == challenge.id and challenge.thread is thread
    assert thread.type == PUBLIC_THREAD and thread.name == "Game 1"
    assert fake_club.guild.threads == [thread]
    assert thread.thread_member_ids == [fake.bot_user.id, bob.id]
    (attachment,) = board.attachments
    assert attachment.filename == "board.png" and attachment.content_type == "image/png"
    assert (attachment.width, attachment.height) == (64, 48)
    assert attachment.data.startswith(b"\x89PNG")
    assert board.content == f"{alice.mention} to move"
    assert board.pinged == [alice]


async def test_stranger_click_refused_player_gets_modal(fake_club: FakeClub) -> None:
    """A stranger's click is refused ephemerally; a player's opens the form, which plays."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    async with fake.run_client(SampleBot()):
        start = await fake.slash(alice, fake_club.channel, "game start", {"opponent": bob})
        challenge = (await start.response()).message
        assert challenge is not None
        stranger = await fake.click(carol, challenge, label="Move")
        refusal = await stranger.response()
        assert refusal.ephemeral and refusal.message is not None
        assert refusal.message.content == "This is not your game."
        assert refusal.message not in fake_club.channel.messages

        click = await fake.click(bob, challenge, "sample:1:move")
        modal = (await click.response()).modal
        assert modal is not None and modal.title == "Your move"
        assert [f["custom_id"] for f in modal.fields] == ["notation", "confidence"]
        assert modal.field("notation")["max_length"] == 4
        with pytest.raises(FakeDiscordError, match="takes 2 to 4 characters"):
            await fake.submit_modal(bob, click, {"notation": "e2e4e5"})
        with pytest.raises(FakeDiscordError, match="shown to bob"):
            await fake.submit_modal(alice, click, {"notation": "e4"})
        submit = await fake.submit_modal(bob, click, {"notation": "e4", "confidence": ["high"]})
        played = await submit.response()
    assert played.message is not None and played.message.content == "Move 1: e4"
    assert submit.data["components"][1] == {
        "type": 18,
        "component": {"type": 3, "custom_id": "confidence", "values": ["high"]},
    }


async def test_update_message_and_select(fake_club: FakeClub) -> None:
    """Resign edits the game message in place (type 7); a select menu's choice arrives."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with fake.run_client(SampleBot()):
        start = await fake.slash(alice, fake_club.channel, "game start", {"opponent": bob})
        challenge = (await start.response()).message
        assert challenge is not None
        resign = await fake.click(bob, challenge, label="Resign")
        update = await resign.response()
        assert update.type == 7 and update.message is challenge
        assert challenge.content == f"{bob.mention} resigned."
        assert [b.disabled for b in challenge.buttons()] == [True, True]
        assert challenge.edits[0].content.startswith("Game 1:")
        with pytest.raises(FakeDiscordError, match="disabled"):
            await fake.click(alice, challenge, label="Move")

        pick = await fake.slash(alice, fake_club.channel, "pick")
        menu = (await pick.response()).message
        assert menu is not None
        with pytest.raises(FakeDiscordError, match="offers"):
            await fake.select(alice, menu, "sample:pick", ["chess"])
        chosen = await fake.select(alice, menu, "sample:pick", ["hexade", "groups"])
        assert (await chosen.response()).type == 7
    assert menu.content == "picked hexade, groups" and menu.components == []


async def test_autocomplete(fake_club: FakeClub) -> None:
    """The bot's choices come back; more than 25 are refused like Discord does."""
    fake, alice = fake_club.fake, fake_club.alice
    async with fake.run_client(SampleBot()):
        choices = await fake.autocomplete(
            alice, fake_club.channel, "game move", {"notation": "e"}, focused="notation"
        )
        assert [c["value"] for c in choices] == [f"e{r}" for r in range(1, 9)]
        empty = await fake.autocomplete(
            alice, fake_club.channel, "game move", {}, focused="notation"
        )
        assert len(empty) == 25
        with pytest.raises(FakeDiscordTimeout):  # no choices come: Discord refused them
            await fake.autocomplete(
                alice, fake_club.channel, "overflow", {}, focused="value", timeout=0.1
            )
        overflow = list(fake.interactions.values())[-1]
        (refused,) = await fake.wait_for(lambda: overflow.rejected or None, what="the refusal")
        assert "Must be 25 or fewer" in str(refused.errors)
        with pytest.raises(FakeDiscordError, match="not declared with autocomplete"):
            await fake.autocomplete(alice, fake_club.channel, "hello", {}, focused="name")


async def test_slash_in_thread_and_ephemeral_error(fake_club: FakeClub) -> None:
    """Commands work inside a thread; an illegal move is answered ephemerally."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with fake.run_client(SampleBot()):
        start = await fake.slash(alice, fake_club.channel, "game start", {"opponent": bob})
        thread = await fake.wait_for_thread(fake_club.channel, after=start)
        bad = await fake.slash(alice, thread, "game move", {"notation": "z9"})
        refusal = await bad.response()
        good = await fake.slash(alice, thread, "game move", {"notation": "d4"})
        played = await good.response()
    assert refusal.ephemeral and refusal.message is not None
    assert refusal.message.content == "Illegal move: z9" and refusal.message.flags & EPHEMERAL
    assert played.message is not None and played.message in thread.messages
    assert bad.payload()["channel"]["type"] == PUBLIC_THREAD


async def test_deferred_response_and_followups(fake_club: FakeClub) -> None:
    """The first follow-up fills in the "thinking…" message (public, like the defer)."""
    fake, alice = fake_club.fake, fake_club.alice
    async with fake.run_client(SampleBot()):
        interaction = await fake.slash(alice, fake_club.channel, "slow")
        deferred = await interaction.response()
        first, secret = await interaction.followups(2)
    assert deferred.type == 5 and not deferred.ephemeral
    assert first is deferred.message is interaction.original
    assert first.content == "done thinking" and not first.flags & (LOADING | EPHEMERAL)
    assert secret.ephemeral and secret.content == "a secret"
    assert fake_club.channel.messages == [first]


async def test_direct_messages(fake_club: FakeClub) -> None:
    """DMs reach the user's DM channel; a user who closed DMs makes the bot get 50007."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    shy = fake.add_user("shy", accepts_dms=False)
    fake_club.guild.add_member(shy)
    store = SampleStore()
    async with fake.run_client(SampleBot(store)):
        ok = await fake.slash(alice, fake_club.channel, "remind", {"member": bob})
        assert (await ok.response()).message.content == "Reminded."  # type: ignore[union-attr]
        refused = await fake.slash(alice, fake_club.channel, "remind", {"member": shy})
        assert (await refused.response()).message.content == "I cannot DM them."  # type: ignore[union-attr]
    (dm,) = fake.dm_channel(bob).messages
    assert dm.content == "Your turn, Bob" and dm.attachments[0].filename == "board.png"
    assert fake.dm_channel(shy).messages == []
    assert store.errors == ["403 50007"]


async def test_private_thread_visibility(fake_club: FakeClub) -> None:
    """A private thread is seen by its members only."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with fake.run_client(SampleBot()):
        opened = await fake.slash(alice, fake_club.channel, "private", {"member": bob})
        await opened.response()
        thread = await fake.wait_for_thread(fake_club.guild)
        assert thread.type == PRIVATE_THREAD
        assert fake_club.channel.messages == []
        hello = await fake.slash(bob, thread, "hello", {"name": "me"})
        await hello.response()
        with pytest.raises(FakeDiscordError, match="cannot see"):
            await fake.slash(alice, thread, "hello", {"name": "me"})
    assert [m.content for m in thread.messages] == [f"Hello {bob.mention}", "hello me"]


async def test_thread_creation_denied_falls_back(fake_club: FakeClub) -> None:
    """Where the bot may not create threads, Discord's 403 reaches it and it posts in place."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    closed = fake_club.guild.add_channel("no-threads", allow_threads=False)
    store = SampleStore()
    async with fake.run_client(SampleBot(store)) as bot:
        channel = bot.get_channel(closed.id)
        assert isinstance(channel, discord.TextChannel)
        assert not channel.permissions_for(channel.guild.me).create_public_threads
        start = await fake.slash(alice, closed, "game start", {"opponent": bob})
        board = await fake.wait_for_message(closed, lambda m: m.attachments, after=start)
    assert store.errors == ["403 50013"]
    assert closed.threads == [] and board.content == f"{alice.mention} to move"


async def test_restart_old_buttons_still_work(fake_club: FakeClub) -> None:
    """After a restart, the old message's persistent button reaches the new client."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    store = SampleStore()
    async with fake.run_client(SampleBot(store)):
        start = await fake.slash(alice, fake_club.channel, "game start", {"opponent": bob})
        challenge = (await start.response()).message
        assert challenge is not None
        await fake.wait_for_message(None, lambda m: m.attachments)
    with pytest.raises(FakeDiscordError, match="no bot is connected"):
        await fake.click(bob, challenge, label="Move")
    fake.pass_identify_window()  # the restart takes 5 seconds (one identify per 5 s)
    async with fake.run_client(SampleBot(store)):
        click = await fake.click(bob, challenge, label="Move")
        submit = await fake.submit_modal(bob, click, {"notation": "c3"})
        played = await submit.response()
    assert played.message is not None and played.message.content == "Move 1: c3"
    assert fake.gateway.identifies == 2
    assert store.games[1].moves == ["c3"]


async def test_resume_replays_missed_events(fake_club: FakeClub) -> None:
    """A dropped websocket resumes at `resume_gateway_url`; what was missed is replayed."""
    fake, alice = fake_club.fake, fake_club.alice
    async with fake.run_client(SampleBot()):
        await fake.disconnect_gateway()
        interaction = await fake.slash(alice, fake_club.channel, "hello", {"name": "again"})
        response = await interaction.response()
        fake.request_reconnect()
        await fake.wait_for(lambda: fake.gateway.resumes >= 2 or None, what="a second resume")
        after = await fake.slash(alice, fake_club.channel, "hello", {"name": "still"})
        await after.response()
    assert response.message is not None and response.message.content == "hello again"
    assert fake.gateway.identifies == 1 and fake.gateway.resumes == 2


async def test_rate_limit_and_server_error_are_retried(fake_club: FakeClub) -> None:
    """A 429 and a 500 on the channel post are retried by discord.py; one message results."""
    fake, alice = fake_club.fake, fake_club.alice
    path = rf"/channels/{fake_club.channel.id}/messages"
    broken = fake.fail_next("POST", path, 500)
    limited = fake.fail_next("POST", path, 429, retry_after=0.05)
    async with fake.run_client(SampleBot()):
        started = time.monotonic()
        interaction = await fake.slash(alice, fake_club.channel, "post", {"text": "board 7"})
        (done,) = await interaction.followups(1, timeout=30)
        elapsed = time.monotonic() - started
    assert limited.remaining == 0 and broken.remaining == 0
    assert [m.content for m in fake_club.channel.messages] == ["board 7"]
    statuses = [r.status for r in fake.requests if r.path == path]
    assert statuses == [500, 429, 200]
    assert done.content.startswith("posted ") and done.ephemeral
    assert elapsed >= 1.0  # discord.py waits 1 s before retrying a 500


async def test_rate_limited_interaction_callback_is_retried(fake_club: FakeClub) -> None:
    """A 429 on the interaction callback goes through discord.py's webhook retry."""
    fake, alice = fake_club.fake, fake_club.alice
    fake.fail_next(
        "POST", r"/interactions/\d+/[^/]+/callback", 429, retry_after=0.05, is_global=True
    )
    async with fake.run_client(SampleBot()):
        interaction = await fake.slash(alice, fake_club.channel, "hello", {"name": "x"})
        response = await interaction.response()
    assert response.message is not None and response.message.content == "hello x"


async def test_too_long_content_is_refused(fake_club: FakeClub) -> None:
    """Content over 2000 characters gets Discord's 50035; the bot's second try succeeds."""
    fake, alice = fake_club.fake, fake_club.alice
    store = SampleStore()
    async with fake.run_client(SampleBot(store)):
        interaction = await fake.slash(alice, fake_club.channel, "echo", {"text": "x" * 2001})
        response = await interaction.response()
    assert response.ephemeral and response.message is not None
    assert response.message.content == "refused: 50035"
    assert store.errors == ["400 50035"]
    (error,) = interaction.rejected
    too_long = {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
    assert error.errors == {"data": {"content": {"_errors": [too_long]}}}


async def test_late_response_is_unknown_interaction(fake_club: FakeClub) -> None:
    """Answering after Discord's 3 seconds fails with 10062 Unknown interaction."""
    fake, alice = fake_club.fake, fake_club.alice
    async with fake.run_client(SampleBot()):
        fake.advance_time(5)
        interaction = await fake.slash(alice, fake_club.channel, "hello", {"name": "x"})
        fake.advance_time(3.5)
        refused = await fake.wait_for(lambda: interaction.rejected or None, what="the answer")
        assert [(error.status, error.code) for error in refused] == [(404, 10062)]
        with pytest.raises(FakeDiscordTimeout, match="10062"):
            await interaction.response(timeout=0.1)  # no answer, and the timeout says why


async def test_user_messages_reach_the_bot_without_content(fake_club: FakeClub) -> None:
    """Without the message content intent the bot sees others' messages empty unless mentioned."""
    fake, alice = fake_club.fake, fake_club.alice
    store = SampleStore()
    async with fake.run_client(SampleBot(store)):
        await fake.post(alice, fake_club.channel, "hello all")
        await fake.post(alice, fake_club.channel, f"hi {fake.bot_user.mention}")
        await fake.wait_for(lambda: len(store.received) >= 2 or None, what="two messages")
    assert store.received == ["", f"hi {fake.bot_user.mention}"]


async def test_privileged_intents_need_enabling(fake_club: FakeClub) -> None:
    """Asking for the members intent the application lacks closes the gateway with 4014."""
    fake = fake_club.fake
    bot = SampleBot(intents=discord.Intents.default() | discord.Intents(members=True))
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with fake.run_client(bot):
            pass


async def test_wait_for_message_after_an_interaction(fake_club: FakeClub) -> None:
    """`after=` ignores what was there before; without it, older messages match."""
    fake, alice = fake_club.fake, fake_club.alice
    async with fake.run_client(SampleBot()):
        first = await fake.slash(alice, fake_club.channel, "hello", {"name": "one"})
        await first.response()
        second = await fake.slash(alice, fake_club.channel, "hello", {"name": "two"})
        newer = await fake.wait_for_message(fake_club.channel, after=second)
        older = await fake.wait_for_message(fake_club.channel)
        with pytest.raises(FakeDiscordTimeout, match="last messages"):
            await fake.wait_for_message(
                fake_club.channel, lambda m: "three" in m.content, timeout=0.1
            )
    assert newer.content == "hello two" and older.content == "hello one"


async def test_guild_added_while_connected(fake_club: FakeClub) -> None:
    """A server added while the bot runs arrives as GUILD_CREATE; its channels follow."""
    fake = fake_club.fake
    async with fake.run_client(SampleBot()) as bot:
        other = fake.add_guild("Second")
        lobby = other.add_channel("lobby")

        def arrived() -> discord.Guild | None:
            guild = bot.get_guild(other.id)
            return guild if guild is not None and guild.get_channel(lobby.id) else None

        guild = await fake.wait_for(arrived, what="GUILD_CREATE and CHANNEL_CREATE")
        assert guild.name == "Second"


async def test_a_held_request_waits_and_a_held_answer_comes_after_the_post(
    fake_club: FakeClub, api: Api
) -> None:
    """`hold_next`: the request is not acted on until released; with `after`, the message
    exists while its answer is still held."""
    fake, channel = fake_club.fake, fake_club.channel
    held = fake.hold_next("POST", rf"/channels/{channel.id}/messages")
    posting = asyncio.create_task(api.post_message(channel, {"content": "one"}))
    await asyncio.wait_for(held.reached.wait(), 5)
    await asyncio.sleep(0.1)
    assert channel.messages == [] and not posting.done()
    held.release()
    assert (await posting)[0] == 200
    assert [m.content for m in channel.messages] == ["one"]
    held = fake.hold_next("POST", rf"/channels/{channel.id}/messages", after=True)
    posting = asyncio.create_task(api.post_message(channel, {"content": "two"}))
    await asyncio.wait_for(held.reached.wait(), 5)
    assert [m.content for m in channel.messages] == ["one", "two"] and not posting.done()
    held.release()
    status, body = await posting
    assert status == 200 and body["content"] == "two"
