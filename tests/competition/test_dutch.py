"""The Dutch system's own decisions, one criterion at a time, on hand-made brackets."""

from __future__ import annotations

from collections.abc import Iterable

from bot.competition.colours import FIRST, SECOND, preference
from bot.competition.dutch import exchanges, pair_dutch
from bot.competition.dutch_colours import allocate
from bot.competition.swiss_players import Entry, Float

DOWN = Float.DOWN


def field(*players: tuple[int, float, tuple[int, ...]], **extra: dict[int, object]) -> list[Entry]:
    """Entries in pairing order from (player, points, seats); `extra` sets fields by player:
    floats={3: (DOWN, None)}, byes={5: 1}, top={1: True}."""
    entries = []
    groups: dict[int, int] = {}
    for _, points, _ in players:
        groups[round(points * 2)] = groups.get(round(points * 2), 0) + 1
    seen: dict[int, int] = {}
    for rank, (player, points, seats) in enumerate(players):
        half = round(points * 2)
        floats = extra.get("floats", {}).get(player, (None, None))
        entries.append(
            Entry(
                player=player,
                rank=rank,
                pairing_number=player,
                half_points=half,
                level=sorted(groups, reverse=True).index(half),
                group_position=seen.get(half, 0),
                group_size=groups[half],
                seats=seats,
                preference=preference(seats),
                scored_without_playing=int(extra.get("byes", {}).get(player, 0)),  # type: ignore[call-overload]
                floats=floats,  # type: ignore[arg-type]
                top_scorer=bool(extra.get("top", {}).get(player, False)),
                unplayed=0,
            )
        )
        seen[half] = seen.get(half, 0) + 1
    return entries


def met(*pairs: tuple[int, int]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(pair) for pair in pairs)


def pairs_of(
    entries: list[Entry], history: Iterable[tuple[int, int]] = ()
) -> tuple[set[tuple[int, int]], int | None]:
    """(pairs as (higher-ranked, lower-ranked), the bye) of the Dutch pairing."""
    found = pair_dutch(entries, met(*history))
    assert found is not None
    made, bye = found
    return {(a.player, b.player) for a, b in made}, (bye.player if bye else None)


def test_exchanges_come_in_the_prescribed_order() -> None:
    """S1 = BSNs 1-2, S2 = 3-4 (positions from 0): fewest players exchanged; then the
    smallest difference of BSN sums; then the highest BSN leaving S1; then the lowest
    entering it."""
    assert list(exchanges(2, 2)) == [
        ((), ()),
        ((1,), (2,)),
        ((1,), (3,)),
        ((0,), (2,)),
        ((0,), (3,)),
        ((0, 1), (2, 3)),
    ]


def test_transpositions_of_s2_in_lexicographic_order() -> None:
    """Six players on one score, 1 has met 4: S1 = 1 2 3 against S2 = 4 5 6 fails, and the
    first transposition of S2 that works is 5 4 6: 1-5, 2-4, 3-6 (not 1-6 2-4 3-5, as
    good on every criterion but later in the order)."""
    entries = field(*((p, 1.0, ()) for p in range(1, 7)))
    assert pairs_of(entries, [(1, 4)]) == ({(1, 5), (2, 4), (3, 6)}, None)


def test_exchange_when_no_transposition_works() -> None:
    """1 has met 4, 5 and 6: no transposition pairs 1 in S2, so an exchange follows, and
    the first in order swaps BSN 3 and 4: S1 = 1 2 4, S2 = 3 5 6, giving 1-3, 2-5, 4-6."""
    entries = field(*((p, 1.0, ()) for p in range(1, 7)))
    assert pairs_of(entries, [(1, 4), (1, 5), (1, 6)]) == ({(1, 3), (2, 5), (4, 6)}, None)


def test_colour_preferences_come_before_float_history() -> None:
    """Residents 1, 2, 3 on one point, 4 on none. 1 and 3 are due the first seat, 2 the
    second; 3 floated down last round; 1 has met 4, so 1 cannot float. Pairing 1-3 and
    floating 2 would spare 3 a second downfloat (C14), but leaves 1 or 3 without their
    colour (C12, which comes first): the Dutch system pairs 1-2 and floats 3 to 4."""
    entries = field(
        (1, 1.0, (SECOND,)),
        (2, 1.0, (FIRST,)),
        (3, 1.0, (SECOND,)),
        (4, 0.0, (FIRST,)),
        floats={3: (DOWN, None)},
    )
    assert pairs_of(entries, [(1, 4)]) == ({(1, 2), (3, 4)}, None)


def test_float_history_decides_when_colours_tie() -> None:
    """The same bracket where 1 may float: pairing 2-3 and floating 1 meets every colour
    preference and repeats no float, so the Dutch system takes it over 1-2 (an exchange
    beats a transposition when it is better on a criterion)."""
    entries = field(
        (1, 1.0, (SECOND,)),
        (2, 1.0, (FIRST,)),
        (3, 1.0, (SECOND,)),
        (4, 0.0, (FIRST,)),
        floats={3: (DOWN, None)},
    )
    assert pairs_of(entries) == ({(2, 3), (1, 4)}, None)


def test_bye_goes_to_the_lowest_eligible_score() -> None:
    """Five players: 4 and 5 are lowest, but 5 has had a bye: the bye goes to 4, and 3
    (moved down) meets 5."""
    entries = field(
        (1, 1.0, (FIRST,)),
        (2, 1.0, (SECOND,)),
        (3, 0.5, (FIRST,)),
        (4, 0.0, (SECOND,)),
        (5, 0.0, ()),
        byes={5: 1},
    )
    assert pairs_of(entries) == ({(1, 2), (3, 5)}, 4)


def test_bye_never_goes_to_the_leader_while_a_lower_score_can_take_it() -> None:
    """Everyone below the leader has had a bye but 4 on one point, whose only possible
    opponents are the others: the bye goes to 4, not to the leader 1 (C4 with C2)."""
    entries = field(
        (1, 3.0, (FIRST, SECOND, FIRST)),
        (2, 2.0, (SECOND, FIRST)),
        (3, 2.0, (FIRST, SECOND)),
        (4, 1.0, (SECOND, FIRST, SECOND)),
        (5, 1.0, (FIRST, SECOND)),
        byes={2: 1, 3: 1, 5: 1},
    )
    assert pairs_of(entries)[1] == 4


def test_top_scorers_meet_in_the_last_round_despite_absolute_preferences() -> None:
    """1 and 2 lead and both had the second seat twice running: two such players may not
    meet (C3) unless they are top scorers in the last round. As top scorers they meet,
    and the higher-ranked 1 gets the first seat."""
    seats = (FIRST, SECOND, SECOND)
    ordinary = field(
        (1, 3.0, seats),
        (2, 3.0, seats),
        (3, 1.0, (FIRST, SECOND, FIRST)),
        (4, 0.0, (SECOND, FIRST, FIRST)),
    )
    assert (1, 2) not in pairs_of(ordinary)[0]
    top = field(
        (1, 3.0, seats),
        (2, 3.0, seats),
        (3, 1.0, (FIRST, SECOND, FIRST)),
        (4, 0.0, (SECOND, FIRST, FIRST)),
        top={1: True, 2: True},
    )
    assert (1, 2) in pairs_of(top)[0]
    one, two = top[0], top[1]
    assert allocate(one, two) == (one, two)


def test_colour_allocation_rules_in_order() -> None:
    """Both preferences granted; else the stronger (strong over mild, absolute over
    strong); else alternate from the latest round the two differed; else the higher
    player's preference; else the higher player's pairing number (odd: first seat)."""
    a, b = field((1, 1.0, (SECOND,)), (2, 1.0, (FIRST,)))
    assert allocate(a, b) == (a, b)
    mild, strong = field((1, 1.0, (FIRST, SECOND)), (2, 1.0, (SECOND, FIRST, SECOND)))
    assert preference(mild.seats).seat == preference(strong.seats).seat == FIRST
    assert allocate(mild, strong) == (strong, mild)
    strong, absolute = field((1, 1.0, (SECOND,)), (2, 1.0, (FIRST, SECOND, SECOND)))
    assert allocate(strong, absolute) == (absolute, strong)
    x, y = field((1, 1.0, (SECOND, FIRST, SECOND, FIRST)), (2, 1.0, (FIRST, SECOND, SECOND, FIRST)))
    # Both mildly due the second seat; they last differed in their second games, when 1
    # had the first seat and 2 the second: now 1 takes the second seat, 2 the first.
    assert allocate(x, y) == (y, x)
    # Seats alike all along: the higher-ranked player's preference (the second seat).
    x, y = field((1, 1.0, (SECOND, FIRST)), (2, 1.0, (SECOND, FIRST)))
    assert allocate(x, y) == (y, x)
    odd, even = field((1, 0.0, ()), (2, 0.0, ()))
    assert allocate(odd, even) == (odd, even)
    even, odd = field((2, 0.0, ()), (3, 0.0, ()))
    assert allocate(even, odd) == (odd, even)
