"""Discord's rate limits: per-route buckets counted per top-level resource, and the global
limit, with the `X-RateLimit-*` headers on every response and Discord's 429s.

A bucket instance is a route's bucket (`X-RateLimit-Bucket`, shared by the routes that
share a limit) and the request's major parameter (channel, guild, or webhook id and
token), so posting in one channel never slows another. Windows are fixed: they start
with the first request and reset `period` seconds later on the fake's clock.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.fakediscord.errors import json_response


@dataclass(frozen=True, slots=True)
class Limit:
    """A route's limit: `limit` requests per `period` seconds in the bucket `name`."""

    name: str
    limit: int
    period: float

    @property
    def bucket(self) -> str:
        """The opaque hash Discord sends as `X-RateLimit-Bucket`."""
        return hashlib.md5(self.name.encode()).hexdigest()


MESSAGE = "/channels/{channel_id}/messages/{message_id}"
REACTION = f"{MESSAGE}/reactions/{{emoji}}/@me"
ROUTE_LIMITS: dict[tuple[str, str], Limit] = {
    ("POST", "/channels/{channel_id}/messages"): Limit("create-message", 5, 5.0),
    ("PATCH", MESSAGE): Limit("edit-message", 5, 5.0),
    ("DELETE", MESSAGE): Limit("delete-message", 5, 1.0),
    ("PUT", REACTION): Limit("reactions", 1, 0.25),
    ("DELETE", REACTION): Limit("reactions", 1, 0.25),
    ("PATCH", "/channels/{channel_id}"): Limit("modify-channel", 5, 5.0),
    ("POST", "/channels/{channel_id}/threads"): Limit("start-thread", 5, 5.0),
    ("POST", f"{MESSAGE}/threads"): Limit("start-thread", 5, 5.0),
}
"""The limits the fake applies to the routes a game bot uses most (posting in a channel is
about 5 messages per 5 seconds on Discord). Other routes get `DEFAULT_LIMIT` per route."""
DEFAULT_LIMIT = (50, 1.0)
GLOBAL_LIMIT = 50
"""Requests per second per bot across all routes; interaction endpoints do not count."""
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id")


@dataclass(slots=True)
class _Window:
    count: int
    resets_at: float


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the limiter says about one request: its headers, and a 429 if it is over."""

    headers: dict[str, str]
    refusal: web.Response | None


class RateLimiter:
    """Counts requests per bucket and globally; says which get a 429."""

    def __init__(self) -> None:
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global = _Window(0, 0.0)
        self.refused: list[tuple[str, str, str]] = []
        """(method, path, scope) of every request refused with a 429."""

    def check(
        self, method: str, template: str, path: str, params: Mapping[str, str], now: float
    ) -> Verdict:
        """Count a request to `template` (the route, after /api/v10) at `now`."""
        if template.startswith("/interactions/"):
            return Verdict({}, None)  # one response per interaction: no bucket, not global
        limit = ROUTE_LIMITS.get((method, template)) or Limit(
            f"{method} {template}", *DEFAULT_LIMIT
        )
        if not template.startswith("/webhooks/"):  # interaction follow-ups are not global
            if self._global.resets_at <= now:
                self._global = _Window(0, now + 1.0)
            if self._global.count >= GLOBAL_LIMIT:
                self.refused.append((method, path, "global"))
                return Verdict({}, _too_many(self._global.resets_at - now, scope="global"))
        major = ":".join(params.get(key, "") for key in MAJOR_PARAMETERS)
        if template.startswith("/webhooks/"):
            major = f"{params.get('application_id', '')}:{params.get('token', '')}"
        key = (limit.bucket, major)
        window = self._windows.get(key)
        if window is None or window.resets_at <= now:
            window = self._windows[key] = _Window(0, now + limit.period)
        reset_after = window.resets_at - now
        if window.count >= limit.limit:
            self.refused.append((method, path, "user"))
            headers = _headers(limit, 0, window.resets_at, reset_after)
            return Verdict(headers, _too_many(reset_after, scope="user", headers=headers))
        window.count += 1
        if not template.startswith("/webhooks/"):
            self._global.count += 1
        remaining = limit.limit - window.count
        return Verdict(_headers(limit, remaining, window.resets_at, reset_after), None)


def _headers(limit: Limit, remaining: int, resets_at: float, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{resets_at:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": limit.bucket,
    }


def _too_many(
    retry_after: float, *, scope: str, headers: dict[str, str] | None = None
) -> web.Response:
    """Discord's 429: `retry_after` in the body, `Retry-After`, `X-RateLimit-Scope`, and
    `X-RateLimit-Global` for the global limit."""
    retry_after = round(max(retry_after, 0.001), 3)
    all_headers: dict[str, str] = {
        "Via": "1.1 google",
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Scope": scope,
        **(headers or {}),
    }
    if scope == "global":
        all_headers["X-RateLimit-Global"] = "true"
    body: dict[str, Any] = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": scope == "global",
    }
    return json_response(body, status=429, headers=all_headers)
