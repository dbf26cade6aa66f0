"""The real bot, unmodified, against the fake Discord: every flow of a game, from the
challenge to the end, and the commands around it."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.client import TabulaBot
from bot.config import Settings
from bot.services.clock import Clock, ManualClock
from bot.storage.repository import AnnouncementStatus
from rules import get_game
from tests.fakediscord import permissions as perm
from tests.fakediscord.fake import FakeDiscord
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

ROOT = Path(__file__).resolve().parents[2]
DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
"""Groups with start=drop: the first player connects six with the last move."""
COMMANDS = {
    "play", "move", "board", "resign", "draw", "undo", "games", "rules", "help", "config",
    "rating", "leaderboard", "tournament", "league",
    "vacation", "settings", "export", "history", "rematch", "conditional", "link",
}  # fmt: skip


@asynccontextmanager
async def running(
    fake: FakeDiscord, database: Path, clock: Clock | None = None, docs_url: str | None = None
) -> AsyncIterator[TabulaBot]:
    """The bot over `database`, connected to the fake, its commands synced. A bot started
    again identifies 5 seconds after the last one (Discord's identify limit), as a real
    restart would, not at once."""
    fake.pass_identify_window()
    settings = Settings(token=fake.token, database=database, docs_url=docs_url)
    bot = TabulaBot(settings, clock=clock, tick_seconds=0.05, guild_ready_timeout=0.05)
    async with fake.run_client(bot):
        await bot.sync_commands()
        yield bot


async def challenge_and_accept(
    club: FakeClub, options: dict[str, object], *, channel: FakeChannel | None = None
) -> tuple[FakeMessage, FakeChannel]:
    """Alice challenges Bob with `options`; Bob accepts: the first board and where it is."""
    fake = club.fake
    channel = channel or club.channel
    play = await fake.slash(club.alice, channel, "play", {"opponent": club.bob, **options})
    challenge = (await play.response()).message
    assert challenge is not None
    accept = await fake.click(club.bob, challenge, label="Accept")
    assert (await accept.response()).type == 7
    board = await fake.wait_for_message(None, lambda m: "The game begins" in m.content)
    return board, board.channel


async def move(fake: FakeDiscord, user: FakeUser, where: FakeChannel, notation: str):
    """/move by `user`; the bot's response."""
    return await (await fake.slash(user, where, "move", {"notation": notation})).response()


async def private_reply(fake: FakeDiscord, inter_coro) -> str:
    """The text of an ephemeral answer (response or follow-up)."""
    inter = await inter_coro
    response = await inter.response()
    assert response.ephemeral, response
    assert response.message is not None
    return response.message.content


async def test_a_whole_game(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Login and sync; /play, Accept, a thread; autocomplete; refusals; moves to a win."""
    caplog.set_level(logging.DEBUG)
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3"):
        assert set(fake.commands) == COMMANDS
        assert fake.commands["config"]["default_member_permissions"] == str(1 << 5)
        board, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        assert thread.type == 11 and thread.parent is fake_club.channel
        assert thread.name == "Groups #1 · Alice vs Bob"
        assert board.attachments and board.attachments[0].content_type == "image/png"
        assert board.attachments[0].description == (
            "Groups, start of the game. Alice (White) to move. Alice (White): placed 0 of 6. "
            "Bob (Black): placed 0 of 6. White: none on the board. Black: none on the board."
        )
        assert f"{alice.mention} to move (White)" in board.content
        assert [label for _, label, _ in board.buttons()] == [
            "Move", "Offer draw", "Undo", "Resign",
        ]  # fmt: skip
        choices = await fake.autocomplete(
            alice, thread, "move", {"notation": "c"}, focused="notation"
        )
        names = [c["name"] for c in choices]
        assert names and len(names) <= 25 and all(n.startswith("c") for n in names)
        assert (
            await fake.autocomplete(bob, thread, "move", {"notation": ""}, focused="notation") == []
        )
        last = None
        for index, notation in enumerate(DROP_WIN):
            player, other = (alice, bob) if index % 2 == 0 else (bob, alice)
            if index == 2:
                before = len(thread.messages)
                refused = await move(fake, other, thread, "c6")
                assert refused.ephemeral and refused.message is not None
                assert refused.message.content == "It is Alice's turn, not yours."
                illegal = await move(fake, player, thread, "c3")
                assert illegal.ephemeral and illegal.message is not None
                assert illegal.message.content == "That move is not allowed: c3 is occupied."
                assert len(thread.messages) == before
            response = await move(fake, player, thread, notation)
            assert response.type == 4 and not response.ephemeral, response
            last = response.message
            assert last is not None and last.attachments
            if index == 0:
                assert "Move 1: Alice played **c3**." in last.content
                assert f"{bob.mention} to move (Black)" in last.content
            if index == 5:
                games = await private_reply(fake, fake.slash(alice, fake_club.channel, "games"))
                assert "#1 Groups (start drop) vs Bob · move 6 · **your turn**" in games
                assert f"https://discord.com/channels/{fake_club.guild.id}/{thread.id}" in games
        assert last is not None
        assert "**Alice wins** with White (all six stones connected)." in last.content
        assert [label for _, label, _ in last.buttons()] == ["Rematch"]
        final, replay = last.attachments
        assert final.content_type == "image/png" and replay.filename == "game-1-replay.gif"
        assert replay.content_type == "image/gif"
        assert replay.description is not None and replay.description.startswith(
            "Animated replay of Groups, Alice (White) against Bob (Black), 11 moves. At the end: "
        )
        with Image.open(io.BytesIO(replay.data)) as animation:
            assert getattr(animation, "n_frames", 1) == len(DROP_WIN) + 1
        games = await private_reply(fake, fake.slash(alice, fake_club.channel, "games"))
        assert games == "You have no game in progress. Start one with /play."
    assert fake.token not in caplog.text


async def test_refusals_for_strangers_and_bad_challenges(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Strangers' clicks and commands, self-challenges and bots get private explanations."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    robot = fake.add_user("robot", bot=True)
    fake_club.guild.add_member(robot)
    channel = fake_club.channel
    async with running(fake, tmp_path / "t.sqlite3"):
        text = await private_reply(
            fake, fake.slash(alice, channel, "play", {"game": "groups", "opponent": alice})
        )
        assert text == "You cannot challenge yourself."
        text = await private_reply(
            fake, fake.slash(alice, channel, "play", {"game": "groups", "opponent": robot})
        )
        assert "robot is a bot and cannot play" in text
        text = await private_reply(
            fake, fake.slash(alice, channel, "play", {"game": "groups", "size": 9})
        )
        assert text == "Groups has no option 'size' (options: start)."
        play = await fake.slash(
            alice,
            channel,
            "play",
            {"game": "hexade", "opponent": bob, "size": 5, "colour": "white"},
        )
        challenge = (await play.response()).message
        assert challenge is not None
        assert "challenges" in challenge.content and bob.mention in challenge.content
        assert bob.id in {u.id for u in challenge.pinged}
        text = await private_reply(fake, fake.click(carol, challenge, label="Accept"))
        assert text == "This challenge is for Bob."
        text = await private_reply(fake, fake.click(carol, challenge, label="Cancel"))
        assert text == "Only Alice, who made this challenge, can cancel it."
        accept = await fake.click(bob, challenge, label="Accept")
        await accept.response()
        board = await fake.wait_for_message(None, lambda m: "The game begins" in m.content)
        thread = board.channel
        assert challenge.buttons() == []
        text = await private_reply(fake, fake.click(bob, challenge, label="Accept", stale=True))
        assert text == "This challenge was already accepted."
        text = await private_reply(fake, fake.click(carol, board, label="Move"))
        assert text == "You are not playing in this game (Alice vs Bob)."
        text = await private_reply(fake, fake.click(bob, board, label="Move"))
        assert text == "It is Alice's turn, not yours."
        text = await private_reply(fake, fake.slash(carol, thread, "move", {"notation": "f6"}))
        assert text == "You are not playing in this game (Alice vs Bob)."
        text = await private_reply(fake, fake.click(carol, board, label="Resign"))
        assert text.startswith("You are not playing in this game")
        text = await private_reply(fake, fake.slash(carol, channel, "move", {"notation": "f6"}))
        assert text == "You have no game in progress here. Use /games to see your games."


async def test_restart_keeps_old_buttons_working(fake_club: FakeClub, tmp_path: Path) -> None:
    """After a restart, the Move button of an old board opens the form; draws by button."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    database = tmp_path / "t.sqlite3"
    async with running(fake, database):
        first_board, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "colour": "white"}
        )
        assert (await move(fake, alice, thread, "d3-e2")).type == 4
    async with running(fake, database) as bot:
        click = await fake.click(bob, first_board, label="Move")
        form = await click.response()
        assert form.type == 9 and form.modal is not None
        submitted = await fake.submit_modal(bob, click, {"notation": "e3-e1"})
        board = (await submitted.response()).message
        assert board is not None and not board.ephemeral
        assert "Move 2: Bob played **e3-e1**." in board.content
        offer = await fake.click(alice, first_board, label="Offer draw")
        offer_message = (await offer.response()).message
        assert offer_message is not None and bob.mention in offer_message.content
        text = await private_reply(fake, fake.click(alice, offer_message, label="Accept draw"))
        assert text == "This is your own offer; Bob must answer it."
        answer = await fake.click(bob, offer_message, label="Accept draw")
        assert (await answer.response()).type == 7
        assert offer_message.content == "Bob accepted the draw in game #1."
        assert offer_message.buttons() == []
        stale = fake.click(bob, offer_message, label="Decline", stale=True)
        assert await private_reply(fake, stale) == "This game is over."
        (end,) = await answer.followups()
        assert "**Draw** (draw agreed)." in end.content and end.attachments
        record = await bot.services.games.record(1)
        assert record.ply == 2 and record.result_reason == "draw agreed"


async def test_rest_failures_do_not_lose_moves(fake_club: FakeClub, tmp_path: Path) -> None:
    """A 429 and a 500 on the way: discord.py retries, every move is stored exactly once."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        fake.fail_next("POST", r"/channels/\d+/messages", status=500)
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        limited = fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", status=429)
        response = await move(fake, alice, thread, "d3-e2")
        assert response.type == 4 and limited.remaining == 0
        failed = fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", status=500)
        response = await move(fake, bob, thread, "e3-e1")
        assert response.type == 4 and failed.remaining == 0
        assert response.message is not None and "Move 2: Bob played" in response.message.content
        moves = await bot.services.repository.list_moves(1)
        assert [m.notation for m in moves] == ["d3-e2", "e3-e1"]
        statuses = [status for _, path, status in fake.requests if "callback" in path]
        assert 429 in statuses and 500 in statuses


async def test_expiry_config_and_channels_without_threads(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """/config by a manager; an open challenge expires; no thread where threads are denied."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    clock = ManualClock()
    async with running(fake, tmp_path / "t.sqlite3", clock):
        text = await private_reply(
            fake, fake.slash(carol, fake_club.channel, "config", {"challenge_expiry": "10m"})
        )
        assert "Challenges expire after 10m." in text
        play = await fake.slash(alice, fake_club.channel, "play", {"game": "hexade"})
        challenge = (await play.response()).message
        assert challenge is not None and "anyone may accept" in challenge.content
        assert [label for _, label, _ in challenge.buttons()] == ["Accept", "Cancel"]
        clock.advance(timedelta(minutes=11))
        await fake.wait_for(lambda: True if "expired" in challenge.content else None)
        assert "Challenge #1 expired without an answer." in challenge.content
        assert [(label, disabled) for _, label, disabled in challenge.buttons()] == [
            ("Accept", True), ("Cancel", True),
        ]  # fmt: skip
        stale = await private_reply(fake, fake.click(bob, challenge, label="Accept", stale=True))
        assert stale == "This challenge has expired."
        stale = await private_reply(fake, fake.click(alice, challenge, label="Cancel", stale=True))
        assert stale == "This challenge has expired."
        closed = fake_club.guild.add_channel("no-threads", allow_threads=False)
        board, where = await challenge_and_accept(fake_club, {"game": "groups"}, channel=closed)
        assert where is closed and board.attachments
        assert bob.mention in board.content and alice.mention in board.content


async def test_multi_move_turns_are_previewed_privately(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Diffusion: each sub-move answers privately with a preview; the turn's end is public."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "diffusion", "colour": "white"})
        state = get_game("diffusion").new_game()
        choices = await fake.autocomplete(
            alice, thread, "move", {"notation": "f5"}, focused="notation"
        )
        assert 0 < len(choices) <= 25 and all(c["name"].startswith("f5-") for c in choices)
        played: list[str] = []
        undone = False
        public_before = len(thread.messages)
        while state.to_move == 0:
            notation = state.legal_notations()[0]
            state = state.play_text(notation)
            played.append(notation)
            response = await move(fake, alice, thread, notation)
            assert response.message is not None and response.message.attachments
            if state.to_move == 0:
                assert response.ephemeral
                assert "The board is posted when your turn ends." in response.message.content
                if len(played) == 2 and not undone:
                    undo = await (await fake.slash(alice, thread, "undo", {})).response()
                    assert undo.ephemeral and undo.message is not None
                    assert f"Taken back: **{played[0]}, {played[1]}**" in undo.message.content
                    state, played, undone = get_game("diffusion").new_game(), [], True
            else:
                assert not response.ephemeral
                assert f"Alice played **{', '.join(played)}**." in response.message.content
        assert len(played) == 4
        assert len(thread.messages) == public_before + 1
        longest = max(state.legal_notations(), key=len)  # too long for autocomplete: typed
        assert len(longest) > 100
        click = await fake.click(fake_club.bob, thread.messages[-1], label="Move")
        submitted = await fake.submit_modal(fake_club.bob, click, {"notation": longest})
        preview = (await submitted.response()).message
        assert preview is not None and preview.ephemeral
        assert f"You played **{longest}** (move 5)" in preview.content


async def test_quick_move_button_and_resign_confirmation(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """Stones' Return is a button when legal; Resign by button asks first; undo by button."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "stones", "colour": "black"})
        board = (await move(fake, alice, thread, "e5")).message
        assert board is not None
        assert "Return" in [label for _, label, _ in board.buttons()]
        returned = await (await fake.click(bob, board, label="Return")).response()
        assert returned.message is not None
        assert "Move 2: Bob played **return**." in returned.message.content
        request = await (await fake.click(bob, returned.message, label="Undo")).response()
        assert request.message is not None and alice.mention in request.message.content
        allow = await fake.click(alice, request.message, label="Allow undo")
        await allow.response()
        (taken,) = await allow.followups()
        assert "Taken back: **return**." in taken.content
        ask = await (await fake.click(alice, board, label="Resign")).response()
        assert ask.ephemeral and ask.message is not None
        assert ask.message.content.startswith("Resign game #1 against Bob?")
        confirm = await fake.click(alice, ask.message, label="Yes, resign")
        end = (await confirm.response()).message
        assert end is not None and "**Bob wins** with White (Alice resigned)." in end.content


async def test_help_and_rules(fake_club: FakeClub, tmp_path: Path) -> None:
    """/help lists the commands; /rules shows the summary and the starting position and
    attaches the game's whole rules page."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3"):
        help_text = await private_reply(fake, fake.slash(alice, fake_club.channel, "help"))
        assert "`/play game [opponent] [colour] [time] [casual] [options]`" in help_text
        assert "`/tournament create|join" in help_text and help_text.endswith("the notation.")
        rules = await (
            await fake.slash(alice, fake_club.channel, "rules", {"game": "hexade"})
        ).response()
        assert rules.ephemeral and rules.message is not None
        assert rules.message.content.startswith("**Hexade**: White moves first")
        assert rules.message.content.endswith("The complete rules are attached: **hexade.md**.")
        page, picture = rules.message.attachments
        assert page.filename == "hexade.md"
        assert page.data == (ROOT / "docs" / "rules" / "hexade.md").read_bytes()
        assert picture.filename == "hexade-start.png" and picture.content_type == "image/png"
        assert picture.description == (
            "Hexade, size 10, start of the game. White to move. White: stones 0. Black: "
            "stones 0. White: none on the board. Black: none on the board."
        )
        assert "<http" not in help_text


async def test_help_links_the_guide_when_the_site_is_published(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """With `TABULA_DOCS_URL`, /help ends with a link to the players' guide, and the
    refusals that send a member to the organisers link the page saying who they are."""
    fake, alice, channel = fake_club.fake, fake_club.alice, fake_club.channel
    site = "https://tabula.example.org"
    async with running(fake, tmp_path / "t.sqlite3", docs_url=site):
        help_text = await private_reply(fake, fake.slash(alice, channel, "help"))
        assert help_text.endswith(f"The full guide: <{site}/playing/discord/>")
        cup = await private_reply(
            fake,
            fake.slash(
                alice, channel, "tournament create", {"game": "groups", "format": "round-robin"}
            ),
        )
        assert "the organiser role can create tournaments" in cup
        assert cup.endswith(f"More: <{site}/servers/tournaments/>")
        league = await private_reply(
            fake, fake.slash(alice, channel, "league create", {"game": "groups", "season": "30d"})
        )
        assert league.endswith(f"More: <{site}/servers/leagues/#creating-a-league-organisers>")


async def test_move_from_the_parent_channel(fake_club: FakeClub, tmp_path: Path) -> None:
    """/move outside the thread finds the caller's game; the board goes to the thread."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        text = await private_reply(
            fake, fake.slash(alice, fake_club.channel, "move", {"notation": "d3-e2"})
        )
        assert text == f"Done: see <#{thread.id}>."
        board = await fake.wait_for_message(thread, lambda m: "Move 1: Alice" in m.content)
        assert board.attachments


async def test_unexpected_errors_are_logged_and_answered(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A failure inside a command or a button: an apology for the user, a traceback in the log."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        board, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})

        async def broken(*args: object, **kwargs: object) -> Any:
            raise RuntimeError("disk on fire")

        bot.services.games.play = broken  # type: ignore[method-assign]
        bot.services.games.offer_draw = broken  # type: ignore[method-assign]
        text = await private_reply(fake, fake.slash(alice, thread, "move", {"notation": "d3-e2"}))
        assert text.startswith("Sorry, something went wrong")
        text = await private_reply(fake, fake.click(alice, board, label="Offer draw"))
        assert text.startswith("Sorry, something went wrong")
        assert bot.is_ready() and not bot.is_closed()
    failures = [r for r in caplog.records if r.exc_info and "disk on fire" in str(r.exc_info[1])]
    assert len(failures) == 2


async def test_late_interactions_are_deferred(
    fake_club: FakeClub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interaction close to its deadline is deferred privately; the board is then posted
    in the thread (once), and the player gets a private pointer to it."""
    fake, alice = fake_club.fake, fake_club.alice
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        monkeypatch.setattr("bot.discord_ui.replies.DEFER_AFTER", 0.0)  # every answer is "late"
        inter = await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        response = await inter.response()
        assert response.type == 5 and response.ephemeral
        (pointer,) = await inter.followups()
        assert pointer.ephemeral and pointer.content == f"Done: it is posted in <#{thread.id}>."
        boards = [m for m in thread.messages if "Move 1: Alice played **d3-e2**." in m.content]
        assert len(boards) == 1 and boards[0].attachments and boards[0].interaction is None


async def test_missing_permissions_are_explained(fake_club: FakeClub, tmp_path: Path) -> None:
    """Where the bot may not post, the player is told which permissions it needs."""
    fake = fake_club.fake
    closed = fake_club.guild.add_channel("read-only", allow_threads=False)
    bot_role = fake_club.guild.bot_role
    assert bot_role is not None
    closed.set_overwrite(bot_role, deny=perm.SEND_MESSAGES | perm.ATTACH_FILES)
    site = "https://tabula.example.org"
    guide = f"More: <{site}/servers/permissions/#when-a-permission-is-missing>"
    async with running(fake, tmp_path / "t.sqlite3", docs_url=site) as bot:
        play = await fake.slash(
            fake_club.alice, closed, "play", {"game": "groups", "opponent": fake_club.bob}
        )
        challenge = (await play.response()).message
        assert challenge is not None
        accept = await fake.click(fake_club.bob, challenge, label="Accept")
        assert (await accept.response()).type == 7
        (apology,) = await accept.followups()
        assert apology.ephemeral
        assert apology.content.startswith(
            "Game #1 is stored, but I could not open it here: Discord refused to let me post in "
        )
        assert "Send Messages" in apology.content and apology.content.endswith(guide)
        assert (await bot.services.games.record(1)).is_active  # the game exists: /board works
        for player in (fake_club.alice, fake_club.bob):  # both told by direct message
            dm = await fake.wait_for_message(fake.dm_channel(player), lambda m: True)
            assert dm.content.startswith(f"I could not post in <#{closed.id}> about game #1")
            assert "ask a moderator" in dm.content and dm.content.endswith(guide)
        [parked] = await bot.services.repository.list_announcements(
            status=AnnouncementStatus.PARKED
        )
        assert parked.kind == "start" and "Missing Permissions" in (parked.error or "")


async def test_board_draw_and_resign_by_command_and_moves_sent_together(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """/board reposts the board; /draw offers, Decline refuses, /draw by the opponent
    accepts; two moves sent at once play one; /resign ends a game."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    async with running(fake, tmp_path / "t.sqlite3") as bot:
        _, thread = await challenge_and_accept(fake_club, {"game": "groups", "colour": "white"})
        shown = await (await fake.slash(bob, thread, "board")).response()
        assert shown.message is not None and not shown.ephemeral and shown.message.attachments
        assert "No move yet." in shown.message.content and alice.mention in shown.message.content
        assert shown.message.buttons()[0].label == "Move"

        first = await fake.slash(alice, thread, "move", {"notation": "d3-e2"})
        second = await fake.slash(alice, thread, "move", {"notation": "c4-c3"})
        answers = [await first.response(), await second.response()]
        assert sorted(a.ephemeral for a in answers) == [False, True]
        refusal = next(a for a in answers if a.ephemeral).message
        assert refusal is not None and refusal.content == "It is Bob's turn, not yours."
        assert len(await bot.services.repository.list_moves(1)) == 1

        offer = (await (await fake.slash(alice, thread, "draw")).response()).message
        assert offer is not None and "offers a draw in game #1" in offer.content
        declined = await fake.click(bob, offer, label="Decline")
        assert (await declined.response()).type == 7
        assert offer.content == "Bob declined the draw offer in game #1." and not offer.buttons()
        text = await private_reply(fake, fake.slash(alice, thread, "draw"))
        assert text.startswith("Bob declined your draw offer; you can offer again after")
        assert (await move(fake, bob, thread, "e3-e1")).type == 4
        await (await fake.slash(alice, thread, "draw")).response()
        agreed = (await (await fake.slash(bob, thread, "draw")).response()).message
        assert agreed is not None and "**Draw** (draw agreed)." in agreed.content
        assert [label for _, label, _ in agreed.buttons()] == ["Rematch"]

        play = await fake.slash(
            alice, fake_club.channel, "play", {"game": "hexade", "opponent": bob, "colour": "white"}
        )
        challenge = (await play.response()).message
        assert challenge is not None
        accept = await fake.click(bob, challenge, label="Accept")
        second_thread = await fake.wait_for_thread(fake_club.channel, after=accept)
        await fake.wait_for_message(second_thread, lambda m: "The game begins" in m.content)
        opening = get_game("hexade").new_game().legal_notations()[0]
        await move(fake, alice, second_thread, opening)  # a game without a move is not rated
        ended = (await (await fake.slash(bob, second_thread, "resign")).response()).message
        assert ended is not None and "(Bob resigned).\nRatings: " in ended.content
        assert "Bob 1500? → 1338? (-162)" in ended.content
        assert "**Alice wins** with" in ended.content
        text = await private_reply(fake, fake.slash(bob, second_thread, "resign"))
        assert text == "You have no game in progress here. Use /games to see your games."
