"""The settings page's table and the example files match the settings table exactly."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from bot.config import SETTINGS, Settings, read_config, read_env_file
from bot.config_docs import env_example, markdown_table, toml_example

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_PAGE = ROOT / "docs" / "operating" / "settings.md"
START, END = "<!-- settings-table:start -->\n", "<!-- settings-table:end -->"
REGENERATE = os.environ.get("TABULA_REGENERATE_DOCS") == "1"
"""Set to 1 to rewrite the settings page's table and the example files from the settings."""


def readme_table() -> str:
    """The text between the settings page's settings-table markers."""
    text = SETTINGS_PAGE.read_text(encoding="utf-8")
    return text.split(START, 1)[1].split(END, 1)[0]


@pytest.mark.parametrize(
    ("path", "generate"),
    [
        (ROOT / "deploy" / "tabula.env.example", env_example),
        (ROOT / "deploy" / "tabula.toml.example", toml_example),
    ],
)
def test_example_files_are_generated_from_the_settings(path: Path, generate) -> None:
    """`deploy/` holds exactly what `tabula config --format env|toml` prints."""
    if REGENERATE:
        path.write_text(generate(), encoding="utf-8")
    assert path.read_text(encoding="utf-8") == generate(), (
        f"{path.name} is out of date: TABULA_REGENERATE_DOCS=1 pytest {__file__}"
    )


def test_readme_table_is_generated_from_the_settings() -> None:
    """Every setting, with its default, is on the settings page, and nothing else is."""
    if REGENERATE:
        text = SETTINGS_PAGE.read_text(encoding="utf-8")
        before, rest = text.split(START, 1)
        SETTINGS_PAGE.write_text(before + START + markdown_table() + END + rest.split(END, 1)[1])
    assert readme_table() == markdown_table(), (
        f"the settings page's table is out of date: TABULA_REGENERATE_DOCS=1 pytest {__file__}"
    )
    for entry in SETTINGS:
        assert f"| `{entry.env}` |" in readme_table()


def test_the_env_example_sets_nothing_but_an_empty_token(tmp_path: Path) -> None:
    """Used as is, the example changes no default; uncommented, it states every default."""
    example = tmp_path / "tabula.env"
    example.write_text(env_example(), encoding="utf-8")
    assert read_env_file(example) == {"DISCORD_TOKEN": ""}
    assert read_config({}, example, tmp_path / "none.toml").settings == Settings()
    example.write_text(env_example().replace("\n#TABULA_", "\nTABULA_"), encoding="utf-8")
    report = read_config({}, example, tmp_path / "none.toml")
    assert report.problems == []
    assert report.settings == Settings()
    assert set(read_env_file(example)) == {entry.env for entry in SETTINGS}


def test_the_toml_example_uncommented_states_every_default(tmp_path: Path) -> None:
    """Removing the `# ` before each key gives valid TOML holding the defaults."""
    lines = [
        line[2:] if line.startswith("# ") and " = " in line else line
        for line in toml_example().splitlines()
    ]
    config = tmp_path / "tabula.toml"
    config.write_text("\n".join(lines), encoding="utf-8")
    loaded = tomllib.loads(config.read_text(encoding="utf-8"))
    keys = {f"{table}.{key}" for table, values in loaded.items() for key in values}
    assert keys == {entry.toml for entry in SETTINGS if entry.toml}
    report = read_config({}, tmp_path / ".env", config)
    assert report.problems == []
    assert report.settings == Settings(config_file=config)
