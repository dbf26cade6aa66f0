"""Hostile record files, built here: each with the words its refusal must contain.

Every file is what `tabula import` may be given from anywhere: nested or numeric JSON
bombs, forged names, duplicated keys, Go records posing as Stones, broken SGF syntax,
results the moves do not reach, binary data, oversized files.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, NamedTuple

from bot.records.ap_json import to_ap_json
from bot.records.sgf import to_sgf
from bot.records.text import to_text
from bot.records.transcript import turns_of
from tests.records.games import random_transcript

GENERATED = datetime(2025, 3, 2, 8, 0, tzinfo=UTC)
DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
"""A Groups (start=drop) game White wins by connecting its six stones."""


class Hostile(NamedTuple):
    """A file to import and words its one-line refusal must contain."""

    name: str
    data: bytes
    message: str


def json_record() -> dict[str, Any]:
    """A good record of a Groups game won by resignation, as JSON data."""
    transcript = random_transcript("groups", {"start": "drop"}, 1, "resigned")
    data: dict[str, Any] = json.loads(to_ap_json(transcript, GENERATED))
    return data


def sgf_record() -> str:
    """A good SGF record of a Stones game won by resignation."""
    return to_sgf(random_transcript("stones", {}, 1, "resigned"))


def text_record() -> str:
    """A good text record of a Hexade game won by resignation."""
    return to_text(random_transcript("hexade", {"size": 5}, 1, "resigned"))


def changed(change: Callable[[dict[str, Any]], object]) -> bytes:
    """The good JSON record after `change` (which edits it in place)."""
    data = json_record()
    change(data)
    return json.dumps(data).encode()


def player(data: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """The header entry of a player."""
    found: dict[str, Any] = data["header"]["players"][seat]
    return found


def put(where: dict[str, Any], key: str, value: object) -> None:
    """`where[key] = value` as a function (for the table's lambdas)."""
    where[key] = value


def raw_json(fragment: str, replacing: str) -> bytes:
    """The good JSON text with one exact fragment replaced (for what `json.dumps` will
    not write: duplicate keys, huge numbers, lone surrogates)."""
    text = json.dumps(json_record())
    assert replacing in text, replacing
    return text.replace(replacing, fragment, 1).encode()


def groups_json(moves: list[str], reason: str, winner: int | None = 0) -> bytes:
    """A Groups (start=drop) record with these moves and this stated ending."""
    base = random_transcript("groups", {"start": "drop"}, 1, "resigned")
    transcript = replace(
        base,
        turns=turns_of([(i % 2, move) for i, move in enumerate(moves)]),
        winner=winner,
        reason=reason,
    )
    return to_ap_json(transcript, GENERATED).encode()


def sgf_with(old: str, new: str) -> bytes:
    """The good SGF text with one exact fragment replaced."""
    text = sgf_record()
    assert old in text, old
    return text.replace(old, new, 1).encode()


def text_with(old: str, new: str) -> bytes:
    """The good text record with one exact fragment replaced."""
    text = text_record()
    assert old in text, old
    return text.replace(old, new, 1).encode()


GO_GAME = (
    "(;GM[1]FF[4]CA[UTF-8]SZ[19]RU[Japanese]KM[6.5]PB[Black player]PW[White player]"
    "DT[2020-01-01]RE[B+R];B[pd];W[dp];B[pq];W[dd])"
)
"""A real Go game record: no Tabula property at all."""


def cases() -> list[Hostile]:
    """The table: at least forty files, each refused with its words."""
    deep = 10_000
    huge = "1" * 5000
    return [
        # --- JSON: tracebacks before ---
        Hostile("json-nested-10000", b"{" + b'"a":{' * deep + b"}" * deep + b"}", "nested"),
        Hostile(
            "json-nested-array",
            raw_json('"moves": ' + "[" * deep + "]" * deep, '"moves": '),
            "the JSON is nested too deeply",
        ),
        Hostile(
            "json-result-5000-digits",
            raw_json(f'"result": {huge}', '"result": 0'),
            "header.players[0].result: a number of 5,000 digits is too large",
        ),
        Hostile(
            "json-userid-5000-digit-number",
            raw_json(f'"userid": {huge}', '"userid": "1001"'),
            "header.players[0].userid: a number of 5,000 digits is too large",
        ),
        Hostile(
            "json-userid-5000-digit-string",
            raw_json(f'"userid": "{huge}"', '"userid": "1001"'),
            "header.players[0].userid '1111",
        ),
        Hostile(
            "json-userid-superscript",
            raw_json('"userid": "\\u00b2"', '"userid": "1001"'),
            "header.players[0].userid '²' is not a user id: write it with digits 0-9",
        ),
        Hostile(
            "json-userid-2**70",
            raw_json(f'"userid": "{2**70}"', '"userid": "1001"'),
            "header.players[0].userid '1180591620717411303424' is not a Discord user id",
        ),
        Hostile(
            "json-userid-zero",
            raw_json('"userid": "0"', '"userid": "1001"'),
            "header.players[0].userid '0' is not a Discord user id",
        ),
        Hostile(
            "json-userid-number",
            raw_json('"userid": 1001', '"userid": "1001"'),
            "header.players[0].userid must be a string",
        ),
        Hostile(
            "json-name-lone-surrogate",
            raw_json('"name": "\\ud800"', '"name": "alice"'),
            "header.players[0].name holds U+D800 (a lone surrogate",
        ),
        Hostile(
            "json-reason-lone-surrogate",
            raw_json('"reason": "x\\udfffy"', '"reason": "alice resigned"'),
            "header.tabula.reason holds U+DFFF (a lone surrogate",
        ),
        Hostile(
            "json-nan",
            raw_json('"result": NaN', '"result": 0'),
            "NaN is not a JSON number",
        ),
        # --- JSON: silent mis-imports before ---
        Hostile(
            "json-duplicate-moves",
            raw_json('"moves": [], "moves": ', '"moves": '),
            "the key 'moves' appears twice in one JSON object",
        ),
        Hostile(
            "json-duplicate-result",
            raw_json('"result": 1, "result": 0', '"result": 0'),
            "the key 'result' appears twice in one JSON object",
        ),
        Hostile(
            "json-name-forges-header-lines",
            changed(lambda d: put(player(d), "name", "bob\nEvent: Fake Cup\nRound: 9")),
            "header.players[0].name holds U+000A (a control character)",
        ),
        Hostile(
            "json-name-escape-sequence",
            changed(lambda d: put(player(d, 1), "name", "\x1b[31mred")),
            "header.players[1].name holds U+001B",
        ),
        Hostile(
            "json-name-line-separator",
            changed(lambda d: put(player(d), "name", "a\u2028b")),
            "header.players[0].name holds U+2028",
        ),
        Hostile(
            "json-name-right-to-left-override",
            changed(lambda d: put(player(d), "name", "ali\u202ece")),
            "header.players[0].name holds U+202E RIGHT-TO-LEFT OVERRIDE (it changes the "
            "direction of the text around it)",
        ),
        Hostile(
            "json-name-only-a-zero-width-space",
            changed(lambda d: put(player(d), "name", "\u200b")),
            "header.players[0].name holds U+200B ZERO WIDTH SPACE (an invisible formatting",
        ),
        Hostile(
            "json-name-only-a-hangul-filler",
            changed(lambda d: put(player(d, 1), "name", "\u3164")),
            "header.players[1].name is empty",
        ),
        Hostile(
            "json-name-empty",
            changed(lambda d: put(player(d), "name", "   ")),
            "header.players[0].name is empty",
        ),
        Hostile(
            "json-name-too-long",
            changed(lambda d: put(player(d), "name", "n" * 1000)),
            "header.players[0].name is 1,000 characters long",
        ),
        Hostile(
            "json-rules-ending-without-moves",
            groups_json([], "all six stones connected"),
            "ended by the rules ('all six stones connected'), but after its 0 moves",
        ),
        Hostile(
            "json-rules-ending-capitalised",
            groups_json([], "All six stones connected"),
            "ended by the rules ('All six stones connected'), but after its 0 moves",
        ),
        Hostile(
            "json-rules-ending-with-punctuation",
            groups_json([], "all six stones connected!"),
            "ended by the rules ('all six stones connected!'), but after its 0 moves",
        ),
        Hostile(
            "json-made-up-reason",
            groups_json([], "no winner after 399 moves"),
            "the reason 'no winner after 399 moves' is not one Tabula records: the rules of "
            "Groups end a game with all six stones connected |",
        ),
        Hostile(
            "json-the-winner-resigned",
            groups_json(DROP_WIN[:4], "alice resigned", winner=0),
            "the record gives the win to White ('alice'), but its reason 'alice resigned' has",
        ),
        Hostile(
            "json-resigned-after-the-rules-ended",
            groups_json(DROP_WIN, "bob resigned"),
            "the moves end the game (all six stones connected), but the record gives",
        ),
        Hostile(
            "json-ends-before-it-starts",
            changed(lambda d: put(d["header"], "date-end", "2000-01-01T00:00:00Z")),
            "before it starts",
        ),
        Hostile(
            "json-date-out-of-range",
            changed(lambda d: put(d["header"], "date-start", "0001-01-01T00:30:00+01:00")),
            "header.date-start is out of the range of dates",
        ),
        Hostile(
            "json-option-5000-digits",
            changed(lambda d: put(d["header"]["tabula"], "options", {"start": huge})),
            "header.tabula.options.start: '1111",
        ),
        Hostile(
            "json-option-a-list",
            changed(lambda d: put(d["header"]["tabula"], "options", {"start": [1]})),
            "header.tabula.options.start must be a number or a word",
        ),
        Hostile(
            "json-time-control-a-list",
            changed(lambda d: put(d["header"]["tabula"], "time-control", ["3d"])),
            "header.tabula.time-control must be a string",
        ),
        Hostile(
            "json-too-many-moves",
            changed(lambda d: put(d, "moves", [["c3", "c5"]] * 5001)),
            "more than 5,000 moves",
        ),
        Hostile(
            "json-move-of-3000-characters",
            changed(lambda d: put(d, "moves", [["c3" * 1500]])),
            "not a move of Groups",
        ),
        Hostile("json-syntax", b'{"header": {}, "moves": [1,]}', "not valid JSON"),
        Hostile(
            "json-an-array", b"[1,2,3]", "the file is JSON but not a game record: it holds an array"
        ),
        Hostile(
            "json-a-number", b"12345", "the file is JSON but not a game record: it holds a number"
        ),
        # --- SGF ---
        Hostile("sgf-size-word", sgf_with("SZ[9]", "SZ[abc]"), "SZ[abc]: the board size"),
        Hostile("sgf-size-rectangle", sgf_with("SZ[9]", "SZ[9:9]"), "SZ[9:9]: a board of"),
        Hostile("sgf-size-5000-digits", sgf_with("SZ[9]", f"SZ[{huge}]"), "the board size"),
        Hostile("sgf-real-go-game", GO_GAME.encode(), "not a Stones record: it says RU[Japanese]"),
        Hostile(
            "sgf-go-without-rules",
            GO_GAME.replace("RU[Japanese]", "").encode(),
            "RU[Stones] is missing and it has KM[6.5]",
        ),
        Hostile("sgf-komi", sgf_with("RU[Stones]", "RU[Stones]KM[6.5]"), "Stones has no komi"),
        Hostile(
            "sgf-unterminated",
            sgf_record().split("GC[")[0].encode() + b"GC[alice resig",
            "an unterminated value: the value of GC is not closed with ]",
        ),
        Hostile(
            "sgf-ff3-lowercase",
            sgf_with("PB[alice]", "PlayerBlack[alice]"),
            "'PlayerBlack' has lowercase letters, an old FF[3] form",
        ),
        Hostile("sgf-no-date", sgf_with("DT[2025-03-01]", "").replace(b"XD[", b"XX["), "no date"),
        Hostile("sgf-not-closed", sgf_with(")\n", "\n"), "not closed with ')'"),
        Hostile("sgf-extra-close", sgf_with(")\n", "))\n"), "a ')' that closes no game tree"),
        Hostile(
            "sgf-name-isolate",
            sgf_with("PB[alice]", "PB[\u2067alice\u2069]"),
            "PB holds U+2067 RIGHT-TO-LEFT ISOLATE",
        ),
        Hostile("sgf-control-in-name", sgf_with("PB[alice]", "PB[al\x01ice]"), "PB holds U+0001"),
        Hostile(
            "sgf-capture-claimed-cut-short",
            sgf_with(
                "GC[alice resigned]",
                "GC[decisive capture of 2 stones while 7 ahead; Black needed to be 7 "
                "or more ahead]",
            ),
            "ended by the rules ('decisive capture",
        ),
        Hostile("sgf-score", sgf_with("RE[W+R]", "RE[W+3.5]"), "Stones has no score"),
        Hostile("sgf-setup-stones", sgf_with("RU[Stones]", "RU[Stones]AB[aa]"), "with AB"),
        Hostile("sgf-move-in-root", sgf_with("RU[Stones]", "RU[Stones]B[aa]"), "root node holds"),
        Hostile("sgf-other-game", sgf_with("GM[1]", "GM[3]"), "GM[3]: not a Go-type game"),
        Hostile("sgf-two-values", sgf_with("PB[alice]", "PB[alice][eve]"), "PB has 2 values"),
        Hostile(
            "sgf-property-twice", sgf_with("PB[alice]", "PB[alice]PB[eve]"), "PB appears twice"
        ),
        Hostile(
            "sgf-too-many-moves",
            sgf_with(")\n", ";B[aa]" * 5001 + ")\n"),
            "more than 5,000 moves",
        ),
        Hostile(
            "sgf-too-many-values",
            sgf_with("PB[alice]", "PB" + "[alice]" * 50_001),
            "the SGF record's main line holds more than 50,000 values",
        ),
        # --- text ---
        Hostile(
            "text-unknown-field",
            text_with("Rated: ", "Note: hi\nRated: "),
            "line 10: 'Note' is not a field of a text record",
        ),
        Hostile(
            "text-quoted-name-with-newline",
            text_with("White: alice\n", 'White: "bob\\nEvent: Fake"\n'),
            "White holds U+000A",
        ),
        Hostile(
            "text-name-with-a-word-joiner",
            text_with("White: alice\n", "White: ali\u2060ce\n"),
            "White holds U+2060 WORD JOINER",
        ),
        Hostile(
            "text-raw-control-in-name",
            text_with("White: alice\n", "White: alice\x1f\n"),
            "White holds U+001F",
        ),
        Hostile(
            "text-duplicate-result",
            text_with("Result: ", "Result: Draw\nResult: "),
            "a second 'Result' line",
        ),
        Hostile(
            "text-long-bad-line",
            text_with("Rated: ", "x" * 500 + "\nRated: "),
            "is not a header line",
        ),
        Hostile(
            "text-turn-number-5000-digits",
            text_with("\n1. White: ", f"\n{huge}. White: "),
            "is not turn 1 written",
        ),
        Hostile(
            "text-rules-ending-not-reached",
            text_with("Reason: alice resigned", "Reason: a six survived the opponent's reply"),
            "ended by the rules",
        ),
        Hostile(
            "text-option-5000-digits",
            text_with("size=5", f"size={huge}"),
            "is too long to be an option",
        ),
        Hostile("text-not-a-record", b"hello world\n", "a text record starts with the line"),
        # --- any file ---
        Hostile("binary-png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "holds binary data"),
        Hostile("latin-1", "Tabula game record\nWhite: Jos\xe9\n".encode("latin-1"), "not UTF-8"),
        Hostile("utf-16", json.dumps(json_record()).encode("utf-16"), "is UTF-16 text"),
        Hostile("empty", b"", "the record is empty"),
        Hostile("over-the-limit", b" " * 2_000_001, "at most 2,000,000 bytes"),
    ]
