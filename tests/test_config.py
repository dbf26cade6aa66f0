"""Settings: the table, precedence, validation messages, the token kept out of sight."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.config import (
    SETTINGS,
    Choice,
    ConfigError,
    Duration,
    Flag,
    Integer,
    Seconds,
    Settings,
    load_settings,
    read_config,
)
from bot.sharding import owner_name

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


def read(tmp_path: Path, environ: dict[str, str], env: str = "", toml: str | None = None):
    """`read_config` with `environ`, a `.env` holding `env` and a `tabula.toml` holding `toml`."""
    (tmp_path / ".env").write_text(env, encoding="utf-8")
    config = tmp_path / "tabula.toml"
    if toml is not None:
        config.write_text(toml, encoding="utf-8")
    return read_config(environ, tmp_path / ".env", config)


def test_defaults_without_any_source(tmp_path: Path) -> None:
    """Nothing set: every default, every origin `default`, no problems."""
    report = read(tmp_path, {})
    assert report.problems == [] and report.notes == []
    assert report.settings == Settings()
    assert report.settings.token is None
    assert report.settings.database == Path("data/tabula.sqlite3")
    assert report.settings.log_level == "info"
    assert report.settings.shutdown_timeout == 10.0
    assert set(report.origins.values()) == {"default"}


def test_environment_beats_env_file_beats_toml(tmp_path: Path) -> None:
    """Each setting comes from the highest source that has it, and says which."""
    report = read(
        tmp_path,
        {"TABULA_LOG_LEVEL": "debug"},
        env="TABULA_LOG_LEVEL=error\nTABULA_DATABASE=from-dotenv.sqlite3\n",
        toml='[logging]\nlevel = "warning"\ndiscord_level = "error"\n'
        '[database]\npath = "from-toml.sqlite3"\n[shutdown]\ntimeout = 3.5\n',
    )
    assert report.problems == []
    settings = report.settings
    assert settings.log_level == "debug"
    assert settings.database == Path("from-dotenv.sqlite3")
    assert settings.discord_log_level == "error"
    assert settings.shutdown_timeout == 3.5
    assert settings.scheduler_interval == 15.0
    assert report.origins["log_level"] == "environment"
    assert report.origins["database"] == str(tmp_path / ".env")
    assert report.origins["discord_log_level"] == str(tmp_path / "tabula.toml")
    assert report.origins["scheduler_interval"] == "default"


def test_a_bad_lower_source_is_not_reported_when_a_higher_one_wins(tmp_path: Path) -> None:
    """Only the value in use is parsed: a bad `.env` value hidden by the environment is fine."""
    report = read(tmp_path, {"TABULA_LOG_LEVEL": "info"}, env="TABULA_LOG_LEVEL=loud\n")
    assert report.problems == []
    assert report.settings.log_level == "info"


def test_an_empty_value_counts_as_not_set(tmp_path: Path) -> None:
    """`DISCORD_TOKEN=` in the environment (as compose passes it) falls through to `.env`."""
    report = read(
        tmp_path, {"DISCORD_TOKEN": "", "TABULA_DATABASE": "  "}, env=f"DISCORD_TOKEN={TOKEN}"
    )
    assert report.settings.token == TOKEN
    assert report.origins["token"] == str(tmp_path / ".env")
    assert report.settings.database == Path("data/tabula.sqlite3")


@pytest.mark.parametrize(
    ("environ", "problem"),
    [
        (
            {"TABULA_LOG_LEVEL": "loud"},
            "TABULA_LOG_LEVEL must be one of debug, info, warning, error (got 'loud')",
        ),
        (
            {"TABULA_SHUTDOWN_TIMEOUT": "soon"},
            "TABULA_SHUTDOWN_TIMEOUT must be seconds from 0 to 600 (got 'soon')",
        ),
        (
            {"TABULA_SHUTDOWN_TIMEOUT": "-1"},
            "TABULA_SHUTDOWN_TIMEOUT must be seconds from 0 to 600 (got -1)",
        ),
        (
            {"TABULA_SCHEDULER_INTERVAL": "nan"},
            "TABULA_SCHEDULER_INTERVAL must be seconds from 1 to 3600 (got nan)",
        ),
        (
            {"TABULA_AI_WORKERS": "many"},
            "TABULA_AI_WORKERS must be a whole number from 0 to 16 (got 'many')",
        ),
        (
            {"TABULA_AI_WORKERS": "-1"},
            "TABULA_AI_WORKERS must be a whole number from 0 to 16 (got -1)",
        ),
        (
            {"TABULA_AI_SECONDS": "120"},
            "TABULA_AI_SECONDS must be seconds from 0.1 to 60 (got 120)",
        ),
        (
            {"TABULA_SQLITE_SYNCHRONOUS": "off"},
            "TABULA_SQLITE_SYNCHRONOUS must be one of full, normal (got 'off')",
        ),
        (
            {"TABULA_CONFIG": "missing.toml"},
            "TABULA_CONFIG names missing.toml, which does not exist",
        ),
    ],
)
def test_each_bad_value_is_one_clear_line(
    tmp_path: Path, environ: dict[str, str], problem: str
) -> None:
    """The variable, what it accepts and what it got; the default stays in use."""
    report = read(tmp_path, environ)
    assert report.problems == [problem]
    with pytest.raises(ConfigError) as raised:
        load_settings(environ, tmp_path / ".env", tmp_path / "tabula.toml")
    assert raised.value.problems == [problem]


def test_computer_player_settings(tmp_path: Path) -> None:
    """A worker per core (0) and 5 s by default; TABULA_AI_WORKERS and TABULA_AI_SECONDS
    change them."""
    assert (read(tmp_path, {}).settings.ai_workers, Settings().ai_seconds) == (0, 5.0)
    custom = read(tmp_path, {"TABULA_AI_WORKERS": "2", "TABULA_AI_SECONDS": "2.5"}).settings
    assert (custom.ai_workers, custom.ai_seconds) == (2, 2.5)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    """Two bad variables, a bad `.env` line and a TOML typo: four lines, in one go."""
    report = read(
        tmp_path,
        {"TABULA_LOG_LEVEL": "loud", "TABULA_SHUTDOWN_TIMEOUT": "9999"},
        env="TABULA_DISCORD_LOG_LEVEL=chatty\n",
        toml="[logging]\nlevle = 'info'\n",
    )
    assert report.problems == [
        f"{tmp_path / 'tabula.toml'}: unknown setting 'logging.levle'",
        "TABULA_LOG_LEVEL must be one of debug, info, warning, error (got 'loud')",
        f"TABULA_DISCORD_LOG_LEVEL in {tmp_path / '.env'} must be one of debug, info, "
        "warning, error (got 'chatty')",
        "TABULA_SHUTDOWN_TIMEOUT must be seconds from 0 to 600 (got 9999)",
    ]


def test_toml_values_are_type_checked(tmp_path: Path) -> None:
    """A number where a word belongs, a boolean where seconds belong: refused by key."""
    report = read(tmp_path, {}, toml="[logging]\nlevel = 3\n[shutdown]\ntimeout = true\n")
    toml = tmp_path / "tabula.toml"
    assert report.problems == [
        f"{toml}: logging.level must be one of debug, info, warning, error (got 3)",
        f"{toml}: shutdown.timeout must be seconds from 0 to 600 (got True)",
    ]


def test_invalid_toml_is_one_line(tmp_path: Path) -> None:
    """A syntax error names the file and the position, no traceback."""
    report = read(tmp_path, {}, toml="[logging\nlevel = 'info'\n")
    assert len(report.problems) == 1
    assert report.problems[0].startswith(f"{tmp_path / 'tabula.toml'} is not valid TOML: ")
    assert "line 1" in report.problems[0]


def test_tabula_config_names_the_toml_file(tmp_path: Path) -> None:
    """TABULA_CONFIG (here from `.env`) wins over `tabula.toml` in the working directory."""
    other = tmp_path / "other.toml"
    other.write_text('[logging]\nlevel = "error"\n', encoding="utf-8")
    report = read(tmp_path, {}, env=f"TABULA_CONFIG={other}\n", toml='[logging]\nlevel = "debug"\n')
    assert report.settings.log_level == "error"
    assert report.settings.config_file == other


def test_the_token_never_appears_in_reports(tmp_path: Path) -> None:
    """`repr` hides the token; a TOML token of the wrong type is refused without its value."""
    report = read(tmp_path, {"DISCORD_TOKEN": TOKEN})
    assert TOKEN not in repr(report.settings)
    assert TOKEN not in str(report)
    secret = next(entry for entry in SETTINGS if entry.secret)
    assert secret.show(TOKEN) == f"(set, {len(TOKEN)} characters)"
    report = read(tmp_path, {}, toml="[discord]\ntoken = 1234567\n")
    assert report.problems == [f"{tmp_path / 'tabula.toml'}: discord.token has a bad value"]


def test_unknown_tabula_variables_are_noted(tmp_path: Path) -> None:
    """A misspelt `TABULA_` variable is a note (ignored), not an error; others are ignored."""
    report = read(tmp_path, {"TABULA_LOGLEVEL": "debug", "HOME": "/root"})
    assert report.problems == []
    assert report.notes == ["unknown variable TABULA_LOGLEVEL (no setting has that name; ignored)"]


def test_a_named_env_file_must_exist(tmp_path: Path) -> None:
    """`--env-file` with a typo is a problem; the optional `.env` may be missing."""
    missing = tmp_path / "tabula.env"
    report = read_config({}, missing, tmp_path / "none.toml", require_env_file=True)
    assert report.problems == [f"the environment file {missing} does not exist (or cannot be read)"]
    assert read_config({}, missing, tmp_path / "none.toml").problems == []


def test_every_setting_is_documented_and_its_default_round_trips() -> None:
    """Names follow the conventions; each default written as text parses back to itself."""
    envs = [entry.env for entry in SETTINGS]
    assert len(set(envs)) == len(envs)
    tomls = [entry.toml for entry in SETTINGS if entry.toml]
    assert len(set(tomls)) == len(tomls)
    for entry in SETTINGS:
        assert entry.env == "DISCORD_TOKEN" or entry.env.startswith("TABULA_"), entry
        assert entry.help.endswith("."), entry
        assert entry.toml is None or entry.toml.count(".") == 1, entry
        if entry.default is not None:
            assert entry.kind.parse(entry.kind.show(entry.default)) == entry.default, entry


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        (Choice(("a", "b")), " B ", "b"),
        (Integer(1, 16), "4", 4),
        (Seconds(0, 10), "2.5", 2.5),
        (Flag(), "yes", True),
        (Flag(), "Off", False),
        (Duration(), "1d12h", timedelta(days=1, hours=12)),
    ],
)
def test_kinds_parse_text(kind, text: str, value: object) -> None:
    """Each kind reads what the documentation says it accepts."""
    assert kind.parse(text) == value


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        (Integer(1, 16), "0", "must be a whole number from 1 to 16 (got 0)"),
        (Integer(1, 16), "four", "must be a whole number from 1 to 16 (got 'four')"),
        (Flag(), "maybe", "must be true or false (got 'maybe')"),
        (Duration(), "soon", "must be a duration like 30m, 12h or 1d12h (got 'soon')"),
    ],
)
def test_kinds_refuse_with_what_they_accept(kind, text: str, message: str) -> None:
    """The message says what would be accepted and what was given."""
    with pytest.raises(ValueError, match=None) as raised:
        kind.parse(text)
    assert str(raised.value) == message


def test_toml_integers_and_flags_take_native_values() -> None:
    """TOML's own integers and booleans are accepted; booleans are not numbers."""
    assert Integer(1, 16).from_toml(8) == 8
    assert Flag().from_toml(True) is True
    with pytest.raises(ValueError, match="got True"):
        Integer(0, 16).from_toml(True)


PG = "postgresql://tabula@db/tabula"


@pytest.mark.parametrize(
    ("text", "ids", "shown"),
    [("0-1", (0, 1), "0-1"), ("2", (2,), "2"), ("0,3", (0, 3), "0,3"),
     (" 3, 0-2 ,6", (0, 1, 2, 3, 6), "0-3,6"), ("1,1", (1,), "1")],
)  # fmt: skip
def test_shard_ids_are_numbers_and_ranges(tmp_path: Path, text: str, ids, shown: str) -> None:
    """TABULA_SHARD_IDS takes numbers and ranges; `tabula config` writes runs as ranges."""
    report = read(
        tmp_path, {"TABULA_SHARD_COUNT": "8", "TABULA_SHARD_IDS": text, "TABULA_DATABASE": PG}
    )
    assert report.problems == []
    assert report.settings.shard_ids == ids
    entry = next(e for e in SETTINGS if e.name == "shard_ids")
    assert entry.show(ids) == shown


@pytest.mark.parametrize(
    ("text", "why"),
    [("a", "'a' is not a shard number or a range like 0-3"),
     ("3-1", "the range '3-1' runs backwards"), ("0,", "'' is not a shard number"),
     ("-1", "'-1' is not a shard number")],
)  # fmt: skip
def test_bad_shard_ids_say_why(tmp_path: Path, text: str, why: str) -> None:
    """A bad list names what is accepted and what was wrong."""
    report = read(tmp_path, {"TABULA_SHARD_IDS": text})
    (problem,) = report.problems
    assert problem.startswith(
        f"TABULA_SHARD_IDS must be shard numbers or ranges like 0-1, 2 or 0,3 (got {text!r}: {why}"
    )


def test_shards_in_toml_as_a_list_or_text(tmp_path: Path) -> None:
    """`[shards] ids = [0, 3]` and `ids = "0,3"` mean the same."""
    for ids in ("[0, 3]", '"0,3"'):
        toml = f'[database]\npath = "{PG}"\n[shards]\ncount = 4\nids = {ids}\n'
        report = read(tmp_path, {}, toml=toml)
        assert report.problems == []
        assert report.settings.shards is not None
        assert report.settings.shards.ids == {0, 3} and report.settings.shards.count == 4


def test_shard_settings_are_checked_together(tmp_path: Path) -> None:
    """A shard beyond the count, and some shards of several on SQLite, are refused."""
    beyond = read(tmp_path, {"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": "1-2"})
    assert beyond.problems == [
        "TABULA_SHARD_IDS names shard 2, but TABULA_SHARD_COUNT is 2 (shards are numbered 0 to 1)"
    ]
    sqlite = read(tmp_path, {"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": "1"})
    assert sqlite.problems == [
        "TABULA_SHARD_IDS=1 runs only some of the 2 shards, so other processes share the "
        "database: that needs PostgreSQL (TABULA_DATABASE=postgresql://...); a SQLite file "
        "serves one process"
    ]
    # One process running every shard may keep its SQLite file.
    every = read(tmp_path, {"TABULA_SHARD_COUNT": "2"})
    assert every.problems == [] and every.settings.runs_every_shard
    assert every.settings.shards is not None and every.settings.shards.ids == {0, 1}
    assert read(tmp_path, {}).settings.shards is None


def test_a_process_is_named_after_its_shards(tmp_path: Path) -> None:
    """The owner name of held announcements is stable: the same shards, the same name."""

    def named(ids: str) -> str:
        environ = {"TABULA_SHARD_COUNT": "4", "TABULA_SHARD_IDS": ids, "TABULA_DATABASE": PG}
        return owner_name(read(tmp_path, environ).settings.shards)

    assert named("0-1") == named("1,0") == "shards-0-1"
    assert named("0,3") == "shards-0,3"
    assert named("2") == "shards-2"
    assert owner_name(read(tmp_path, {}).settings.shards) == "tabula"
