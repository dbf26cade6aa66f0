"""/export and /history against the fake Discord: files, visibility, persistent paging."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from jsonschema import Draft202012Validator, FormatChecker

from bot.records.ap_json import SCHEMA_FILE
from tests.discord.test_e2e import DROP_WIN, challenge_and_accept, move, private_reply, running
from tests.fakediscord.fixtures import FakeClub
from tests.records.games import START, store_played

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = Draft202012Validator(
    json.loads((ROOT / "bot" / "records" / SCHEMA_FILE).read_text(encoding="utf-8")),
    format_checker=FormatChecker(),
)


async def test_export_attaches_the_records_privately(fake_club: FakeClub, tmp_path: Path) -> None:
    """After a game: /export in its thread gives the JSON (valid) and the text record,
    privately; a member of the server may export it by number; in direct messages only
    its players can."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    async with running(fake, tmp_path / "t.sqlite3"):
        _, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        running_export = await (await fake.slash(bob, thread, "export", {})).response()
        assert running_export.ephemeral and running_export.message is not None
        assert [a.filename for a in running_export.message.attachments] == ["tabula-1-groups.txt"]
        assert "in progress" in running_export.message.content
        for index, notation in enumerate(DROP_WIN):
            await move(fake, (alice, bob)[index % 2], thread, notation)
        answer = await (await fake.slash(alice, thread, "export", {})).response()
        assert answer.ephemeral and answer.message is not None
        message = answer.message
        assert message.content.startswith(
            "Game #1, Groups (start drop): Alice vs Bob, Alice won (all six stones connected). "
            "Attached: the AbstractPlay game record (JSON), the text record."
        )
        assert "```\nTabula game record\nGame: Groups\n" in message.content
        files = {a.filename: a.data for a in message.attachments}
        assert set(files) == {"tabula-1-groups.json", "tabula-1-groups.txt"}
        record = json.loads(files["tabula-1-groups.json"])
        VALIDATOR.validate(record)
        assert record["header"]["players"][0] == {
            "name": "Alice",
            "userid": str(alice.id),
            "result": 1,
        }
        assert record["moves"][-1] == ["d4", None]
        assert files["tabula-1-groups.txt"].decode().endswith("11. White: d4\n")
        by_number = await (
            await fake.slash(carol, fake_club.channel, "export", {"game": 1})
        ).response()
        assert by_number.message is not None and len(by_number.message.attachments) == 2
        text = await private_reply(
            fake, fake.slash(carol, fake.dm_channel(carol), "export", {"game": 1})
        )
        assert text == "There is no game #1 of yours."
        mine = await (
            await fake.slash(alice, fake.dm_channel(alice), "export", {"game": 1})
        ).response()
        assert mine.message is not None and len(mine.message.attachments) == 2
        other = fake_club.guild  # a game of this server is not shown in another
        elsewhere = fake.add_guild("Elsewhere")
        elsewhere.add_member(alice)
        hall = elsewhere.add_channel("hall")
        text = await private_reply(fake, fake.slash(alice, hall, "export", {"game": 1}))
        assert text == "There is no game #1 in this server."
        assert other.id != elsewhere.id


async def test_history_pages_survive_a_restart_and_export_from_the_menu(
    fake_club: FakeClub, tmp_path: Path
) -> None:
    """12 finished games: page 1 lists the 10 newest with opponent, result, reason, date
    and link; Older shows the last 2; after a restart Newer still works; the menu exports
    a game of the page; the game filter; Bob's history seen by Carol in this server."""
    fake, alice, bob, carol = fake_club.fake, fake_club.alice, fake_club.bob, fake_club.carol
    database = tmp_path / "t.sqlite3"
    guild = fake_club.guild.id
    async with running(fake, database) as bot:
        for number in range(12):
            game, options = ("hexade", {"size": 5}) if number % 3 == 0 else ("groups", {})
            await store_played(
                bot.services.repository, game, options, number, "resigned", guild_id=guild,
                players=(alice.id, bob.id), names=("Alice", "Bob"),
                finished_at=START + timedelta(days=number),
            )  # fmt: skip
        answer = await (await fake.slash(alice, fake_club.channel, "history", {})).response()
        assert answer.ephemeral and answer.message is not None
        history = answer.message
        (embed,) = history.embeds
        assert embed["title"] == "Alice's finished games in this server (12)"
        assert embed["footer"]["text"] == "Page 1 of 2"
        lines = embed["description"].splitlines()
        assert len(lines) == 10
        assert lines[0].startswith("#12 Groups vs Bob · **")
        assert lines[0].endswith(f"· 2025-03-12 · https://discord.com/channels/{guild}/100")
        assert lines[-1].startswith("#3 Groups vs Bob")
        assert [label for _, label, _ in history.buttons()] == ["Older ▶"]
        older = await fake.click(alice, history, label="Older ▶")
        assert (await older.response()).type == 7
        (embed,) = history.embeds
        assert embed["footer"]["text"] == "Page 2 of 2"
        assert [line.split(" ")[0] for line in embed["description"].splitlines()] == ["#2", "#1"]
    async with running(fake, database):
        newer = await fake.click(alice, history, label="◀ Newer")
        assert (await newer.response()).type == 7
        assert history.embeds[0]["footer"]["text"] == "Page 1 of 2"
        menu = next(
            c["custom_id"] for row in history.components for c in row["components"]
            if c["type"] == 3
        )  # fmt: skip
        chosen = await fake.select(alice, history, menu, ["7"])
        export = (await chosen.response()).message
        assert export is not None and export.ephemeral
        assert [a.filename for a in export.attachments] == [
            "tabula-7-hexade.json", "tabula-7-hexade.txt"
        ]  # fmt: skip
        hexade = await (
            await fake.slash(alice, fake_club.channel, "history", {"game": "hexade"})
        ).response()
        assert hexade.message is not None
        (embed,) = hexade.message.embeds
        assert embed["title"] == "Alice's finished games of Hexade in this server (4)"
        assert hexade.message.buttons() == [] or all(
            label != "Older ▶" for _, label, _ in hexade.message.buttons()
        )
        seen = await (
            await fake.slash(carol, fake_club.channel, "history", {"user": bob})
        ).response()
        assert seen.message is not None
        assert seen.message.embeds[0]["title"] == "Bob's finished games in this server (12)"
        empty = await (await fake.slash(carol, fake_club.channel, "history", {})).response()
        assert empty.message is not None
        assert empty.message.embeds[0]["title"] == "Carol's finished games in this server (0)"
        assert empty.message.embeds[0]["description"] == "No finished game yet."
