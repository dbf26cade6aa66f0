"""`tabula render`: draw a position (or a replay) to a file, or a review gallery of every game."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.cli.options import MOVES_EPILOG, add_option_argument, new_game_from_args
from renderers import (
    LIGHT_THEME,
    PICTURE_FORMATS,
    BoardView,
    Hint,
    UnknownRendererError,
    render_picture,
    render_png,
    render_replay,
    rendered_games,
    replay_format,
)
from renderers.samples import finished_game, random_game
from rules import GameError, GameState, get_game

GALLERY_OPTIONS: dict[str, list[dict[str, object]]] = {
    "groups": [{}, {"start": "drop"}],
    "stones": [{}, {"size": 19}, {"size": 5}],
    "rekushu": [{}, {"size": 8}],
    "hexade": [{}, {"size": 12}, {"size": 5}],
    "diffusion": [{}],
}
"""Option sets drawn in the gallery per game (a game not listed: its defaults only)."""

EXAMPLES: dict[str, tuple[dict[str, object], int]] = {
    "diffusion": ({}, 60),
    "groups": ({}, 24),
    "stones": ({"size": 9}, 60),
    "rekushu": ({"size": 12}, 90),
    "hexade": ({"size": 6}, 30),
}
"""The documentation's example pictures (`docs/images/GAME.png`): options and how many
moves of the seeded random game to play (the Diffusion Chess one stops at the start of a
turn, so the whole turn before it is shown)."""
EXAMPLE_SEED = 7
GALLERY_PLAYERS = ("Ada Lovelace", "Grace Hopper")
GALLERY_CLOCKS = ("2d 3h left", "5h 10m left")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `render` subcommand."""
    parser = subparsers.add_parser(
        "render",
        help="draw a position as PNG (or a replay as GIF), or a gallery of every game",
        description=(
            "Play MOVEs from the start of GAME and draw the position. With --gallery, draw "
            "every game at several positions into a folder for review instead."
        ),
        epilog=MOVES_EPILOG,
    )
    parser.add_argument("game", nargs="?", help="game name or alias")
    add_option_argument(parser)
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the game's notation")
    parser.add_argument(
        "-o",
        "--output",
        default="board.png",
        help="the picture to write: .png, .gif or .webp (lossless), by its name",
    )
    parser.add_argument(
        "--hint",
        nargs="?",
        const="",
        metavar="CELL",
        help=(
            "mark legal moves: of the stone on CELL, or every legal cell without CELL "
            "(put it after the moves: before them it takes the first move for its CELL)"
        ),
    )
    parser.add_argument("--players", nargs=2, metavar="NAME", help="the two players' names")
    parser.add_argument("--status", help="text replacing the turn/result line")
    parser.add_argument("--light", action="store_true", help="use the light frame")
    parser.add_argument(
        "--replay",
        metavar="FILE",
        help=f"also write every position as an animated {replay_format()}",
    )
    parser.add_argument(
        "--gallery",
        metavar="DIR",
        help="draw every game (or only GAME) at several positions into DIR for review",
    )
    parser.add_argument(
        "--examples",
        metavar="DIR",
        help="draw the documentation's example pictures into DIR (docs/images)",
    )
    parser.set_defaults(func=run, trailing_positionals="moves")


def run(args: argparse.Namespace) -> int:
    """Draw what the arguments ask for; exit 2 with a message on bad input."""
    if args.examples:
        if args.game or args.moves:
            print("--examples draws positions of its own: give no GAME or MOVEs", file=sys.stderr)
            return 2
        try:
            written = write_examples(Path(args.examples))
        except OSError as exc:
            print(f"error: cannot write to {args.examples}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"wrote {written} pictures to {args.examples}")
        return 0
    if args.gallery:
        if args.moves:
            print("--gallery draws positions of its own: give no MOVEs", file=sys.stderr)
            return 2
        try:
            games = [get_game(args.game).name] if args.game else rendered_games()
        except GameError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        try:
            written = write_gallery(Path(args.gallery), games)
        except UnknownRendererError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"error: cannot write to {args.gallery}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"wrote {written} pictures to {args.gallery}")
        return 0
    if not args.game:
        print("name a GAME to draw (see `tabula games`), or use --gallery DIR", file=sys.stderr)
        return 2
    picture_format = _format(args.output, PICTURE_FORMATS)
    replay_format_ = None if args.replay is None else _format(args.replay, (replay_format(),))
    if picture_format is None or (args.replay is not None and replay_format_ is None):
        return 2
    view = BoardView(
        players=tuple(args.players) if args.players else None,
        status=args.status,
        hint=None if args.hint is None else Hint(args.hint or None),
        theme=LIGHT_THEME if args.light else None,
    )
    try:
        state = new_game_from_args(get_game(args.game), args.option)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    states = [state]
    for index, text in enumerate(args.moves, start=1):
        try:
            state = state.play_text(text)
        except GameError as exc:
            print(f"error in move {index} ({text}): {exc}", file=sys.stderr)
            return 2
        states.append(state)
    try:
        picture = render_picture(state, view, picture_format)
        replay = render_replay(states, view) if args.replay else None
    except (GameError, UnknownRendererError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    files = [(Path(args.output), picture)]
    if replay is not None:
        files.append((Path(args.replay), replay))
    for path, data in files:
        if not _write(path, data):
            return 2
        print(f"wrote {path}")
    return 0


def _format(name: str, formats: tuple[str, ...]) -> str | None:
    """The format a file name asks for by its extension, or None (said on stderr)."""
    extension = Path(name).suffix.lower().lstrip(".")
    if extension in formats:
        return extension
    allowed = ", ".join(f".{fmt}" for fmt in formats)
    print(f"error: cannot write {name}: the name must end in {allowed}", file=sys.stderr)
    return None


def _write(path: Path, data: bytes) -> bool:
    """Write `data` to `path`; on failure say why on stderr and return False."""
    try:
        path.write_bytes(data)
    except OSError as exc:
        print(f"error: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def gallery_pictures(games: list[str]) -> Iterator[tuple[str, GameState[Any], BoardView]]:
    """(file stem, state, view) for every picture of the review gallery of `games`."""
    named = BoardView(players=GALLERY_PLAYERS, clocks=GALLERY_CLOCKS)
    for name in games:
        for options in GALLERY_OPTIONS.get(name, [{}]):
            label = name + "".join(f"-{key}{value}" for key, value in options.items())
            opening = get_game(name).new_game(**options)
            yield f"{label}-1-opening", opening, BoardView()
            game = random_game(name, options, seed=7, plies=400)
            middle = game[min(len(game) - 1, max(3, len(game) // 3))]
            yield f"{label}-2-middle", middle, named
            yield f"{label}-3-hint-all", middle, BoardView(players=GALLERY_PLAYERS, hint=Hint())
            origin = _hint_origin(middle)
            if origin is not None:
                yield f"{label}-4-hint-{origin}", middle, BoardView(hint=Hint(origin))
            yield f"{label}-5-light", middle, BoardView(players=GALLERY_PLAYERS, theme=LIGHT_THEME)
            final = finished_game(name, options, seed=11)[-1]
            yield f"{label}-6-finished", final, named
        resigned = random_game(name, seed=3, plies=12)[-1]
        yield (
            f"{name}-7-resigned",
            resigned,
            BoardView(
                players=("A rather long display name that will not fit", "Bob"),
                status="Bob resigned: A rather long display name that will not fit wins",
            ),
        )


MOVING_GAMES = ("groups", "diffusion")
"""Games whose moves start from a stone, so that a hint can be about one stone."""


def _hint_origin(state: GameState[Any]) -> str | None:
    """The cell of a stone with a legal move, in games where stones move."""
    if state.game.name not in MOVING_GAMES:
        return None
    for move in state.legal_moves():
        text = state.format_move(move)
        if "-" in text:
            return text.split("-")[0]
    return None


def example_pictures() -> Iterator[tuple[str, GameState[Any], BoardView]]:
    """(game, state, view) for each of the documentation's example pictures."""
    view = BoardView(players=GALLERY_PLAYERS, clocks=GALLERY_CLOCKS)
    for name, (options, plies) in EXAMPLES.items():
        states = random_game(name, options, seed=EXAMPLE_SEED, plies=plies)
        if name == "diffusion":  # a completed turn, not one under way
            states = [s for s in states if s.ply and not getattr(s, "turn_paths", ())]
        yield name, states[-1], view


def write_examples(folder: Path) -> int:
    """Write the documentation's example pictures into `folder`; return how many."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for name, state, view in example_pictures():
        (folder / f"{name}.png").write_bytes(render_png(state, view))
        count += 1
    return count


def write_gallery(folder: Path, games: list[str]) -> int:
    """Write the gallery's PNGs of `games` into `folder`; return how many."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for stem, state, view in gallery_pictures(games):
        (folder / f"{stem}.png").write_bytes(render_png(state, view))
        count += 1
    return count
