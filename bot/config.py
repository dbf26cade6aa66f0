"""Settings: one table (the fields of `Settings`), read from the environment, `.env` and TOML.

Every setting is one field of `Settings` declared with `setting(...)`: its environment
variable, its TOML key, its kind (which parses and checks the value), its default and one
line of help. The table of `docs/operating/settings.md`, `deploy/tabula.env.example`,
`tabula config` and `tabula doctor` are all generated from those fields, so adding a
setting is adding a field. Precedence: environment > `.env` > TOML file > default. An
empty value counts as not set.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.services.durations import format_duration, parse_duration
from bot.services.errors import InvalidInputError
from bot.sharding import MAX_SHARDS, format_shard_ids, parse_shard_ids
from bot.storage.opening import DatabaseLocation, display_location, is_postgres_url, parse_location
from bot.storage.repository import ShardFilter

LOG_LEVELS = ("debug", "info", "warning", "error")
DEFAULT_DATABASE = Path("data/tabula.sqlite3")
DEFAULT_AI_SECONDS = 5.0
MAX_AI_WORKERS = 16
DEFAULT_VACATION_DAYS = 30
DEFAULT_SUSPENSION_DAYS = 30
TEST_PREFIX = "TABULA_TEST_"
"""Variables the test suite reads (e.g. TABULA_TEST_POSTGRES), not settings of the bot."""
DEFAULT_CONFIG_FILE = Path("tabula.toml")
"""Read when it exists in the working directory and TABULA_CONFIG names no other file."""


class ConfigError(Exception):
    """The configuration has problems; `problems` holds one line for each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


# --- kinds of values -------------------------------------------------------------------


class Kind:
    """How a setting's value is written, parsed and checked. Errors are `ValueError`s."""

    def describe(self) -> str:
        """What the value looks like, for the documentation."""
        return "text"

    def parse(self, text: str) -> Any:
        """The value written as text (environment, `.env`)."""
        return text

    def from_toml(self, value: object) -> Any:
        """The value as TOML gives it (strings are parsed like the environment's)."""
        if isinstance(value, str):
            return self.parse(value)
        raise ValueError(f"must be {self.describe()} (got {value!r})")

    def show(self, value: Any) -> str:
        """The value written as text, as `parse` reads it back."""
        return "" if value is None else str(value)

    def toml(self, value: Any) -> str:
        """The value written as TOML."""
        return '"' + self.show(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


class Text(Kind):
    """Any non-empty text."""


class Database(Kind):
    """A SQLite file path, or a `postgresql://` URL (its password never shown)."""

    def describe(self) -> str:
        """What a database location looks like."""
        return "a file path, or a postgresql:// URL"

    def parse(self, text: str) -> DatabaseLocation:
        """The path (`~` expanded) or the URL as written."""
        return parse_location(text)

    def show(self, value: Any) -> str:
        """The location with a URL's password hidden."""
        return "" if value is None else display_location(value)


class FilePath(Kind):
    """A file path; relative paths are relative to the working directory."""

    def describe(self) -> str:
        """What a path looks like."""
        return "a file path"

    def parse(self, text: str) -> Path:
        """The path as written (`~` is expanded)."""
        return Path(text).expanduser()


class Address(Kind):
    """An http:// or https:// address, kept without a trailing slash."""

    def describe(self) -> str:
        """What an address looks like."""
        return "an http:// or https:// address"

    def parse(self, text: str) -> str:
        """The address as written, checked for its scheme and host."""
        scheme, _, rest = text.strip().partition("://")
        if scheme.lower() not in ("http", "https") or not rest.strip("/"):
            raise ValueError(f"must be {self.describe()} (got {text!r})")
        return text.strip().rstrip("/")


@dataclass(frozen=True)
class Choice(Kind):
    """One of a fixed list of words (case-insensitive)."""

    options: tuple[str, ...]

    def describe(self) -> str:
        """`one of a, b, c`."""
        return "one of " + ", ".join(self.options)

    def parse(self, text: str) -> str:
        """The option, lower-cased."""
        word = text.strip().lower()
        if word not in self.options:
            raise ValueError(f"must be {self.describe()} (got {text!r})")
        return word


@dataclass(frozen=True)
class Integer(Kind):
    """A whole number within bounds."""

    minimum: int
    maximum: int

    def describe(self) -> str:
        """`a whole number from 1 to 16`."""
        return f"a whole number from {self.minimum} to {self.maximum}"

    def parse(self, text: str) -> int:
        """The number, checked against the bounds."""
        try:
            value = int(text.strip())
        except ValueError:
            raise ValueError(f"must be {self.describe()} (got {text!r})") from None
        return self._check(value)

    def from_toml(self, value: object) -> int:
        """TOML integers, or text."""
        if isinstance(value, int) and not isinstance(value, bool):
            return self._check(value)
        return int(super().from_toml(value))

    def toml(self, value: Any) -> str:
        """A TOML integer."""
        return str(value)

    def _check(self, value: int) -> int:
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"must be {self.describe()} (got {value})")
        return value


@dataclass(frozen=True)
class Seconds(Kind):
    """A number of seconds (fractions allowed) within bounds."""

    minimum: float
    maximum: float

    def describe(self) -> str:
        """`seconds from 0 to 600`."""
        return f"seconds from {self.show(self.minimum)} to {self.show(self.maximum)}"

    def parse(self, text: str) -> float:
        """The number, checked against the bounds."""
        try:
            value = float(text.strip())
        except ValueError:
            raise ValueError(f"must be {self.describe()} (got {text!r})") from None
        return self._check(value)

    def from_toml(self, value: object) -> float:
        """TOML numbers, or text."""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return self._check(float(value))
        return float(super().from_toml(value))

    def show(self, value: Any) -> str:
        """`10` rather than `10.0`."""
        return f"{value:g}"

    def toml(self, value: Any) -> str:
        """A TOML number."""
        return self.show(value)

    def _check(self, value: float) -> float:
        if not self.minimum <= value <= self.maximum:  # also refuses NaN
            raise ValueError(f"must be {self.describe()} (got {self.show(value)})")
        return value


class Flag(Kind):
    """On or off: true/false, yes/no, on/off, 1/0."""

    def describe(self) -> str:
        """The words accepted."""
        return "true or false"

    _WORDS: Mapping[str, bool] = {
        "true": True, "yes": True, "on": True, "1": True,
        "false": False, "no": False, "off": False, "0": False,
    }  # fmt: skip

    def parse(self, text: str) -> bool:
        """The flag's value."""
        try:
            return self._WORDS[text.strip().lower()]
        except KeyError:
            raise ValueError(f"must be {self.describe()} (got {text!r})") from None

    def from_toml(self, value: object) -> bool:
        """TOML booleans, or text."""
        if isinstance(value, bool):
            return value
        return bool(super().from_toml(value))

    def show(self, value: Any) -> str:
        """`true` or `false`."""
        return "true" if value else "false"

    def toml(self, value: Any) -> str:
        """A TOML boolean."""
        return self.show(value)


class ShardIds(Kind):
    """Shard numbers and ranges: `0-1`, `2`, `0,3`."""

    def describe(self) -> str:
        """What a list of shards looks like."""
        return "shard numbers or ranges like 0-1, 2 or 0,3"

    def parse(self, text: str) -> tuple[int, ...]:
        """The shard numbers, sorted."""
        try:
            return parse_shard_ids(text)
        except ValueError as error:
            raise ValueError(f"must be {self.describe()} (got {text!r}: {error})") from None

    def from_toml(self, value: object) -> tuple[int, ...]:
        """A TOML list of numbers, one number, or text."""
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        elif isinstance(value, list) and all(
            isinstance(item, int) and not isinstance(item, bool) for item in value
        ):
            value = ",".join(str(item) for item in value)
        return tuple(super().from_toml(value))

    def show(self, value: Any) -> str:
        """Runs written as ranges."""
        return "" if value is None else format_shard_ids(value)


class Duration(Kind):
    """A length of time written like `30m`, `12h` or `1d12h`."""

    def describe(self) -> str:
        """What a duration looks like."""
        return "a duration like 30m, 12h or 1d12h"

    def parse(self, text: str) -> timedelta:
        """The duration."""
        try:
            return parse_duration(text)
        except InvalidInputError as error:
            raise ValueError(f"must be {self.describe()} (got {text!r})") from error

    def show(self, value: Any) -> str:
        """The shortest text for the duration."""
        return format_duration(value)


# --- the table --------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One setting: where it is read from, how it is checked, its default and help."""

    name: str
    """The attribute of `Settings`."""
    env: str
    """The environment variable (also read from `.env`)."""
    toml: str | None
    """The dotted key in the TOML file (`logging.level`); None: environment only."""
    kind: Kind
    default: Any
    help: str
    """One line for the documentation."""
    secret: bool = False
    """Never shown, never logged (the token)."""

    def show(self, value: Any) -> str:
        """The value as an operator may see it: secrets only as set or not."""
        if self.secret:
            return "(not set)" if value is None else f"(set, {len(str(value))} characters)"
        if value is None:
            return "(not set)"
        return self.kind.show(value)


def setting(
    default: Any,
    *,
    env: str,
    toml: str | None,
    kind: Kind,
    help: str,
    secret: bool = False,
) -> Any:
    """Declare a field of `Settings` as a setting (see the module docstring)."""
    meta = {"env": env, "toml": toml, "kind": kind, "help": help, "secret": secret}
    return field(default=default, repr=not secret, metadata={"setting": meta})


@dataclass(frozen=True)
class Settings:
    """Every setting of the bot. To add one, add a field here; nothing else is needed."""

    token: str | None = setting(
        None,
        env="DISCORD_TOKEN",
        toml="discord.token",
        kind=Text(),
        secret=True,
        help="The Discord bot token. Without one, `tabula run` opens the local console.",
    )
    database: DatabaseLocation = setting(
        DEFAULT_DATABASE,
        env="TABULA_DATABASE",
        toml="database.path",
        kind=Database(),
        help="The SQLite database file (its folder must be writable: WAL files live there), "
        "or a postgresql://user@host/database URL to share one database between processes.",
    )
    sqlite_synchronous: str = setting(
        "full",
        env="TABULA_SQLITE_SYNCHRONOUS",
        toml="database.synchronous",
        kind=Choice(("full", "normal")),
        help="SQLite's durability: full (a stored move survives a power cut) or normal "
        "(it survives a crash of the bot; faster on slow disks).",
    )
    ai_workers: int = setting(
        0,
        env="TABULA_AI_WORKERS",
        toml="ai.workers",
        kind=Integer(0, MAX_AI_WORKERS),
        help="Worker processes computing the computer player's moves (games think in "
        "parallel; a `hard` move uses every idle one); 0: one per CPU core the bot may use.",
    )
    ai_seconds: float = setting(
        DEFAULT_AI_SECONDS,
        env="TABULA_AI_SECONDS",
        toml="ai.seconds",
        kind=Seconds(0.1, 60),
        help="The computer's time budget per answer at the `hard` level.",
    )
    vacation_days: int = setting(
        DEFAULT_VACATION_DAYS,
        env="TABULA_VACATION_DAYS",
        toml="clocks.vacation_days",
        kind=Integer(0, 366),
        help="Vacation days each player may take per calendar year (their clocks stop).",
    )
    suspension_days: int = setting(
        DEFAULT_SUSPENSION_DAYS,
        env="TABULA_SUSPENSION_DAYS",
        toml="servers.suspension_days",
        kind=Integer(1, 3650),
        help="Days the games of a server that removed Tabula (or of a game whose channel "
        "was deleted, with no game channel to move it to) stay suspended, clocks stopped, "
        "before they are aborted without a result (unrated).",
    )
    log_level: str = setting(
        "info",
        env="TABULA_LOG_LEVEL",
        toml="logging.level",
        kind=Choice(LOG_LEVELS),
        help="The least important log messages written (to standard error).",
    )
    discord_log_level: str = setting(
        "warning",
        env="TABULA_DISCORD_LOG_LEVEL",
        toml="logging.discord_level",
        kind=Choice(LOG_LEVELS),
        help="The same for discord.py's own messages (connections, rate limits).",
    )
    shutdown_timeout: float = setting(
        10.0,
        env="TABULA_SHUTDOWN_TIMEOUT",
        toml="shutdown.timeout",
        kind=Seconds(0, 600),
        help="On SIGTERM/SIGINT, how long to wait for moves in progress before closing.",
    )
    scheduler_interval: float = setting(
        15.0,
        env="TABULA_SCHEDULER_INTERVAL",
        toml="scheduler.interval",
        kind=Seconds(1, 3600),
        help="How often background work (expiring challenges, reminders) looks for due items.",
    )
    shard_count: int = setting(
        1,
        env="TABULA_SHARD_COUNT",
        toml="shards.count",
        kind=Integer(1, MAX_SHARDS),
        help="Discord shards the bot's servers are split over (more than 1: several "
        "processes can share the work, with a PostgreSQL database).",
    )
    shard_ids: tuple[int, ...] | None = setting(
        None,
        env="TABULA_SHARD_IDS",
        toml="shards.ids",
        kind=ShardIds(),
        help="The shards this process runs, like 0-1, 2 or 0,3; not set: every shard.",
    )
    web: bool = setting(
        True,
        env="TABULA_WEB",
        toml="web.enabled",
        kind=Flag(),
        help="Serve the web pages (boards to click, live games, tournaments) over HTTP.",
    )
    web_host: str = setting(
        "127.0.0.1",
        env="TABULA_WEB_HOST",
        toml="web.host",
        kind=Text(),
        help="The address the web pages are served on (0.0.0.0: every interface).",
    )
    web_port: int = setting(
        8765,
        env="TABULA_WEB_PORT",
        toml="web.port",
        kind=Integer(1, 65535),
        help="The TCP port the web pages are served on.",
    )
    web_url: str | None = setting(
        None,
        env="TABULA_WEB_URL",
        toml="web.url",
        kind=Text(),
        help="The public address of the web pages, used in links (the address a reverse "
        "proxy serves them at, starting with https://); not set: http://HOST:PORT/.",
    )
    docs_url: str | None = setting(
        None,
        env="TABULA_DOCS_URL",
        toml="docs.url",
        kind=Address(),
        help="Where the documentation site (`mkdocs build`) is published; /help and "
        "refusals that send a user elsewhere then link to its pages.",
    )
    config_file: Path | None = setting(
        None,
        env="TABULA_CONFIG",
        toml=None,
        kind=FilePath(),
        help="A TOML file with settings; by default `tabula.toml` in the working "
        "directory, if it exists.",
    )

    @property
    def web_base(self) -> str:
        """The address links to the web pages start with, ending in `/`."""
        if self.web_url:
            return self.web_url.rstrip("/") + "/"
        host = f"[{self.web_host}]" if ":" in self.web_host else self.web_host
        return f"http://{host}:{self.web_port}/"

    @property
    def shards(self) -> ShardFilter | None:
        """The shards this process runs; None for a bot with one shard."""
        ids = frozenset(range(self.shard_count) if self.shard_ids is None else self.shard_ids)
        if self.shard_count == 1 and ids == {0}:
            return None
        return ShardFilter(self.shard_count, ids)

    @property
    def runs_every_shard(self) -> bool:
        """True when this process runs all of the bot's shards (no other process is needed)."""
        return self.shard_ids is None or set(self.shard_ids) == set(range(self.shard_count))


def sharding_problems(settings: Settings) -> list[str]:
    """What is wrong with the shard settings taken together (one line each)."""
    count, ids = settings.shard_count, settings.shard_ids
    if ids is not None and max(ids) >= count:
        return [
            f"TABULA_SHARD_IDS names shard {max(ids)}, but TABULA_SHARD_COUNT is {count} "
            f"(shards are numbered 0 to {count - 1})"
        ]
    if not settings.runs_every_shard and not is_postgres_url(settings.database):
        return [
            f"TABULA_SHARD_IDS={format_shard_ids(ids or ())} runs only some of the {count} "
            "shards, so other processes share the database: that needs PostgreSQL "
            "(TABULA_DATABASE=postgresql://...); a SQLite file serves one process"
        ]
    return []


SETTINGS: tuple[Setting, ...] = tuple(
    Setting(name=f.name, default=f.default, **f.metadata["setting"]) for f in fields(Settings)
)
"""The table of settings, in the order of the fields."""

DEFAULTS = "default"
ENVIRONMENT = "environment"


# --- reading ----------------------------------------------------------------------------


@dataclass
class ConfigReport:
    """What was read: the settings (defaults where a value was bad) and where each came from."""

    settings: Settings
    origins: dict[str, str]
    """Setting name → `environment`, `.env`, the TOML file's path, or `default`."""
    problems: list[str] = field(default_factory=list)
    """One line per bad value, unknown TOML key or unreadable file."""
    notes: list[str] = field(default_factory=list)
    """Harmless oddities worth a look (an unknown `TABULA_` variable)."""
    rejected: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Setting name → (the bad value as written, where it came from): not used."""


def read_env_file(path: Path) -> dict[str, str]:
    """Parse `KEY=VALUE` lines of a `.env` file; blank lines and `#` comments are skipped."""
    values: dict[str, str] = {}
    if not _is_file(path):
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        values[key] = value.strip().strip("\"'")
    return values


def _is_file(path: Path) -> bool:
    """True if `path` is a file; False also when it cannot even be looked at."""
    try:
        return path.is_file()
    except OSError:
        return False


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """`{"a": {"b": 1}}` → `{"a.b": 1}`."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _read_toml(path: Path, problems: list[str]) -> dict[str, Any]:
    """The TOML file's keys, flattened; a problem line if it cannot be read."""
    try:
        with path.open("rb") as file:
            return _flatten(tomllib.load(file))
    except FileNotFoundError:
        problems.append(f"TABULA_CONFIG names {path}, which does not exist")
    except OSError as error:
        problems.append(f"cannot read the settings file {path}: {error.strerror}")
    except tomllib.TOMLDecodeError as error:
        problems.append(f"{path} is not valid TOML: {error}")
    return {}


def read_config(
    environ: Mapping[str, str] | None = None,
    env_file: Path = Path(".env"),
    default_config: Path = DEFAULT_CONFIG_FILE,
    *,
    require_env_file: bool = False,
) -> ConfigReport:
    """Read every setting; collect problems instead of stopping at the first.

    `env_file` is optional unless `require_env_file` (it was named on the command line).
    """
    environment = {
        k: v for k, v in (os.environ if environ is None else environ).items() if v.strip()
    }
    dotenv = {k: v for k, v in read_env_file(env_file).items() if v.strip()}
    problems: list[str] = []
    if require_env_file and not _is_file(env_file):
        problems.append(f"the environment file {env_file} does not exist (or cannot be read)")
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    rejected: dict[str, tuple[str, str]] = {}

    def read(entry: Setting, toml_values: Mapping[str, Any], toml_path: Path | None) -> None:
        """Parse the value of highest precedence, if any."""
        if entry.env in environment or entry.env in dotenv:
            from_env = entry.env in environment
            origin = ENVIRONMENT if from_env else str(env_file)
            where = entry.env if from_env else f"{entry.env} in {env_file}"
            raw: Any = (environment if from_env else dotenv)[entry.env].strip()
            parse: Callable[[Any], Any] = entry.kind.parse
        elif entry.toml is not None and toml_values.get(entry.toml, "") != "":
            origin = str(toml_path)
            where = f"{toml_path}: {entry.toml}"
            raw = toml_values[entry.toml]
            parse = entry.kind.from_toml
        else:
            return
        try:
            values[entry.name] = parse(raw)
            origins[entry.name] = origin
        except ValueError as error:
            problems.append(f"{where} {'has a bad value' if entry.secret else error}")
            rejected[entry.name] = (str(raw), origin)

    by_name = {entry.name: entry for entry in SETTINGS}
    read(by_name["config_file"], {}, None)
    toml_path: Path | None = values.get("config_file")
    if toml_path is None and _is_file(default_config):
        toml_path = default_config
    values["config_file"] = toml_path
    toml_values = {} if toml_path is None else _read_toml(toml_path, problems)
    known = {entry.toml for entry in SETTINGS if entry.toml}
    problems += [
        f"{toml_path}: unknown setting {key!r}" for key in sorted(set(toml_values) - known)
    ]
    for entry in SETTINGS:
        if entry.name != "config_file":
            read(entry, toml_values, toml_path)

    names = {entry.env for entry in SETTINGS}
    notes = [
        f"unknown variable {name} (no setting has that name; ignored)"
        for name in sorted(set(environment) | set(dotenv))
        if name.startswith("TABULA_") and name not in names and not name.startswith(TEST_PREFIX)
    ]
    for entry in SETTINGS:
        origins.setdefault(entry.name, DEFAULTS)
    settings = replace(Settings(), **values)
    problems += sharding_problems(settings)
    return ConfigReport(settings, origins, problems, notes, rejected)


def load_settings(
    environ: Mapping[str, str] | None = None,
    env_file: Path = Path(".env"),
    default_config: Path = DEFAULT_CONFIG_FILE,
    *,
    require_env_file: bool = False,
) -> Settings:
    """The settings; raise `ConfigError` listing every problem if there are any."""
    report = read_config(environ, env_file, default_config, require_env_file=require_env_file)
    if report.problems:
        raise ConfigError(report.problems)
    return report.settings
