"""What a record file from outside must respect before and while it is read: its size,
its encoding, how many moves it may hold, and what its free texts (names, reasons) may
contain. Every refusal is a `RecordError` whose one line names the field."""

from __future__ import annotations

import gc
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

from bot.records.transcript import TURN_SEPARATOR, RecordError

MAX_RECORD_BYTES = 2_000_000
"""The largest record file accepted (2 MB): a long real game takes a few kilobytes."""
MAX_PLIES = 5_000
"""The most moves a record may hold: every game of ours ends far sooner."""
MAX_NAME = 100
"""The longest player name, in characters."""
MAX_TEXT = 300
"""The longest other free text (a reason, an event, a round), in characters."""
MAX_MOVE = 2_000
"""The longest move notation (a Diffusion Chess path visits at most every cell)."""
QUOTE_LIMIT = 80
"""A line of the record quoted in a message is cut to this many characters."""
UNREADABLE = ("Cc", "Cs", "Zl", "Zp")
"""Unicode categories that no name or reason may hold: control characters (a line break
would forge a header line of the text record), lone surrogates and line separators."""
UNREADABLE_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""A character of the `UNREADABLE` categories (the tests check that it is all of them)."""
JOIN_CONTROLS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: formatting characters that emoji sequences
(👩‍👩‍👧) and the spelling of some scripts (Persian, the Indic ones) need inside a word."""
DIRECTION_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""The marks, embeddings, overrides and isolates that change the direction of the text
around them (an override can make `alice` show as `ecila`, or a name's end its start)."""
EMOJI_TAG_SEQUENCE = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
"""A flag of a country's part (🏴 and invisible tag letters, as England's 'gbeng'): tag
characters are formatting characters, allowed in this sequence only."""
SHOWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols drawn as nothing (the Hangul fillers, the blank Braille pattern)."""


def hidden(char: str) -> bool:
    """Whether `char` is a formatting character no name or text may hold: Unicode's Cf
    category (invisible, zero-width, direction-changing), the join controls excepted."""
    return unicodedata.category(char) == "Cf" and char not in JOIN_CONTROLS


def blank(value: str) -> bool:
    """Whether `value` shows nothing: only spaces, join controls and blank letters."""
    return all(char.isspace() or char in JOIN_CONTROLS or char in SHOWS_NOTHING for char in value)


def excerpt(text: str, at: int = 0, limit: int = QUOTE_LIMIT) -> str:
    """`text` quoted for a message, cut to about `limit` characters around index `at`."""
    if len(text) <= limit:
        return repr(text)
    start = max(0, min(at - limit // 2, len(text) - limit))
    cut = text[start : start + limit - 2]
    return repr(("…" if start else "") + cut + ("…" if start + len(cut) < len(text) else ""))


def line_at(text: str, index: int) -> tuple[int, str, int]:
    """The line number (1 for the first), the line and the column of `index` in `text`."""
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    line = text[start : end if end >= 0 else len(text)].rstrip("\r")
    return text.count("\n", 0, index) + 1, line, index - start


def too_big(size: int, *, more: bool = False) -> RecordError:
    """The refusal of a record of `size` bytes (or characters) over the limit (`more`:
    at least that many, when the rest was left unread)."""
    return RecordError(
        f"the file is {'more than ' if more else ''}{(size - 1 if more else size):,} bytes; a "
        f"game record may be at most {MAX_RECORD_BYTES:,} bytes (a long real game takes a "
        "few thousand)"
    )


def decode_record(data: bytes) -> str:
    """The text of a record file: UTF-8 within the size limit, or `RecordError` saying the
    file is not a game record."""
    if len(data) > MAX_RECORD_BYTES:
        raise too_big(len(data))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise RecordError("the file is UTF-16 text; game records are read as UTF-8 (save it so)")
    if b"\x00" in data:
        raise RecordError("the file is not a game record: it holds binary data, not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"the file is not a game record: it is not UTF-8 text (byte 0x{data[exc.start]:02x} "
            f"at position {exc.start:,} is not UTF-8)"
        ) from None


def too_many_moves(count: int) -> RecordError:
    """The refusal of a record with more than `MAX_PLIES` moves."""
    return RecordError(
        f"the record has more than {MAX_PLIES:,} moves ({count:,} or more); no game of "
        "Tabula's lasts that long"
    )


def turn_moves(notation: str, before: int) -> tuple[str, ...]:
    """The moves of one turn written `notation` (separated by `TURN_SEPARATOR`), after
    `before` moves of the record; `too_many_moves` counted before anything is split, so a
    turn of a million moves costs no more than its text."""
    count = notation.count(TURN_SEPARATOR) + 1
    if before + count > MAX_PLIES:
        raise too_many_moves(before + count)
    return tuple(notation.split(TURN_SEPARATOR))


def free_text(value: str, where: str, *, limit: int = MAX_TEXT, name: bool = False) -> str:
    """`value` if it is one line of readable text no longer than `limit`, with no hidden
    formatting character (a name must not be blank either); else `RecordError` naming
    `where` and the offending character."""
    limit = MAX_NAME if name else limit
    found = UNREADABLE_CHARACTER.search(value)
    if found is not None:
        char = found.group()
        what = "a lone surrogate, not a character" if char >= "\ud800" else "a control character"
        raise RecordError(
            f"{where} holds U+{ord(char):04X} ({what}); names and texts in a record must "
            "be one line of readable text"
        )
    if len(value) > limit:
        raise RecordError(f"{where} is {len(value):,} characters long; at most {limit} are allowed")
    for char in EMOJI_TAG_SEQUENCE.sub("\U0001f3f4", value):
        if hidden(char):
            what = (
                "it changes the direction of the text around it"
                if char in DIRECTION_CONTROLS
                else "an invisible formatting character"
            )
            raise RecordError(
                f"{where} holds U+{ord(char):04X} {unicodedata.name(char, 'FORMAT')} ({what}); "
                "names and texts in a record may not hold invisible or direction-changing "
                "characters (they can make one name look like another)"
            )
    if name and blank(value):
        raise RecordError(f"{where} is empty: a player needs a name that shows")
    return value


def one_line(message: str, limit: int = 400) -> str:
    """A refusal message as one line of at most `limit` characters."""
    flat = " ".join(message.split("\n")).encode("utf-8", "backslashreplace").decode("utf-8")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@contextmanager
def paused_collection() -> Iterator[None]:
    """No cyclic garbage collection while a record is read. Reading builds trees, never
    cycles, yet the collector, triggered by every few hundred new objects, walks them all
    again and again: a file of half a million empty JSON lists took four times as long."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
