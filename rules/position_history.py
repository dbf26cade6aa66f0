"""The set of earlier positions of a game, shared between immutable states without copying."""

from __future__ import annotations

import threading
from collections.abc import Iterable


class _Log:
    """Append-only storage behind one or more `PositionHistory` views."""

    __slots__ = ("index", "keys", "lock", "plies")

    def __init__(self, entries: Iterable[tuple[int, int]] = ()) -> None:
        self.keys: list[int] = []
        self.plies: list[int] = []
        self.index: dict[int, int] = {}
        """Position key -> its place in `keys`."""
        self.lock = threading.Lock()
        for key, ply in entries:
            self.append(key, ply)

    def append(self, key: int, ply: int) -> None:
        self.index[key] = len(self.keys)
        self.keys.append(key)
        self.plies.append(ply)


class PositionHistory:
    """The keys (e.g. Zobrist hashes) of every position of a game so far, with their plies.

    States are immutable but must not copy the whole history on every move. A history is
    a view of the first `length` entries of an append-only log. Extending a history
    appends to its log in place when the log has no entries beyond the view (the usual
    case: a game going forward), so a move costs O(1). When another line of play already
    extended that log (a state played twice, as an AI search or an undo does), the view's
    entries are copied once into a new log, which that line then extends in place.
    Entries inside a view never change, so every state keeps seeing exactly its own
    history, and a lookup is one dict probe. Extending is safe across threads.
    """

    __slots__ = ("_log", "digest", "length")

    def __init__(self, log: _Log, length: int, digest: int) -> None:
        self._log = log
        self.length = length
        """How many positions the history holds."""
        self.digest = digest
        """XOR of all the position keys (maintained in O(1), used for hashing)."""

    @classmethod
    def of(cls, entries: Iterable[tuple[int, int]]) -> PositionHistory:
        """A history of (position key, ply) entries; a repeated key keeps its first ply."""
        log = _Log()
        digest = 0
        for key, ply in entries:
            if key not in log.index:
                log.append(key, ply)
                digest ^= key
        return cls(log, len(log.keys), digest)

    def __contains__(self, key: object) -> bool:
        index = self._log.index.get(key)  # type: ignore[call-overload]
        return index is not None and index < self.length

    def is_new(self, key: int) -> bool:
        """True when position `key` has not occurred (the fast form of `key not in self`)."""
        index = self._log.index.get(key)
        return index is None or index >= self.length

    def ply_of(self, key: int) -> int | None:
        """The ply at which position `key` first arose, or None if it never did."""
        index = self._log.index.get(key)
        if index is None or index >= self.length:
            return None
        return self._log.plies[index]

    def with_position(self, key: int, ply: int) -> PositionHistory:
        """This history plus position `key` reached at `ply` (itself if already present)."""
        if key in self:
            return self
        log = self._log
        with log.lock:
            if len(log.keys) == self.length:
                log.append(key, ply)
                return PositionHistory(log, self.length + 1, self.digest ^ key)
        log = _Log(self.entries())
        log.append(key, ply)
        return PositionHistory(log, self.length + 1, self.digest ^ key)

    def entries(self) -> list[tuple[int, int]]:
        """(position key, ply) pairs in the order the positions arose."""
        log = self._log
        return list(zip(log.keys[: self.length], log.plies[: self.length], strict=True))

    def __len__(self) -> int:
        return self.length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PositionHistory):
            return NotImplemented
        return (
            self.length == other.length
            and self.digest == other.digest
            and sorted(self.entries()) == sorted(other.entries())
        )

    def __hash__(self) -> int:
        return hash((self.length, self.digest))

    def __repr__(self) -> str:
        return f"<PositionHistory of {self.length} positions>"

    def __reduce__(self) -> tuple[object, tuple[list[tuple[int, int]]]]:
        # The shared log holds a lock, which cannot be pickled or deep-copied: rebuild.
        return PositionHistory.of, (self.entries(),)
