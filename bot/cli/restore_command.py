"""`tabula restore BACKUP`: put a backup in the database's place (with the bot stopped)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.cli.startup import CONFIG_STATUS, database_argument
from bot.storage.maintenance import MaintenanceError, restore_database


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `restore` subcommand."""
    parser = subparsers.add_parser(
        "restore",
        help="replace the database with a backup (stop the bot first); the old one is kept",
    )
    parser.add_argument("backup", type=Path, metavar="BACKUP", help="a file `tabula backup` made")
    parser.add_argument(
        "--force",
        action="store_true",
        help="restore even though the database's -wal file exists (the bot did not stop "
        "cleanly; what it holds is set aside with the old database)",
    )
    parser.add_argument(
        "--database", type=Path, help="the database to replace (default: TABULA_DATABASE)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check the backup, set the old database aside, put the copy in place."""
    database = database_argument(args)
    if database is None:
        return CONFIG_STATUS
    try:
        aside = restore_database(args.backup, database, force=args.force)
    except MaintenanceError as error:
        print(f"tabula: {error}", file=sys.stderr)
        return 1
    kept = f" The previous database is kept as {aside}." if aside else ""
    print(f"Restored {args.backup} to {database}.{kept} Start the bot again.")
    return 0
