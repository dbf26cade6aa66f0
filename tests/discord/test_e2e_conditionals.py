"""Conditional moves with the real bot against the fake Discord: stored privately, the
opponent told nothing, the reply posted once in the thread as the answer to the
opponent's move, and a cleared tree told by direct message or with the next command."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.services.announcing.announcements import Kind
from bot.storage.repository import AnnouncementStatus, Repository
from tests.discord.test_e2e import challenge_and_accept, move, private_reply, running
from tests.fakediscord.fixtures import FakeClub
from tests.waiting import PATIENCE

DROP: dict[str, object] = {"game": "groups", "start": "drop", "colour": "white"}


async def dm_tried(repository: Repository, timeout: float = PATIENCE) -> None:
    """Wait until the dispatcher has delivered (or tried) the conditional direct message."""
    async with asyncio.timeout(timeout):
        while True:
            done = await repository.list_announcements(status=AnnouncementStatus.DELIVERED)
            if any(row.kind == Kind.CONDITIONAL_DM for row in done):
                return
            await asyncio.sleep(0.05)


async def test_a_conditional_reply_is_posted_once_and_the_opponent_is_not_told(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Alice stores two lines privately (pictures of where they lead); nothing appears
    for Bob; Bob's c5 is answered with its board, then Alice's d3 is posted, marked as a
    conditional move; nothing is posted twice."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, DROP)
        await move(fake, alice, thread, "c3")
        choices = await fake.autocomplete(
            alice, thread, "conditional add", {"game": ""}, focused="game"
        )
        assert choices == [{"name": "#1 Groups vs Bob · Bob to move", "value": 1}]
        assert await fake.autocomplete(
            bob, thread, "conditional add", {"game": ""}, focused="game"
        ) == []  # fmt: skip
        lines = await fake.autocomplete(
            alice, thread, "conditional add", {"game": 1, "line": "c5 d"}, focused="line"
        )
        assert [c["value"] for c in lines] == ["c5 d4", "c5 d5", "c5 d6", "c5 d3"]
        assert await fake.autocomplete(
            bob, thread, "conditional add", {"game": 1, "line": "c"}, focused="line"
        ) == []  # fmt: skip
        before = list(thread.messages)
        add = await fake.slash(alice, thread, "conditional add", {"game": 1, "line": "c5 d3 d5 e3"})
        stored = await add.response()
        assert stored.ephemeral and stored.message is not None
        assert "Stored: c5 → **d3**; then d5 → **e3**." in stored.message.content
        assert "Bob is not told" in stored.message.content
        assert [a.filename for a in stored.message.attachments] == ["line-1.png"]
        refused = await private_reply(
            fake, fake.slash(alice, thread, "conditional add", {"game": 1, "line": "c5 c3"})
        )
        assert refused == "'c3' (step 2, your reply): c3 is occupied. Nothing was stored."
        await private_reply(
            fake, fake.slash(alice, thread, "conditional add", {"game": 1, "line": "c5 d3 e5 f3"})
        )
        listing = await (await fake.slash(alice, thread, "conditional list", {})).response()
        assert listing.ephemeral and listing.message is not None
        assert listing.message.content.splitlines()[1:4] == [
            "Your conditional moves: 3 replies in 2 lines, each written as Bob's turn → your "
            "reply.",
            "1. c5 → **d3**; then d5 → **e3**",
            "2. c5 → **d3**; then e5 → **f3**",
        ]
        assert [a.filename for a in listing.message.attachments] == ["line-1.png", "line-2.png"]
        assert thread.messages == before
        assert fake.dm_channel(bob).messages == [] and fake.dm_channel(alice).messages == []
        assert await fake.autocomplete(
            bob, thread, "conditional list", {"game": ""}, focused="game"
        ) == []  # fmt: skip

        played = await fake.slash(bob, thread, "move", {"notation": "c5"})
        answer = await played.response()
        assert not answer.ephemeral and answer.message is not None
        assert "Move 2: Bob played **c5**." in answer.message.content
        reply = await fake.wait_for_message(thread, lambda m: "Move 3:" in m.content)
        assert reply.content.splitlines()[1] == (
            "Move 3: Alice played **d3**, a conditional move stored in advance."
        )
        assert f"{bob.mention} to move (Black)" in reply.content and reply.attachments
        assert played.followup_messages == []
        await asyncio.sleep(0.3)  # anything the dispatcher would still post comes now
        posted = [m.content.splitlines()[1] for m in thread.messages if m not in before]
        assert posted == [
            "Move 2: Bob played **c5**.",
            "Move 3: Alice played **d3**, a conditional move stored in advance.",
        ]
        assert not any("conditional" in m.content for m in before)


async def test_a_cleared_tree_is_told_with_the_next_command_or_by_direct_message(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Bob deviates: Alice (no direct messages) is told privately after her next command;
    with turn messages on, she gets a direct message instead."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, DROP)
        await move(fake, alice, thread, "c3")
        await private_reply(
            fake, fake.slash(alice, thread, "conditional add", {"game": 1, "line": "c5 d3"})
        )
        await move(fake, bob, thread, "e5")
        board = await fake.slash(alice, thread, "board", {})
        assert not (await board.response()).ephemeral
        (note,) = await board.followups(1)
        assert note.ephemeral
        assert note.content.splitlines()[1] == (
            "Bob played **e5**, which none of your conditional moves expected, so they were "
            f"cleared. It is your turn: https://discord.com/channels/{fake_club.guild.id}/"
            f"{thread.id}"
        )
        again = await fake.slash(alice, thread, "board", {})
        await again.response()
        await asyncio.sleep(0.3)
        assert again.followup_messages == []
        assert fake.dm_channel(alice).messages == []

        await private_reply(fake, fake.slash(alice, thread, "settings", {"turn_messages": True}))
        await move(fake, alice, thread, "d3")
        await private_reply(
            fake, fake.slash(alice, thread, "conditional add", {"game": 1, "line": "d5 e3"})
        )
        await move(fake, bob, thread, "f5")
        dm = await fake.wait_for_message(
            fake.dm_channel(alice), lambda m: "none of your conditional moves" in m.content
        )
        assert "Bob played **f5**" in dm.content
        await asyncio.sleep(0.3)
        told = [m for m in fake.dm_channel(alice).messages if "conditional" in m.content]
        assert told == [dm]


async def test_a_refused_direct_message_waits_for_the_next_command(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Dave asked for direct messages but Discord refuses them: the note comes with his
    next command instead."""
    fake, alice = fake_club.fake, fake_club.alice
    dave = fake.add_user("dave", global_name="Dave", accepts_dms=False)
    fake_club.guild.add_member(dave)
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        await private_reply(fake, fake.slash(dave, fake_club.channel, "settings",
                                             {"turn_messages": True}))  # fmt: skip
        play = await fake.slash(dave, fake_club.channel, "play", {**DROP, "opponent": alice})
        challenge = (await play.response()).message
        assert challenge is not None
        await (await fake.click(alice, challenge, label="Accept")).response()
        board = await fake.wait_for_message(None, lambda m: "The game begins" in m.content)
        thread = board.channel
        await move(fake, dave, thread, "c3")
        await private_reply(
            fake, fake.slash(dave, thread, "conditional add", {"game": 1, "line": "c5 d3"})
        )
        await move(fake, alice, thread, "e5")
        await dm_tried(bot.services.repository)
        games = await fake.slash(dave, thread, "games", {})
        await games.response()
        (note,) = await games.followups(1, timeout=10)
        assert note.ephemeral and "Alice played **e5**, which none of" in note.content
        assert fake.dm_channel(dave).messages == []
