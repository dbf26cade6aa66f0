"""`tabula run` warns in its start-up log when the fallback fonts for names are missing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.cli import main, run_command
from bot.config import Settings
from renderers import fonts

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Settings]:
    """`tabula run` with a token and a fresh database, the bot itself replaced by a stub
    that records the settings it was started with."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("TABULA_DATABASE", str(tmp_path / "t.sqlite3"))
    runs: list[Settings] = []

    def run_bot(settings: Settings) -> int:
        runs.append(settings)
        return 0

    monkeypatch.setattr(run_command, "run_bot", run_bot)
    return runs


def test_missing_fonts_are_logged_at_start(
    started: list[Settings], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Without Noto fonts the start-up log has one warning naming the packages to install."""
    monkeypatch.setattr(fonts, "file_exists", lambda path: False)
    with caplog.at_level(logging.WARNING, logger="bot.cli.run_command"):
        assert main(["run"]) == 0
    assert started
    warnings = [r for r in caplog.records if r.name == "bot.cli.run_command"]
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert "drawn as boxes" in message
    assert "apt-get install fonts-noto-cjk fonts-noto-color-emoji" in message


def test_no_warning_when_the_fonts_are_found(
    started: list[Settings], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """With the fonts installed the bot starts without a word about them."""
    monkeypatch.setattr(fonts, "file_exists", lambda path: True)
    with caplog.at_level(logging.WARNING, logger="bot.cli.run_command"):
        assert main(["run"]) == 0
    assert started
    assert not [r for r in caplog.records if r.name == "bot.cli.run_command"]


def test_the_docker_image_installs_every_fallback_font() -> None:
    """The packages the warning names are the ones the Docker image installs."""
    dockerfile = (Path(__file__).parents[2] / "deploy" / "Dockerfile").read_text()
    for family in fonts.FALLBACK_FAMILIES:
        assert f" {family.debian_package} " in dockerfile, family.name


def test_the_install_page_names_every_fallback_font_package() -> None:
    """An operator installing without Docker reads the packages on the install page."""
    page = (Path(__file__).parents[2] / "docs" / "operating" / "deploy.md").read_text()
    for family in fonts.FALLBACK_FAMILIES:
        assert family.debian_package in page, family.name
