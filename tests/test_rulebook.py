"""The rules pages: one per game, covering every option, linked, and installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bot import rulebook
from bot.rulebook import MissingRulesPageError, page_path, page_text
from rules import AnyGame, list_games

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("setup", "turn", "capture", "end of the game", "options", "notation")
"""Words each page's headings must contain: what a player needs to play from it."""
SILENT = "## Where the original rules are silent"


def headings(text: str) -> list[str]:
    """The page's second-level headings, lower case."""
    return [line[3:].lower() for line in text.splitlines() if line.startswith("## ")]


def section(text: str, heading: str) -> str:
    """The text under a `## ` heading, up to the next one."""
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("game", list_games(), ids=lambda g: g.name)
def test_every_game_has_a_complete_page(game: AnyGame) -> None:
    """The page is docs/rules/<game>.md, titled with the game, with every part a player
    needs and the section on what the original sources leave open."""
    assert page_path(game) == ROOT / "docs" / "rules" / f"{game.name}.md"
    text = page_text(game)
    assert text.startswith(f"# {game.title}\n")
    found = headings(text)
    for word in SECTIONS:
        assert any(word in heading for heading in found), (game.name, word, found)
    assert SILENT in text
    assert section(text, SILENT[3:]).count("\n- **") >= 1


@pytest.mark.parametrize("game", list_games(), ids=lambda g: g.name)
def test_every_option_is_explained_with_its_values(game: AnyGame) -> None:
    """Each option has a row in the Options table naming it, its default and its allowed
    values (each choice, or the range's ends); a game without options says so."""
    options = section(page_text(game), "Options")
    if not game.option_specs:
        assert f"{game.title} has no options." in options
        return
    rows = {m[1]: m[0] for m in re.finditer(r"^\| `(\w+)` \|.*$", options, flags=re.MULTILINE)}
    assert set(rows) == {spec.name for spec in game.option_specs}, rows
    for spec in game.option_specs:
        cells = [cell.strip() for cell in rows[spec.name].strip("|").split("|")]
        values, default = cells[1], cells[2]
        assert str(spec.default) in default, (spec.name, default)
        expected = [str(c) for c in spec.choices] or [str(spec.minimum), str(spec.maximum)]
        for value in expected:
            assert re.search(rf"\b{re.escape(value)}\b", values), (spec.name, value, values)


def test_a_page_missing_an_option_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The option check is not vacuous: Stones' page without its `threshold` row fails."""
    stones = next(game for game in list_games() if game.name == "stones")
    text = page_text(stones)
    cut = "\n".join(line for line in text.splitlines() if not line.startswith("| `threshold`"))
    monkeypatch.setattr("tests.test_rulebook.page_text", lambda game: cut)
    with pytest.raises(AssertionError):
        test_every_option_is_explained_with_its_values(stones)


def test_pages_point_nowhere_outside_the_repository() -> None:
    """Links are anchors or files in the repository; no working-material paths."""
    for game in list_games():
        text = page_text(game)
        assert "shared/" not in text and "seeds" not in text, game.name
        for target in re.findall(r"\]\(([^)]+)\)", text):
            if target.startswith("#"):
                anchor = target[1:]
                titles = [re.sub(r"[^a-z0-9 -]", "", h).replace(" ", "-") for h in headings(text)]
                assert anchor in titles, (game.name, target)
            else:
                assert not re.match(r"\w+://", target), (game.name, target)
                assert (page_path(game).parent / target).resolve().is_relative_to(ROOT)


def test_the_readme_links_every_page() -> None:
    """The README's games table links each page; it no longer points outside."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    games = readme.split("\n## The games\n", 1)[1].split("\n## ", 1)[0]
    for game in list_games():
        assert f"[docs/rules/{game.name}.md](docs/rules/{game.name}.md)" in games
    assert "../shared" not in readme


def test_installed_pages_are_found_without_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Installed, the pages are read from share/tabula/rules in the data folder."""
    stones = next(game for game in list_games() if game.name == "stones")
    data = tmp_path / "prefix"
    (data / "share" / "tabula" / "rules").mkdir(parents=True)
    (data / "share" / "tabula" / "rules" / "stones.md").write_text("# Stones\n")
    monkeypatch.setattr(rulebook, "CHECKOUT_PAGES", tmp_path / "no-checkout")
    monkeypatch.setattr(rulebook.sysconfig, "get_paths", lambda scheme=None: {"data": str(data)})
    assert page_text(stones) == "# Stones\n"
    (data / "share" / "tabula" / "rules" / "stones.md").unlink()
    with pytest.raises(MissingRulesPageError, match=r"stones\.md is not installed"):
        page_path(stones)


def test_the_wheel_installs_the_pages(tmp_path: Path) -> None:
    """`pip install .` (as in the Docker image) carries every page into the data folder."""
    source = tmp_path / "source"
    for name in ("rules", "renderers", "bot", "docs"):
        shutil.copytree(
            ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), "."],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("tabula-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for game in list_games():
        assert any(n.endswith(f".data/data/share/tabula/rules/{game.name}.md") for n in names)
    assert "bot/records/ap-game-record.schema.json" in names
