"""The console's /history and /export, and /rules pointing at the rules page."""

from __future__ import annotations

from pathlib import Path

from bot.services.clock import ManualClock
from tests.console.test_console import DROP_WIN, moves_script, open_session

ROOT = Path(__file__).resolve().parents[2]


async def test_history_and_export_after_a_game(tmp_path: Path) -> None:
    """A finished game is in both players' histories; /export writes the JSON and text
    records into the image folder and prints the text record."""
    images = tmp_path / "images"
    session = await open_session(tmp_path / "c.sqlite3", ManualClock(), images)
    try:
        await session.run(
            "alice> /play groups @bob start=drop colour=white\nbob> /accept\n"
            + moves_script(DROP_WIN)
        )
        printed = await session.run("bob> /history @alice groups\n")
        assert printed.splitlines()[1:] == [
            "(to bob) alice's finished games of Groups in this server (1)",
            "(to bob) #1 Groups (start drop) vs bob · won (all six stones connected) · "
            f"{session.app.clock.now():%Y-%m-%d} · /board #1",
            "(to bob) Page 1 of 1",
        ]
        printed = await session.run("alice> /export\n")
        assert "(to alice) Game #1, Groups (start drop): alice vs bob, alice won" in printed
        assert f"(to alice) [written: {images / 'tabula-1-groups.json'}]" in printed
        assert "(to alice) 11. White: d4" in printed
        text = (images / "tabula-1-groups.txt").read_text()
        assert text.startswith("Tabula game record\nGame: Groups\nOptions: start=drop\n")
        assert (images / "tabula-1-groups.json").read_text().startswith('{\n  "header"')
        printed = await session.run("carol> /export #7\n/history\n/rules hexade\n")
        assert "(to carol) There is no game #7 in this server." in printed
        assert "(to carol) carol's finished games in this server (0)" in printed
        assert "(to carol) No finished game yet." in printed
        assert f"(to carol) The complete rules: {ROOT / 'docs' / 'rules' / 'hexade.md'}" in printed
    finally:
        await session.repo.close()
