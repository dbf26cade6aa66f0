"""Shards as operators write them: `TABULA_SHARD_IDS` like `0-1`, `2` or `0,3`.

Discord sends each server's events to one shard, `(guild_id >> 22) % shard count`, and
direct messages to shard 0. A process runs some shards (`ShardFilter`) and holds the
announcements it delivers under a name made from them (`owner_name`), the same at every
start, so that a restarted process releases what it held when it stopped.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.repository import ShardFilter

UNSHARDED_OWNER = "tabula"
"""The owner name of a process that runs the bot's only shard."""
MAX_SHARDS = 4096


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """`0-1`, `2`, `0,3`, `0-3,6` → the shard numbers, sorted; `ValueError` otherwise."""
    found: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"{part!r} is not a shard number or a range like 0-3")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"the range {part!r} runs backwards")
        if last >= MAX_SHARDS:
            raise ValueError(f"shard {last} is beyond the largest, {MAX_SHARDS - 1}")
        found.update(range(first, last + 1))
    return tuple(sorted(found))


def format_shard_ids(ids: Iterable[int]) -> str:
    """The shortest way to write the shards: runs as ranges (`0-2,5`)."""
    ordered = sorted(set(ids))
    parts: list[str] = []
    start = previous = None
    for number in [*ordered, None]:
        if number is not None and previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None and previous is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    return ",".join(parts)


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends a server's events to."""
    return (guild_id >> 22) % count


def owner_name(shards: ShardFilter | None) -> str:
    """The stable name a process holds announcements under: `shards-0-1`, or `tabula`."""
    if shards is None:
        return UNSHARDED_OWNER
    return f"shards-{format_shard_ids(shards.ids)}"


__all__ = ["format_shard_ids", "owner_name", "parse_shard_ids", "shard_of"]
