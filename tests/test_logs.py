"""Logging: levels, ISO timestamps, logger names, and no token in any record."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator

import pytest

from bot.config import Settings
from bot.logs import REDACTED, configure_logging, redact

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"
OTHER_TOKEN = "OTg3NjU0MzIxMDk4NzY1NDMyMQ.Xy_z-9.ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210"
"""Shaped like a token but not the configured one (a token pasted into a message)."""
LINE = re.compile(
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d (DEBUG|INFO|WARNING|ERROR) +[\w.]+: "
)


@pytest.fixture
def output() -> Iterator[io.StringIO]:
    """Logging configured with the token into a buffer; the previous set-up restored after."""
    root, discord_logger = logging.getLogger(), logging.getLogger("discord")
    saved = (root.handlers[:], root.level, discord_logger.level)
    buffer = io.StringIO()
    handler = configure_logging(Settings(token=TOKEN, log_level="info"), buffer)
    yield buffer
    root.removeHandler(handler)
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    discord_logger.setLevel(saved[2])


def test_lines_carry_an_iso_timestamp_the_level_and_the_logger(output: io.StringIO) -> None:
    """`2025-03-01T09:30:00.123+00:00 INFO    bot.client: ...`; below the level: nothing."""
    logging.getLogger("bot.client").info("connected as %s", "Tabula#1234")
    logging.getLogger("bot.client").debug("not shown")
    lines = output.getvalue().splitlines()
    assert len(lines) == 1
    assert LINE.match(lines[0]), lines[0]
    assert lines[0].endswith(" INFO    bot.client: connected as Tabula#1234")


def test_discord_loggers_have_their_own_level(output: io.StringIO) -> None:
    """discord.py's info is quiet at the default `warning`; its warnings get through."""
    logging.getLogger("discord.gateway").info("Shard ID None has connected")
    logging.getLogger("discord.http").warning("We are being rate limited")
    text = output.getvalue()
    assert "has connected" not in text
    assert "WARNING discord.http: We are being rate limited" in text


def test_the_token_is_redacted_from_messages_and_arguments(output: io.StringIO) -> None:
    """In the format string, in an argument, in discord.py's records: always replaced."""
    log = logging.getLogger("bot.test")
    log.warning(f"token is {TOKEN}")
    log.warning("header: Bot %s", TOKEN)
    log.warning("pasted: %s", OTHER_TOKEN)
    logging.getLogger("discord.http").error("request with %r failed", {"auth": TOKEN})
    text = output.getvalue()
    assert TOKEN not in text and OTHER_TOKEN not in text
    assert text.count(REDACTED) == 4


def test_the_token_is_redacted_from_exception_text(output: io.StringIO) -> None:
    """A traceback whose exception message holds the token is scrubbed too."""
    log = logging.getLogger("bot.test")
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError:
        log.exception("could not start")
    try:
        raise ValueError(f"bad {OTHER_TOKEN}")
    except ValueError as error:
        log.error("wrapped", exc_info=error)
    log.warning("with a stack", stack_info=True, extra={"unused": TOKEN})
    text = output.getvalue()
    assert "Traceback (most recent call last)" in text
    assert f"RuntimeError: login failed for {REDACTED}" in text
    assert f"ValueError: bad {REDACTED}" in text
    assert TOKEN not in text and OTHER_TOKEN not in text


def test_bad_logging_arguments_still_log_and_redact(output: io.StringIO) -> None:
    """A mismatched format is logged as text (redacted) rather than raising at the call."""
    logging.getLogger("bot.test").warning("two %s %s", TOKEN)  # noqa: PLE1206
    text = output.getvalue()
    assert "bad logging arguments" in text and TOKEN not in text


def test_configuring_again_replaces_the_handler(output: io.StringIO) -> None:
    """A second call does not double every line."""
    second = io.StringIO()
    configure_logging(Settings(token=TOKEN, log_level="debug"), second)
    logging.getLogger("bot.test").debug("once %s", TOKEN)
    assert output.getvalue() == ""
    assert second.getvalue().count("once") == 1
    assert TOKEN not in second.getvalue()


def test_redact_leaves_ordinary_text_alone() -> None:
    """Ids, hashes and dotted names are not mistaken for tokens."""
    text = "user 123456789012345678 in guild 987654321098765432 (sha 3f2a9c1e) bot.client"
    assert redact(text) == text
    assert redact(f"({TOKEN})", ()) == f"({REDACTED})"
    assert redact("secret-value here", ("secret-value",)) == f"{REDACTED} here"
