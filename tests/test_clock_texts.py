"""The words of correspondence play: time left, the clocks in pictures, the clock line."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.services.correspondence.clocks import ClockStatus
from bot.services.correspondence.notifications import GameLine, parse_reminders
from bot.services.correspondence.vacations import VacationStatus
from bot.services.durations import parse_time_control
from bot.services.errors import InvalidInputError
from bot.services.views.alerts import DigestNotice, Waiting
from bot.services.views.results import GameView
from bot.storage.repository import ClockTurn, GameRecord, GameStatus, Vacation
from bot.texts.clocks import (
    board_clocks,
    clock_line,
    dashboard_pages,
    digest_text,
    format_left,
    pages,
    vacation_status_text,
)
from rules import get_game

NOW = datetime(2025, 3, 10, 12, tzinfo=UTC)
H = timedelta(hours=1)
D = timedelta(days=1)


class PlainStyle:
    """Mentions as @name, times as ISO text."""

    def mention(self, user_id: int | None, name: str) -> str:
        return f"@{name}"

    def when(self, moment: datetime) -> str:
        return f"at {moment:%d %b %H:%M}"

    def game_link(self, record: GameRecord) -> str:
        return f"#{record.id}"


def record(**changes: object) -> GameRecord:
    values: dict[str, object] = {
        "game": "groups",
        "options": {"start": "standard"},
        "guild_id": 1,
        "channel_id": 2,
        "players": (10, 11),
        "names": ("alice", "bob"),
        "created_at": NOW,
        "id": 5,
        "time_control": "3d",
    }
    values.update(changes)
    return GameRecord(**values)  # type: ignore[arg-type]


def status(
    control: str = "3d",
    seat: int = 1,
    left: tuple[timedelta, timedelta] = (3 * D, 2 * D + 5 * H),
    away: tuple[Vacation | None, Vacation | None] = (None, None),
    deadline: datetime | None = NOW + 2 * D + 5 * H,
) -> ClockStatus:
    turn = ClockTurn(5, 2, seat, 1, NOW - 19 * H)
    return ClockStatus(parse_time_control(control), turn, deadline, left, NOW, away)


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (2 * D + 4 * H + 59 * timedelta(minutes=1), "2d 4h"),
        (3 * D, "3d"),
        (5 * H + 12 * timedelta(minutes=1), "5h 12m"),
        (2 * H, "2h"),
        (12 * timedelta(minutes=1), "12m"),
        (timedelta(seconds=59), "59s"),
        (timedelta(), "no time"),
    ],
)
def test_format_left(delta: timedelta, text: str) -> None:
    """Two units at most, rounded down (never promising time that is not there)."""
    assert format_left(delta) == text


def test_board_clocks_per_move_and_bank() -> None:
    """The player to move: time left; the other: per move, or their bank."""
    assert board_clocks(status(), record()) == ("3d per move", "2d 5h left")
    bank = status("7d+1d max 10d", seat=0, left=(6 * D, 8 * D))
    assert board_clocks(bank, record()) == ("6d left", "8d")
    assert board_clocks(None, record()) == (None, None)


def test_board_clocks_show_vacations() -> None:
    """A player away says until when (the day, in UTC)."""
    away = Vacation(1, 11, NOW, NOW + 4 * D)
    assert board_clocks(status(away=(None, away)), record()) == (
        "3d per move",
        "2d 5h left · away until 14 Mar",
    )


def test_board_clocks_after_a_loss_on_time() -> None:
    """The loser shows "out of time"; a per-move clock means nothing for the winner."""
    ended = record(status=GameStatus.FINISHED, winner=0, result_reason="bob ran out of time")
    stopped = status(left=(3 * D, timedelta()), deadline=None)
    assert board_clocks(stopped, ended) == (None, "out of time")
    bank = status("1d+1h max 2d", left=(D, timedelta()), deadline=None)
    assert board_clocks(bank, ended) == ("1d", "out of time")


def test_clock_line() -> None:
    """Who must move by when; with a bank, the other's bank too; vacations named; a
    position the clock has moved past names the player to move there, without a deadline."""
    start = get_game("groups").new_game()
    view = GameView(record(), start.play_text(start.legal_notations()[0]))  # bob to move
    style = PlainStyle()
    assert clock_line(GameView(record(), start), status(), style) == (
        "⏱ 3d per move: alice has 3d left."
    )
    assert clock_line(view, status(), style) == (
        "⏱ 3d per move: bob has 2d 5h left (runs out at 12 Mar 17:00)."
    )
    bank = status("7d+1d max 10d", left=(6 * D, 8 * D))
    assert clock_line(view, bank, style) == (
        "⏱ 7d + 1d a move, at most 10d: bob has 8d left (runs out at 12 Mar 17:00). alice has 6d."
    )
    away = Vacation(1, 11, NOW, NOW + 4 * D)
    assert clock_line(view, status(away=(None, away)), style) == (
        "⏱ 3d per move: bob is on vacation, back at 14 Mar 12:00; their clock is paused "
        "with 2d 5h left."
    )
    assert clock_line(view, status(deadline=None), style) is None


def test_pages_split_at_line_ends_within_the_limit() -> None:
    """Lines stay whole and in order; a page never exceeds the limit; an overlong line
    is cut with an ellipsis."""
    lines = [f"line {n} " + "x" * (n % 7) for n in range(40)]
    found = pages("\n".join(lines), limit=50)
    assert all(len(page) <= 50 for page in found) and len(found) > 1
    assert "\n".join(found).split("\n") == lines
    assert pages("short") == ["short"]
    assert pages("a\n" + "b" * 30, limit=10) == ["a", "bbbbbbbbb…"]


def test_a_long_dashboard_is_paged_and_capped() -> None:
    """/games in pages of at most 2000 characters; beyond the cap, the games left out
    are counted."""
    lines = [GameLine(record(id=n), 0, status(seat=0)) for n in range(1, 61)]
    found = dashboard_pages(lines, PlainStyle())
    assert len(found) > 1 and all(len(page) <= 2000 for page in found)
    listed = "\n".join(found).split("\n")[1:]  # after the heading
    assert [line.split(" ", 1)[0] for line in listed] == [f"#{n}" for n in range(1, 61)]
    capped = dashboard_pages(lines, PlainStyle(), max_pages=2)
    shown = capped[0].count("\n")  # the heading and one line per game
    assert len(capped) == 2 and capped[1] == f"… and {60 - shown} more games."


def test_a_long_digest_says_how_many_games_it_leaves_out() -> None:
    """One direct message: the games that fit, then how many more /games lists."""
    games = tuple(Waiting(record(id=n), NOW + D, D) for n in range(1, 101))
    text = digest_text(DigestNotice(10, games), PlainStyle())
    assert len(text) <= 2000 and text.startswith("**100 games waiting for your move**:\n- ")
    shown = text.count("\n- ")
    assert 10 < shown < 100
    assert text.endswith(f"\n… and {100 - shown} more: /games lists them all.")


def test_durations_are_written_one_way_in_every_message() -> None:
    """Clocks, time controls, vacations and refusals write a duration alike ("1d 12h"),
    never joined up ("1d12h"); only the forms typed back use the compact one."""
    compact = re.compile(r"\d[dhms]\d")
    day_and_half = timedelta(days=1, hours=12, minutes=30)
    texts = [
        format_left(day_and_half),
        parse_time_control("1d12h+1h30m max 2d12h").describe(),
        vacation_status_text(VacationStatus(None, 2025, day_and_half, 30 * D), PlainStyle()),
    ]
    for bad in ("1d12h+2d max 1d12h", "1d12h30m+1m max 1d"):
        with pytest.raises(InvalidInputError) as refused:
            parse_time_control(bad)
        texts.append(str(refused.value).split(": for that")[0])  # the typed example stays
    with pytest.raises(InvalidInputError) as refused:
        parse_reminders("14d1h")
    texts.append(str(refused.value).split(" (got")[0])
    assert texts[:3] == [
        "1d 12h",
        "1d 12h + 1h 30m a move, at most 2d 12h",
        "You are not on vacation. Vacation left in 2025: 28d 11h (of 30d). "
        "/vacation start pauses your clocks.",
    ]
    assert [text for text in texts if compact.search(text)] == []


def test_only_text_typed_back_uses_the_compact_duration() -> None:
    """`format_duration` ("1d12h") is for the forms typed back: a time control's option
    value and the settings file; everything shown uses `format_span`."""
    root = Path(__file__).resolve().parents[1] / "bot"
    users = sorted(
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if "format_duration(" in path.read_text(encoding="utf-8")
    )
    assert users == ["config.py", "services/durations.py"]
