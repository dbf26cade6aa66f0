"""Sign-in links and session cookies: signed with the database's key, so that every
process accepts what any process made.

A link carries a token bound to one user and one game, valid for `LINK_LIFETIME`; opening
it sets a session cookie for that user in that game's server. Neither is ever logged.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

LINK_LIFETIME = timedelta(minutes=10)
"""How long a sign-in link works."""
SESSION_LIFETIME = timedelta(days=7)
"""How long a session cookie works."""
COOKIE = "tabula_session"


class SignInError(Exception):
    """A link or cookie that is not accepted; the message says why, for people."""


@dataclass(frozen=True)
class Session:
    """Who is signed in, and for which server's games."""

    user_id: int
    guild_id: int | None
    name: str
    csrf: str
    """A random value of this session, required in every change (besides the origin)."""


@dataclass(frozen=True)
class LinkGrant:
    """What a valid sign-in link grants."""

    user_id: int
    game_id: int
    guild_id: int | None
    name: str


def new_secret() -> str:
    """A fresh signing key."""
    return secrets.token_urlsafe(32)


class Signer:
    """Makes and checks sign-in tokens and session cookies with one secret key."""

    def __init__(self, secret: str) -> None:
        self._links = URLSafeTimedSerializer(secret, salt="tabula-link")
        self._sessions = URLSafeTimedSerializer(secret, salt="tabula-session")

    def link_token(self, user_id: int, game_id: int, guild_id: int | None, name: str) -> str:
        """A token for a sign-in link (valid `LINK_LIFETIME`)."""
        return self._links.dumps({"u": user_id, "g": game_id, "s": guild_id, "n": name[:80]})

    def read_link(self, token: str) -> LinkGrant:
        """What a sign-in token grants; `SignInError` when it is forged or expired."""
        try:
            data = self._links.loads(token, max_age=int(LINK_LIFETIME.total_seconds()))
        except SignatureExpired:
            raise SignInError(
                "This sign-in link has expired (links work for 10 minutes): ask for a new "
                "one with /link."
            ) from None
        except BadSignature:
            raise SignInError(
                "This sign-in link is not valid: ask for a new one with /link."
            ) from None
        try:
            return LinkGrant(int(data["u"]), int(data["g"]), _guild(data["s"]), str(data["n"]))
        except (KeyError, TypeError, ValueError):
            raise SignInError(
                "This sign-in link is not valid: ask for a new one with /link."
            ) from None

    def session_cookie(self, grant: LinkGrant) -> str:
        """The cookie value of a new session for what a link granted."""
        return self._sessions.dumps(
            {
                "u": grant.user_id,
                "s": grant.guild_id,
                "n": grant.name,
                "c": secrets.token_urlsafe(16),
            }
        )

    def read_session(self, value: str | None) -> Session | None:
        """The session a cookie holds; None for no cookie or one not accepted."""
        if not value:
            return None
        try:
            data = self._sessions.loads(value, max_age=int(SESSION_LIFETIME.total_seconds()))
            return Session(int(data["u"]), _guild(data["s"]), str(data["n"]), str(data["c"]))
        except (BadSignature, KeyError, TypeError, ValueError):
            return None


def _guild(value: object) -> int | None:
    return None if value is None else int(str(value))
