"""The words about servers changing under the bot: suspended games, games going on, games
moved out of a deleted thread or channel, challenges withdrawn with theirs, and a challenge
whose message cannot be edited."""

from __future__ import annotations

from bot.services.announcing.announcements import ResumedNotice, SuspensionNotice
from bot.services.durations import format_span
from bot.storage.repository import ChallengeRecord, GameRecord
from bot.storage.suspensions import SuspensionReason
from bot.texts.games import Style, board_caption, game_title
from rules import get_game

THREAD_DELETED = "The game's thread was deleted, so the game goes on in this new thread."
THREAD_DELETED_HERE = "The game's thread was deleted, so the game goes on here, in its channel."
CHANNEL_DELETED = (
    "The game's channel was deleted, so the game goes on here, in this server's game channel."
)
NOWHERE_TO_POST = (
    "the game's channel was deleted and this server names no game channel I can move it to"
)
"""Why a game is suspended for want of a channel (in a refusal's words)."""


def _games(games: tuple[GameRecord, ...]) -> str:
    """ "game #12 (Groups, Alice vs Bob)" or "games #12 (...) and #14 (...)"."""
    parts = [
        f"#{g.id} ({game_title(get_game(g.game), g.options)}, {g.names[0]} vs {g.names[1]})"
        for g in games
    ]
    if len(parts) == 1:
        return f"game {parts[0]}"
    return f"games {', '.join(parts[:-1])} and {parts[-1]}"


def resumed_text(notice: ResumedNotice, style: Style) -> str:
    """The caption of a suspended game's board when it goes on."""
    lasted = format_span(notice.lasted)
    if notice.reason is SuspensionReason.REMOVED:
        head = (
            f"Tabula is back in this server: game #{notice.view.id} goes on after {lasted}, "
            "each player with the time they had."
        )
    else:
        head = (
            f"Game #{notice.view.id} goes on after {lasted} without a channel, each player "
            "with the time they had."
        )
    return f"{head}\n{board_caption(notice.view, style)}"


def suspension_dm(notice: SuspensionNotice, style: Style) -> str:
    """The direct message about a player's suspended (or, after that, aborted) games."""
    games = _games(notice.games)
    if notice.aborted:
        if notice.reason is SuspensionReason.REMOVED:
            why = "Tabula was removed from their server and not invited back in time"
        else:
            why = "its channel was deleted and no game channel was named in time"
        return f"Your {games} ended without a result (aborted, unrated): {why}."
    until = "" if notice.until is None else f" If nothing changes by {style.when(notice.until)}, "
    if notice.reason is SuspensionReason.REMOVED:
        text = (
            f"Tabula was removed from the server of your {games} (or the server was "
            "deleted). Nothing is decided meanwhile: the clocks are stopped. If Tabula is "
            "invited back, play goes on with the time each player had."
        )
    else:
        text = (
            f"Your {games} can no longer be posted: {NOWHERE_TO_POST}. The game is suspended "
            "and its clocks are stopped. A moderator can name a game channel with "
            "/config add_channel, and the game goes on there with the time each player had."
        )
    if until:
        them = "it is" if len(notice.games) == 1 else "they are"
        text += f"{until}{them} aborted without a result (unrated)."
    return text


def challenge_gone_dm(challenge: ChallengeRecord, user_id: int) -> str:
    """The direct message to a player of a challenge withdrawn because its thread or
    channel was deleted."""
    title = game_title(get_game(challenge.game), challenge.options)
    if user_id == challenge.challenger_id:
        whose = f"Your challenge #{challenge.id} (**{title}**"
        whose += f", to {challenge.opponent_name})" if challenge.opponent_name else ")"
        again = "Challenge again in a channel that is still there."
    else:
        whose = f"{challenge.challenger_name}'s challenge #{challenge.id} to you (**{title}**)"
        again = "They can challenge you again in a channel that is still there."
    return f"{whose} was withdrawn: the channel it was made in was deleted. {again}"


def challenge_expired_anew(challenge: ChallengeRecord) -> str:
    """A challenge's expiry posted as a new message (its own message could not be edited:
    a locked or archived thread), without pinging anyone."""
    title = game_title(get_game(challenge.game), challenge.options)
    to = challenge.opponent_name or "anyone"
    return (
        f"Challenge #{challenge.id} ({challenge.challenger_name} to {to}, **{title}**) "
        "expired without an answer: its buttons no longer work."
    )
