"""Bot settings read from the environment and an optional `.env` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE = Path("data/tabula.sqlite3")
DEFAULT_AI_SECONDS = 5.0
MAX_AI_WORKERS = 16


class SettingsError(ValueError):
    """A setting with a value the bot cannot use; the message names the variable."""


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
    ai_workers: int = 1
    """Worker processes computing the computer player's moves (games think in parallel)."""
    ai_seconds: float = DEFAULT_AI_SECONDS
    """The computer's time budget per answer at the `hard` level."""


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
    ai_workers = _number(merged, "TABULA_AI_WORKERS", 1, int, (1, MAX_AI_WORKERS))
    ai_seconds = _number(merged, "TABULA_AI_SECONDS", DEFAULT_AI_SECONDS, float, (0.1, 60.0))
    return Settings(
        token=token,
        database=database,
        sync_commands=sync,
        sqlite_synchronous=synchronous,
        ai_workers=int(ai_workers),
        ai_seconds=float(ai_seconds),
    )


def _number(
    values: Mapping[str, str],
    key: str,
    default: float,
    kind: type[int] | type[float],
    bounds: tuple[float, float],
) -> float:
    """The number set for `key`, or `default`; `SettingsError` outside the bounds."""
    low, high = bounds
    text = values.get(key, "").strip()
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        raise SettingsError(
            f"{key} must be a number from {low:g} to {high:g} (got {text!r})"
        ) from None
    if not low <= value <= high:
        raise SettingsError(f"{key} must be from {low:g} to {high:g} (got {text})")
    return value
