"""The bot process's garbage collector settings."""

from __future__ import annotations

import gc

from bot.runtime import GC_THRESHOLDS, tune_garbage_collector


def test_the_bot_collects_young_objects_less_often() -> None:
    """The thresholds are raised from Python's defaults, and the old ones are returned."""
    original = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        assert tune_garbage_collector() == (700, 10, 10)
        assert gc.get_threshold() == GC_THRESHOLDS
        assert GC_THRESHOLDS[0] > 700
    finally:
        gc.set_threshold(*original)
