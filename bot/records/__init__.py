"""Game records: a game's transcript written as files other programs read, and read back.

Pure functions, no Discord and no database: `transcript.Transcript` is the game as a
record describes it; `ap_json` (AbstractPlay's game-record JSON, finished games), `sgf`
(Stones only) and `text` (for pasting) write and read it; `replay` checks one through the
game's engine; `limits` holds what a file from outside must respect. `read_record` tells
the formats apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.records.ap_json import from_ap_json, is_json
from bot.records.limits import MAX_RECORD_BYTES, paused_collection, too_big
from bot.records.sgf import read_sgf
from bot.records.text import from_text
from bot.records.transcript import RecordError, Transcript, rfc3339

_JSON_SCALAR = frozenset('"-0123456789tfn')
"""How a JSON string, number, true, false or null starts (a text record starts with T)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A record read: the transcript, and notes on what the file held that was left out."""

    transcript: Transcript
    notes: tuple[str, ...] = ()


def read_with_notes(text: str) -> Reading:
    """Read a record in any of the formats: JSON (`{` or `[`, or any JSON value), SGF
    (`(`) or text; `RecordError` (one line, naming the field) for anything that is not a
    readable record."""
    if len(text) > MAX_RECORD_BYTES:
        raise too_big(len(text))
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise too_big(size)
    if "\x00" in text:
        raise RecordError("the file is not a game record: it holds binary data, not text")
    text = text.removeprefix("\ufeff").lstrip()
    start = text[:1]
    notes: tuple[str, ...] = ()
    with paused_collection():
        if start in ("{", "[") or (start in _JSON_SCALAR and is_json(text)):
            transcript = from_ap_json(text)
        elif start == "(":
            transcript, notes = read_sgf(text)
        elif not start:
            raise RecordError("the record is empty")
        else:
            transcript = from_text(text)
    ended = transcript.ended_at
    if ended is not None and ended < transcript.started_at:
        raise RecordError(
            f"the game ends ({rfc3339(ended)}) before it starts ({rfc3339(transcript.started_at)})"
        )
    return Reading(transcript, notes)


def read_record(text: str) -> Transcript:
    """The transcript of a record in any of the formats (see `read_with_notes`)."""
    return read_with_notes(text).transcript
