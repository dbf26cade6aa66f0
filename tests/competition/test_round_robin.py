"""Round robin schedules: every pair once per cycle, balanced colours, fair rests."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.competition import round_robin
from bot.competition.colours import colour_difference, longest_run


def seats_of(schedule) -> list[tuple[int, int, int]]:
    """(round, first, second) for every game of a schedule."""
    return [(p.round, p.first, p.second) for games in schedule for p in games]


def test_four_players_exact_schedule() -> None:
    """The circle method on four players, round by round, with seats."""
    schedule = round_robin.schedule([1, 2, 3, 4])
    assert seats_of(schedule) == [
        (1, 1, 4),
        (1, 2, 3),
        (2, 4, 2),
        (2, 3, 1),
        (3, 3, 4),
        (3, 1, 2),
    ]


def test_double_round_robin_mirrors_the_first_cycle() -> None:
    """The second cycle plays the first cycle's rounds backwards with seats swapped."""
    schedule = round_robin.schedule([1, 2, 3, 4], cycles=2)
    assert len(schedule) == 6
    assert seats_of(schedule[3:]) == [
        (4, 4, 3),
        (4, 2, 1),
        (5, 2, 4),
        (5, 1, 3),
        (6, 4, 1),
        (6, 3, 2),
    ]


def test_three_players_rest_in_turn() -> None:
    """An odd field: one game a round, everyone rests exactly once."""
    schedule = round_robin.schedule([7, 8, 9])
    assert [len(games) for games in schedule] == [1, 1, 1]
    playing = [set(games[0].players) for games in schedule]
    assert sorted(({7, 8, 9} - both).pop() for both in playing) == [7, 8, 9]


@pytest.mark.parametrize(("field", "cycles", "rounds"), [(2, 1, 1), (5, 1, 5), (8, 2, 14)])
def test_round_count(field: int, cycles: int, rounds: int) -> None:
    """n − 1 rounds per cycle for an even field, n for an odd one."""
    assert round_robin.round_count(field, cycles) == rounds
    assert len(round_robin.schedule(list(range(field)), cycles)) == rounds


def test_bad_requests_are_refused() -> None:
    """One player, zero cycles or a round outside the schedule are errors."""
    with pytest.raises(ValueError, match="at least two players"):
        round_robin.schedule([1])
    with pytest.raises(ValueError, match="at least one cycle"):
        round_robin.schedule([1, 2], cycles=0)
    with pytest.raises(ValueError, match="round 4 is not in this round robin"):
        round_robin.round_pairings([1, 2, 3, 4], 4)


@given(st.integers(2, 33), st.sampled_from([1, 2]))
def test_schedule_properties(field: int, cycles: int) -> None:
    """Each pair meets once per cycle, colours swap, stay within one, rests are fair."""
    players = [1000 + 7 * i for i in range(field)]
    schedule = round_robin.schedule(players, cycles)
    meetings: dict[frozenset[int], list[tuple[int, int]]] = {}
    histories: dict[int, list[int]] = {player: [] for player in players}
    rests: Counter[int] = Counter()
    for number, games in enumerate(schedule, start=1):
        busy = [player for game in games for player in game.players]
        assert len(busy) == len(set(busy)), "a player twice in one round"
        assert all(game.round == number and not game.is_bye for game in games)
        assert len(games) == field // 2
        rests.update(set(players) - set(busy))
        for game in games:
            assert game.second is not None
            meetings.setdefault(frozenset(game.players), []).append((game.first, game.second))
            histories[game.first].append(0)
            histories[game.second].append(1)
        assert all(abs(colour_difference(seats)) <= 1 for seats in histories.values())
    assert len(meetings) == field * (field - 1) // 2
    for seats in meetings.values():
        assert len(seats) == cycles
        if cycles == 2:
            assert seats[1] == (seats[0][1], seats[0][0]), "colours not swapped"
    assert all(longest_run(history) <= 2 for history in histories.values())
    if field % 2:
        assert rests == Counter(dict.fromkeys(players, cycles))
    else:
        assert not rests
