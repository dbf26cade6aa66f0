"""`tabula tournament export ID --format trf` and `tabula tournament pair FILE.trf`: FIDE
Tournament Report Files out of the database, and the next Swiss round for one."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.cli.records_command import DATABASE_ERRORS
from bot.cli.startup import CONFIG_STATUS, settings_or_report
from bot.competition import swiss
from bot.competition.records import Pairing
from bot.competition.tournament import Format
from bot.competition.trf import TrfError, TrfEvent, read_trf, write_trf
from bot.storage.opening import DatabaseLocation, display_location, open_repository, parse_location

EXPORT_FORMATS = ("trf",)
"""What `tournament export` writes."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `tournament` subcommand with `export` and `pair`."""
    parser = subparsers.add_parser(
        "tournament", help="tournament files: export a TRF, pair the next round of one"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = actions.add_parser(
        "export", help="print a Swiss or round-robin tournament as a FIDE TRF file"
    )
    export.add_argument("tournament_id", type=int, metavar="ID", help="the tournament's number")
    export.add_argument("--format", choices=EXPORT_FORMATS, default="trf")
    export.add_argument("--output", "-o", type=Path, help="write to this file, not the screen")
    export.add_argument(
        "--database",
        type=parse_location,
        help="a SQLite file or a postgresql:// URL (default: TABULA_DATABASE)",
    )
    export.set_defaults(func=run_export)
    pair = actions.add_parser(
        "pair", help="print the next round Tabula's Dutch Swiss pairs for a TRF file"
    )
    pair.add_argument("file", type=Path, metavar="FILE", help="a TRF file")
    pair.set_defaults(func=run_pair)


class _Failed(Exception):
    """A command that cannot be done, with the one line that says why."""


def run_export(args: argparse.Namespace) -> int:
    """Print (or write) the tournament's TRF; one line and exit 1 when it cannot."""
    database: DatabaseLocation | None = args.database
    if database is None:
        settings = settings_or_report(args)
        if settings is None:
            return CONFIG_STATUS
        database = settings.database
    try:
        if isinstance(database, Path) and not database.is_file():
            raise _Failed(f"there is no database at {database}")
        try:
            text = asyncio.run(_export(database, args.tournament_id))
        except DATABASE_ERRORS as error:
            where = display_location(database)
            raise _Failed(f"cannot use the database {where}: {error}") from None
    except _Failed as error:
        print(f"tabula: {error}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


async def _export(database: DatabaseLocation, tournament_id: int) -> str:
    repository = await open_repository(database)
    try:
        record = await repository.get_tournament(tournament_id)
        if record is None:
            raise _Failed(f"there is no tournament #{tournament_id}")
        if record.format is Format.SINGLE_ELIMINATION:
            raise _Failed(
                f"tournament #{tournament_id} is a knockout: TRF is for Swiss and round robins"
            )
        if record.rounds is None:
            raise _Failed(f"tournament #{tournament_id} has not started: it has no pairings yet")
        entrants = sorted(
            await repository.list_entrants(tournament_id),
            key=lambda e: (e.seed is None, e.seed or 0, e.joined_at),
        )
        pairings = [p.pairing for p in await repository.list_pairings(tournament_id)]
    finally:
        await repository.close()
    return write_trf(
        name=record.name,
        players=[e.user_id for e in entrants],
        names={e.user_id: e.name for e in entrants},
        ratings={e.user_id: round(e.rating or 0) for e in entrants},
        rounds=record.rounds,
        pairings=pairings,
        withdrawn=[e.user_id for e in entrants if e.withdrawn],
    )


def next_round(event: TrfEvent) -> tuple[Pairing, ...]:
    """The round after the file's last, as Tabula's Swiss pairs it."""
    number = event.played_rounds + 1
    if event.rounds is not None and number > event.rounds:
        raise TrfError(f"all {event.rounds} rounds are played: there is no round to pair")
    active = [p for p in event.players if p not in event.absent]
    if len(active) < 2:
        raise TrfError("fewer than two players are left to pair")
    return swiss.pair_round(
        event.players,
        event.pairings,
        number,
        withdrawn=event.absent,
        last_round=event.rounds,
        initial=event.initial,
    )


def format_round(event: TrfEvent, made: tuple[Pairing, ...]) -> str:
    """Boards as `first - second` by starting rank (the first seat is white), the bye last."""
    number = made[0].round if made else event.played_rounds + 1
    lines = [f"round {number}: {sum(1 for p in made if not p.is_bye)} boards"]
    for board, pairing in enumerate(made, start=1):
        if pairing.second is None:
            lines.append(f"  bye  {pairing.first:4d}")
        else:
            lines.append(f"  {board:3d}  {pairing.first:4d} - {pairing.second}")
    return "\n".join(lines) + "\n"


def run_pair(args: argparse.Namespace) -> int:
    """Print the next round for a TRF file; one line and exit 1 for a bad file."""
    try:
        text = args.file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        print(f"tabula: {args.file}: not a UTF-8 text file", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"tabula: cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
        return 1
    try:
        event = read_trf(text)
        made = next_round(event)
    except ValueError as error:  # TrfError, or a history the pairing cannot take
        print(f"tabula: {args.file}: {error}", file=sys.stderr)
        return 1
    except (RecursionError, MemoryError):
        print(f"tabula: {args.file}: too large to pair on this machine", file=sys.stderr)
        return 1
    sys.stdout.write(format_round(event, made))
    return 0
