"""`tabula backup PATH`: an online copy of the database, safe while the bot runs."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bot.cli.startup import CONFIG_STATUS, database_argument
from bot.doctor import human_size
from bot.storage.maintenance import MaintenanceError, backup_database, prune_backups


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `backup` subcommand."""
    parser = subparsers.add_parser(
        "backup", help="copy the database to PATH (safe while the bot runs)"
    )
    parser.add_argument(
        "path",
        metavar="PATH",
        help="the backup file, or a folder to put tabula-YYYYMMDD-HHMMSS.sqlite3 in",
    )
    parser.add_argument("--force", action="store_true", help="replace PATH if it exists")
    parser.add_argument(
        "--keep",
        type=int,
        metavar="N",
        help="when PATH is a folder: then delete all but the N newest backups in it",
    )
    parser.add_argument(
        "--database", type=Path, help="the database to copy (default: TABULA_DATABASE)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Copy, check and report; one line and exit 1 if anything stands in the way."""
    database = database_argument(args)
    if database is None:
        return CONFIG_STATUS
    path = Path(args.path)
    if args.path.endswith(("/", os.sep)) and not path.is_dir():  # meant as a folder
        print(f"tabula: the folder {args.path} does not exist", file=sys.stderr)
        return 1
    if args.keep is not None and (args.keep < 1 or not path.is_dir()):
        print("tabula: --keep needs a folder as PATH and a number of at least 1", file=sys.stderr)
        return CONFIG_STATUS
    try:
        info = backup_database(database, path, overwrite=args.force)
        pruned = [] if args.keep is None else prune_backups(path, args.keep)
    except MaintenanceError as error:
        print(f"tabula: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"tabula: cannot remove old backups in {path}: {error}", file=sys.stderr)
        return 1
    rows = ", ".join(f"{table} {count}" for table, count in info.tables.items())
    print(
        f"Backed up {database} to {info.path} ({human_size(info.size)}, schema version "
        f"{info.schema_version}, integrity ok; rows: {rows})."
    )
    if pruned:
        print(f"Removed {len(pruned)} older backup(s): {', '.join(p.name for p in pruned)}.")
    return 0
