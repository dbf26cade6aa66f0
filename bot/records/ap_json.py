"""AbstractPlay's game-record format (version 1-0-0), for finished games, both ways.

The structure is checked by `ap-game-record.schema.json` beside this module (the tests
validate every export against it). Tabula writes:

- `header.game`: the game's title and, as `variants`, its options that differ from the
  defaults, written `key=value` (`size=13`);
- `header.site`: `Tabula` and the game's number; `event` and `round` for tournament
  games; `unrated`, always;
- `header.players`: name, Discord user id (`userid`, for people), `result` (winner 1,
  loser 0, a draw 1 each), and for the computer `is_ai` with its level as `ai-level`;
- `header.tabula`: what the format has no field for: the game's registry name, every
  option, why the game ended (`reason`) and the time control;
- `moves`: one round per pair of turns, first player first; a Diffusion Chess turn is
  one entry, its moves separated by a comma and a space; `null` for the second player
  when the first player's turn ended the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.records.limits import (
    MAX_PLIES,
    excerpt,
    free_text,
    line_at,
    too_many_moves,
    turn_moves,
)
from bot.records.transcript import (
    MAX_OPTION,
    SITE,
    RecordError,
    Seat,
    Tournament,
    Transcript,
    Turn,
    changed_options,
    parse_moment,
    read_options,
    rfc3339,
)
from bot.storage.repository import GameStatus
from rules import AnyGame, GameError, OptionValue, get_game

TABULA_KEY = "tabula"
"""The header object holding what only Tabula records."""
SCHEMA_FILE = "ap-game-record.schema.json"


def variants(game: AnyGame, options: Mapping[str, OptionValue]) -> list[str]:
    """The options that differ from their defaults, as `key=value`."""
    return [f"{name}={value}" for name, value in changed_options(game, options)]


def _player(transcript: Transcript, seat: int) -> dict[str, Any]:
    player = transcript.seats[seat]
    entry: dict[str, Any] = {"name": player.name}
    if player.user_id is not None:
        entry["userid"] = str(player.user_id)
    entry["result"] = 1 if transcript.winner in (None, seat) else 0
    if player.level is not None:
        entry["is_ai"] = True
        entry["ai-level"] = player.level
    return entry


def _rounds(turns: tuple[Turn, ...]) -> list[list[str | None]]:
    """Turns as rounds of one entry per seat; `null` where a seat did not move."""
    rounds: list[list[str | None]] = []
    for turn in turns:
        if turn.seat == 0 or not rounds or rounds[-1][1] is not None:
            rounds.append([None, None])
        rounds[-1][turn.seat] = turn.notation
    return rounds


def to_ap_json(transcript: Transcript, generated_at: datetime) -> str:
    """The record of a finished game as AbstractPlay game-record JSON."""
    if not transcript.finished or transcript.ended_at is None:
        raise ValueError("the AbstractPlay format records finished games only")
    game = transcript.rules
    header: dict[str, Any] = {
        "game": {"name": game.title, "variants": variants(game, transcript.options)}
    }
    if transcript.tournament is not None:
        header["event"] = transcript.tournament.event
        header["round"] = transcript.tournament.round
    site: dict[str, Any] = {"name": SITE}
    if transcript.game_id is not None:
        site["gameid"] = transcript.game_id
    header["site"] = site
    header["date-start"] = rfc3339(transcript.started_at)
    header["date-end"] = rfc3339(transcript.ended_at)
    header["date-generated"] = rfc3339(generated_at)
    header["players"] = [_player(transcript, seat) for seat in (0, 1)]
    header["unrated"] = not transcript.rated
    header[TABULA_KEY] = {
        "game": game.name,
        "options": dict(transcript.options),
        "reason": transcript.reason,
        "time-control": transcript.time_control,
    }
    record = {"header": header, "moves": _rounds(transcript.turns)}
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


# --- reading ---

MAX_DIGITS = 19
"""The most digits a JSON integer may have (a 64-bit integer has at most 19)."""
LARGEST_ID = 2**63 - 1
"""The largest user id a database integer column holds."""


class _Huge:
    """An integer with too many digits to be one (the JSON reader keeps its length, and
    the field that holds it says so)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def refused(self, where: str) -> RecordError:
        """The refusal of this number in the field `where`."""
        return RecordError(f"{where}: a number of {self.digits:,} digits is too large")


def _integer(text: str) -> int | _Huge:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else _Huge(digits)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise RecordError(f"the key {excerpt(key)} appears twice in one JSON object")
        found[key] = value
    return found


def _constant(name: str) -> None:
    raise RecordError(f"not valid JSON: {name} is not a JSON number")


def _parse(text: str) -> object:
    """The JSON value of `text`: duplicate keys and non-numbers refused, integers too long
    to be one kept as `_Huge` (every string is checked where a field uses it)."""
    try:
        return json.loads(
            text, parse_int=_integer, object_pairs_hook=_pairs, parse_constant=_constant
        )
    except json.JSONDecodeError as exc:
        number, line, column = line_at(text, exc.pos)
        raise RecordError(
            f"not valid JSON: {exc.msg} at line {number}, column {column + 1}: "
            f"{excerpt(line, column)}"
        ) from None
    except RecursionError:
        raise RecordError(
            "the JSON is nested too deeply (a game record needs six levels)"
        ) from None


def _kind(value: object) -> str:
    """What a JSON value is, in words ("an array")."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return "a number"


def is_json(text: str) -> bool:
    """Whether `text` is one JSON value (of any kind), as `from_ap_json` reads JSON."""
    try:
        _parse(text)
    except RecordError:
        return False
    return True


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{where} must be an object")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where} must be a string")
    return value


def _game(header: dict[str, Any], extra: dict[str, Any]) -> AnyGame:
    name = extra.get("game", _object(header.get("game"), "header.game").get("name"))
    name = free_text(_text(name, "header.game.name"), "header.game.name", limit=MAX_OPTION)
    try:
        return get_game(name)
    except GameError as exc:
        raise RecordError(f"header.game.name: {exc}") from None


def _option_value(value: object, where: str) -> OptionValue:
    if isinstance(value, _Huge):
        raise value.refused(where)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RecordError(f"{where} must be a number or a word")
    if isinstance(value, str) and len(value) > MAX_OPTION:
        raise RecordError(f"{where}: {excerpt(value)} is too long to be an option's value")
    return value


def _options(game: AnyGame, header: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    if "options" in extra:
        where = f"header.{TABULA_KEY}.options"
        options = {
            key: _option_value(value, f"{where}.{key}")
            for key, value in _object(extra["options"], where).items()
        }
        try:
            return game.validate_options(options)
        except GameError as exc:
            raise RecordError(f"{where}: {exc}") from None
    found = _object(header["game"], "header.game").get("variants", [])
    if not isinstance(found, list) or not all(isinstance(v, str) for v in found):
        raise RecordError("header.game.variants must be a list of strings")
    return read_options(game, found, "header.game.variants")


def _user_id(value: object, where: str) -> int | None:
    """A Discord user id written as digits; None for another site's kind of id."""
    if value is None:
        return None
    if isinstance(value, _Huge):
        raise value.refused(where)
    if not isinstance(value, str):
        raise RecordError(f"{where} must be a string (the format writes user ids as text)")
    if not value.isdigit():
        return None
    if not value.isascii():
        raise RecordError(f"{where} {excerpt(value)} is not a user id: write it with digits 0-9")
    if len(value) > MAX_DIGITS or not 0 < int(value) <= LARGEST_ID:
        raise RecordError(
            f"{where} {excerpt(value)} is not a Discord user id (from 1 to {LARGEST_ID})"
        )
    return int(value)


def _seat(value: object, index: int) -> tuple[Seat, int]:
    where = f"header.players[{index}]"
    player = _object(value, where)
    name = free_text(_text(player.get("name"), f"{where}.name"), f"{where}.name", name=True)
    result = player.get("result")
    if isinstance(result, _Huge):
        raise result.refused(f"{where}.result")
    if not isinstance(result, int) or isinstance(result, bool):
        raise RecordError(f"{where}.result must be an integer")
    user_id = _user_id(player.get("userid"), f"{where}.userid")
    level = player.get("ai-level") if player.get("is_ai") is True else None
    if isinstance(level, str):
        free_text(level, f"{where}.ai-level", limit=MAX_OPTION)
    return Seat(name, user_id, level if isinstance(level, str) else None), result


def _turns(moves: object) -> tuple[Turn, ...]:
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of rounds")
    if len(moves) > MAX_PLIES:
        raise too_many_moves(len(moves))
    turns: list[Turn] = []
    plies = 0
    for number, entries in enumerate(moves, start=1):
        if not isinstance(entries, list) or len(entries) > 2:
            raise RecordError(f"moves round {number} must be a list of one entry per player")
        for seat, entry in enumerate(entries):
            if entry is None:
                continue
            move = entry.get("move") if isinstance(entry, dict) else entry
            text = _text(move, f"moves round {number}, player {seat + 1}")
            turn = Turn(seat, turn_moves(text, plies))
            plies += len(turn.moves)
            turns.append(turn)
    return tuple(turns)


def _optional_text(value: object, where: str) -> str | None:
    return None if value is None else free_text(_text(value, where), where)


def from_ap_json(text: str) -> Transcript:
    """Read an AbstractPlay game record of a finished two-player game of ours."""
    record = _parse(text)
    if not isinstance(record, dict):
        raise RecordError(
            f"the file is JSON but not a game record: it holds {_kind(record)}, and a record "
            'in JSON is an object, {"header": {…}, "moves": […]}'
        )
    if set(record) != {"header", "moves"}:
        raise RecordError("the record must have exactly the keys header and moves")
    header = _object(record["header"], "header")
    for key in ("game", "site", "date-start", "date-end", "date-generated", "players"):
        if key not in header:
            raise RecordError(f"header.{key} is missing")
    extra = _object(header.get(TABULA_KEY, {}), f"header.{TABULA_KEY}")
    game = _game(header, extra)
    players = header["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise RecordError(f"header.players must list the two players of {game.title}")
    (first, first_result), (second, second_result) = (_seat(p, i) for i, p in enumerate(players))
    if first_result == second_result:
        winner: int | None = None
    else:
        winner = 0 if first_result > second_result else 1
    reason = _optional_text(extra.get("reason"), f"header.{TABULA_KEY}.reason")
    event = _optional_text(header.get("event"), "header.event")
    round_ = _optional_text(header.get("round"), "header.round")
    tournament = None
    if event is not None or round_ is not None:
        tournament = Tournament(_text(event, "header.event"), _text(round_, "header.round"))
    unrated = header.get("unrated", False)
    if not isinstance(unrated, bool):
        raise RecordError("header.unrated must be true or false")
    gameid = _object(header["site"], "header.site").get("gameid")
    time_control = extra.get("time-control", "none")
    where = f"header.{TABULA_KEY}.time-control"
    return Transcript(
        game=game.name,
        options=_options(game, header, extra),
        seats=(first, second),
        turns=_turns(record["moves"]),
        started_at=parse_moment(_text(header["date-start"], "date-start"), "header.date-start"),
        status=GameStatus.FINISHED,
        winner=winner,
        reason=reason,
        ended_at=parse_moment(_text(header["date-end"], "date-end"), "header.date-end"),
        rated=not unrated,
        time_control=free_text(_text(time_control, where), where, limit=MAX_OPTION),
        tournament=tournament,
        game_id=gameid if isinstance(gameid, int) else None,
    )
