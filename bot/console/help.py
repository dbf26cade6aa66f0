"""What /help shows at the console: its commands, written as they are typed there."""

from __future__ import annotations

from bot.console.competition import TOURNAMENT_HELP
from bot.console.leagues import LEAGUE_HELP
from rules import list_games

CONSOLE_COMMANDS = (
    (
        "/play GAME [@opponent] [option=value ...] [colour=white|black|random] [time=3d] [casual]",
        "challenge someone, or anyone when no opponent is named",
    ),
    ("/play GAME @{computer} [level=easy|medium|hard]", "play the computer"),
    ("/accept, /decline, /cancel [#challenge]", "answer or withdraw a challenge"),
    ("/challenges", "the open challenges"),
    ("/move [#game] NOTATION", "play a move (name the game when you have several)"),
    ("/board [#game]", "show the board again"),
    ("/resign [#game]", "give up the game"),
    ("/draw [#game], /draw accept|decline", "offer a draw, or answer the opponent's offer"),
    ("/undo [#game], /undo accept|decline", "ask to take back your last turn, or answer"),
    (
        "/rematch [#game]",
        "the same game again with the colours swapped (default: your latest finished game)",
    ),
    (
        "/conditional add [#game] LINE, /conditional list|clear [#game]",
        "while your opponent is to move, queue replies: LINE is their move, your reply, "
        "and so on (e5 d4 f6 c3)",
    ),
    ("/games", "your games in progress, most urgent first"),
    ("/history [@user] [GAME] [page=N]", "finished games, newest first"),
    (
        "/export [#game]",
        "a game's records (JSON, SGF for Stones, text) written to the image folder; "
        "default: your latest finished game",
    ),
    ("/link [#game]", "your sign-in link to the game's web page (when the pages are served)"),
    ("/rules GAME", "a short summary of a game's rules"),
    (
        "/settings [turns=on|off] [reminders=24h,1h|none] [digest=on|off] [period=1d]",
        "your notifications (without options: show them)",
    ),
    ("/vacation [start [LENGTH]|end|status]", "pause your clocks"),
    ("/rating [@user] [GAME]", "ratings"),
    ("/leaderboard GAME", "the best players in a game"),
    ("/tournament ...", "tournaments (below)"),
    ("/league ...", "leagues: seasons of divisions with promotion and relegation (below)"),
    (
        "/config [threads=on|off] [expiry=30m] [time=3d] [web=off|players|public]",
        "the simulated server's settings",
    ),
    ("/wait DURATION", "let time pass (with --manual-clock), like /wait 1d"),
    ("/users", "everyone who typed so far"),
    ("/help", "this list"),
    ("/quit", "end the session"),
)
"""The console's commands with what they do; `{computer}` is the computer's name."""


def console_help(computer: str) -> str:
    """The console's /help: how to type, every command, the games, tournaments."""
    lines = [
        "Tabula console: one simulated server. Start a line with a name and > to type as "
        "that user (alice> /play groups @bob); later lines are typed by the same user.",
        "Options are written key=value or, as in Discord, key:value (size=13, size:13).",
    ]
    lines += [f"{usage.format(computer=computer)}: {what}" for usage, what in CONSOLE_COMMANDS]
    lines.append("Games: " + ", ".join(game.name for game in list_games()) + ".")
    lines.append(f"Tournaments: {TOURNAMENT_HELP}")
    lines.append(f"Leagues: {LEAGUE_HELP}")
    return "\n".join(lines)
