"""Bot settings read from the environment and an optional `.env` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE = Path("data/tabula.sqlite3")


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to start."""

    token: str | None = field(default=None, repr=False)
    """The Discord bot token; None runs the local console instead. Never logged."""
    database: Path = DEFAULT_DATABASE
    """The SQLite database file."""


def read_env_file(path: Path) -> dict[str, str]:
    """Parse `KEY=VALUE` lines of a `.env` file; blank lines and `#` comments are skipped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        values[key] = value.strip().strip("\"'")
    return values


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path = Path(".env")
) -> Settings:
    """Settings from `environ` (default: the process environment), then the `.env` file."""
    merged = {**read_env_file(env_file), **(os.environ if environ is None else environ)}
    token = merged.get("DISCORD_TOKEN", "").strip() or None
    database = Path(merged.get("TABULA_DATABASE", "").strip() or DEFAULT_DATABASE)
    return Settings(token=token, database=database)
