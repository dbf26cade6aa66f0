"""TRF files: a tournament written and read back is the same tournament, the next round
paired from a file is the round the bot pairs, and bad files get one clear line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.bench.simulation import play_out
from bot.cli import main, tournament_command
from bot.cli.tournament_command import next_round
from bot.competition.colours import FIRST, SECOND
from bot.competition.records import Pairing, Result
from bot.competition.tournament import Format, Tournament
from bot.competition.trf import MAX_PLAYERS, TrfError, read_trf, write_trf


def _played(field: int, rounds: int, seed: int, *, stop_after: int) -> Tournament:
    """A Swiss of `field` players with random results, some withdrawals, `stop_after`
    rounds played."""
    rng = random.Random(seed)
    tournament = Tournament(Format.SWISS, tuple(range(101, 101 + field)), rounds=rounds)
    state = {"rounds": 0}

    def count(before: Tournament, made: tuple[Pairing, ...]) -> None:
        state["rounds"] += 1

    finished = play_out(tournament, rng, draw_rate=0.2, withdraw_rate=0.05, check=count)
    kept = tuple(p for p in finished.pairings if p.round <= stop_after)
    gone = frozenset(
        p
        for p in finished.withdrawn
        if any(
            q.round <= stop_after and p in q.players and q.result and q.result.is_forfeit
            for q in kept
        )
    )
    return Tournament(Format.SWISS, finished.players, rounds, kept, gone)


def _text(tournament: Tournament) -> str:
    return write_trf(
        name="Autumn Swiss",
        players=tournament.players,
        names={p: f"Player {p}" for p in tournament.players},
        ratings={p: 1500 + p for p in tournament.players},
        rounds=tournament.rounds,
        pairings=tournament.pairings,
        withdrawn=tournament.withdrawn,
    )


@pytest.mark.parametrize(("field", "seed"), [(7, 1), (10, 2), (13, 3), (16, 4), (21, 5)])
def test_round_trip_keeps_every_game_and_the_next_round(field: int, seed: int) -> None:
    """Written and read back, every game, result and bye is there (players by seed
    number), and pairing the file's next round gives the bot's own next round."""
    tournament = _played(field, 5, seed, stop_after=3)
    event = read_trf(_text(tournament))
    number = {p: i + 1 for i, p in enumerate(tournament.players)}
    expected = {
        (p.round, number[p.first], None if p.second is None else number[p.second], p.result)
        for p in tournament.pairings
    }
    assert {
        (p.round, p.first, p.second, p.result if p.second else None) for p in event.pairings
    } == expected
    assert event.rounds == 5 and event.played_rounds == 3
    assert event.names[1] == f"Player {tournament.players[0]}"
    assert event.absent == {number[p] for p in tournament.withdrawn}
    ours = Tournament(
        Format.SWISS, tournament.players, 5, tournament.pairings, tournament.withdrawn
    ).advance()
    from_file = next_round(event)
    assert [(number[p.first], None if p.second is None else number[p.second]) for p in ours] == [
        (p.first, p.second) for p in from_file
    ]


def test_player_lines_keep_their_columns() -> None:
    """Starting rank in columns 5-8, name from 15, rating 49-52, points 81-84, rank
    86-89, round one's opponent in 92-95, colour in 97, result in 99."""
    tournament = Tournament(
        Format.SWISS, (7, 8), rounds=1, pairings=(Pairing(1, 7, 8, Result.FIRST_WINS),)
    )
    lines = _text(tournament).splitlines()
    assert "XXR 1" in lines and "142 1" in lines and "XXC white1" in lines
    first = next(line for line in lines if line.startswith("001"))
    assert first[4:8] == "   1"
    assert first[14:22] == "Player 7"
    assert first[48:52] == "1507"
    assert first[80:84] == " 1.0"
    assert first[85:89] == "   1"
    assert first[91:95] == "   2" and first[96] == "w" and first[98] == "1"


GOOD = write_trf(
    name="Test",
    players=(1, 2),
    names={1: "Ann", 2: "Bob"},
    ratings={1: 1600, 2: 1500},
    rounds=3,
    pairings=(Pairing(1, 1, 2, Result.FIRST_WINS),),
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no player lines"),
        ("hello world\n", "no player lines"),
        ("001    1  short\n", "at least 84 columns"),
        (GOOD.replace("001    2", "001   xx"), "starting rank in columns 5-8"),
        (GOOD.replace("001    2", "001    1"), "appears twice"),
        (GOOD.replace(" 0.0    2", " 9.0    2"), "results add up to 0"),
        (GOOD.replace("1 b 0", "1 x 0"), "colour 'x'"),
        (GOOD.replace("1 b 0", "1 b Q"), "result 'Q'"),
        (GOOD.replace("1 b 0", "3 b 0"), "2 met 3, but 3|no 001 line|does not say so"),
        (GOOD.replace("1 b 0", "1 w 0"), "opposite colours"),
        (GOOD.replace("1 b 0", "1 b 1").replace(" 0.0    2", " 1.0    2"), "do not agree"),
        (GOOD.replace("XXR 3", "XXR three"), "number of rounds"),
        (GOOD.replace("XXR 3", "XXR 0"), "number of rounds"),
        (GOOD.replace("     2 w 1", "  abcd w 1"), "not a starting rank"),
        (
            GOOD.replace("1 b 0", "1 b 0  0000 - H")
            .replace("0.0    2", "0.5    2")
            .replace("2 w 1", "2 w 1  0000 - U")
            .replace("1.0    1", "2.0    1"),
            "half-point bye",
        ),
        (GOOD.replace("1600", "16a0"), "rating in columns 49-52"),
        (GOOD.replace("1600", "16\u00b20"), "line 6: the rating in columns 49-52 is '16\u00b20'"),
        (GOOD.replace(" 1.0    1", " nan    1"), "line 6: the points in columns 81-84 are 'nan'"),
        (GOOD.replace(" 1.0    1", " inf    1"), "the points in columns 81-84 are 'inf'"),
        (GOOD.replace(" 1.0    1", "-1.0    1"), "the points in columns 81-84 are '-1.0'"),
        (GOOD.replace(" 1.0    1", " 1e0    1"), "the points in columns 81-84 are '1e0'"),
        (
            GOOD.replace("     2 w 1", "     \u0662 w 1"),
            "the opponent '\u0662' is not a starting rank",
        ),
        (GOOD.replace("XXR 3", "XXR \u0663"), "number of rounds"),
        (GOOD.replace("152 W", "152 X"), "line 5: the initial colour 'X' is not W or B"),
        (GOOD.replace("152 W", "152 B"), "line 5: the initial colour contradicts an earlier line"),
    ],
)
def test_bad_files_get_one_clear_line(text: str, message: str) -> None:
    """Every bad file raises TrfError (a ValueError) saying what is wrong."""
    with pytest.raises(TrfError, match=message):
        read_trf(text)


def test_pair_command_prints_the_next_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tabula tournament pair FILE` prints round 2's boards for a good file."""
    path = tmp_path / "event.trf"
    three = write_trf(
        name="Test",
        players=(1, 2, 3),
        names={},
        ratings={},
        rounds=3,
        pairings=(Pairing(1, 1, 2, Result.FIRST_WINS), Pairing(1, 3)),
    )
    path.write_text(three, encoding="utf-8")
    assert main(["tournament", "pair", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("round 2: 1 boards")
    assert "bye" in out


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\xff\xfe\x00garbage",
        b"001 nonsense\n",
        GOOD.replace("XXR 3\n142 3", "XXR 1\n142 1").encode(),
    ],
)
def test_pair_command_refuses_bad_files_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    """A bad file: exit 1, one line on stderr, nothing on stdout, no traceback."""
    path = tmp_path / "bad.trf"
    path.write_bytes(content)
    assert main(["tournament", "pair", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert captured.err.startswith("tabula: ")


def _round_one(initial: str | None) -> str:
    """Four players, nothing played yet; the initial colour as `XXC` and `152` say
    (both lines left out for None)."""
    text = write_trf(name="Test", players=(1, 2, 3, 4), names={}, ratings={}, rounds=3, pairings=())
    lines = [line for line in text.splitlines() if not line.startswith(("XXC", "152"))]
    if initial is not None:
        lines[1:1] = [f"XXC {initial}1", f"152 {initial[0].upper()}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("initial", "expected"),
    [("white", [(1, 3), (4, 2)]), ("black", [(3, 1), (2, 4)]), (None, [(1, 3), (4, 2)])],
)
def test_the_initial_colour_is_read(initial: str | None, expected: list[tuple[int, int]]) -> None:
    """Round one pairs 1-3 and 2-4; with the initial colour black, 1 (odd starting rank)
    has black and 2 (even) white; white by default."""
    event = read_trf(_round_one(initial))
    assert [(p.first, p.second) for p in next_round(event)] == expected


def test_the_initial_colour_is_taken_from_round_one_without_a_line_for_it() -> None:
    """No XXC or 152 line: starting rank 1 had black in round one, so the initial colour
    was black; had 2 been the highest seed playing, its white would say the same."""
    for played, initial in (((3, 1), SECOND), ((1, 3), FIRST)):
        text = write_trf(
            name="Test",
            players=(1, 2, 3, 4),
            names={},
            ratings={},
            rounds=3,
            pairings=(Pairing(1, *played, Result.DRAW), Pairing(1, 4, 2, Result.DRAW)),
        )
        lines = [line for line in text.splitlines() if not line.startswith(("XXC", "152"))]
        assert read_trf("\n".join(lines) + "\n").initial == initial
    absent = write_trf(
        name="Test",
        players=(1, 2, 3),
        names={},
        ratings={},
        rounds=3,
        pairings=(Pairing(1, 2, 3, Result.DRAW), Pairing(1, 1)),
    )
    lines = [line for line in absent.splitlines() if not line.startswith(("XXC", "152"))]
    assert read_trf("\n".join(lines) + "\n").initial == SECOND


def test_a_field_beyond_the_limit_gets_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1,000 players are read; 1,001 are refused, naming the line and the limit."""

    def file(count: int) -> str:
        players = tuple(range(1, count + 1))
        return write_trf(name="Big", players=players, names={}, ratings={}, rounds=9, pairings=())

    assert len(read_trf(file(MAX_PLAYERS)).players) == MAX_PLAYERS
    path = tmp_path / "big.trf"
    path.write_text(file(MAX_PLAYERS + 1), encoding="utf-8")
    assert main(["tournament", "pair", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        f"tabula: {path}: line {MAX_PLAYERS + 6}: more than 1,000 players; "
        "Tabula pairs at most 1,000"
    ]


@pytest.mark.parametrize("error", [RecursionError, MemoryError])
def test_running_out_of_stack_or_memory_gets_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    error: type[Exception],
) -> None:
    """Whatever a file makes the pairing run out of, the command says so in one line."""

    def exhausted(_event: object) -> None:
        raise error

    monkeypatch.setattr(tournament_command, "next_round", exhausted)
    path = tmp_path / "event.trf"
    path.write_text(GOOD, encoding="utf-8")
    assert main(["tournament", "pair", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"tabula: {path}: too large to pair on this machine\n"
