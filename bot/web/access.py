"""Who may see and act on a page: the server's `/config web` and the session."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.repository import GameRecord
from bot.web.auth import SESSION_LIFETIME, Session


class PageRefused(Exception):
    """A page or action that is not for this visitor; the message says why, for people."""

    def __init__(self, status: int, title: str, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.title = title
        self.text = text


def not_found(what: str = "page") -> PageRefused:
    """There is no such page (or the visitor may not know it exists)."""
    return PageRefused(404, "Not found", f"There is no such {what} here.")


@dataclass(frozen=True)
class GameAccess:
    """How a visitor sees one game."""

    seat: int | None
    """The seat the signed-in visitor plays, or None for a spectator."""


def game_access(record: GameRecord, web: str, session: Session | None) -> GameAccess:
    """What a visitor may do with a game of a server whose web setting is `web`.

    Off: the page does not exist. Players: only the game's two players, signed in for its
    server. Public: anyone watches; the players, signed in, also play.
    """
    if web == "off":
        raise not_found("game")
    seat = None
    if session is not None and session.guild_id == record.guild_id:
        seat = record.seat_of(session.user_id)
    if web == "public" or seat is not None:
        return GameAccess(seat)
    if session is None:
        raise PageRefused(403, "Sign in to see this game", sign_in_text(record.id))
    if session.guild_id != record.guild_id:
        raise PageRefused(
            403,
            "Another server's game",
            "You are signed in for another server's games. Ask for a link with /link in "
            "this game's server.",
        )
    raise PageRefused(403, "Not your game", "Only the two players of this game can see it.")


def sign_in_text(game_id: int) -> str:
    """How a player signs in to see a game of a server that shows games to its players."""
    days = SESSION_LIFETIME.days
    return (
        "Only the two players of this game can see it, once signed in. If you play in it: "
        f"type /link in the game's thread on Discord (or /link game:{game_id} anywhere on "
        f"its server; in the console, /link #{game_id}). The bot answers you alone with "
        "your own sign-in link; open it in this browser and you stay signed in for "
        f"{days} days, for your games on that server. The Board button under a board "
        "only opens this page: everyone in the thread sees the same button, so it cannot "
        "sign you in."
    )


def may_act(access: GameAccess) -> int:
    """The seat of a visitor who may act in the game; `PageRefused` for anyone else."""
    if access.seat is None:
        raise PageRefused(
            403, "Not your game", "Only the players of this game can play in it, signed in."
        )
    return access.seat
