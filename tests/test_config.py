"""Settings from the environment: the computer player's workers and time budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import DEFAULT_AI_SECONDS, SettingsError, load_settings


def test_computer_settings_default_and_from_the_environment(tmp_path: Path) -> None:
    """One worker and 5 s by default; TABULA_AI_WORKERS and TABULA_AI_SECONDS change them."""
    none = tmp_path / "missing.env"
    defaults = load_settings({}, none)
    assert (defaults.ai_workers, defaults.ai_seconds) == (1, DEFAULT_AI_SECONDS)
    custom = load_settings({"TABULA_AI_WORKERS": "2", "TABULA_AI_SECONDS": "2.5"}, none)
    assert (custom.ai_workers, custom.ai_seconds) == (2, 2.5)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("TABULA_AI_WORKERS", "many", "TABULA_AI_WORKERS must be a number from 1 to 16"),
        ("TABULA_AI_WORKERS", "0", "TABULA_AI_WORKERS must be from 1 to 16"),
        ("TABULA_AI_SECONDS", "120", "TABULA_AI_SECONDS must be from 0.1 to 60"),
    ],
)
def test_bad_computer_settings_are_named(
    tmp_path: Path, key: str, value: str, message: str
) -> None:
    """A bad value is refused with the variable's name and the allowed range."""
    with pytest.raises(SettingsError, match=message):
        load_settings({key: value}, tmp_path / "missing.env")


def test_the_command_line_reports_a_bad_setting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`tabula console` with a bad setting says which and exits with status 2."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TABULA_AI_SECONDS", "soon")
    assert main(["console"]) == 2
    assert "TABULA_AI_SECONDS must be a number" in capsys.readouterr().err
