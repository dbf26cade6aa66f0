"""Clock time with pauses: merging, counting, and when an allowance runs out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.services.correspondence.pauses import Pause, counted, merged, paused_at, runs_out

T0 = datetime(2025, 5, 1, tzinfo=UTC)
H = timedelta(hours=1)


def at(hours: float) -> datetime:
    return T0 + hours * H


def test_merged_joins_overlapping_and_touching_pauses() -> None:
    """Overlapping and touching pauses become one; empty ones vanish; order is by start."""
    pauses = [Pause(at(5), at(7)), Pause(at(1), at(3)), Pause(at(2), at(4)), Pause(at(7), at(8)),
              Pause(at(9), at(9))]  # fmt: skip
    assert merged(pauses) == [Pause(at(1), at(4)), Pause(at(5), at(8))]


def test_counted_leaves_out_pauses_inside_and_across_the_edges() -> None:
    """Only the time outside pauses counts, also for pauses sticking out of the span."""
    pauses = [Pause(at(-2), at(1)), Pause(at(3), at(4)), Pause(at(9), at(12))]
    assert counted(at(0), at(10), pauses) == 10 * H - 1 * H - 1 * H - 1 * H
    assert counted(at(0), at(10), []) == 10 * H
    assert counted(at(5), at(4), []) == timedelta()


def test_runs_out_skips_pauses() -> None:
    """A 10 h allowance from 0 with pauses 2-5 and 8-9 runs out at 14 h."""
    pauses = [Pause(at(8), at(9)), Pause(at(2), at(5))]
    assert runs_out(at(0), 10 * H, pauses) == at(14)
    assert runs_out(at(0), 2 * H, pauses) == at(2)  # exactly when the pause begins
    assert runs_out(at(3), 1 * H, pauses) == at(6)  # started inside a pause
    assert runs_out(at(0), 10 * H, []) == at(10)


def test_paused_at() -> None:
    """The merged pause a moment falls in (start included, end excluded)."""
    pauses = [Pause(at(1), at(3)), Pause(at(2), at(5))]
    assert paused_at(at(1), pauses) == Pause(at(1), at(5))
    assert paused_at(at(5), pauses) is None


pause_lists = st.lists(
    st.tuples(st.integers(-50, 200), st.integers(0, 60)).map(
        lambda p: Pause(at(p[0]), at(p[0] + p[1]))
    ),
    max_size=6,
)


@given(pause_lists, st.integers(0, 300))
def test_runs_out_is_the_inverse_of_counted(pauses: list[Pause], hours: int) -> None:
    """The clock has counted exactly the allowance when it runs out, and not a moment
    earlier outside a pause."""
    allowance = hours * H
    end = runs_out(T0, allowance, pauses)
    assert counted(T0, end, pauses) == allowance
    if allowance:
        assert counted(T0, end - timedelta(seconds=1), pauses) < allowance
