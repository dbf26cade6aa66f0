"""`tabula render` and `tabula bench render`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import GifImagePlugin, Image, ImageChops, ImageStat

from bot.cli import main


def test_render_writes_a_png_of_the_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Moves, names and a hint give a PNG of the page's size; --replay adds a GIF."""
    out, replay = tmp_path / "board.png", tmp_path / "game.gif"
    status = main(
        [
            "render",
            "groups",
            "d3-e2",
            "d4-d3",
            "--hint",
            "c5",
            "--players",
            "Ada",
            "Grace",
            "-o",
            str(out),
            "--replay",
            str(replay),
        ]
    )
    assert status == 0, capsys.readouterr().err
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width == 840
    with Image.open(replay) as animation:
        assert isinstance(animation, GifImagePlugin.GifImageFile)
        assert animation.n_frames == 3


def test_render_reports_a_bad_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An illegal move names its position and writes nothing."""
    out = tmp_path / "board.png"
    assert main(["render", "groups", "d3-e2", "d3-d4", "-o", str(out)]) == 2
    assert "move 2 (d3-d4)" in capsys.readouterr().err
    assert not out.exists()


def test_render_reports_a_bad_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hint cell off the board is an error, not a traceback."""
    assert main(["render", "groups", "--hint", "z9", "-o", str(tmp_path / "b.png")]) == 2
    assert "off the board" in capsys.readouterr().err


def test_gallery_draws_every_kind_of_position(tmp_path: Path) -> None:
    """The gallery of one game has the opening, middle, hints, light theme and the end."""
    assert main(["render", "groups", "--gallery", str(tmp_path)]) == 0
    names = {path.stem for path in tmp_path.glob("*.png")}
    for kind in ("1-opening", "2-middle", "3-hint-all", "5-light", "6-finished", "7-resigned"):
        assert any(name.endswith(kind) for name in names), kind
    assert any("-4-hint-" in name for name in names)


def test_bench_render_reports_time_and_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula bench render groups` measures real renders and the PNG size."""
    status = main(["bench", "render", "groups", "--repeat", "2", "--no-replay", "--json"])
    assert status == 0
    report = json.loads(capsys.readouterr().out.splitlines()[0])
    assert report["game"] == "groups"
    assert report["median_ms"] > 0 and report["png_kb"] > 1
    assert max(report["width"], report["height"]) <= 1024


def test_the_documentation_pictures_are_those_the_examples_draw(tmp_path: Path) -> None:
    """`--examples` draws one picture per game, and docs/images holds them as the current
    renderer draws them (within a font's rasterising differences): regenerate them with
    `tabula render --examples docs/images` after changing the pictures."""
    assert main(["render", "--examples", str(tmp_path)]) == 0
    drawn = sorted(path.name for path in tmp_path.glob("*.png"))
    assert drawn == ["diffusion.png", "groups.png", "hexade.png", "rekushu.png", "stones.png"]
    docs = Path(__file__).resolve().parents[2] / "docs" / "images"
    for name in drawn:
        new, old = Image.open(tmp_path / name).convert("RGB"), Image.open(docs / name)
        assert new.size == old.size, name
        difference = ImageChops.difference(new, old.convert("RGB"))
        assert max(ImageStat.Stat(difference).mean) < 1.5, name
    assert main(["render", "groups", "--examples", str(tmp_path)]) == 2
