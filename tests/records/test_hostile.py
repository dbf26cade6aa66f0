"""Hostile records through `tabula import`: one clear line each, exit status 1, nothing
stored, no traceback, in bounded time and memory."""

from __future__ import annotations

import asyncio
import json
import os
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage.sqlite import SqliteRepository
from tests.cli.test_records_cli import stored_game
from tests.records.hostile import Hostile, cases, json_record, sgf_record, text_record

CASES = cases()
UPPER = string.ascii_uppercase
SECONDS = 5.0
"""The most processor time an import may take on the way to its answer (the issue's
bound; the costliest file below takes about 1.5 s on a slow shared machine)."""
MEGABYTES = 200
"""The most memory the whole `tabula import` process may add on the way to an answer."""
TRACED_MEGABYTES = 100
"""The most memory an import may allocate (tracemalloc's peak), well under `MEGABYTES`:
the costliest file below peaks at about 60 MiB; a text record of two million blank lines
peaked at 227 MiB before its lines were read one at a time."""
LIMIT = 2_000_000


def games_in(database: Path) -> int:
    """How many games the database holds."""

    async def count() -> int:
        repository = await SqliteRepository.open(database)
        try:
            return sum([await repository.get_game(i) is not None for i in range(1, 40)])
        finally:
            await repository.close()

    return asyncio.run(count())


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one game."""
    path = tmp_path_factory.mktemp("hostile") / "t.sqlite3"
    stored_game(path, "hexade", {"size": 5}, 2)
    return path


def test_the_table_is_large_and_its_names_unique() -> None:
    """At least forty hostile files, each named once."""
    assert len(CASES) >= 40
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_hostile_record_is_refused_in_one_line(
    case: Hostile, database: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit status 1, one line on stderr naming what is wrong, nothing stored."""
    path = tmp_path / case.name
    path.write_bytes(case.data)
    before = games_in(database)
    started = time.process_time()  # processor time: other work on the machine does not count
    status = main(["import", str(path), "--database", str(database)])
    seconds = time.process_time() - started
    out, err = capsys.readouterr()
    assert status == 1, out
    assert out == ""
    assert err.startswith(f"tabula: {path}: ") and err.endswith("; nothing was stored\n"), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert len(err) < 500 + len(str(path)), err
    assert case.message in err
    assert games_in(database) == before
    assert seconds < SECONDS


PROBE = """
import contextlib, io, json, sys, time, tracemalloc
from bot.cli import main
database, files = sys.argv[1], sys.argv[2:]
found = {}
for path in files:
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        started, cpu = time.perf_counter(), time.process_time()
        status = main(["import", path, "--database", database])
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    tracemalloc.start()
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        main(["import", path, "--database", database])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    found[path] = {
        "status": status, "seconds": seconds, "cpu": cpu, "peak": peak,
        "err": err.getvalue(), "out": out.getvalue(),
    }
print(json.dumps({"files": found}))
"""
"""Imports each file in one fresh process: its exit status, stderr, wall and processor
time, then again under tracemalloc for the peak of what the import allocated."""


def filled(head: bytes, unit: bytes, tail: bytes = b"") -> bytes:
    """`head`, then `unit` as many times as fits, then `tail`: a file of just under the
    size limit."""
    return head + unit * ((LIMIT - len(head) - len(tail)) // len(unit)) + tail


TEXT = text_record().encode()
GOOD_JSON = json.dumps(json_record()).encode()
JSON_HEAD = b'{"header": {}, "moves": ['
PROPERTIES = (
    "".join(f"{a}{b}{c}{d}[]" for a in UPPER for b in UPPER for c in UPPER for d in UPPER)
    .encode()[: LIMIT - 20]
    .rsplit(b"]", 1)[0]
)

PATHOLOGICAL = {
    "json-nested-1.9MB": b"[" * 1_900_000 + b"]" * 10,
    "json-nested-objects-1.9MB": b'{"a":' * 330_000 + b"1" + b"}" * 330_000,
    "json-digits-1.9MB": b'{"header": ' + b"7" * 1_900_000 + b', "moves": []}',
    "json-many-objects-1.9MB": b'{"header": {}, "moves": [' + b"{}," * 630_000 + b"{}]}",
    "json-escapes-1.9MB": b'{"header": {"x": "' + b"\\u00e9" * 320_000 + b'"}, "moves": []}',
    "json-array-of-zeros": filled(b"[", b"0,", b"0]"),
    "json-lists-of-a-list": filled(JSON_HEAD, b"[[]],", b"[]]}"),
    "json-short-strings": filled(JSON_HEAD, '"ĉ",'.encode(), b'""]}'),
    "json-one-turn-of-450000-moves": GOOD_JSON.replace(
        b'"moves": [', b'"moves": [["' + b"c3, " * 450_000 + b'c3"], ', 1
    ),
    "sgf-escapes-1.9MB": b"(;FF[4]GM[1]RU[Stones]PB[" + b"\\]" * 950_000 + b"])",
    "sgf-unterminated-1.9MB": b"(;FF[4]GM[1]RU[Stones]PB[" + b"\\]" * 950_000,
    "sgf-variations-1.9MB": b"(;FF[4]GM[1]RU[Stones];B[aa]" + b"(;W[bb])" * 230_000 + b")",
    "sgf-deep-variations-1.9MB": b"(;RU[Stones];B[aa](;W[bb])" + b"(;B[cc]" * 270_000,
    "sgf-deep-variations-after-the-main-line": filled(b"(;RU[Stones];B[aa])(;W[bb]", b"(;"),
    "sgf-parentheses-1.9MB": b"(;RU[Stones]" + b"(" * 1_900_000,
    "sgf-properties-1.9MB": b"(;RU[Stones]"
    + b"".join(
        f"X{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i // 676 % 26)}[]".encode()
        for i in range(17_000)
    )
    * 16
    + b")",
    "sgf-400000-empty-properties": b"(;RU[Stones]" + PROPERTIES + b"])",
    "sgf-empty-nodes": filled(b"(;FF[4]GM[1]RU[Stones]", b";", b")"),
    "sgf-empty-nodes-in-a-variation": filled(
        b"(;FF[4]GM[1]RU[Stones];B[aa](;W[bb])(;W[cc]", b";", b"))"
    ),
    "sgf-a-million-empty-values": filled(b"(;FF[4]GM[1]RU[Stones]PB", b"[]", b")"),
    "text-long-line-1.9MB": b"Tabula game record\nGame: " + b"x" * 1_900_000 + b"\n",
    "text-many-turns-1.9MB": b"Tabula game record\nGame: Groups\n\n" + b"1. White: c3\n" * 140_000,
    "text-many-header-lines-1.9MB": b"Tabula game record\n" + b"Note: x\n" * 230_000,
    "text-blank-lines": filled(b"Tabula game record\n", b"\n"),
    "text-record-then-blank-lines": filled(TEXT, b"\n", b"junk\n"),
    "text-record-then-short-lines": filled(TEXT, b"ab\n"),
    "text-carriage-returns": filled(b"Tabula game record", b"\r"),
    "text-crlf-blank-lines": filled(b"Tabula game record\r\n", b"\r\n"),
    "text-many-options": TEXT.replace(
        b"Options: size=5",
        b"Options: " + b", ".join(f"k{i}=1".encode() for i in range(150_000)),
    ),
    "text-one-turn-of-450000-moves": TEXT.replace(
        b"1. White: ", b"1. White: " + b"d2, " * 450_000, 1
    ),
}
"""Files of at most the size limit built to be slow or large to read: deep nesting, long
numbers and lines, millions of tiny values, nodes, lines, properties and games."""
ACCEPTED = {
    "text-record-then-two-million-blank-lines": filled(TEXT, b"\n"),
    "sgf-record-then-666000-games": filled(sgf_record().encode(), b"(;)"),
}
"""Good records made costly by what they hold beside the game: imported, within the
same bounds (a record followed by two million blank lines took 214 MiB)."""


def test_pathological_files_are_answered_quickly_in_little_memory(
    database: Path, tmp_path: Path
) -> None:
    """At most the size limit: each file is refused in one line (or, for a good record
    with costly things beside it, imported), in at most 5 s of processor time and
    allocating at most 100 MB, in a fresh process."""
    paths = []
    for name, data in (PATHOLOGICAL | ACCEPTED).items():
        assert len(data) <= LIMIT, name
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(database), *paths],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    report = json.loads(done.stdout)
    for name in paths:
        found = report["files"][name]
        err = found["err"]
        if Path(name).name in ACCEPTED:
            assert found["status"] == 0 and err == "", (name, err)
            assert found["out"].startswith(f"imported {name} as game #"), found["out"]
        else:
            assert found["status"] == 1 and err.count("\n") == 1, (name, err)
            assert err.startswith(f"tabula: {name}: ") and "Traceback" not in err
        # Processor time: on a shared machine the wall clock also counts other work.
        assert found["cpu"] < SECONDS, (name, found)
        assert found["peak"] < TRACED_MEGABYTES * 1024 * 1024, (name, found)


RSS_PROBE = """
import contextlib, io, resource, sys
from bot.cli import main
started = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with contextlib.redirect_stderr(io.StringIO()):
    status = main(["import", sys.argv[2], "--database", sys.argv[1]])
print(status, started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def test_the_whole_process_stays_small_on_the_most_costly_file(
    database: Path, tmp_path: Path
) -> None:
    """The file that allocates most (400,000 JSON lists of a list): the peak resident
    memory of the whole `tabula import` process, interpreter and libraries included."""
    path = tmp_path / "lists.json"
    path.write_bytes(PATHOLOGICAL["json-lists-of-a-list"])
    done = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, str(database), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/")},
    )
    status, started, rss = (int(word) for word in done.stdout.split())
    assert status == 1
    # The refusal's own cost, above the started interpreter and its libraries (~80 MB).
    assert rss - started < MEGABYTES * 1024 * 1024, (started, rss)


def test_a_45_megabyte_file_is_refused_unread_by_the_real_entry_point(
    database: Path, tmp_path: Path
) -> None:
    """The `tabula` console script itself: the size is refused before the file is read."""
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(45_000_000)  # sparse: no 45 MB written
    tabula = Path(sys.executable).with_name("tabula")
    done = subprocess.run(
        [str(tabula), "import", str(path), "--database", str(database)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"tabula: {path}: the file is 45,000,000 bytes; a game record may be at most "
        "2,000,000 bytes (a long real game takes a few thousand); nothing was stored\n"
    )


def test_binary_and_go_files_through_the_real_entry_point(database: Path, tmp_path: Path) -> None:
    """Two more through the console script: a picture and a Go game record."""
    tabula = Path(sys.executable).with_name("tabula")
    for case in CASES:
        if case.name not in ("binary-png", "sgf-real-go-game"):
            continue
        path = tmp_path / case.name
        path.write_bytes(case.data)
        done = subprocess.run(
            [str(tabula), "import", str(path), "--database", str(database)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.startswith(f"tabula: {path}: ") and case.message in done.stderr
        assert done.stderr.count("\n") == 1
