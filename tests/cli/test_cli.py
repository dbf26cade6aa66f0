"""The `tabula` command line: games, replay and the benchmarks."""

from __future__ import annotations

import io
import json

import pytest

from bot.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().out


def test_replay_prints_the_state_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula replay groups d3-e2` reports the position after the move."""
    status, out = run_cli(capsys, "replay", "groups", "d3-e2")
    assert status == 0
    report = json.loads(out)
    assert report["game"] == "groups"
    assert report["options"] == {"start": "standard"}
    assert report["ply"] == 1
    assert report["to_move"] == 1
    assert report["outcome"] is None
    assert report["legal_moves"] == sorted(report["legal_moves"])
    assert "e3-e1" in report["legal_moves"] and "d3-e2" not in report["legal_moves"]
    assert report["board"].splitlines()[7] == "2 . . . . W . . ."


def test_replay_reports_the_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    """A finished game shows winner and reason."""
    moves = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
    status, out = run_cli(capsys, "replay", "groups", "--option", "start=drop", *moves)
    assert status == 0
    report = json.loads(out)
    assert report["outcome"] == {"winner": 0, "reason": "all six stones connected"}
    assert report["legal_moves"] == []


@pytest.mark.parametrize(
    ("moves", "ply", "message"),
    [
        (["d3-e2", "e3-e9"], 1, "off the board"),
        (["d3-e2", "d4-d3", "e2-e4"], 2, "e4 is occupied"),
        (["nonsense"], 0, "not a Groups move"),
    ],
)
def test_replay_stops_at_the_first_bad_move(
    capsys: pytest.CaptureFixture[str], moves: list[str], ply: int, message: str
) -> None:
    """A bad move prints an error object with its index and exits 2."""
    status, out = run_cli(capsys, "replay", "groups", *moves)
    assert status == 2
    report = json.loads(out)
    assert report["ply"] == ply
    assert message in report["error"]


def test_replay_rejects_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    """An invalid option is an error object too."""
    status, out = run_cli(capsys, "replay", "groups", "--option", "start=sideways")
    assert status == 2
    assert "start must be one of standard, drop" in json.loads(out)["error"]


def test_games_lists_options_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula games --json` lists every game with its options and defaults."""
    status, out = run_cli(capsys, "games", "--json")
    assert status == 0
    games = {game["name"]: game for game in json.loads(out)}
    assert games["groups"]["options"][0]["name"] == "start"
    assert games["groups"]["options"][0]["default"] == "standard"
    status, text = run_cli(capsys, "games")
    assert "start=standard" in text


def test_bench_rules_measures_groups(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula bench rules groups` times real play() and legal_moves() calls."""
    status, out = run_cli(capsys, "bench", "rules", "groups", "--seconds", "0.3", "--json")
    assert status == 0
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["scenario"] for r in reports] == ["standard", "drop start"]
    for report in reports:
        assert report["plays"] > 0
        assert report["legal_moves_generations"] >= report["plays"]
        assert report["plays_per_second"] > 0
        assert report["play_median_us"] > 0


def test_bench_rules_reports_hexade_win_check(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula bench rules hexade` also times the full win check and sixes() on size 10."""
    status, out = run_cli(capsys, "bench", "rules", "hexade", "--seconds", "0.2", "--json")
    assert status == 0
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["scenario"] for r in reports] == ["size 10", "size 5"]
    assert reports[0]["full win check_median_us"] > 0
    assert reports[0]["sixes()_median_us"] > 0
    assert all(r["plays"] > 0 for r in reports)


def test_bench_pairing_times_swiss_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula bench pairing 9` pairs a real Swiss of nine and rates real games."""
    status, out = run_cli(capsys, "bench", "pairing", "9", "--rounds", "3", "--json")
    assert status == 0
    swiss, ratings = (json.loads(line) for line in out.splitlines())
    assert swiss["field"] == 9 and swiss["rounds"] == 3
    assert 0 < swiss["pairing_median_ms"] <= swiss["pairing_max_ms"]
    assert 0 <= swiss["pairing_cpu_median_ms"] <= swiss["pairing_cpu_max_ms"]
    assert ratings["rated_games_per_second"] > 0


def test_bench_pairing_simulate_audits_swiss_tournaments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`tabula bench pairing --simulate 6 9` plays and audits whole Swiss events: every
    round is counted, and no rule that could be kept was broken."""
    status, out = run_cli(
        capsys, "bench", "pairing", "--simulate", "6", "9", "--events", "3", "--json"
    )
    assert status == 0
    reports = [json.loads(line) for line in out.splitlines()]
    assert [(r["field"], r["events"], r["rounds"]) for r in reports] == [(6, 3, 9), (9, 3, 12)]
    for report in reports:
        assert report["rematches"] == report["colour_breaks"] == report["second_byes"] == 0
        assert report["avoidable_floats"] == 0
        assert 0 <= report["single_winner_share"] <= 1


def test_bench_pairing_simulate_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json, one heading line, the column names and one row per field."""
    status, out = run_cli(capsys, "bench", "pairing", "--simulate", "7", "--events", "2")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Swiss simulation: 2 events per field, ⌈log₂ N⌉ rounds")
    assert lines[1].split("  ")[:4] == ["field", "rounds", "games", "rematches"]
    assert lines[2].split()[:2] == ["7", "6"]


def test_run_without_token_opens_the_console(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    """With no token the run command says how to set one and opens the console."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TABULA_DATABASE", str(tmp_path / "t.sqlite3"))
    monkeypatch.setattr("sys.stdin", io.StringIO("alice> /play groups @bob\n/quit\n"))
    assert main(["run"]) == 0
    captured = capsys.readouterr()
    assert "DISCORD_TOKEN" in captured.err
    assert "@alice challenges @bob to Groups." in captured.out
    assert (tmp_path / "t.sqlite3").is_file()


def test_run_with_a_bad_setting_explains(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    """With a token, a bad setting is reported in one line before connecting; exit 2."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("TABULA_LOG_LEVEL", "loud")
    assert main(["run"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "tabula: TABULA_LOG_LEVEL must be one of debug, info, warning, error (got 'loud')\n"
    )
    assert "not-a-real-token" not in captured.err + captured.out
