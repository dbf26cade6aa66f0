"""deploy/: the Dockerfile lints and is built as intended, compose and the systemd units
parse and agree with the settings. (Docker itself cannot run on these machines.)"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import Settings, read_config
from bot.sharding import owner_name

DEPLOY = Path(__file__).resolve().parent.parent.parent / "deploy"
SHUTDOWN_TIMEOUT = Settings().shutdown_timeout


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            keyword, _, rest = stripped.partition(" ")
            found.append((keyword.upper(), " ".join(rest.split())))
    return found


def test_hadolint_finds_nothing() -> None:
    """hadolint (installed from PyPI by the dev extra) passes the Dockerfile clean."""
    hadolint = Path(sys.executable).with_name("hadolint")
    result = subprocess.run(
        [str(hadolint), "--no-color", str(DEPLOY / "Dockerfile")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_the_image_is_slim_unprivileged_and_keeps_data_on_a_volume() -> None:
    """python:3.11-slim, `pip install .`, a non-root numeric user, /data as the volume
    holding TABULA_DATABASE, a doctor health check, and `tabula run` by default."""
    steps = instructions()
    keywords = [keyword for keyword, _ in steps]
    assert steps[0] == ("FROM", "python:3.11-slim")
    assert ("VOLUME", '["/data"]') in steps
    env = " ".join(args for keyword, args in steps if keyword == "ENV")
    assert "TABULA_DATABASE=/data/tabula.sqlite3" in env
    runs = " ".join(args for keyword, args in steps if keyword == "RUN")
    assert "pip install --no-cache-dir ." in runs
    assert "useradd --system --uid 10001" in runs and "chown tabula:tabula /data" in runs
    users = [args for keyword, args in steps if keyword == "USER"]
    assert users == ["10001:10001"]
    assert keywords.index("USER") > max(i for i, k in enumerate(keywords) if k == "RUN")
    health = next(args for keyword, args in steps if keyword == "HEALTHCHECK")
    assert health.endswith('CMD ["tabula", "doctor", "--quick"]')
    assert ("ENTRYPOINT", '["tabula"]') in steps and steps[-1] == ("CMD", '["run"]')
    copied = {args.split()[0] for keyword, args in steps if keyword == "COPY"}
    assert copied == {"pyproject.toml", "rules", "renderers", "bot", "docs/rules"}
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text(encoding="utf-8").splitlines()
    assert ignore[1] == "**"
    assert {"!pyproject.toml", "!README.md", "!rules/", "!renderers/", "!bot/"} <= set(ignore)
    assert "!docs/rules/" in ignore  # the rules pages /rules attaches


def test_compose_file_loads_and_matches_the_image() -> None:
    """One service built from deploy/Dockerfile, the volume on /data, the env file, a stop
    grace period longer than the shutdown timeout, a read-only root file system."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["tabula"]
    assert service["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    assert (DEPLOY / ".." / service["build"]["dockerfile"]).resolve().is_file()
    assert service["env_file"] == ["tabula.env"]
    assert service["environment"]["TABULA_DATABASE"].startswith("/data/")
    assert service["volumes"] == ["tabula-data:/data"]
    assert "tabula-data" in compose["volumes"]
    assert service["restart"] == "unless-stopped"
    assert int(service["stop_grace_period"].removesuffix("s")) > SHUTDOWN_TIMEOUT
    assert service["read_only"] is True and service["tmpfs"] == ["/tmp"]
    assert service["cap_drop"] == ["ALL"]


def unit(name: str) -> configparser.RawConfigParser:
    """A systemd unit file parsed as INI (keys case-sensitive; repeats are not used)."""
    parser = configparser.RawConfigParser(strict=True, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return parser


def test_the_systemd_service_restarts_and_can_write_its_database() -> None:
    """A dedicated user, restart on failure, the env file, SIGTERM with time to finish,
    and hardening that leaves the database's folder (the state directory) writable."""
    service = unit("tabula.service")
    assert service.sections() == ["Unit", "Service", "Install"]
    run = service["Service"]
    assert run["User"] == run["Group"] == "tabula"
    assert run["Restart"] == "on-failure"
    assert run["EnvironmentFile"] == "/etc/tabula/tabula.env"
    assert run["ExecStart"] == "/opt/tabula/bin/tabula run"
    assert run["KillSignal"] == "SIGTERM"
    assert int(run["TimeoutStopSec"].removesuffix("s")) > SHUTDOWN_TIMEOUT
    assert run["ProtectSystem"] == "strict"
    database = run["Environment"].removeprefix("TABULA_DATABASE=")
    state = Path("/var/lib") / run["StateDirectory"]
    assert Path(database).parent == state == Path(run["WorkingDirectory"])
    assert "ReadOnlyPaths" not in run and "InaccessiblePaths" not in run
    assert service["Install"]["WantedBy"] == "multi-user.target"


def test_the_backup_timer_runs_the_backup_service() -> None:
    """Daily, persistent; the service backs up into the state directory, keeping 14."""
    timer = unit("tabula-backup.timer")
    assert timer["Timer"]["OnCalendar"] == "daily" and timer["Timer"]["Persistent"] == "true"
    backup = unit("tabula-backup.service")["Service"]
    assert backup["Type"] == "oneshot" and backup["User"] == "tabula"
    assert backup["ExecStart"] == (
        "/opt/tabula/bin/tabula backup /var/lib/tabula/backups --keep 14"
    )
    assert backup["StateDirectory"].split() == ["tabula", "tabula/backups"]
    assert backup["Environment"] == unit("tabula.service")["Service"]["Environment"]


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (the INI checks above still ran)",
)
def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    """`systemd-analyze verify` reports nothing (ExecStart pointed at this venv's tabula)."""
    tabula = Path(sys.executable).with_name("tabula")
    for name in ("tabula.service", "tabula-backup.service", "tabula-backup.timer"):
        text = (DEPLOY / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.replace("/opt/tabula/bin/tabula", str(tabula)))
    result = subprocess.run(
        ["systemd-analyze", "verify", *sorted(str(path) for path in tmp_path.iterdir())],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr


def interpolated(text: str, variables: dict[str, str]) -> str:
    """Compose's `${NAME:?message}` and `${NAME}` replaced as Compose does (all are set)."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda found: variables[found.group(1)], text)


def sharded() -> dict[str, Any]:
    """deploy/compose.sharded.yaml, its password variable set."""
    text = (DEPLOY / "compose.sharded.yaml").read_text(encoding="utf-8")
    assert "${TABULA_POSTGRES_PASSWORD:?" in text  # refused by Compose when not set
    loaded: dict[str, Any] = yaml.safe_load(
        interpolated(text, {"TABULA_POSTGRES_PASSWORD": "s3cret"})
    )
    return loaded


def test_the_sharded_compose_runs_two_shards_over_postgres() -> None:
    """A postgres service (healthy before the bots start, data on a volume) and two bot
    services built like the single one, shards 0 and 1 of 2: their settings read without
    a problem and together cover every shard, each holding its announcements apart."""
    compose = sharded()
    single = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"postgres", "shard-0", "shard-1"}
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert postgres["environment"]["POSTGRES_PASSWORD"] == "s3cret"
    assert postgres["volumes"] == ["tabula-postgres:/var/lib/postgresql/data"]
    assert "tabula-postgres" in compose["volumes"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    seen: set[int] = set()
    owners = set()
    for shard in (0, 1):
        bot = services[f"shard-{shard}"]
        for key in ("build", "image", "env_file", "read_only", "tmpfs", "cap_drop", "restart"):
            assert bot[key] == single["services"]["tabula"][key], key
        assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
        assert int(bot["stop_grace_period"].removesuffix("s")) > SHUTDOWN_TIMEOUT
        environment = bot["environment"]
        assert environment["PGPASSWORD"] == postgres["environment"]["POSTGRES_PASSWORD"]
        url = environment["TABULA_DATABASE"]
        assert url == (
            f"postgresql://{postgres['environment']['POSTGRES_USER']}@postgres:5432/"
            f"{postgres['environment']['POSTGRES_DB']}"
        )
        report = read_config(
            {k: v for k, v in environment.items() if k.startswith("TABULA_")},
            Path("/nonexistent/.env"),
            Path("/nonexistent/tabula.toml"),
        )
        assert report.problems == []
        shards = report.settings.shards
        assert shards is not None and shards.count == 2
        seen |= shards.ids
        owners.add(owner_name(shards))
    assert seen == {0, 1} and owners == {"shards-0", "shards-1"}
