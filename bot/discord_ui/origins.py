"""Whether a click may act on the message it was made on.

Discord delivers a component interaction with whatever `custom_id` the client sends: a
modified client can send a history page's id on a game's board, and a handler that edits
"the message clicked" would then rewrite the board for everyone. So before any handler
acts, the click's message must be one the bot made for that purpose:

- the message shows that very component (only the bot puts components on its messages,
  so the bot made it with this button); or
- it shows another component of the same purpose and subject (a board of the same game,
  a history of the same player, the same draw offer): a click from a client that has not
  yet seen an edit; or
- it is the message stored for that subject: a challenge's or a tournament's message, a
  message that delivered that game's boards, or, for an answer to a draw offer or an undo
  request, the message that delivered that very offer (a draw offer is not an undo
  request, and an offer made at one move is not one made at another). This is how a
  click on a button removed since (a challenge accepted, an offer answered) still gets
  its specific answer ("This challenge was already accepted.").

Private pages (a history, "Yes, resign", "Show game") must also be ephemeral messages
made for the user who clicks. Anything else is answered privately and changes nothing.
Ids are checked too: a number that no Discord id or game id can be (over 63 bits) makes
the custom id malformed.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, cast

import discord

from bot.discord_ui.errors import guarded
from bot.services.container import Services
from bot.services.errors import ServiceError

PREFIX = "tabula"
MAX_ID = 2**63 - 1
"""The largest id a custom id may carry (Discord's snowflakes and the databases' ids are
signed 64-bit integers)."""
NOT_HERE = "That button does not belong to this message, so it does nothing here."
MALFORMED = "That button is malformed, so it does nothing."


class MalformedCustomIdError(ServiceError, ValueError):
    """A custom id in one of the bot's shapes whose numbers cannot be ids."""

    def __init__(self) -> None:
        super().__init__(MALFORMED)


class NotThisMessageError(ServiceError):
    """A click whose custom id the message it came with was not made for."""

    def __init__(self) -> None:
        super().__init__(NOT_HERE)


def parse_id(text: str) -> int:
    """A decimal id from a custom id; MalformedCustomIdError when it cannot be one."""
    if not text.isascii() or not text.isdigit() or len(text) > 19 or int(text) > MAX_ID:
        raise MalformedCustomIdError
    return int(text)


class Purpose(enum.Enum):
    """What a message with the bot's components is for."""

    CHALLENGE = "challenge"
    BOARD = "board"
    DRAW_OFFER = "draw offer"
    UNDO_REQUEST = "undo request"
    HISTORY = "history"
    RESIGN = "resign"
    SHOW = "show"
    TOURNAMENT = "tournament"


PRIVATE = frozenset({Purpose.HISTORY, Purpose.RESIGN, Purpose.SHOW})
"""Purposes whose messages are ephemeral pages made for one user."""

_BY_KIND = {
    "ch": Purpose.CHALLENGE,
    "g": Purpose.BOARD,
    "q": Purpose.BOARD,
    "rm": Purpose.BOARD,
    "dr": Purpose.DRAW_OFFER,
    "ud": Purpose.UNDO_REQUEST,
    "hp": Purpose.HISTORY,
    "hx": Purpose.HISTORY,
    "rs": Purpose.RESIGN,
    "sg": Purpose.SHOW,
    "te": Purpose.TOURNAMENT,
}
_SHAPE = re.compile(rf"{PREFIX}:(?P<kind>[a-z]+):(?P<subject>\d+)(?::(?P<rest>.*))?", re.DOTALL)
_OFFER_REST = re.compile(r"(?P<ply>\d+):[yn]")
"""What follows the game in an answer's custom id: the move the offer was made at."""
OFFERS = {Purpose.DRAW_OFFER: "draw", Purpose.UNDO_REQUEST: "undo"}
"""The answerable offers, and what their announcements call them."""

BOARD_KINDS = frozenset({"start", "move", "end", "timeout", "undo"})
"""Announcements that post a game's board (with its buttons)."""
OFFER_KIND = "offer"
"""The announcement that posts a draw offer or an undo request (with its answer buttons)."""


@dataclass(frozen=True, slots=True)
class Origin:
    """What a custom id is about: its purpose and subject (a game, challenge, user...);
    for an answer to an offer, also the move the offer was made at (`ply`)."""

    purpose: Purpose
    subject: int
    ply: int | None = None


def origin_of(custom_id: str) -> Origin | None:
    """The purpose and subject of one of the bot's custom ids; None for any other id.
    Raises MalformedCustomIdError when the subject cannot be an id."""
    match = _SHAPE.fullmatch(custom_id)
    if match is None or match["kind"] not in _BY_KIND:
        return None
    purpose = _BY_KIND[match["kind"]]
    subject = parse_id(match["subject"])
    if purpose not in OFFERS:
        return Origin(purpose, subject)
    rest = _OFFER_REST.fullmatch(match["rest"] or "")
    return Origin(purpose, subject, parse_id(rest["ply"]) if rest is not None else None)


def shown_custom_ids(message: discord.Message) -> set[str]:
    """The custom ids of the components a message shows now (disabled ones included)."""
    shown = set()
    for row in message.components:
        for component in getattr(row, "children", [row]):
            custom_id = getattr(component, "custom_id", None)
            if custom_id:
                shown.add(custom_id)
    return shown


class _HasServices(Protocol):
    @property
    def services(self) -> Services:
        """The bot's services."""
        ...


def _made_for_user(interaction: discord.Interaction, message: discord.Message) -> bool:
    """Whether `message` is an ephemeral answer to the user who clicks."""
    if not message.flags.ephemeral:
        return False
    metadata = message.interaction_metadata
    return metadata is not None and metadata.user.id == interaction.user.id


def _shown_origins(message: discord.Message) -> set[Origin]:
    origins = set()
    for custom_id in shown_custom_ids(message):
        try:
            origin = origin_of(custom_id)
        except MalformedCustomIdError:
            continue
        if origin is not None:
            origins.add(origin)
    return origins


async def _stored_for(services: Services, origin: Origin, message_id: int) -> bool:
    """Whether the database knows `message_id` as the message of `origin`'s subject."""
    repository = services.repository
    if origin.purpose is Purpose.CHALLENGE:
        challenge = await repository.get_challenge(origin.subject)
        return challenge is not None and challenge.message_id == message_id
    if origin.purpose is Purpose.TOURNAMENT:
        tournament = await repository.get_tournament(origin.subject)
        return tournament is not None and tournament.message_id == message_id
    if origin.purpose is Purpose.BOARD:
        delivered = await repository.message_announcements(origin.subject, message_id)
        return any(row.kind in BOARD_KINDS for row in delivered)
    if origin.purpose in OFFERS:
        delivered = await repository.message_announcements(origin.subject, message_id)
        return any(
            row.kind == OFFER_KIND
            and row.data.get("what") == OFFERS[origin.purpose]
            and row.data.get("at") == origin.ply
            for row in delivered
        )
    return False


async def admits(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether the click on `custom_id` may act on the message it came with (see the
    module's docstring). Raises MalformedCustomIdError for a malformed id."""
    origin = origin_of(custom_id)
    message = interaction.message
    if origin is None or message is None:
        return False
    if origin.purpose in PRIVATE and not _made_for_user(interaction, message):
        return False
    if custom_id in shown_custom_ids(message) or origin in _shown_origins(message):
        return True
    if origin.purpose in PRIVATE:
        return False
    services = cast(_HasServices, interaction.client).services
    return await _stored_for(services, origin, message.id)


async def guarded_click(
    interaction: discord.Interaction, custom_id: str, action: Callable[[], Awaitable[object]]
) -> None:
    """Run a component's action when its message admits the click (`admits`); otherwise,
    and for refusals and failures, answer privately (see `guarded`)."""

    async def checked() -> None:
        if not await admits(interaction, custom_id):
            raise NotThisMessageError
        await action()

    await guarded(interaction, checked)
