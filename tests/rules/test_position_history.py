"""PositionHistory: shared, append-only position sets for immutable states."""

from __future__ import annotations

import copy
import pickle
import threading

from rules.position_history import PositionHistory


def test_a_line_of_play_sees_its_positions_with_their_plies() -> None:
    """Each extension adds one position and remembers the ply it first arose."""
    history = PositionHistory.of([(10, 0)])
    later = history.with_position(20, 1).with_position(30, 2)
    assert 20 in later and 30 in later and 10 in later
    assert later.ply_of(30) == 2 and later.ply_of(10) == 0
    assert later.ply_of(99) is None
    assert len(later) == 3
    assert later.entries() == [(10, 0), (20, 1), (30, 2)]
    assert later.with_position(20, 5) is later
    assert later.is_new(40) and not later.is_new(20)


def test_branches_do_not_see_each_other() -> None:
    """Two extensions of one history, and the history itself, stay independent."""
    root = PositionHistory.of([(1, 0), (2, 1)])
    left = root.with_position(3, 2)
    right = root.with_position(4, 2)
    deeper_left = left.with_position(5, 3)
    deeper_right = right.with_position(3, 3)
    assert 3 not in root and 4 not in root
    assert 4 not in left and 4 not in deeper_left
    assert 3 not in right and 5 not in right
    assert deeper_right.ply_of(3) == 3
    assert left.ply_of(3) == 2
    assert deeper_left.entries() == [(1, 0), (2, 1), (3, 2), (5, 3)]
    assert deeper_right.entries() == [(1, 0), (2, 1), (4, 2), (3, 3)]


def test_equality_ignores_how_the_history_was_stored() -> None:
    """Histories with the same entries are equal and hash alike; others differ."""
    built = PositionHistory.of([(1, 0)]).with_position(2, 1).with_position(3, 2)
    restored = PositionHistory.of([(3, 2), (1, 0), (2, 1)])
    assert built == restored
    assert hash(built) == hash(restored)
    assert built != PositionHistory.of([(1, 0), (2, 1), (3, 5)])
    assert built != PositionHistory.of([(1, 0), (2, 1)])


def test_threads_extending_one_history_each_get_their_own_line() -> None:
    """Concurrent extensions of the same history never leak into one another."""
    root = PositionHistory.of([(0, 0)])
    results: dict[int, PositionHistory] = {}

    def extend(key: int) -> None:
        history = root
        for step in range(200):
            history = history.with_position(key * 1000 + step, step + 1)
        results[key] = history

    threads = [threading.Thread(target=extend, args=(key,)) for key in range(1, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for key, history in results.items():
        assert history.entries() == [(0, 0)] + [(key * 1000 + s, s + 1) for s in range(200)]
    assert root.entries() == [(0, 0)]


def test_pickle_and_deepcopy_rebuild_the_history() -> None:
    """A history survives pickling and deep copies, as states sent to a worker need."""
    history = PositionHistory.of([(1, 0)]).with_position(2, 1)
    for clone in (pickle.loads(pickle.dumps(history)), copy.deepcopy(history)):
        assert clone == history
        assert clone.entries() == [(1, 0), (2, 1)]
        assert clone.with_position(3, 2).entries() == [(1, 0), (2, 1), (3, 2)]
    assert history.entries() == [(1, 0), (2, 1)]
