"""`tabula games`: list every game with its options and defaults."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rules import list_games


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `games` subcommand."""
    parser = subparsers.add_parser("games", help="list every game with its options")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def describe_games() -> list[dict[str, Any]]:
    """Every registered game as plain data."""
    return [
        {
            "name": game.name,
            "title": game.title,
            "aliases": list(game.aliases),
            "colours": list(game.colours),
            "options": [
                {
                    "name": spec.name,
                    "default": spec.default,
                    "allowed": spec.allowed(),
                    "description": spec.description,
                }
                for spec in game.option_specs
            ],
        }
        for game in list_games()
    ]


def run(args: argparse.Namespace) -> int:
    """Print the games."""
    games = describe_games()
    if args.json:
        print(json.dumps(games, indent=2))
        return 0
    for game in games:
        aliases = f" (also: {', '.join(game['aliases'])})" if game["aliases"] else ""
        print(f"{game['name']}: {game['title']}{aliases}; {game['colours'][0]} moves first")
        for spec in game["options"]:
            print(f"  {spec['name']}={spec['default']}  {spec['description']}")
            print(f"      allowed: {spec['allowed']}")
        if not game["options"]:
            print("  (no options)")
    return 0
