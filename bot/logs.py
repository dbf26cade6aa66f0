"""Logging: configured once, ISO timestamps, and no Discord token or sign-in link in any
record."""

from __future__ import annotations

import logging
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import TextIO

from bot.config import Settings

REDACTED = "[token redacted]"
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}")
"""What a Discord bot token looks like: three base64url parts separated by dots."""
SIGN_IN_LINK = re.compile(r"(signin\?t=)[^\s\"'\\<>&]+")
"""A web sign-in link's token (discord.py logs request bodies at debug level)."""
DISCORD_LOGGERS = ("discord",)
"""discord.py's loggers (its children inherit the level)."""
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """`text` with every secret and everything shaped like a Discord token replaced."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    text = SIGN_IN_LINK.sub(r"\1[redacted]", text)
    return TOKEN_SHAPE.sub(REDACTED, text)


class RedactingFilter(logging.Filter):
    """Rewrites each record so that its message, exception and stack hold no token.

    Attached to the handler, so it sees the records of every logger (discord.py's too).
    The message is formatted here with its arguments, since a token may hide in either.
    """

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.secrets = tuple(secret for secret in secrets if secret)
        self._formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact in place; never drops a record."""
        try:
            message = record.getMessage()
        except Exception:  # bad arguments: still log something, still redacted
            message = f"{record.msg} (bad logging arguments: {record.args!r})"
        record.msg = redact(message, self.secrets)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


class IsoFormatter(logging.Formatter):
    """Timestamps in ISO 8601 with milliseconds and the UTC offset."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """`2024-05-01T12:00:00.123+00:00`."""
        moment = datetime.fromtimestamp(record.created).astimezone()
        return moment.isoformat(timespec="milliseconds")


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever `sys.stderr` is at the time (it may be replaced, as in tests)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        """The current standard error."""
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        """Ignored: the stream is always the current standard error."""


_installed: list[logging.Handler] = []
"""The handler `configure_logging` added last, replaced when it is called again."""
_levels: dict[str, int] = {}
"""Logger name → its level before `configure_logging` first changed it."""


def configure_logging(
    settings: Settings, stream: TextIO | None = None, *, path: Path | None = None
) -> logging.Handler:
    """Send every log record to `stream` (default: standard error), or appended to the
    file `path` (created at the first record), at the configured levels.

    Calling it again replaces the handler it added before (other handlers stay; a file
    handler replaced is closed). Returns the handler.
    """
    handler: logging.Handler
    if path is not None:
        handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    else:
        handler = StderrHandler() if stream is None else logging.StreamHandler(stream)
    handler.setFormatter(IsoFormatter(FORMAT))
    handler.addFilter(RedactingFilter((settings.token or "",)))
    root = logging.getLogger()
    while _installed:
        old = _installed.pop()
        root.removeHandler(old)
        if isinstance(old, logging.FileHandler):
            old.close()
    root.addHandler(handler)
    _installed.append(handler)
    levels = {"": settings.log_level, **dict.fromkeys(DISCORD_LOGGERS, settings.discord_log_level)}
    for name, level in levels.items():
        _levels.setdefault(name, logging.getLogger(name).level)
        logging.getLogger(name).setLevel(level.upper())
    logging.captureWarnings(True)
    return handler


def reset_logging() -> None:
    """Undo `configure_logging`: its handler removed, the levels as they were (tests)."""
    root = logging.getLogger()
    while _installed:
        root.removeHandler(_installed.pop())
    for name, level in _levels.items():
        logging.getLogger(name).setLevel(level)
    _levels.clear()
    logging.captureWarnings(False)
