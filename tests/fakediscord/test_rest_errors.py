"""The fake's REST API spoken to directly: Discord's limits, error codes and shapes."""

from __future__ import annotations

import io
import json
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeInteraction
from tests.fakediscord import permissions as perm
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.interactions import InteractionType
from tests.fakediscord.rest_client import Api, button, command, first_error, row
from tests.fakediscord.sample_bot import board_png


async def test_authorisation_and_unknown_routes(fake_club: FakeClub, api: Api) -> None:
    """A missing token is 401; an unknown route is a JSON 404, logged and listed."""
    fake = fake_club.fake
    status, body = await api.call("GET", "/users/@me", auth=False)
    assert (status, body["code"]) == (401, 0)
    status, body = await api.call("GET", "/voice/regions")
    assert status == 404 and body == {"message": "404: Not Found", "code": 0}
    assert fake.unknown_routes == ["GET /voice/regions"]
    assert fake.requests[-1] == ("GET", "/voice/regions", 404)
    fake.unknown_routes.clear()


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, ["content"], "BASE_TYPE_MAX_LENGTH"),
        ({"content": "x", "embeds": [{"title": "t"}] * 11}, ["embeds"], "BASE_TYPE_MAX_LENGTH"),
        (
            {"content": "x", "components": [row(button(str(i))) for i in range(6)]},
            ["components"],
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"content": "x", "components": [row(*(button(str(i)) for i in range(6)))]},
            ["components", "0", "components"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"content": "x", "components": [row(button("x" * 101))]},
            ["components", "0", "components", "0", "custom_id"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"content": "x", "components": [row(button("a")), row(button("a"))]},
            ["components", "1", "components", "0", "custom_id"],
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        (
            {"content": "x", "components": [row(button("a", style=5, url="https://x.org"))]},
            ["components", "0", "components", "0", "custom_id"],
            "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
        ),
        (
            {
                "content": "x",
                "components": [
                    row(
                        button("a"),
                        {"type": 3, "custom_id": "s", "options": [{"label": "l", "value": "v"}]},
                    )
                ],
            },
            ["components", "0", "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        (
            {"content": "x", "flags": 1 << 15, "components": [{"type": 10, "content": "hi"}]},
            ["content"],
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
    ],
)
async def test_message_limits(
    fake_club: FakeClub, api: Api, body: dict[str, Any], path: list[str], code: str
) -> None:
    """Each of Discord's message limits is refused with 50035 at the offending field."""
    status, error = await api.post_message(fake_club.channel, body)
    assert (status, error["code"], error["message"]) == (400, 50035, "Invalid Form Body")
    assert first_error(error) == (path, code)
    assert fake_club.channel.messages == []


async def test_empty_message_and_oversized_file(fake_club: FakeClub, api: Api) -> None:
    """An empty message is 50006; a file over 10 MiB is 413 40005."""
    status, body = await api.post_message(fake_club.channel, {"content": ""})
    assert (status, body["code"]) == (400, 50006)
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "big"}))
    form.add_field("files[0]", io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), filename="big.bin")
    path = f"/channels/{fake_club.channel.id}/messages"
    status, body = await api.call("POST", path, data=form)
    assert (status, body["code"]) == (413, 40005)


async def test_multipart_message_and_attachment_download(fake_club: FakeClub, api: Api) -> None:
    """Files arrive as `files[n]` parts; their URL serves the bytes back."""
    png = board_png(10, 7)
    form = aiohttp.FormData(quote_fields=False)
    attachments = [{"id": 0, "filename": "b.png", "description": "A board."}]
    payload = {"content": "board", "attachments": attachments}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", png, filename="b.png", content_type="application/octet-stream")
    status, body = await api.call("POST", f"/channels/{fake_club.channel.id}/messages", data=form)
    assert status == 200
    (attachment,) = body["attachments"]
    assert attachment["content_type"] == "image/png"
    assert (attachment["width"], attachment["height"], attachment["size"]) == (10, 7, len(png))
    assert attachment["description"] == "A board."
    async with api.session.get(attachment["url"]) as response:
        assert await response.read() == png


@pytest.mark.parametrize(
    ("meta", "code"),
    [
        ({"id": 0, "filename": "b.png"}, "BASE_TYPE_REQUIRED"),
        ({"id": 0, "filename": "b.png", "description": "  "}, "BASE_TYPE_REQUIRED"),
        ({"id": 0, "filename": "b.png", "description": "x" * 1025}, "BASE_TYPE_MAX_LENGTH"),
        (None, "BASE_TYPE_REQUIRED"),
    ],
)
async def test_an_image_needs_its_description(
    fake_club: FakeClub, api: Api, meta: dict[str, object] | None, code: str
) -> None:
    """Stricter than Discord: a picture without alt text (or without the attachments list
    that carries it) is refused; so is a description over 1,024 characters."""
    form = aiohttp.FormData(quote_fields=False)
    payload: dict[str, object] = {"content": "board"}
    if meta is not None:
        payload["attachments"] = [meta]
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", board_png(10, 7), filename="b.png")
    status, body = await api.call("POST", f"/channels/{fake_club.channel.id}/messages", data=form)
    assert (status, body["code"]) == (400, 50035)
    assert first_error(body) == (["attachments", "0", "description"], code)
    assert not [m for m in fake_club.fake.messages.values() if m.content == "board"]


async def test_a_text_file_needs_no_description(fake_club: FakeClub, api: Api) -> None:
    """Only images must say what they show."""
    form = aiohttp.FormData(quote_fields=False)
    payload = {"content": "table", "attachments": [{"id": 0, "filename": "t.txt"}]}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", b"1. Ada 3", filename="t.txt")
    status, body = await api.call("POST", f"/channels/{fake_club.channel.id}/messages", data=form)
    assert status == 200
    assert body["attachments"][0]["content_type"].startswith("text/plain")


def with_file(payload: dict[str, Any], data: bytes = b"1. Ada 3") -> aiohttp.FormData:
    """A multipart body carrying `payload` and one text file."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", data, filename="t.txt")
    return form


async def test_an_edit_adding_a_file_needs_attach_files(fake_club: FakeClub, api: Api) -> None:
    """Without Attach Files an edit may change the text and keep the files it has, but
    not add one (403 50013), as a post could not."""
    channel, role = fake_club.channel, fake_club.guild.bot_role
    assert role is not None
    status, posted = await api.call(
        "POST", f"/channels/{channel.id}/messages", data=with_file({"content": "table"})
    )
    assert status == 200
    (kept,) = posted["attachments"]
    channel.set_overwrite(role, deny=perm.ATTACH_FILES)
    path = f"/channels/{channel.id}/messages/{posted['id']}"
    payload = {"content": "two tables", "attachments": [{"id": kept["id"]}, {"id": 0}]}
    status, body = await api.call("PATCH", path, data=with_file(payload))
    assert (status, body["code"]) == (403, 50013)
    status, body = await api.call(
        "POST", f"/channels/{channel.id}/messages", data=with_file({"content": "another"})
    )
    assert (status, body["code"]) == (403, 50013)
    status, body = await api.call("PATCH", path, {"content": "the table"})
    assert status == 200 and [a["id"] for a in body["attachments"]] == [kept["id"]]
    (message,) = channel.messages
    assert message.content == "the table" and len(message.attachments) == 1


async def test_no_edit_where_the_bot_cannot_see(fake_club: FakeClub, api: Api) -> None:
    """A message in a channel (or a thread of it) the bot can no longer view cannot be
    edited: 403 50001 Missing Access, as for posting there."""
    channel, role = fake_club.channel, fake_club.guild.bot_role
    assert role is not None
    _, posted = await api.post_message(channel, {"content": "Move 1"})
    status, thread = await api.call(
        "POST", f"/channels/{channel.id}/threads", {"name": "g", "type": 11}
    )
    assert status == 201
    _, in_thread = await api.call(
        "POST", f"/channels/{thread['id']}/messages", {"content": "Move 2"}
    )
    channel.set_overwrite(role, deny=perm.VIEW_CHANNEL)
    for where, message in ((channel.id, posted), (thread["id"], in_thread)):
        path = f"/channels/{where}/messages/{message['id']}"
        status, body = await api.call("PATCH", path, {"content": "edited"})
        assert (status, body["code"]) == (403, 50001)
        status, body = await api.call("PATCH", f"/channels/{where}/messages/1", {"content": "x"})
        assert (status, body["code"]) == (403, 50001)  # whether it exists is not told either
    assert not any(m.edits for m in fake_club.fake.messages.values())
    channel.set_overwrite(role)
    status, _ = await api.call(
        "PATCH", f"/channels/{channel.id}/messages/{posted['id']}", {"content": "edited"}
    )
    assert status == 200


async def test_callback_rules(fake_club: FakeClub, api: Api) -> None:
    """Wrong type 400, answering twice 40060, follow-up before the answer 10015."""
    fake = fake_club.fake
    interaction = command(fake_club.alice, fake_club.channel, fake)
    callback = f"/interactions/{interaction.id}/{interaction.token}/callback"
    webhook = f"/webhooks/{fake.application_id}/{interaction.token}"
    status, body = await api.call("POST", webhook + "?wait=1", {"content": "early"}, auth=False)
    assert (status, body["code"]) == (404, 10015)
    status, body = await api.call("POST", callback, {"type": 7, "data": {"content": "x"}})
    assert (status, first_error(body)) == (400, (["type"], "INTERACTION_CALLBACK_TYPE_INVALID"))
    status, body = await api.call(
        "POST", callback + "?with_response=1", {"type": 4, "data": {"content": "hi", "flags": 64}}
    )
    assert status == 200
    assert body["interaction"]["response_message_ephemeral"] is True
    assert body["resource"]["type"] == 4 and body["resource"]["message"]["content"] == "hi"
    status, body = await api.call("POST", callback, {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060)
    assert interaction.response_info is not None and interaction.response_info.ephemeral
    assert [e.code for e in interaction.rejected] == [10015, 50035, 40060]
    status, _ = await api.call("GET", webhook + "/messages/@original", auth=False)
    assert status == 200
    status, body = await api.call("GET", webhook + "/messages/123", auth=False)
    assert (status, body["code"]) == (404, 10008)


async def test_deadline_and_token_expiry(fake_club: FakeClub, api: Api) -> None:
    """After 3 s the interaction is unknown; after 15 minutes its token is invalid."""
    fake = fake_club.fake
    late = command(fake_club.alice, fake_club.channel, fake)
    fake.advance_time(3.2)
    status, body = await api.call(
        "POST", f"/interactions/{late.id}/{late.token}/callback", {"type": 5}
    )
    assert (status, body["code"]) == (404, 10062)
    answered = command(fake_club.alice, fake_club.channel, fake)
    status, _ = await api.call(
        "POST", f"/interactions/{answered.id}/{answered.token}/callback", {"type": 5}
    )
    assert status == 204
    fake.advance_time(15 * 60 + 1)
    path = f"/webhooks/{fake.application_id}/{answered.token}/messages/@original"
    status, body = await api.call("PATCH", path, {"content": "too late"}, auth=False)
    assert (status, body["code"]) == (401, 50027)


async def test_modal_and_autocomplete_limits(fake_club: FakeClub, api: Api) -> None:
    """A modal title over 45 characters and a 26th choice are refused under `data`."""
    fake = fake_club.fake
    opener = command(fake_club.alice, fake_club.channel, fake)
    text_input = {"type": 4, "custom_id": "m", "style": 1, "label": "Move"}
    modal = {"custom_id": "f", "title": "t" * 46, "components": [row(text_input)]}
    status, body = await api.call(
        "POST", f"/interactions/{opener.id}/{opener.token}/callback", {"type": 9, "data": modal}
    )
    assert (status, first_error(body)) == (400, (["data", "title"], "BASE_TYPE_BAD_LENGTH"))
    data = {"id": "1", "name": "move", "type": 1, "options": []}
    typing = FakeInteraction(
        fake.world, InteractionType.AUTOCOMPLETE, fake_club.alice, fake_club.channel, data
    )
    choices = [{"name": str(i), "value": str(i)} for i in range(26)]
    status, body = await api.call(
        "POST",
        f"/interactions/{typing.id}/{typing.token}/callback",
        {"type": 8, "data": {"choices": choices}},
    )
    assert (status, first_error(body)) == (400, (["data", "choices"], "BASE_TYPE_MAX_LENGTH"))


async def test_command_sync_validation_and_stable_ids(fake_club: FakeClub, api: Api) -> None:
    """Bad declarations get 50035 by command index; re-syncing keeps command ids."""
    path = f"/applications/{fake_club.fake.application_id}/commands"
    option = {"type": 3, "name": "game", "description": "d"}
    bad = [
        {"name": "ok", "description": "fine"},
        {
            "name": "play",
            "description": "d",
            "options": [option, {**option, "name": "x", "required": True}],
        },
    ]
    status, body = await api.call("PUT", path, bad)
    assert (status, first_error(body)) == (
        400,
        (["1", "options", "1", "required"], "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
    )
    status, body = await api.call("PUT", path, [{"name": "Play", "description": "d"}])
    assert first_error(body) == (["0", "name"], "APPLICATION_COMMAND_INVALID_NAME")
    good = [{"name": "play", "description": "d"}, {"name": "move", "description": "d"}]
    status, first = await api.call("PUT", path, good)
    assert status == 200 and [c["name"] for c in first] == ["play", "move"]
    status, second = await api.call("PUT", path, good[:1])
    assert second[0]["id"] == first[0]["id"]
    assert list(fake_club.fake.commands) == ["play"]


async def test_threads_and_dms_refused(fake_club: FakeClub, api: Api) -> None:
    """A second thread on a message is 160004; a DM to a stranger is 50007."""
    fake = fake_club.fake
    status, message = await api.post_message(fake_club.channel, {"content": "challenge"})
    path = f"/channels/{fake_club.channel.id}/messages/{message['id']}/threads"
    status, thread = await api.call("POST", path, {"name": "Game 1"})
    assert status == 201 and thread["id"] == message["id"] and thread["type"] == 11
    status, body = await api.call("POST", path, {"name": "Game 1 again"})
    assert (status, body["code"]) == (400, 160004)
    status, body = await api.call("POST", path, {"name": ""})
    assert status == 400
    stranger = fake.add_user("stranger")
    status, dm = await api.call("POST", "/users/@me/channels", {"recipient_id": str(stranger.id)})
    assert status == 200 and dm["type"] == 1
    status, body = await api.call("POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
    assert (status, body["code"]) == (403, 50007)


async def test_history_pages(fake_club: FakeClub, api: Api) -> None:
    """GET messages returns newest first and honours `limit`, `before` and `after`."""
    ids = []
    for n in range(5):
        _, message = await api.post_message(fake_club.channel, {"content": str(n)})
        ids.append(message["id"])
    base = f"/channels/{fake_club.channel.id}/messages"
    _, page = await api.call("GET", base + "?limit=2")
    assert [m["content"] for m in page] == ["4", "3"]
    _, page = await api.call("GET", f"{base}?limit=2&before={ids[3]}")
    assert [m["content"] for m in page] == ["2", "1"]
    _, page = await api.call("GET", f"{base}?after={ids[2]}")
    assert [m["content"] for m in page] == ["4", "3"]
