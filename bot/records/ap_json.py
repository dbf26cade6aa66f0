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

from bot.records.transcript import (
    SITE,
    TURN_SEPARATOR,
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
    try:
        return get_game(_text(name, "header.game.name"))
    except GameError as exc:
        raise RecordError(f"header.game.name: {exc}") from None


def _options(game: AnyGame, header: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    if "options" in extra:
        options = _object(extra["options"], "header.tabula.options")
        try:
            return game.validate_options(options)
        except GameError as exc:
            raise RecordError(f"header.tabula.options: {exc}") from None
    found = _object(header["game"], "header.game").get("variants", [])
    if not isinstance(found, list) or not all(isinstance(v, str) for v in found):
        raise RecordError("header.game.variants must be a list of strings")
    return read_options(game, found, "header.game.variants")


def _seat(value: object, index: int) -> tuple[Seat, int]:
    where = f"header.players[{index}]"
    player = _object(value, where)
    name = _text(player.get("name"), f"{where}.name")
    result = player.get("result")
    if not isinstance(result, int) or isinstance(result, bool):
        raise RecordError(f"{where}.result must be an integer")
    userid = player.get("userid")
    user_id = int(userid) if isinstance(userid, str) and userid.isdigit() else None
    level = player.get("ai-level") if player.get("is_ai") is True else None
    return Seat(name, user_id, level if isinstance(level, str) else None), result


def _turns(moves: object) -> tuple[Turn, ...]:
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of rounds")
    turns: list[Turn] = []
    for number, entries in enumerate(moves, start=1):
        if not isinstance(entries, list) or len(entries) > 2:
            raise RecordError(f"moves round {number} must be a list of one entry per player")
        for seat, entry in enumerate(entries):
            if entry is None:
                continue
            move = entry.get("move") if isinstance(entry, dict) else entry
            text = _text(move, f"moves round {number}, player {seat + 1}")
            turns.append(Turn(seat, tuple(text.split(TURN_SEPARATOR))))
    return tuple(turns)


def from_ap_json(text: str) -> Transcript:
    """Read an AbstractPlay game record of a finished two-player game of ours."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    record = _object(data, "the record")
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
    reason = extra.get("reason")
    event, round_ = header.get("event"), header.get("round")
    tournament = None
    if event is not None or round_ is not None:
        tournament = Tournament(_text(event, "header.event"), _text(round_, "header.round"))
    unrated = header.get("unrated", False)
    if not isinstance(unrated, bool):
        raise RecordError("header.unrated must be true or false")
    gameid = _object(header["site"], "header.site").get("gameid")
    return Transcript(
        game=game.name,
        options=_options(game, header, extra),
        seats=(first, second),
        turns=_turns(record["moves"]),
        started_at=parse_moment(_text(header["date-start"], "date-start"), "header.date-start"),
        status=GameStatus.FINISHED,
        winner=winner,
        reason=reason if isinstance(reason, str) else None,
        ended_at=parse_moment(_text(header["date-end"], "date-end"), "header.date-end"),
        rated=not unrated,
        time_control=str(extra.get("time-control", "none")),
        tournament=tournament,
        game_id=gameid if isinstance(gameid, int) else None,
    )
