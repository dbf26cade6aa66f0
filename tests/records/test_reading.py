"""Reading records from outside: SGF variations and collections, FF[4] text values, names
that read back as themselves in every format (and in sgfmill), rules endings."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sgfmill import sgf, sgf_grammar

from bot.records import read_record, read_with_notes
from bot.records.ap_json import from_ap_json, to_ap_json
from bot.records.endings import RULES_ENDINGS, by_the_rules, like_the_rules
from bot.records.limits import UNREADABLE, UNREADABLE_CHARACTER, excerpt
from bot.records.replay import replay
from bot.records.sgf import from_sgf, read_sgf, text_value, to_sgf
from bot.records.text import from_text, numbered_lines, to_text
from bot.records.transcript import RecordError, Seat, Transcript
from rules import OptionValue
from tests.records.games import CASES, random_moves, random_transcript

GENERATED = datetime(2025, 3, 2, 8, 0, tzinfo=UTC)


def stones() -> Transcript:
    """A Stones game (9×9) won by resignation."""
    return random_transcript("stones", {}, 1, "resigned")


def split_sgf(text: str) -> tuple[str, list[str]]:
    """An SGF record of ours as its root (after `(`) and its move nodes."""
    body = text.strip()[1:-1]
    root, *moves = body.split("\n")
    return root, moves


# --- SGF: variations and collections ---


def test_an_sgf_with_variations_imports_its_main_line() -> None:
    """FF[4]'s main line is the first variation at each branch; the others are noted."""
    transcript = stones()
    root, moves = split_sgf(to_sgf(transcript))
    half = len(moves) // 2
    branched = (
        f"({root}{''.join(moves[:3])}"
        f"({''.join(moves[3:half])}({''.join(moves[half:])})(;B[aa];W[bb]))"
        "(;B[ee](;W[ff])(;W[gg]))"
        ")\n"
    )
    read, notes = read_sgf(branched)
    assert read.turns == transcript.turns
    assert notes == (
        "the SGF record has 4 variations beside its main line; only the main line "
        "(the first variation at each branch) was read",
    )
    replay(read)
    assert [node.get_move() for node in sgf.Sgf_game.from_string(branched).get_main_sequence()][
        1:
    ] == [
        node.get_move() for node in sgf.Sgf_game.from_string(to_sgf(transcript)).get_main_sequence()
    ][1:]


def test_the_issue_s_variation_no_longer_imports_as_an_empty_game() -> None:
    """`(;root(;B..;W..)(;B[aa]))` used to read as a finished game of no moves."""
    root, moves = split_sgf(to_sgf(stones()))
    text = f"({root}({''.join(moves)})(;B[aa]))"
    read = read_record(text)
    assert len(read.turns) == len(moves)


def test_a_collection_imports_its_first_game_and_says_how_many_were_left_out() -> None:
    """Three games in one file: the first is read, the note counts the other two."""
    first = to_sgf(stones())
    other = to_sgf(random_transcript("stones", {"size": 5}, 2, "resigned"))
    reading = read_with_notes(first + other + "\n" + other)
    assert reading.transcript.turns == stones().turns
    assert reading.notes == (
        "the file holds 3 games; only the first was read, the other 2 were left out",
    )
    assert read_with_notes(first).notes == ()


def test_an_sgf_without_xd_takes_its_date_from_dt_in_any_fff4_form() -> None:
    """DT may be a full date, a month, a year, or a list of dates (the first counts)."""
    text = to_sgf(stones())
    start = text.index("XD[")
    plain = text[:start] + text[text.index("]", start) + 1 :]
    for written, day in [
        ("2024-05-06", datetime(2024, 5, 6, tzinfo=UTC)),
        ("2024-05", datetime(2024, 5, 1, tzinfo=UTC)),
        ("2024", datetime(2024, 1, 1, tzinfo=UTC)),
        ("2024-05-06,07", datetime(2024, 5, 6, tzinfo=UTC)),
    ]:
        read = from_sgf(plain.replace("DT[2025-03-01]", f"DT[{written}]"))
        assert read.started_at == read.ended_at == day
    with pytest.raises(RecordError, match=r"DT\[yesterday\] is not a date"):
        from_sgf(plain.replace("DT[2025-03-01]", "DT[yesterday]"))


# --- SGF: text values as FF[4] says ---


def test_soft_line_breaks_and_tabs_read_as_ff4_says() -> None:
    """A backslash before a line break removes both; a tab or a line break is a space in
    SimpleText; a line break stays in Text."""
    assert text_value("ali\\\nce") == "alice"
    assert text_value("ali\\\r\nce") == "alice"
    assert text_value("tab\tname") == "tab name"
    assert text_value("two\nlines") == "two lines"
    assert text_value("two\r\nlines", simple=False) == "two\nlines"
    assert text_value("a\\]b\\\\c\\:d") == "a]b\\c:d"
    text = to_sgf(stones()).replace("PB[alice]", "PB[ali\\\nce]").replace("PW[bob]", "PW[b\tb]")
    read = from_sgf(text)
    assert [seat.name for seat in read.seats] == ["alice", "b b"]
    game = sgf.Sgf_game.from_string(text)
    assert (game.get_player_name("b"), game.get_player_name("w")) == ("alice", "b b")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
def test_text_values_read_as_sgfmill_reads_them(raw: str) -> None:
    """Any raw value (with backslashes, line breaks of every kind, tabs): SimpleText and
    Text read exactly as sgfmill, an FF[4] reader, reads them."""
    assume(re.fullmatch(r"(?:[^\\\]]|\\.)*", raw, re.DOTALL))  # as it can stand in [ ]
    data = raw.encode()
    assert text_value(raw) == sgf_grammar.simpletext_value(data).decode()
    assert text_value(raw, simple=False) == sgf_grammar.text_value(data).decode()


# --- names in every format ---

_JOIN_CONTROLS = "\u200c\u200d"
_SHOWS_NOTHING = "\u115f\u1160\u3164\uffa0\u2800"
# Every character but the hidden formatting ones (Cf), which every reader refuses (see
# test_a_hidden_formatting_character_is_refused_in_every_format); the join controls,
# which emoji and some scripts need, stay.
_ALPHABET = st.characters(codec="utf-8", exclude_categories=["Cf"]) | st.sampled_from(
    _JOIN_CONTROLS
)
_NAMES = st.text(alphabet=_ALPHABET, min_size=0, max_size=40) | st.sampled_from(
    [
        "bob\nEvent: Fake Cup\nRound: 9",
        "x (computer: easy)",
        '"quoted"',
        " spaced ",
        "a]b\\c",
        "tab\tname",
        "ali\\",
        "\u2028",
        "\x85",
        "\u200d",
        "\u3164",
        "نام",
        "👩‍👩‍👧",
    ]
)


def _refused(read: object, text: str, field: str) -> None:
    with pytest.raises(RecordError) as caught:
        read(text)  # type: ignore[operator]
    assert str(caught.value).startswith(field), str(caught.value)


@settings(max_examples=300, deadline=None)
@given(_NAMES, st.booleans())
def test_any_name_reads_back_as_itself_in_every_format_or_is_refused(
    name: str, computer: bool
) -> None:
    """JSON, SGF and text give back the very name (and sgfmill reads the same name from
    the SGF); a name that cannot (a control character, blank, too long) is refused by
    every reader, which names the field."""
    base = stones()
    second = Seat("Tabula (hard)", None, "hard") if computer else Seat("bob", 1002)
    transcript = replace(base, seats=(Seat(name, 1001), second))
    json_text = to_ap_json(transcript, GENERATED)
    sgf_text = to_sgf(transcript)
    plain = to_text(transcript)
    assert plain.count("\n") == to_text(replace(transcript, seats=(Seat("x"), second))).count(
        "\n"
    ), "a name must never add a line to the text record"
    sgfmill = sgf.Sgf_game.from_bytes(sgf_text.encode()).get_player_name("b")
    if _good(name):
        assert from_ap_json(json_text).seats[0].name == name
        assert from_text(plain).seats == (Seat(name), replace(second, user_id=None))
    else:
        _refused(from_ap_json, json_text, "header.players[0].name")
        _refused(from_text, plain, "Black")
    # SGF's SimpleText has no tab or line break: FF[4] readers read a space there, and
    # Tabula writes the space itself.
    spaced = name.translate(str.maketrans("\t\n\r\v\f", "     "))
    if _good(spaced):
        assert from_sgf(sgf_text).seats[0].name == spaced == sgfmill
    else:
        _refused(from_sgf, sgf_text, "PB")


def _good(name: str) -> bool:
    """Whether a record may give this name: no control character, not blank (nothing but
    spaces, join controls and letters drawn as nothing), not long."""
    shows = any(not c.isspace() and c not in _JOIN_CONTROLS + _SHOWS_NOTHING for c in name)
    return UNREADABLE_CHARACTER.search(name) is None and shows and len(name) <= 100


def _names_in_every_format(name: str) -> tuple[str, str, str]:
    """A Stones record whose Black player has this name, as JSON, SGF and text."""
    transcript = replace(stones(), seats=(Seat(name, 1001), Seat("bob", 1002)))
    return to_ap_json(transcript, GENERATED), to_sgf(transcript), to_text(transcript)


_HIDDEN = [
    chr(code)
    for code in range(sys.maxunicode + 1)
    if unicodedata.category(chr(code)) == "Cf" and chr(code) not in _JOIN_CONTROLS
]


def test_a_hidden_formatting_character_is_refused_in_every_format() -> None:
    """Every invisible or direction-changing formatting character (Unicode's Cf, the join
    controls excepted), anywhere in a name: refused by the three readers, naming the
    field and the character; the text record writes it escaped, so it shows."""
    assert {"\u200b", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u2066", "\u200f"} <= set(_HIDDEN)
    for char in _HIDDEN:
        name = f"ali{char}ce"
        json_text, sgf_text, plain = _names_in_every_format(name)
        code = f"U+{ord(char):04X}"
        for read, text, field in [
            (from_ap_json, json_text, "header.players[0].name"),
            (from_sgf, sgf_text, "PB"),
            (from_text, plain, "Black"),
        ]:
            with pytest.raises(RecordError) as caught:
                read(text)
            assert str(caught.value).startswith(f"{field} holds {code} "), str(caught.value)
        assert f'Black: "ali{json.dumps(char)[1:-1]}ce"\n' in plain
    with pytest.raises(RecordError) as caught:
        from_ap_json(_names_in_every_format("\u202eecila")[0])
    assert str(caught.value) == (
        "header.players[0].name holds U+202E RIGHT-TO-LEFT OVERRIDE (it changes the direction "
        "of the text around it); names and texts in a record may not hold invisible or "
        "direction-changing characters (they can make one name look like another)"
    )
    with pytest.raises(RecordError, match=r"^header\.tabula\.reason holds U\+2067 "):
        from_ap_json(to_ap_json(replace(stones(), reason="bob\u2067 resigned"), GENERATED))


def test_a_name_that_shows_nothing_is_empty_and_joiners_inside_a_word_are_kept() -> None:
    """Only zero-width joiners or Hangul fillers: refused as empty, like spaces; an emoji
    family and a Persian word keep their joiners, and England's flag its tag letters (the
    only place tag characters may stand), in every format."""
    for shows_nothing in ("\u200d", "\u200c\u200d ", "\u3164", "\u2800\u2800"):
        for read, text, field in zip(
            (from_ap_json, from_sgf, from_text),
            _names_in_every_format(shows_nothing),
            ("header.players[0].name", "PB", "Black"),
            strict=True,
        ):
            with pytest.raises(RecordError, match=f"^{re.escape(field)} is empty"):
                read(text)
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    for name in ("👩\u200d👩\u200d👧", "\u0646\u0627\u0645\u200c\u0647\u0627", f"{england} Harry"):
        json_text, sgf_text, plain = _names_in_every_format(name)
        for read, text in ((from_ap_json, json_text), (from_sgf, sgf_text), (from_text, plain)):
            assert read(text).seats[0].name == name


def test_a_forged_name_cannot_make_a_tournament_game() -> None:
    """A name forging header lines, written as text, stays on its line, quoted, and is refused when
    read: it never reads back as an Event and a Round."""
    forged = "bob\nEvent: Fake Cup\nRound: 9"
    transcript = replace(stones(), seats=(Seat("alice"), Seat(forged)))
    text = to_text(transcript)
    assert 'White: "bob\\nEvent: Fake Cup\\nRound: 9"\n' in text
    assert "\nEvent:" not in text
    with pytest.raises(RecordError, match=r"^White holds U\+000A \(a control character\)"):
        from_text(text)


def test_the_unreadable_pattern_is_exactly_the_unreadable_categories() -> None:
    """The fast pattern finds every character of the refused categories, and no other."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        refused = unicodedata.category(char) in UNREADABLE
        assert (UNREADABLE_CHARACTER.fullmatch(char) is not None) == refused, hex(code)


# --- messages ---


def test_a_bad_json_line_is_quoted_cut_near_the_fault() -> None:
    """A 10,000-character line: the message quotes about 80 characters around the error."""
    text = '{"header": {"a": "' + "x" * 10_000 + '" "b"}, "moves": []}'
    with pytest.raises(RecordError) as caught:
        from_ap_json(text)
    message = str(caught.value)
    assert message.startswith("not valid JSON: Expecting ',' delimiter at line 1, column 10021")
    assert len(message) < 160 and 'x" "b"}' in message
    assert len(excerpt("y" * 500)) <= 82


def test_a_user_id_of_another_site_is_left_out_but_a_digit_lookalike_is_refused() -> None:
    """`u7` is another site's id (no Discord id); `²` and 2^70 are refused, naming it."""
    data = json.loads(to_ap_json(random_transcript("groups", {}, 1, "resigned"), GENERATED))
    data["header"]["players"][1]["userid"] = "u7"
    assert from_ap_json(json.dumps(data)).seats[1].user_id is None
    data["header"]["players"][1]["userid"] = str(2**63 - 1)
    assert from_ap_json(json.dumps(data)).seats[1].user_id == 2**63 - 1
    for bad in ("²", str(2**63), str(2**70)):
        data["header"]["players"][1]["userid"] = bad
        with pytest.raises(RecordError, match=r"^header\.players\[1\]\.userid "):
            from_ap_json(json.dumps(data))


def test_a_json_file_that_is_not_an_object_is_told_so_as_json() -> None:
    """An array, a number, a string or null at the top: JSON's own message, not the text
    record's; a text that only starts like a number is still told what a text record is."""
    for text, kind in [
        ("[1,2,3]", "an array"),
        ("[" + "0," * 999_998 + "0]", "an array"),
        ("12345", "a number"),
        ("-7", "a number"),
        ('"hello"', "a string"),
        ("null", "null"),
        ("true", "true or false"),
    ]:
        with pytest.raises(RecordError) as caught:
            read_record(text)
        assert str(caught.value) == (
            f"the file is JSON but not a game record: it holds {kind}, and a record in JSON "
            'is an object, {"header": {…}, "moves": […]}'
        )
    for text in ("1. White: d2", "12 apples", "true story"):
        with pytest.raises(RecordError, match="a text record starts with the line"):
            read_record(text)
    with pytest.raises(RecordError, match=r"^not valid JSON: Expecting value at line 1"):
        read_record("[1, 2,")


def test_a_text_record_with_carriage_returns_alone_reads_as_with_line_feeds() -> None:
    """Old Mac line endings (CR alone) and Windows ones (CR LF) read as the same record;
    a bad line is quoted alone, not with the lines after it."""
    text = to_text(random_transcript("hexade", {"size": 5}, 1, "resigned"))
    assert from_text(text.replace("\n", "\r")) == from_text(text)
    assert from_text(text.replace("\n", "\r\n")) == from_text(text)
    with pytest.raises(RecordError) as caught:
        read_record(text.replace("Rated: no", "Rated no").replace("\n", "\r"))
    assert str(caught.value) == "line 10: 'Rated no' is not a header line (Key: value)"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b: c", " ", "\t", "\u3000", "\n", "\r", "\r\n"])))
def test_text_lines_are_numbered_as_an_editor_numbers_them(pieces: list[str]) -> None:
    """Every line that is not blank comes with its number, as if the file were split at
    each LF, CR LF or CR; runs of blank lines are skipped but still counted."""
    text = "".join(pieces)
    split = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found = list(numbered_lines(text))
    assert [(n, line) for n, line in found if line.strip()] == [
        (n, line) for n, line in enumerate(split, start=1) if line.strip()
    ]
    assert all(split[n - 1] == line for n, line in found) and found[0][0] == 1
    blank = next((n for n, line in enumerate(split, start=1) if not line.strip()), None)
    assert blank is None or blank in [n for n, _ in found]


def test_a_text_record_refuses_a_field_it_does_not_have() -> None:
    """Only the fields the format defines: anything else is refused, naming them."""
    text = to_text(stones()).replace("Rated: no\n", "Rated: no\nNote: hello\n")
    with pytest.raises(RecordError) as caught:
        from_text(text)
    assert str(caught.value).startswith("line 11: 'Note' is not a field of a text record")
    assert "(the fields: Game, Options, White, Black, Result, Reason, Started" in str(caught.value)


# --- results the moves must support ---


@pytest.mark.parametrize(("name", "options"), CASES[:6] + CASES[-5:])
def test_every_ending_by_the_rules_is_recognised(
    name: str, options: dict[str, OptionValue]
) -> None:
    """The reasons random games end with are the rules' own; players' endings are not."""
    for seed in range(4):
        _, state = random_moves(name, options, seed)
        outcome = state.outcome()
        assert outcome is not None and by_the_rules(name, outcome.reason), outcome
    for reason in ("alice resigned", "draw agreed", "bob ran out of time", "as recorded"):
        assert not by_the_rules(name, reason)
    assert set(RULES_ENDINGS) == {"diffusion", "groups", "hexade", "rekushu", "stones"}


def test_an_ending_by_the_rules_needs_moves_that_reach_it() -> None:
    """No moves cannot connect six stones; a resignation needs no particular moves; the
    same reason after moves that do reach it is accepted."""
    base = random_transcript("groups", {"start": "drop"}, 1, "resigned")
    with pytest.raises(RecordError, match=r"ended by the rules \('all six stones connected'\)"):
        replay(replace(base, turns=(), winner=0, reason="all six stones connected"))
    replay(replace(base, turns=(), winner=0, reason="bob resigned"))
    played = random_transcript("groups", {"start": "drop"}, 3, "rules")
    assert played.reason is not None and by_the_rules("groups", played.reason)
    replay(played)
    cut = replace(played, turns=played.turns[:-1])
    with pytest.raises(RecordError, match="the game is not over"):
        replay(cut)


@pytest.mark.parametrize(("name", "options"), CASES[:6] + CASES[-5:])
def test_a_rules_ending_in_other_case_or_punctuation_must_be_reached_too(
    name: str, options: dict[str, OptionValue]
) -> None:
    """`All six stones connected`, `all six stones connected!`: read as the rules' own
    ending, so the moves must reach it; with no moves they do not."""
    _, state = random_moves(name, options, 0)
    outcome = state.outcome()
    assert outcome is not None
    base = random_transcript(name, options, 0, "resigned")
    said = outcome.reason
    for near in {
        said.upper(),
        said[0].swapcase() + said[1:],
        f"{said}!",
        f" {said}.",
        said.replace(" ", "  ", 1),
    }:
        assert like_the_rules(name, near), near
        with pytest.raises(RecordError, match=r"ended by the rules .*, but after its 0 moves"):
            replay(replace(base, turns=(), winner=outcome.winner, reason=near))


def test_a_reason_tabula_does_not_record_is_refused_naming_the_accepted_ones() -> None:
    """A made-up reason, or the rules' words with another number, is neither the rules'
    ending nor a player's: refused, listing what a record of that game may say."""
    base = random_transcript("groups", {"start": "drop"}, 1, "resigned")
    for reason in ("no winner after 399 moves", "the referee stopped it", "resigned", ""):
        with pytest.raises(RecordError) as caught:
            replay(replace(base, turns=(), winner=0, reason=reason))
        assert str(caught.value) == (
            f"the reason {reason!r} is not one Tabula records: the rules of Groups end a game "
            "with all six stones connected | the same position occurred three times | no "
            "winner after 400 moves | White/Black has no legal move; a player with NAME "
            "resigned | NAME ran out of time | NAME withdrew from the tournament | NAME "
            "withdrew from the tournament; a forfeit, no rating changes | NAME left LEAGUE; a "
            "forfeit, no rating changes | draw agreed | as recorded"
        )


def test_a_players_ending_stands_as_stated_if_it_agrees_with_the_result() -> None:
    """Resignations, time, withdrawals and agreed draws need no particular moves, but
    they name the player who lost (a draw names nobody)."""
    base = random_transcript("stones", {}, 1, "resigned")
    assert [seat.name for seat in base.seats] == ["alice", "bob"]
    for winner, reason in [
        (0, "bob resigned"),
        (1, "alice ran out of time"),
        (0, "bob ran out of time without moving: not rated"),
        (1, "alice resigned before any move: not rated"),
        (0, "bob withdrew from the tournament"),
        (0, "bob withdrew from the tournament; a forfeit, no rating changes"),
        (1, "alice left Summer League 2026; a forfeit, no rating changes"),
        (None, "draw agreed"),
        (None, "draw agreed before any move: not rated"),
        (1, "as recorded"),
        (None, "as recorded"),
    ]:
        replay(replace(base, winner=winner, reason=reason))
    for winner, reason, message in [
        (0, "alice resigned", r"gives the win to Black \('alice'\), but its reason 'alice "),
        (None, "bob resigned", "the record says the game was drawn, but its reason"),
        (1, "draw agreed", "the record gives a win for White, but its reason is 'draw agreed'"),
        (0, "carol resigned", r"names 'carol', who is not a player of this game \('alice',"),
        (0, "Bob resigned", "names 'Bob', who is not a player"),
        (0, "alice left The League; a forfeit, no rating changes", r"\('alice'\), but its"),
        (0, "carol left The League; a forfeit, no rating changes", "is not one Tabula records"),
    ]:
        with pytest.raises(RecordError, match=message):
            replay(replace(base, winner=winner, reason=reason))
