"""The console keeps a multi-move turn under way to its mover, as Discord does."""

from __future__ import annotations

from tests.console.test_console import Session, session  # noqa: F401


async def test_a_turn_under_way_is_shown_to_its_mover_only(session: Session) -> None:  # noqa: F811
    """Bob's /board shows the turn's start; Alice's shows her turn so far, privately."""
    await session.run("alice> /play diffusion @bob colour=white\nbob> /accept\n")
    await session.run("alice> /move k9-k10\n")
    seen = await session.run("bob> /board\n")
    assert "No move yet." in seen and "4 moves left in this turn" in seen
    own = await session.run("alice> /board\n")
    assert "3 moves left in this turn" in own and "Only you see this" in own
