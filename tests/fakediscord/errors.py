"""Errors of the fake: Discord's own REST errors, and misuse by a test."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

JSON_HEADERS = {"Content-Type": "application/json"}


def json_response(
    body: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A response whose Content-Type is exactly `application/json`, as discord.py requires."""
    all_headers = dict(JSON_HEADERS)
    if headers:
        all_headers.update(headers)
    data = json.dumps(body, separators=(",", ":")).encode()
    return web.Response(body=data, status=status, headers=all_headers)


class DiscordHTTPError(Exception):
    """A REST error in Discord's shape: `{"code", "message", "errors"?}` with an HTTP status."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord sends for this error."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body

    def response(self) -> web.Response:
        """The aiohttp response for this error."""
        return json_response(self.body(), status=self.status)


class FormErrors:
    """Collects field errors and raises them as one `50035 Invalid Form Body`."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        """Record an error at `path` (keys and list indexes, as Discord nests them)."""
        node = self.errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        """Raise the collected errors, if there are any."""
        if self.errors:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", self.errors)


def not_found(code: int, what: str) -> DiscordHTTPError:
    """Discord's 404 for an unknown resource (`10003 Unknown Channel`, ...)."""
    return DiscordHTTPError(404, code, f"Unknown {what}")


def missing_permissions() -> DiscordHTTPError:
    """Discord's 403 `50013 Missing Permissions`."""
    return DiscordHTTPError(403, 50013, "Missing Permissions")


def missing_access() -> DiscordHTTPError:
    """Discord's 403 `50001 Missing Access` (the bot cannot see the channel)."""
    return DiscordHTTPError(403, 50001, "Missing Access")


class FakeDiscordError(Exception):
    """A test asked the fake for something a Discord user could not do (or the fake cannot)."""


WAIT = 20.0
"""Seconds a wait on the fake gives up after unless told otherwise: generous, because the
machines running the tests are busy; a wait ends as soon as what it waits for happens."""


class FakeDiscordTimeout(AssertionError):
    """A wait on the fake (response, message, thread, ...) timed out."""
