"""Durations and time controls written as text."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services.durations import (
    TimeControl,
    format_duration,
    format_span,
    parse_duration,
    parse_time_control,
)
from bot.services.errors import InvalidInputError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30m", timedelta(minutes=30)),
        ("12h", timedelta(hours=12)),
        ("1d12h", timedelta(days=1, hours=12)),
        (" 1D 12H ", timedelta(days=1, hours=12)),
        ("2w", timedelta(days=14)),
        ("90s", timedelta(seconds=90)),
    ],
)
def test_parse_duration(text: str, expected: timedelta) -> None:
    """Units w, d, h, m, s, combined, any case and spacing."""
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "3", "d", "3x", "1.5h", "-2h", "0m", "h3"])
def test_bad_durations(text: str) -> None:
    """Anything else is refused with a message showing the format."""
    with pytest.raises(InvalidInputError):
        parse_duration(text)


@pytest.mark.parametrize(
    "text", ["366d", "53w", "500000w", "99999999999w", "9" * 5000 + "d", "300d300d", "8760h1s"]
)
def test_durations_beyond_a_year_are_refused(text: str) -> None:
    """Far-off durations (which would break date arithmetic) get a message, not a crash;
    the message quotes at most 30 characters of what was typed."""
    with pytest.raises(InvalidInputError, match="is too long: a duration is at most 365d") as info:
        parse_duration(text)
    assert len(str(info.value)) < 90
    assert parse_duration("365d") == parse_duration("8760h") == timedelta(days=365)
    assert parse_duration("0000000000001h") == timedelta(hours=1)


def test_a_zero_duration_is_named() -> None:
    """Zero is refused with what was typed."""
    with pytest.raises(InvalidInputError, match="'0d0h' is no time at all: a duration must"):
        parse_duration("0d0h")


@pytest.mark.parametrize("delta", [timedelta(minutes=1), timedelta(days=1, hours=12, seconds=5)])
def test_format_round_trip(delta: timedelta) -> None:
    """format_duration writes what parse_duration reads back."""
    assert parse_duration(format_duration(delta)) == delta


def test_time_controls() -> None:
    """none, per move, and capped increment; the cap must not be below the bank."""
    assert parse_time_control("none").is_none
    assert parse_time_control("none").describe() == "no clock"
    per_move = parse_time_control("3d")
    assert per_move == TimeControl(per_move=timedelta(days=3))
    assert str(per_move) == "3d" and per_move.describe() == "3d per move"
    assert parse_time_control("1d12h").describe() == "1d 12h per move"
    capped = parse_time_control("7d+1d max 10d")
    assert capped == TimeControl(
        initial=timedelta(days=7), increment=timedelta(days=1), cap=timedelta(days=10)
    )
    assert parse_time_control(str(capped)) == capped
    with pytest.raises(InvalidInputError, match=r"^The cap \(2d\) must be at least the initial"):
        parse_time_control("7d+1d max 2d")
    for text in ("1d+2d max 1d", "1d+1d max 1d"):
        with pytest.raises(InvalidInputError, match=r"is not less than the cap \(1d\)"):
            parse_time_control(text)
    assert parse_time_control("1d+23h max 1d").increment == timedelta(hours=23)
    with pytest.raises(InvalidInputError):
        parse_time_control("7d+1d")


def test_durations_for_reading_are_spaced_and_cut_never_rounded_up() -> None:
    """Units largest first with spaces; with `parts`, what is past them is cut, so a clock
    never shows more time than is left; zeros are left out."""
    cases = {
        (timedelta(days=29, hours=23, minutes=59, seconds=57), 2): "29d 23h",
        (timedelta(days=1, hours=12, seconds=3), 4): "1d 12h 3s",
        (timedelta(days=2, minutes=30), 2): "2d",
        (timedelta(hours=5, minutes=29, seconds=31), 2): "5h 29m",
        (timedelta(seconds=20), 2): "20s",
        (timedelta(seconds=-5), 4): "0s",
        (timedelta(days=365), 4): "365d",
    }
    assert {key: format_span(*key) for key in cases} == cases


@pytest.mark.parametrize("delta", [timedelta(minutes=1), timedelta(days=1, hours=12, seconds=5)])
def test_a_span_reads_back(delta: timedelta) -> None:
    """What `format_span` writes in full, `parse_duration` reads back."""
    assert parse_duration(format_span(delta)) == delta
