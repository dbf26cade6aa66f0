"""Leagues at the console: a season from creation to its final standings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.clock import ManualClock
from tests.console.test_console import Session, open_session


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    opened = await open_session(tmp_path / "c.sqlite3", ManualClock())
    yield opened
    await opened.repo.close()


async def test_a_league_season_at_the_console(session: Session) -> None:
    """Create, join, /wait for the start, the divisions, a withdrawal whose games are
    forfeited, the last game, the final standings and the history."""
    printed = await session.run(
        'carol> /league create groups 30d entry=1h name="Club League" start=drop\n'
        "alice> /league join\nbob> /league join\ndave> /league join\n"
        "/league divisions\n"
    )
    assert "Club League (#1): a rated Groups league (no time limit), run by carol." in printed
    assert "dave joined Club League (#1): 3 entered for season 1." in printed
    assert "Club League (#1) has not started a season yet" in printed
    started = await session.run("/wait 1h\n/league divisions\n")
    assert "Season 1 of Club League (#1) has started: 3 players in 1 division(s)" in started
    assert "Club League (#1) · season 1 · divisions\nDivision 1" in started
    left = await session.run("dave> /league leave\n")
    message = (
        "dave left Club League (#1) during season 1: their 2 games without a result are "
        "forfeited, a loss for them and a win for the opponent."
    )
    assert left.count(message) == 1  # the announcement in the channel
    assert "(to dave) You left Club League (#1): your 2 games without a result are" in left
    assert left.count("is over: dave left Club League (#1), so it counts as a loss") == 2
    standings = await session.run("alice> /league standings\n")
    assert "season 1 · standings so far" in standings
    assert "dave" in standings and "left" in standings
    played = await session.run("alice> /move c3\n/resign\n")
    assert "Season 1 of Club League (#1) is over. Final standings:" in played
    assert "Season 2 takes entries now" in played
    history = await session.run("/league history\n/league standings season=2\n")
    assert "Season 1 (" in history and "Division 1: won by bob" in history
    assert "Club League has played season 1 only." in history


async def test_only_bad_input_is_refused(session: Session) -> None:
    """A bad season length and an unknown sub-command get clear messages."""
    printed = await session.run("carol> /league create groups soon\n/league promote\n")
    assert "'soon' is not a duration" in printed
    assert "Unknown /league command 'promote'." in printed
