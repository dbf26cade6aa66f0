"""Game records: a game's transcript written as files other programs read, and read back.

Pure functions, no Discord and no database: `transcript.Transcript` is the game as a
record describes it; `ap_json` (AbstractPlay's game-record JSON, finished games), `sgf`
(Stones only) and `text` (for pasting) write and read it; `replay` checks one through the
game's engine. `read_record` tells the formats apart.
"""

from __future__ import annotations

from bot.records.ap_json import from_ap_json
from bot.records.sgf import from_sgf
from bot.records.text import from_text
from bot.records.transcript import RecordError, Transcript


def read_record(text: str) -> Transcript:
    """Read a record in any of the formats: JSON (`{`), SGF (`(`) or text."""
    text = text.removeprefix("\ufeff").lstrip()
    start = text[:1]
    if start == "{":
        return from_ap_json(text)
    if start == "(":
        return from_sgf(text)
    if not start:
        raise RecordError("the record is empty")
    return from_text(text)
