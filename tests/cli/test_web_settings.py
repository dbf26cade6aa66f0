"""The web pages from the command line: `tabula run` without a token and `tabula console`
print `web: http://HOST:PORT/` when they serve them; `TABULA_WEB=off` serves none;
`TABULA_WEB_URL` is the address links use, printed beside the one listened on."""

from __future__ import annotations

import io
import re
import socket
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.run_command import NO_TOKEN_HELP

SCRIPT = "alice> /play groups @bob\nbob> /accept\nalice> /link\n"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def web_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> int:
    """The pages on (as by default) on a free port; no token; the script on stdin."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("TABULA_WEB_URL", raising=False)
    monkeypatch.delenv("TABULA_WEB", raising=False)
    port = free_port()
    monkeypatch.setenv("TABULA_WEB_PORT", str(port))
    monkeypatch.setattr("sys.stdin", io.StringIO(SCRIPT))
    return port


def link_in(printed: str) -> str:
    """The sign-in link the console printed for /link."""
    found = re.search(r"\(to alice\) Your board for game #1: (\S+)", printed)
    assert found, printed
    return found[1]


@pytest.mark.parametrize("command", ["run", "console"])
def test_the_web_address_is_printed_at_start(
    command: str, web_on: int, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`tabula run` without a token (the console) and `tabula console` print the address
    served, in the form outside tools read, before anything else; /link links there."""
    assert main([command, "--database", str(tmp_path / "w.sqlite3")]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == f"web: http://127.0.0.1:{web_on}/"
    assert link_in(captured.out).startswith(f"http://127.0.0.1:{web_on}/signin?t=")
    assert "The link works for 10 minutes" in captured.out and "for 7 days" in captured.out
    if command == "run":
        assert NO_TOKEN_HELP in captured.err


def test_tabula_web_off_serves_no_pages(
    web_on: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """TABULA_WEB=off: no address printed, nothing listens, /link says why."""
    monkeypatch.setenv("TABULA_WEB", "off")
    assert main(["run", "--database", str(tmp_path / "off.sqlite3")]) == 0
    printed = capsys.readouterr().out
    assert "web:" not in printed
    assert "(to alice) The web pages are not served (TABULA_WEB is off)." in printed
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", web_on))  # the port stayed free


def test_the_public_address_is_used_in_links_and_printed(
    web_on: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """TABULA_WEB_URL (behind a reverse proxy): links start with it, and the start-up
    line shows it after the address listened on."""
    monkeypatch.setenv("TABULA_WEB_URL", "https://games.example.org/tabula")
    assert main(["console", "--database", str(tmp_path / "url.sqlite3")]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == (
        f"web: http://127.0.0.1:{web_on}/ (links use https://games.example.org/tabula/)"
    )
    assert link_in(printed).startswith("https://games.example.org/tabula/signin?t=")
