"""The record formats: schema-valid JSON, SGF that sgfmill replays, text, and round trips."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from sgfmill import boards, sgf

from bot.records import read_record
from bot.records.ap_json import SCHEMA_FILE, from_ap_json, to_ap_json
from bot.records.replay import replay
from bot.records.sgf import from_sgf, to_sgf
from bot.records.text import from_text, to_text
from bot.records.transcript import RecordError, Seat, Tournament, Transcript, turns_of
from bot.storage.repository import GameStatus
from rules import OptionValue, get_game
from rules.squares import parse_point
from tests.records.games import ALICE, BOB, CASES, ENDINGS, START, case_id, random_transcript

GENERATED = datetime(2025, 3, 2, 8, 0, tzinfo=UTC)
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "bot" / "records" / SCHEMA_FILE).read_text()
)
VALIDATOR = Draft202012Validator(SCHEMA, format_checker=FormatChecker())


def valid(text: str) -> dict[str, Any]:
    """The JSON record, after checking it against the schema (dates included)."""
    data: dict[str, Any] = json.loads(text)
    VALIDATOR.validate(data)
    return data


def test_the_schema_is_a_valid_schema_and_rejects_what_the_format_forbids() -> None:
    """The schema file is well formed, and a record breaking the format fails it."""
    Draft202012Validator.check_schema(SCHEMA)
    good = json.loads(to_ap_json(random_transcript("groups", {}, 1), GENERATED))
    VALIDATOR.validate(good)
    broken = [
        {**good, "extra": 1},
        {"header": {k: v for k, v in good["header"].items() if k != "date-end"}, "moves": []},
        {**good, "header": {**good["header"], "date-start": "yesterday"}},
        {**good, "header": {**good["header"], "event": "Cup"}},  # event without round
        {**good, "moves": [[{"move": "d3-e2", "comment": "x"}]]},
        {**good, "header": {**good["header"], "players": []}},
    ]
    for record in broken:
        assert not VALIDATOR.is_valid(record), record


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_exported_json_is_valid_and_reads_back(case: Any, seed: int) -> None:
    """Each ending of random games of every game and option: the JSON validates against
    the schema, reads back to the same transcript and replays through the engine."""
    name, options = case
    for ending in ENDINGS:
        transcript = random_transcript(name, options, seed, ending, computer=seed == 2)
        text = to_ap_json(transcript, GENERATED)
        data = valid(text)
        assert data["header"]["date-generated"] == "2025-03-02T08:00:00Z"
        assert from_ap_json(text) == transcript
        assert to_ap_json(from_ap_json(text), GENERATED) == text
        replay(from_ap_json(text))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_text_records_read_back_exactly(case: Any) -> None:
    """The text record of every game and ending reads back to the same transcript
    (user ids, which it does not show, aside) and writes out identically."""
    name, options = case
    for ending in ENDINGS:
        transcript = random_transcript(name, options, 3, ending, computer=ending == "time")
        text = to_text(transcript)
        back = from_text(text)
        seats = tuple(replace(seat, user_id=None) for seat in transcript.seats)
        assert back == replace(transcript, seats=(seats[0], seats[1]))
        assert to_text(back) == text
        replay(back)


def test_the_json_record_of_a_known_game() -> None:
    """Exactly what a Groups drop game won by White looks like, in a tournament."""
    moves = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
    transcript = Transcript(
        game="groups",
        options={"start": "drop"},
        seats=(Seat("alice", ALICE), Seat("bob", BOB)),
        turns=turns_of([(i % 2, move) for i, move in enumerate(moves)]),
        started_at=START,
        winner=0,
        reason="all six stones connected",
        ended_at=datetime(2025, 3, 1, 10, 0, tzinfo=UTC),
        rated=True,
        tournament=Tournament("Spring Swiss", "2"),
        game_id=12,
    )
    data = valid(to_ap_json(transcript, GENERATED))
    assert data == {
        "header": {
            "game": {"name": "Groups", "variants": ["start=drop"]},
            "event": "Spring Swiss",
            "round": "2",
            "site": {"name": "Tabula", "gameid": 12},
            "date-start": "2025-03-01T09:30:05Z",
            "date-end": "2025-03-01T10:00:00Z",
            "date-generated": "2025-03-02T08:00:00Z",
            "players": [
                {"name": "alice", "userid": str(ALICE), "result": 1},
                {"name": "bob", "userid": str(BOB), "result": 0},
            ],
            "unrated": False,
            "tabula": {
                "game": "groups",
                "options": {"start": "drop"},
                "reason": "all six stones connected",
                "time-control": "none",
            },
        },
        "moves": [
            ["c3", "c5"], ["d3", "d5"], ["e3", "e5"], ["f3", "f5"], ["c4", "c6"], ["d4", None],
        ],
    }  # fmt: skip
    assert replay(from_ap_json(json.dumps(data))).state.outcome() is not None


def test_a_diffusion_turn_is_one_entry_and_a_draw_scores_both_players_alike() -> None:
    """Multi-move turns are one entry joined by ", "; a draw gives each player 1."""
    transcript = random_transcript("diffusion", {}, 4, "draw agreed")
    data = valid(to_ap_json(transcript, GENERATED))
    first = transcript.turns[0]
    assert len(first.moves) == 4 and data["moves"][0][0] == ", ".join(first.moves)
    assert [p["result"] for p in data["header"]["players"]] == [1, 1]


def test_a_record_from_another_site_is_read_from_the_format_alone() -> None:
    """Without Tabula's own header fields: the game by title, options from the variants,
    results by number, a move entry as an object; the reason is left unknown."""
    record = {
        "header": {
            "game": {"name": "Hexade", "variants": ["size=5"]},
            "site": {"name": "Elsewhere", "gameid": "abc"},
            "date-start": "2025-01-01T10:00:00+01:00",
            "date-end": "2025-01-01T11:00:00.5Z",
            "date-generated": "2025-01-02T00:00:00Z",
            "players": [{"name": "x", "result": 0}, {"name": "y", "result": 1, "userid": "u7"}],
        },
        "moves": [[{"move": "e5"}, "a1"], ["c1", None]],
    }
    VALIDATOR.validate(record)
    transcript = read_record(json.dumps(record))
    assert transcript.options == {"size": 5} and transcript.winner == 1
    assert transcript.started_at == datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
    assert transcript.ended_at == datetime(2025, 1, 1, 11, 0, tzinfo=UTC)
    assert [s.user_id for s in transcript.seats] == [None, None]
    assert transcript.reason is None and transcript.game_id is None
    assert [t.moves for t in transcript.turns] == [("e5",), ("a1",), ("c1",)]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("[]", "it holds an array, and a record in JSON is an object"),
        ('{"header": {}}', "exactly the keys header and moves"),
        ('{"header": {}, "moves": []}', "header.game is missing"),
        ("{", "not valid JSON"),
    ],
)
def test_unreadable_json_is_refused_with_the_reason(record: str, message: str) -> None:
    """Bad JSON records name what is wrong."""
    with pytest.raises(RecordError, match=message):
        from_ap_json(record)


def test_unknown_games_and_options_are_refused() -> None:
    """A game Tabula does not have, or an option value it does not allow."""
    good = json.loads(to_ap_json(random_transcript("hexade", {"size": 6}, 1), GENERATED))
    good["header"]["game"]["name"] = "Chess"
    del good["header"]["tabula"]
    with pytest.raises(RecordError, match=r"header\.game\.name: .*Chess"):
        from_ap_json(json.dumps(good))
    good["header"]["game"] = {"name": "Hexade", "variants": ["size=40"]}
    with pytest.raises(RecordError, match="size must be an integer from 5 to 12"):
        from_ap_json(json.dumps(good))


# --- SGF ---


def stones_game_with(wanted: str) -> Transcript:
    """The first seeded random Stones game (9×9, to its end) with a move `wanted`."""
    for seed in range(200):
        transcript = random_transcript("stones", {}, seed)
        if any(move.startswith(wanted) for _, move in transcript.moves()):
            return transcript
    raise AssertionError(f"no random game with {wanted}")


def sgfmill_replay(text: str) -> list[tuple[str, tuple[int, int] | None, dict[str, bytes]]]:
    """The moves sgfmill reads: (colour, (row, col) or None for a pass, Tabula's props)."""
    game = sgf.Sgf_game.from_bytes(text.encode())
    found = []
    for node in game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        extra = {key: node.get_raw(key) for key in ("XR", "XS") if node.has_property(key)}
        found.append((colour, point, extra))
    return found


@pytest.mark.parametrize("wanted", ["return", "stake"])
def test_sgfmill_reads_the_sgf_and_its_placements_replay_on_a_go_board(wanted: str) -> None:
    """A game with returns or stakes: sgfmill reads every node; placements, played on
    sgfmill's Go board, give Tabula's board after each; returns and stakes are passes
    carrying XR / XS; the options and players are in the root."""
    transcript = stones_game_with(wanted)
    text = to_sgf(replace(transcript, game_id=7))
    game = sgf.Sgf_game.from_bytes(text.encode())
    root = game.get_root()
    assert game.get_size() == 9
    assert root.get_raw("FF") == b"4" and root.get_raw("GM") == b"1"
    assert root.get_raw("XT") == b"7" and root.get_raw("XC") == b"6"
    assert game.get_player_name("b") == "alice" and game.get_player_name("w") == "bob"
    assert root.get("GN") == "Tabula game 7"
    assert root.get("RE") == "B+" if transcript.winner == 0 else "W+"
    board = boards.Board(9)
    state: Any = get_game("stones").new_game()
    moves = transcript.moves()
    read = sgfmill_replay(text)
    assert len(read) == len(moves)
    for (seat, notation), (colour, point, extra) in zip(moves, read, strict=True):
        assert colour == "bw"[seat]
        state = state.play_text(notation)
        if notation == "return":
            assert point is None and extra == {"XR": b"1"}
            continue
        if notation.startswith("stake "):
            col, row = _point(notation[6:])
            assert point is None
            assert extra["XS"] == (chr(97 + col) + chr(97 + 8 - row)).encode()
            continue
        assert extra == {} and point is not None
        board.play(point[0], point[1], colour)
        mine = {(c, r): seat for seat in (0, 1) for c, r in state.stones(seat)}
        theirs = {
            (col, row): "bw".index(board.get(row, col))
            for row in range(9)
            for col in range(9)
            if board.get(row, col) is not None
        }
        assert theirs == mine, f"after {notation}"


def _point(name: str) -> tuple[int, int]:
    return parse_point(name, 9, 9)


@pytest.mark.parametrize("ending", ENDINGS)
def test_sgf_reads_back_for_every_ending(ending: str) -> None:
    """SGF round trip (what SGF shows: names, options, dates, result, reason)."""
    cases: list[dict[str, OptionValue]] = [
        {},
        {"size": 5},
        {"size": 13, "threshold": 3, "compensation": 0},
    ]
    for options in cases:
        transcript = random_transcript("stones", options, 5, ending)
        transcript = replace(transcript, game_id=3, tournament=Tournament("Cup", "1"))
        text = to_sgf(transcript)
        back = from_sgf(text)
        assert to_sgf(back) == text
        assert back.turns == transcript.turns and back.options == transcript.options
        assert (back.winner, back.reason) == (transcript.winner, transcript.reason)
        assert (back.started_at, back.ended_at) == (transcript.started_at, transcript.ended_at)
        by_rules = replay(back).state.outcome() is not None
        code = "+" if by_rules else {"resigned": "+R", "time": "+T", "withdrew": "+F"}.get(ending)
        expected = "0" if transcript.winner is None else f"{'BW'[transcript.winner]}{code}"
        assert f"RE[{expected}]" in text


def test_the_sgf_of_a_known_game() -> None:
    """Exactly what a short Stones game with a return and a stake looks like."""
    transcript = Transcript(
        game="stones",
        options=get_game("stones").validate_options({"size": 5}),
        seats=(Seat("alice", ALICE), Seat("bob", BOB)),
        turns=turns_of([(0, "c3"), (1, "return"), (0, "stake c4"), (1, "b2")]),
        started_at=START,
        status=GameStatus.FINISHED,
        winner=0,
        reason="bob resigned",
        ended_at=datetime(2025, 3, 1, 10, 0, tzinfo=UTC),
        game_id=9,
    )
    assert to_sgf(transcript) == (
        "(;FF[4]GM[1]CA[UTF-8]AP[Tabula:1]SZ[5]RU[Stones]XT[2]XC[6]GN[Tabula game 9]"
        "PB[alice]PW[bob]DT[2025-03-01]XD[2025-03-01T09:30:05Z,2025-03-01T10:00:00Z]"
        "RE[B+R]GC[bob resigned]\n;B[cc]\n;W[]XR[1]\n;B[]XS[cb]\n;W[bd])\n"
    )


def test_sgf_of_a_game_in_progress_and_escapes() -> None:
    """A game in progress has no RE; ] and \\ in names are escaped and read back."""
    transcript = replace(
        random_transcript("stones", {}, 1, "resigned"),
        status=GameStatus.ACTIVE,
        winner=None,
        reason=None,
        ended_at=None,
        seats=(Seat("a]b\\c"), Seat("bob", BOB)),
    )
    text = to_sgf(transcript)
    assert "RE[" not in text and "PB[a\\]b\\\\c]" in text
    assert sgf.Sgf_game.from_bytes(text.encode()).get_player_name("b") == "a]b\\c"
    with pytest.raises(RecordError, match="no result"):
        from_sgf(text)


def test_only_stones_is_written_as_sgf() -> None:
    """SGF is for the Go-like game only; AbstractPlay JSON for finished games only."""
    with pytest.raises(ValueError, match="only Stones"):
        to_sgf(random_transcript("groups", {}, 1))
    with pytest.raises(ValueError, match="finished games only"):
        to_ap_json(replace(random_transcript("groups", {}, 1), status=GameStatus.ACTIVE), GENERATED)


def test_read_record_tells_the_formats_apart() -> None:
    """JSON, SGF and text are recognised by their first character."""
    transcript = random_transcript("stones", {}, 1)
    for text in (to_ap_json(transcript, GENERATED), to_sgf(transcript), to_text(transcript)):
        assert read_record("\ufeff\n" + text).turns == transcript.turns
    with pytest.raises(RecordError, match="empty"):
        read_record("  \n")
