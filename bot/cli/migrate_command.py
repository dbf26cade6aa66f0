"""`tabula migrate-database SOURCE TARGET`: move a community's data between SQLite and
PostgreSQL (either way), then check that everything arrived."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

import asyncpg

from bot.services.records.audit import GameAudit, audit_games
from bot.storage.opening import DatabaseLocation, display_location, open_repository, parse_location
from bot.storage.sql import SqlRepository
from bot.storage.sqlite import SchemaTooNewError
from bot.storage.transfer import CopyReport, TransferError, copy_database

DATABASE_ERRORS = (sqlite3.Error, SchemaTooNewError, OSError, asyncpg.PostgresError)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `migrate-database` subcommand."""
    parser = subparsers.add_parser(
        "migrate-database",
        help="copy every table from SOURCE to TARGET (SQLite file or postgresql:// URL), "
        "then check counts and replay every game",
    )
    parser.add_argument("source", type=parse_location, metavar="SOURCE")
    parser.add_argument("target", type=parse_location, metavar="TARGET")
    parser.add_argument(
        "--force", action="store_true", help="delete what TARGET holds before copying"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Copy, check, print what was done; exit 1 on any problem or disagreement."""
    source: DatabaseLocation = args.source
    target: DatabaseLocation = args.target
    if isinstance(source, Path) and not source.is_file():
        print(f"tabula: there is no database at {source}", file=sys.stderr)
        return 1
    if str(source) == str(target):
        print("tabula: SOURCE and TARGET are the same database", file=sys.stderr)
        return 1
    try:
        report, audit = asyncio.run(_migrate(source, target, args.force))
    except TransferError as error:
        print(f"tabula: cannot copy: {error}", file=sys.stderr)
        return 1
    except DATABASE_ERRORS as error:
        print(f"tabula: database error: {error}", file=sys.stderr)
        return 1
    return _print(source, target, report, audit)


async def _migrate(
    source: DatabaseLocation, target: DatabaseLocation, force: bool
) -> tuple[CopyReport, GameAudit]:
    opened: list[SqlRepository] = []
    try:
        opened.append(await open_repository(source))
        opened.append(await open_repository(target))
        report = await copy_database(opened[0], opened[1], force=force)
        return report, await audit_games(opened[1])
    finally:
        for repository in opened:
            await repository.close()


def _print(
    source: DatabaseLocation, target: DatabaseLocation, report: CopyReport, audit: GameAudit
) -> int:
    print(f"Copied {display_location(source)} into {display_location(target)}.")
    if report.replaced:
        deleted = ", ".join(f"{name} {n}" for name, n in report.replaced.items())
        print(f"Deleted first what the target held (--force): {deleted} rows.")
    print("Rows copied: " + ", ".join(f"{name} {n}" for name, n in report.copied.items()) + ".")
    if report.sequences:
        print(f"Identity sequences set past the highest ids: {', '.join(report.sequences)}.")
    status = 0
    if report.mismatched:
        status = 1
        for name in report.mismatched:
            here, there = report.counts[name]
            print(f"MISMATCH {name}: {here} rows in the source, {there} in the target")
    else:
        print(f"Row counts agree in all {len(report.counts)} tables.")
    if audit.ok:
        print(f"Replayed {audit.checked} games through the rules: every one agrees with its row.")
    else:
        status = 1
        print(f"Replayed {audit.checked} games: {len(audit.problems)} disagree with their rows:")
        for game_id, problem in sorted(audit.problems.items()):
            print(f"  game #{game_id}: {problem}")
    return status
