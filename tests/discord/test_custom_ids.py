"""Every custom id parser refuses numbers no id can be (over 63 bits) as malformed."""

from __future__ import annotations

import re
from typing import Any, cast

import discord
import pytest

from bot.discord_ui.buttons import DYNAMIC_ITEMS, MOVE_FORM
from bot.discord_ui.origins import (
    MAX_ID,
    MalformedCustomIdError,
    Origin,
    Purpose,
    origin_of,
    parse_id,
)
from bot.discord_ui.records import RECORD_ITEMS
from bot.discord_ui.tournaments import TOURNAMENT_ITEMS

HUGE = str(2**64)
SAMPLES = [
    "tabula:ch:{n}:accept",
    "tabula:g:{n}:move",
    "tabula:q:{n}:pass",
    "tabula:dr:{n}:{n}:y",
    "tabula:ud:{n}:{n}:n",
    "tabula:rs:{n}",
    "tabula:rm:{n}",
    "tabula:sg:{n}",
    "tabula:hp:{n}:-:{n}",
    "tabula:hx:{n}:groups:{n}",
    "tabula:te:{n}:join",
]
ITEMS = (*DYNAMIC_ITEMS, *RECORD_ITEMS, *TOURNAMENT_ITEMS)


def _factory(custom_id: str) -> tuple[type[discord.ui.DynamicItem[Any]], re.Match[str]]:
    for factory in ITEMS:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return factory, match
    raise AssertionError(f"no item parses {custom_id!r}")


def _variants(sample: str) -> list[str]:
    """The sample with a huge number in each of its number places, one at a time."""
    parts = sample.split("{n}")
    variants = []
    for place in range(len(parts) - 1):
        numbers = [HUGE if i == place else "1" for i in range(len(parts) - 1)]
        variants.append("".join(p + n for p, n in zip(parts, [*numbers, ""], strict=True)))
    return variants


@pytest.mark.parametrize("sample", SAMPLES)
async def test_every_item_refuses_huge_numbers(sample: str) -> None:
    """A huge number anywhere in any component's id: malformed, never OverflowError."""
    small = sample.replace("{n}", "1")
    factory, match = _factory(small)
    base = discord.ui.Button[discord.ui.View](custom_id=small)
    await factory.from_custom_id(cast(discord.Interaction, None), base, match)
    for custom_id in _variants(sample):
        factory, match = _factory(custom_id)
        base = discord.ui.Button[discord.ui.View](custom_id=custom_id)
        with pytest.raises(MalformedCustomIdError):
            await factory.from_custom_id(cast(discord.Interaction, None), base, match)


def test_ids_and_origins() -> None:
    """The largest id is one; one more, or a number of any length beyond, is malformed."""
    assert parse_id(str(MAX_ID)) == MAX_ID
    for text in (str(MAX_ID + 1), HUGE, "9" * 400, "１２"):
        with pytest.raises(MalformedCustomIdError):
            parse_id(text)
    match = MOVE_FORM.fullmatch(f"tabula:mf:{HUGE}")
    assert match is not None
    with pytest.raises(MalformedCustomIdError):
        parse_id(match["game"])
    with pytest.raises(MalformedCustomIdError):
        origin_of(f"tabula:hp:{HUGE}:-:1")
    assert origin_of("tabula:zz:1") is None and origin_of("other:g:1:move") is None


def test_answers_to_offers_name_their_kind_and_move() -> None:
    """An answer to a draw offer is not one to an undo request, nor to an offer made at
    another move: their origins differ, so one is no click on the other's message."""
    draw, undo = origin_of("tabula:dr:7:3:y"), origin_of("tabula:ud:7:3:y")
    assert draw == Origin(Purpose.DRAW_OFFER, 7, 3) == origin_of("tabula:dr:7:3:n")
    assert undo == Origin(Purpose.UNDO_REQUEST, 7, 3)
    assert origin_of("tabula:dr:7:4:y") != draw
    assert origin_of("tabula:g:7:draw") == Origin(Purpose.BOARD, 7) == origin_of("tabula:q:7:pass")
    with pytest.raises(MalformedCustomIdError):
        origin_of(f"tabula:ud:7:{HUGE}:y")
