"""`tabula sync-commands`: register the slash commands with Discord, then exit."""

from __future__ import annotations

import argparse
import asyncio
import sys

import aiohttp
import discord

from bot.cli.startup import CONFIG_STATUS, start
from bot.client import TabulaBot
from bot.config import Settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `sync-commands` subcommand."""
    parser = subparsers.add_parser(
        "sync-commands",
        help="register the slash commands with Discord (after installing or upgrading)",
        description="Log in with the token, register the slash commands globally (Discord "
        "shows them everywhere within minutes) or in one server (at once), print them and "
        "exit. Needed once after installing and after upgrades that change commands.",
    )
    parser.add_argument(
        "--guild",
        type=int,
        metavar="ID",
        help="only in this server (its id: right-click the server, Copy Server ID)",
    )
    parser.add_argument(
        "--clear",
        action="store_true",
        help="remove the commands instead (from the server, or globally): undoes a "
        "--guild sync, whose copies would otherwise show twice next to the global ones",
    )
    parser.set_defaults(func=run)


async def sync(
    settings: Settings, guild_id: int | None, *, clear: bool = False
) -> list[discord.app_commands.AppCommand]:
    """Log in over HTTP only (no gateway, no database) and sync the command tree."""
    assert settings.token is not None
    bot = TabulaBot(settings, commands_only=True)
    async with bot:
        await bot.login(settings.token)
        return await bot.sync_commands(guild_id, clear=clear)


def run(args: argparse.Namespace) -> int:
    """Sync and print what Discord now has; one line and status 1 if that fails."""
    settings = start(args)
    if settings is None:
        return CONFIG_STATUS
    if settings.token is None:
        print(
            "tabula: DISCORD_TOKEN is not set; sync-commands logs in to Discord with it",
            file=sys.stderr,
        )
        return CONFIG_STATUS
    where = "globally" if args.guild is None else f"in server {args.guild}"
    try:
        synced = asyncio.run(sync(settings, args.guild, clear=args.clear))
    except discord.LoginFailure:
        print("tabula: Discord refused the token (DISCORD_TOKEN)", file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        print(f"tabula: Discord refused the commands {where}: {error}", file=sys.stderr)
        return 1
    except (OSError, aiohttp.ClientError) as error:
        print(f"tabula: cannot reach Discord: {error}", file=sys.stderr)
        return 1
    if args.clear:
        print(f"Removed the slash commands {where}; {len(synced)} remain there.")
        return 0
    names = ", ".join(f"/{command.name}" for command in sorted(synced, key=lambda c: c.name))
    delay = "at once" if args.guild is not None else "within minutes"
    print(f"Synced {len(synced)} command(s) {where} (Discord shows them {delay}): {names}")
    return 0
