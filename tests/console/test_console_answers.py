"""Answering an offer without naming the game, when several games could be meant."""

from __future__ import annotations

from tests.console.test_console import Session, session  # noqa: F401


async def test_draw_accept_picks_the_one_game_with_an_offer(session: Session) -> None:  # noqa: F811
    """Alice plays Bob twice here; Bob offers a draw in game #2 only: Alice's `/draw accept`
    answers that one."""
    await session.run(
        "alice> /play groups @bob colour=white\nbob> /accept\n"
        "alice> /play groups @bob colour=white\nbob> /accept\n"
        "alice> /move #1 d3-e2\nbob> /draw #2\n"
    )
    printed = await session.run("alice> /draw accept\n")
    assert "You have 2 games here" not in printed
    assert "Groups #2 · alice vs bob\nDraw (draw agreed" in printed


async def test_undo_accept_picks_the_one_game_with_a_request(session: Session) -> None:  # noqa: F811
    """Alice plays Bob twice here and asks to take back her move in game #2 only: Bob's
    `/undo accept` answers that one, and game #1 keeps its move."""
    await session.run(
        "alice> /play groups @bob colour=white\nbob> /accept\n"
        "alice> /play groups @bob colour=white\nbob> /accept\n"
        "alice> /move #1 d3-e2\n/move #2 d3-e2\n/undo #2\n"
    )
    printed = await session.run("bob> /undo accept\n")
    assert "You have 2 games here" not in printed
    assert "Taken back: d3-e2.\nGroups #2 · alice vs bob\nNo move yet." in printed
    first = await session.repo.get_game(1)
    assert first is not None and first.ply == 1
