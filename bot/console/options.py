"""Reading the `key=value` arguments typed at the console; Discord's `key:value` works too."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from bot.services.errors import InvalidInputError

_OPTION = re.compile(r"(?P<key>[A-Za-z_][\w-]*)[=:](?P<value>.*)", re.DOTALL)


def split_option(arg: str) -> tuple[str, str] | None:
    """`("size", "13")` for `size=13` or `size:13` (the key lower-cased); None otherwise."""
    match = _OPTION.fullmatch(arg.strip())
    if match is None:
        return None
    return match["key"].lower(), match["value"].strip()


def unnamed(arg: str, key: str) -> str:
    """`arg` without a leading `key=` or `key:` (Discord's `game:groups` is `groups`)."""
    option = split_option(arg)
    return option[1] if option is not None and option[0] == key else arg


def read_settings(args: Iterable[str], keys: Mapping[str, str], usage: str) -> dict[str, str]:
    """Settings typed as `key=value` or `key:value`, by their canonical key.

    `keys` maps every accepted spelling (the console's short name and Discord's option
    name, say `period` and `digest_period`) to the canonical key; anything else raises
    `InvalidInputError` with `usage`.
    """
    changes: dict[str, str] = {}
    for arg in args:
        option = split_option(arg)
        if option is None or option[0] not in keys:
            raise InvalidInputError(f"{arg!r}: {usage}")
        changes[keys[option[0]]] = option[1]
    return changes
