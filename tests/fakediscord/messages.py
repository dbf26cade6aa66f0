"""Message bodies: reading JSON or multipart requests, attachments, mentions, create and edit."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import web

from tests.fakediscord.errors import DiscordHTTPError, FormErrors, not_found
from tests.fakediscord.state import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    REPLY,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    FakeUser,
    image_size,
    sniff_content_type,
)
from tests.fakediscord.validation import validate_message, validate_nonce

if TYPE_CHECKING:
    from tests.fakediscord.interactions import FakeInteraction
    from tests.fakediscord.world import World

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit for a server without boosts (bytes per file)."""

NONCE_WINDOW = 120.0
"""Seconds an enforced nonce is remembered. Discord says "the past few minutes"; the fake
takes the short end, so a bot that relies on a longer memory fails here first."""

CREATE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")
_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_NAME_PARAM = re.compile(r';\s*name="([^"]*)"')
_FILENAME_PARAM = re.compile(r';\s*filename="([^"]*)"')
_FILENAME_STAR_PARAM = re.compile(r";\s*filename\*=([^;]+)")


@dataclass
class Upload:
    """A file part of a multipart request."""

    index: int
    filename: str
    data: bytes


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
    """A request's JSON payload and its uploaded files (`payload_json` + `files[n]` parts)."""
    raw = await request.read()
    if request.content_type.startswith("multipart/"):
        return _parse_multipart(request.headers.get("Content-Type", ""), raw)
    if not raw:
        return {}, {}
    return _parse_json(raw), {}


def _parse_multipart(content_type: str, raw: bytes) -> tuple[dict[str, Any], dict[int, Upload]]:
    # A small parser for the form-data discord.py sends: aiohttp's own spends most of the
    # fake's time on Content-Disposition headers.
    match = _BOUNDARY.search(content_type)
    if match is None:
        raise DiscordHTTPError(400, 50035, "Invalid Form Body")
    delimiter = b"--" + match[1].encode()
    payload: dict[str, Any] = {}
    uploads: dict[int, Upload] = {}
    for chunk in raw.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, body = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        body = body.removesuffix(b"\r\n")
        disposition = next(
            (
                line
                for line in head.decode("utf-8", "replace").split("\r\n")
                if line.lower().startswith("content-disposition:")
            ),
            "",
        )
        name = _field(_NAME_PARAM, disposition) or ""
        if name == "payload_json":
            payload = _parse_json(body)
            continue
        filename = _field(_FILENAME_PARAM, disposition)
        extended = _field(_FILENAME_STAR_PARAM, disposition)
        if extended is not None:
            filename = unquote(extended.split("''", 1)[-1])
        field = _FILE_FIELD.match(name)
        index = int(field[1]) if field else (0 if name == "file" else len(uploads))
        uploads[index] = Upload(index, filename or f"file{index}", body)
    return payload, uploads


def _field(pattern: re.Pattern[str], header: str) -> str | None:
    match = pattern.search(header)
    return None if match is None else match[1]


def _parse_json(raw: bytes | bytearray) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from None
    if not isinstance(value, dict):
        raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.")
    return value


def _new_attachment(world: World, upload: Upload, meta: dict[str, Any]) -> FakeAttachment:
    if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
        raise DiscordHTTPError(413, 40005, "Request entity too large")
    filename = meta.get("filename") or upload.filename
    size = image_size(upload.data)
    attachment = FakeAttachment(
        world.new_id(),
        filename,
        upload.data,
        sniff_content_type(filename, upload.data),
        meta.get("description"),
        size[0] if size else None,
        size[1] if size else None,
    )
    world.attachments[attachment.id] = attachment
    return attachment


DESCRIPTION_LIMIT = 1024
"""Discord's limit for an attachment's description (its alt text)."""


def _check_description(errors: FormErrors, position: int, attachment: FakeAttachment) -> None:
    """An attachment's description: at most 1,024 characters, and required on images.

    Discord accepts an image without a description; this fake refuses it on purpose
    (stricter than Discord), so that every picture the bot posts has its alt text.
    """
    path = ("attachments", position, "description")
    description = attachment.description or ""
    if len(description) > DESCRIPTION_LIMIT:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {DESCRIPTION_LIMIT} or fewer in length.")
    elif (attachment.content_type or "").startswith("image/") and not description.strip():
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")


def resolve_attachments(
    world: World,
    payload: dict[str, Any],
    uploads: dict[int, Upload],
    existing: list[FakeAttachment],
) -> list[FakeAttachment] | None:
    """The message's attachments after this request; None when it leaves them unchanged.

    With an `attachments` list, exactly the listed ones remain: existing ones by id, new ones
    by the index of their `files[n]` part. Without it, uploaded files are added.
    """
    if "attachments" not in payload:
        if not uploads:
            return None
        new = [_new_attachment(world, uploads[i], {}) for i in sorted(uploads)]
        errors = FormErrors()
        for position, attachment in enumerate(new):
            _check_description(errors, position, attachment)
        errors.raise_if_any()
        return [*existing, *new]
    by_id = {a.id: a for a in existing}
    result: list[FakeAttachment] = []
    errors = FormErrors()
    for position, meta in enumerate(payload.get("attachments") or []):
        try:
            ident = int(meta.get("id"))
        except (TypeError, ValueError):
            errors.add(
                ("attachments", position, "id"), "BASE_TYPE_REQUIRED", "This field is required"
            )
            continue
        if ident in by_id:
            result.append(by_id[ident])
        elif ident in uploads:
            attachment = _new_attachment(world, uploads[ident], meta)
            _check_description(errors, position, attachment)
            result.append(attachment)
        else:
            errors.add(
                ("attachments", position, "id"),
                "ATTACHMENT_NOT_FOUND",
                f"Attachment {ident} is neither an uploaded file nor one of the message's",
            )
    errors.raise_if_any()
    return result


def _mentions(
    world: World,
    channel: FakeChannel,
    content: str,
    allowed: dict[str, Any] | None,
    reply_to: FakeMessage | None,
) -> tuple[list[FakeUser], list[int], bool]:
    if allowed is None:
        parse = {"users", "roles", "everyone"}
        users_allowed: set[str] = set()
        roles_allowed: set[str] = set()
        replied_user = True
    else:
        parse = set(allowed.get("parse") or [])
        users_allowed = {str(u) for u in allowed.get("users") or []}
        roles_allowed = {str(r) for r in allowed.get("roles") or []}
        replied_user = bool(allowed.get("replied_user", False))
        errors = FormErrors()
        if "users" in parse and users_allowed:
            errors.add(
                ("allowed_mentions",),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                'parse:["users"] and users: [ids...] are mutually exclusive.',
            )
        if "roles" in parse and roles_allowed:
            errors.add(
                ("allowed_mentions",),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                'parse:["roles"] and roles: [ids...] are mutually exclusive.',
            )
        errors.raise_if_any()
    users: list[FakeUser] = []
    for raw in _USER_MENTION.findall(content):
        user = world.users.get(int(raw))
        if user is not None and user not in users and ("users" in parse or raw in users_allowed):
            users.append(user)
    if reply_to is not None and replied_user and reply_to.author not in users:
        users.append(reply_to.author)
    roles: list[int] = []
    guild = channel.guild
    for raw in _ROLE_MENTION.findall(content):
        if (
            guild is not None
            and int(raw) in guild.roles
            and ("roles" in parse or raw in roles_allowed)
        ):
            roles.append(int(raw))
    everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
    return users, roles, everyone


def _reference(world: World, channel: FakeChannel, payload: dict[str, Any]) -> FakeMessage | None:
    ref = payload.get("message_reference")
    if not ref:
        return None
    target = world.messages.get(int(ref.get("message_id") or 0))
    if target is None or target.deleted:
        if ref.get("fail_if_not_exists", True):
            errors = FormErrors()
            errors.add(
                ("message_reference",),
                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                "Unknown message",
            )
            errors.raise_if_any()
        return None
    if target.channel is not channel:
        errors = FormErrors()
        errors.add(
            ("message_reference",),
            "MESSAGE_REFERENCE_INVALID_CHANNEL",
            "Cannot reply to a message in another channel",
        )
        errors.raise_if_any()
    return target


def create_message(
    world: World,
    channel: FakeChannel,
    author: FakeUser,
    payload: dict[str, Any],
    uploads: dict[int, Upload],
    *,
    extra_flags: int = 0,
    message_type: int = 0,
    interaction: FakeInteraction | None = None,
    webhook_id: int | None = None,
    nonce: int | str | None = None,
) -> FakeMessage:
    """Validate a create request and post the message (ephemeral if `extra_flags` says so)."""
    attachment_count = len(payload["attachments"]) if "attachments" in payload else len(uploads)
    validate_message(payload, attachment_count=attachment_count)
    attachments = resolve_attachments(world, payload, uploads, []) or []
    reference = _reference(world, channel, payload)
    flags = (int(payload.get("flags") or 0) & CREATE_FLAGS) | extra_flags
    content = payload.get("content") or ""
    users, roles, everyone = _mentions(
        world, channel, content, payload.get("allowed_mentions"), reference
    )
    message = FakeMessage(
        world.new_id(),
        channel,
        author,
        content=content,
        embeds=list(payload.get("embeds") or []),
        attachments=attachments,
        components=list(payload.get("components") or []),
        flags=flags,
        type=REPLY if reference is not None and message_type == 0 else message_type,
        created_at=world.now(),
        interaction=interaction,
        webhook_id=webhook_id,
        mentions=users,
        mention_roles=roles,
        mention_everyone=everyone,
        reference=reference,
        tts=bool(payload.get("tts")),
        nonce=nonce,
    )
    if not flags & (EPHEMERAL | SUPPRESS_NOTIFICATIONS | LOADING):
        message.pinged = list(users)
    world.store_message(message)
    return message


def post_once(
    world: World,
    channel: FakeChannel,
    author: FakeUser,
    payload: dict[str, Any],
    uploads: dict[int, Upload],
) -> FakeMessage:
    """Create Message with its `nonce`: with `enforce_nonce`, a repeat of a recent nonce by
    the same author in the same channel returns the first message and creates nothing (404
    `10008` if that message was deleted since)."""
    validate_nonce(payload)
    nonce = payload.get("nonce")
    key = (channel.id, author.id, str(nonce))
    if nonce is not None and payload.get("enforce_nonce"):
        earlier = world.nonced.get(key)
        if earlier is not None and world.now() - earlier.created_at <= NONCE_WINDOW:
            if earlier.deleted:  # discord.py documents this NotFound
                raise not_found(10008, "Message")
            return earlier
    message = create_message(world, channel, author, payload, uploads, nonce=nonce)
    if nonce is not None and payload.get("enforce_nonce"):
        world.nonced[key] = message
    return message


def edit_message(
    world: World,
    message: FakeMessage,
    payload: dict[str, Any],
    uploads: dict[int, Upload],
    *,
    finish_loading: bool = False,
) -> FakeMessage:
    """Validate an edit and apply it; `finish_loading` turns a "thinking…" message into a reply.

    Edits never notify anyone, and filling in a deferred response is an edit: like Discord,
    the fake does not ping the users it mentions (`pinged` stays empty). Nothing in an
    archived thread can be edited (400 `50083`).
    """
    if message.channel.is_thread and message.channel.archived:
        raise DiscordHTTPError(400, 50083, "Operation cannot be performed on an archived thread")
    attachments = resolve_attachments(world, payload, uploads, message.attachments)
    merged = {
        "content": payload.get("content", message.content),
        "embeds": payload.get("embeds", message.embeds),
        "components": payload.get("components", message.components),
        "flags": payload.get("flags", message.flags),
    }
    count = len(attachments) if attachments is not None else len(message.attachments)
    validate_message(merged, attachment_count=count, editing=True)
    was_loading = message.loading
    empty = not (merged["content"] or merged["embeds"] or count or merged["components"])
    if empty and not was_loading:
        raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
    message.edits.append(message.snapshot())
    message.content = merged["content"] or ""
    message.embeds = list(merged["embeds"] or [])
    message.components = list(merged["components"] or [])
    if attachments is not None:
        message.attachments = attachments
    if "flags" in payload:
        kept = message.flags & ~EDIT_FLAGS
        message.flags = kept | (int(payload["flags"] or 0) & EDIT_FLAGS)
    if "allowed_mentions" in payload or "content" in payload:
        users, roles, everyone = _mentions(
            world,
            message.channel,
            message.content,
            payload.get("allowed_mentions"),
            message.reference,
        )
        message.mentions, message.mention_roles, message.mention_everyone = users, roles, everyone
    if finish_loading and was_loading:
        message.flags &= ~LOADING
    else:
        message.edited_at = world.now()
    world.message_edited(message)
    return message
