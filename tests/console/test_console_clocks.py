"""Correspondence play in the console: /play time=, /settings, /vacation, /games, /wait,
reminders and a loss on time, on a manual clock."""

from __future__ import annotations

from pathlib import Path

from bot.cli import build_parser
from bot.services.clock import ManualClock, SystemClock
from tests.console.test_console import open_session


async def test_a_correspondence_game_in_the_console(tmp_path: Path) -> None:
    """Settings, a timed game with its clock line, a vacation seen by the opponent, a
    reminder by direct message, then the loss on time with both told."""
    session = await open_session(tmp_path / "c.sqlite3", ManualClock())
    try:
        printed = await session.run(
            "bob> /settings turns=on reminders=6h\n"
            "alice> /play groups @bob start=drop colour=white time=1d\n"
            "bob> /accept\n"
            "alice> /move c3\n"
        )
        assert "(to bob) Reminders: 6h before a deadline, by direct message" in printed
        assert "⏱ 1d per move: alice has 1d left (runs out in 1d)." in printed
        assert "(DM to bob) Your turn in Groups (start drop) #1 vs alice: alice played c3." in (
            printed
        )
        printed = await session.run(
            "bob> /vacation start 2d\nalice> /games\n/board\n/vacation\nbob> /vacation fly\n"
        )
        assert "[game #1] 🏖 bob is on vacation, back in 2d" in printed
        assert "(to bob) 🏖 You are on vacation, back in 2d" in printed
        assert "bob's turn · 1d left, runs out in 3d (on vacation, back in 2d)" in printed
        assert "bob is on vacation, back in 2d; their clock is paused with 1d left." in printed
        assert "(to alice) You are not on vacation. Vacation left in 2025: 30d" in printed
        assert "(to bob) Write /vacation start [length like 7d]" in printed
        printed = await session.run("alice> /wait 2d18h\n/wait 1h\n/wait 5h\n")
        assert "[game #1] bob is back from vacation: their clock runs again." in printed
        assert "(DM to bob) Your vacation is over: your clocks run again, and 1 game wait" in (
            printed
        )
        assert "(DM to bob) ⏰ You have 6h left to move in Groups (start drop) #1" in printed
        assert "⏰ @bob ran out of time." in printed
        assert "alice wins with White (bob ran out of time without moving: not rated)." in (printed)
        assert "Ratings:" not in printed
        assert "(DM to bob) ⏰ You ran out of time in Groups (start drop) #1 vs alice" in printed
        assert "(DM to alice)" not in printed
    finally:
        await session.repo.close()


async def test_vacation_times_read_as_asked(tmp_path: Path) -> None:
    """A vacation of 5d is "back in 5d" a few seconds later, and ending it at once
    leaves "29d 23h", not "29d23h59m57s": durations read as everywhere (1d 11h), cut to
    two units and never rounded up."""
    session = await open_session(tmp_path / "v.sqlite3", ManualClock())
    try:
        printed = await session.run(
            "bob> /vacation start 5d\n/wait 3s\n/vacation\n/vacation end\n"
            "/vacation start 36h\n/wait 1m\n/vacation\n"
        )
        assert "(to bob) 🏖 You are on vacation, back in 5d:" in printed
        assert "(to bob) You are on vacation, back in 5d:" in printed
        assert "Vacation left in 2025: 29d 23h." in printed
        assert "(to bob) You are on vacation, back in 1d 11h:" in printed
        assert "Used in 2025: 1d 12h of 30d" in printed  # 36h and 3s, cut to the hour
    finally:
        await session.repo.close()


async def test_settings_and_wait_refusals(tmp_path: Path) -> None:
    """Bad settings are named; /wait needs a manual clock and a duration."""
    session = await open_session(tmp_path / "s.sqlite3", ManualClock())
    try:
        printed = await session.run(
            "alice> /settings colour=blue\n/settings reminders=soon\n/settings digest=maybe\n"
            "/wait\n"
        )
        session.app.clock = SystemClock()
        printed += await session.run("alice> /wait 1h\n")
    finally:
        await session.repo.close()
    assert "(to alice) 'colour=blue': write settings as turns=on|off, reminders=24h,1h" in printed
    assert "(to alice) 'soon' is not a duration" in printed
    assert "(to alice) digest is on or off (got 'maybe')." in printed
    assert "(to alice) Write how long to wait, like /wait 2d." in printed
    assert "(to alice) /wait needs the console started with --manual-clock." in printed


async def test_a_capped_increment_clock_in_the_console(tmp_path: Path) -> None:
    """`time="7d+1d max 10d"` (quoted) starts a bank clock: a day used, a day added."""
    session = await open_session(tmp_path / "b.sqlite3", ManualClock())
    try:
        printed = await session.run(
            'alice> /play groups @bob start=drop colour=white time="7d+1d max 10d"\n'
            "bob> /accept\nalice> /wait 1d\n/move c3\n"
        )
    finally:
        await session.repo.close()
    assert "⏱ 7d + 1d a move, at most 10d: alice has 7d left" in printed
    assert "bob has 7d left (runs out in 7d). alice has 7d." in printed


def test_the_console_takes_a_manual_clock() -> None:
    """`tabula console --manual-clock` is an option of the console only."""
    args = build_parser().parse_args(["console", "--manual-clock"])
    assert args.manual_clock
