"""`tabula replay`: play moves from the start and print the resulting state as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli.options import MOVES_EPILOG, add_option_argument, new_game_from_args
from rules import GameError, GameState, get_game


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `replay` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="play moves from the start and print the state as JSON",
        description=(
            "Play MOVEs from the start of GAME and print the position as one JSON object; "
            'on a bad move print {"error": ..., "ply": N} and exit 2.'
        ),
        epilog=MOVES_EPILOG,
    )
    parser.add_argument("game", help="game name or alias")
    add_option_argument(parser)
    parser.add_argument(
        "moves", nargs="*", default=[], metavar="MOVE", help="moves in the game's notation"
    )
    parser.set_defaults(func=run, trailing_positionals="moves")


def state_report(state: GameState[Any]) -> dict[str, Any]:
    """The JSON-ready description of a state that `replay` prints."""
    outcome = state.outcome()
    return {
        "game": state.game.name,
        "options": dict(state.options),
        "ply": state.ply,
        "to_move": state.to_move,
        "legal_moves": state.legal_notations(),
        "outcome": (
            None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}
        ),
        "board": state.diagram(),
    }


def run(args: argparse.Namespace) -> int:
    """Replay the moves; exit 2 with an error object on the first bad one."""
    try:
        state = new_game_from_args(get_game(args.game), args.option)
    except GameError as exc:
        print(json.dumps({"error": str(exc), "ply": None}))
        return 2
    for index, text in enumerate(args.moves):
        try:
            state = state.play_text(text)
        except GameError as exc:
            print(json.dumps({"error": str(exc), "ply": index}))
            return 2
    print(json.dumps(state_report(state), indent=2))
    return 0
