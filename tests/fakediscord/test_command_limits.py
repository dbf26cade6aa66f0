"""Discord's limits on command declarations, autocomplete answers and callback flags."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord import FakeInteraction
from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.interactions import InteractionType
from tests.fakediscord.rest_client import Api, command, first_error
from tests.fakediscord.validation import command_size


def declared(option: dict[str, Any]) -> list[dict[str, Any]]:
    """One command, /play, with one option."""
    return [{"name": "play", "description": "Play", "options": [option]}]


def option(kind: int, **extra: Any) -> dict[str, Any]:
    """An option `game` of type `kind`."""
    return {"type": kind, "name": "game", "description": "which", **extra}


@pytest.mark.parametrize(
    ("bad", "path", "code"),
    [
        (option(4, min_value=10, max_value=5), ["max_value"], "MIN_MAX_INVALID"),
        (option(10, min_value=2.5, max_value=2.4), ["max_value"], "MIN_MAX_INVALID"),
        (option(3, min_length=9, max_length=3), ["max_length"], "MIN_MAX_INVALID"),
        (option(3, max_length=6001), ["max_length"], "NUMBER_TYPE_OUT_OF_RANGE"),
        (option(3, min_value=1), ["min_value"], "APPLICATION_COMMAND_OPTION_INVALID"),
        (option(4, max_value=2**53), ["max_value"], "NUMBER_TYPE_MAX"),
        (
            option(4, choices=[{"name": "one", "value": "1"}]),
            ["choices", "0", "value"],
            "BASE_TYPE_INTEGER",
        ),
        (
            option(4, choices=[{"name": "half", "value": 0.5}]),
            ["choices", "0", "value"],
            "BASE_TYPE_INTEGER",
        ),
        (
            option(3, choices=[{"name": "one", "value": 1}]),
            ["choices", "0", "value"],
            "BASE_TYPE_STRING",
        ),
        (
            option(10, choices=[{"name": "yes", "value": True}]),
            ["choices", "0", "value"],
            "BASE_TYPE_NUMBER",
        ),
        (
            option(5, choices=[{"name": "yes", "value": True}]),
            ["choices"],
            "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
        ),
    ],
)
async def test_option_declarations_must_be_consistent(
    fake_club: FakeClub, api: Api, bad: dict[str, Any], path: list[str], code: str
) -> None:
    """Bounds in order and for the right type; choice values of the option's type."""
    url = f"/applications/{fake_club.fake.application_id}/commands"
    status, body = await api.call("PUT", url, declared(bad))
    assert status == 400
    where, found = first_error(body)
    assert where == ["0", "options", "0", *path] and found.endswith(code)
    assert fake_club.fake.commands == {}


async def test_good_bounds_and_choices_are_accepted(fake_club: FakeClub, api: Api) -> None:
    """Equal bounds, number choices given as integers, strings of 1 to 100 characters."""
    url = f"/applications/{fake_club.fake.application_id}/commands"
    commands = [
        *declared(option(4, min_value=1, max_value=1)),
        {
            "name": "size",
            "description": "d",
            "options": [
                option(10, choices=[{"name": "two", "value": 2}, {"name": "x", "value": 2.5}]),
                {**option(3, min_length=1, max_length=6000), "name": "text"},
            ],
        },
    ]
    status, body = await api.call("PUT", url, commands)
    assert status == 200, body
    assert sorted(fake_club.fake.commands) == ["play", "size"]


async def test_a_command_holds_8000_characters(fake_club: FakeClub, api: Api) -> None:
    """Names, descriptions and choices count, each text by its longest localization."""
    url = f"/applications/{fake_club.fake.application_id}/commands"
    choices = [{"name": f"c{i:02}" + "n" * 97, "value": f"v{i:02}" + "v" * 97} for i in range(25)]
    options = [
        {**option(3, choices=choices), "name": f"o{n}", "description": "d" * 100} for n in range(2)
    ]
    big = {"name": "play", "description": "p" * 100, "options": options}
    assert command_size(big) == 4 + 100 + 2 * (2 + 100 + 25 * 200)  # 10308
    status, body = await api.call("PUT", url, [big])
    assert (status, first_error(body)) == (400, (["0"], "APPLICATION_COMMAND_TOO_LARGE"))
    fits = {**big, "options": [{**o, "choices": choices[:19]} for o in options]}
    assert command_size(fits) == 7908
    status, _ = await api.call("PUT", url, [fits])
    assert status == 200
    localized = {**fits, "description_localizations": {"fr": "d" * 100, "de": "x" * 100}}
    assert command_size(localized) == 7908  # the longest counts, not the sum
    assert command_size({**fits, "name_localizations": {"fr": "n" * 32}}) == 7936


async def test_autocomplete_values_have_the_option_s_type(fake_club: FakeClub, api: Api) -> None:
    """Typing in an integer option: string values are refused, integers accepted."""
    fake = fake_club.fake
    data = {
        "id": "1",
        "name": "board",
        "type": 1,
        "options": [{"name": "game", "type": 4, "value": "1", "focused": True}],
    }

    def typing() -> FakeInteraction:
        return FakeInteraction(
            fake.world, InteractionType.AUTOCOMPLETE, fake_club.alice, fake_club.channel, data
        )

    wrong = typing()
    body = {"type": 8, "data": {"choices": [{"name": "#1 Groups", "value": "1"}]}}
    status, error = await api.call("POST", f"/interactions/{wrong.id}/{wrong.token}/callback", body)
    assert (status, first_error(error)) == (
        400,
        (["data", "choices", "0", "value"], "BASE_TYPE_INTEGER"),
    )
    right = typing()
    body = {"type": 8, "data": {"choices": [{"name": "#1 Groups", "value": 1}]}}
    status, _ = await api.call("POST", f"/interactions/{right.id}/{right.token}/callback", body)
    assert status == 204


@pytest.mark.parametrize(
    ("kind", "flags", "accepted"),
    [
        (4, 64, True),
        (4, 64 | 4096 | 4, True),
        (4, 1 << 15, False),  # V2 needs components: refused for being empty, not for flags
        (4, 1 << 1, False),  # PUBLISHED: not settable
        (4, 1 << 7, False),  # LOADING: Discord's own
        (5, 64, True),
        (5, 1 << 8, False),
    ],
)
async def test_callbacks_set_only_settable_flags(
    fake_club: FakeClub, api: Api, kind: int, flags: int, accepted: bool
) -> None:
    """A response may set only SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS,
    IS_VOICE_MESSAGE and IS_COMPONENTS_V2."""
    fake = fake_club.fake
    asked = command(fake_club.alice, fake_club.channel, fake)
    body = {"type": kind, "data": {"content": "hi", "flags": flags}}
    status, error = await api.call("POST", f"/interactions/{asked.id}/{asked.token}/callback", body)
    if accepted:
        assert status == 204, error
    else:
        assert status == 400
        if flags != 1 << 15:
            assert first_error(error) == (["data", "flags"], "MESSAGE_FLAGS_NOT_SETTABLE")


async def test_follow_ups_set_only_settable_flags(fake_club: FakeClub, api: Api) -> None:
    """A follow-up with a flag it may not set is refused; an ephemeral one is fine."""
    fake = fake_club.fake
    asked = command(fake_club.alice, fake_club.channel, fake)
    status, _ = await api.call(
        "POST",
        f"/interactions/{asked.id}/{asked.token}/callback",
        {"type": 4, "data": {"content": "a"}},
    )
    assert status == 204
    url = f"/webhooks/{fake.application_id}/{asked.token}"
    status, error = await api.call("POST", url, {"content": "b", "flags": 1 << 1})
    assert (status, first_error(error)) == (400, (["flags"], "MESSAGE_FLAGS_NOT_SETTABLE"))
    status, _ = await api.call("POST", url, {"content": "c", "flags": 64})
    assert status == 204
