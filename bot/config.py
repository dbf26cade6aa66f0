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
    sqlite_synchronous: str = "FULL"
    """SQLite's durability: FULL (a stored move survives a power cut) or NORMAL (it
    survives a crash of the bot; faster on slow disks)."""
    sync_commands: str | None = None
    """Sync slash commands at start-up: `global`, or a server id to sync there only.

    Unset by default: Discord limits how often commands may be created, so syncing is
    done on request (TABULA_SYNC_COMMANDS), not on every start.
    """


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
    sync = merged.get("TABULA_SYNC_COMMANDS", "").strip().lower() or None
    synchronous = merged.get("TABULA_SQLITE_SYNCHRONOUS", "").strip().upper() or "FULL"
    return Settings(
        token=token, database=database, sync_commands=sync, sqlite_synchronous=synchronous
    )
