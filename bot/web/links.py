"""`LinkMaker`: personal sign-in links, for /link and the console's /link."""

from __future__ import annotations

from urllib.parse import quote

from bot.storage.repository import GameRecord
from bot.web.auth import LINK_LIFETIME, SESSION_LIFETIME, Signer


def lifetime_note() -> str:
    """What a sign-in link does and for how long, said under the link."""
    minutes = int(LINK_LIFETIME.total_seconds() // 60)
    return (
        f"The link works for {minutes} minutes, for you only: do not share it. Opening it "
        f"signs you in on that browser for {SESSION_LIFETIME.days} days."
    )


class LinkMaker:
    """Makes sign-in links to the pages served at `base`."""

    def __init__(self, signer: Signer, base: str) -> None:
        self._signer = signer
        self.base = base

    def sign_in(self, record: GameRecord, user_id: int, name: str) -> str:
        """A link that opens the game and signs `user_id` in (see `lifetime_note`)."""
        token = self._signer.link_token(user_id, record.id, record.guild_id, name)
        return f"{self.base}signin?t={quote(token)}"

    def game(self, game_id: int) -> str:
        """The game's page (anyone allowed may open it; players sign in with /link)."""
        return f"{self.base}g/{game_id}"
