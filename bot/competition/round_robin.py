"""Round robin schedules by the circle (Berger) method, single or double.

The players sit in seed order; the last seat of the circle stays put and the others
turn by one each round, so every pair meets once per cycle. With an odd field the
fixed place is empty and whoever faces it rests that round (a rest is no bye: it scores
nothing, everyone rests once per cycle).

Colours: after every round each player has had the first seat in half their games,
give or take one, and nobody has the same seat three times running. A double round
robin plays the first cycle's rounds again in reverse order with the seats swapped:
the last round of the first cycle is played back at once with colours reversed, and
that mirror is what keeps colours within one at every round (replaying the cycle in
its own order, as FIDE's tables do, lets a difference reach two mid-cycle).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.competition.records import Pairing, PlayerId


def rounds_per_cycle(field: int) -> int:
    """The rounds one cycle takes for `field` players."""
    if field < 2:
        raise ValueError("a round robin needs at least two players")
    return field - 1 if field % 2 == 0 else field


def round_count(field: int, cycles: int = 1) -> int:
    """The rounds of a round robin of `field` players over `cycles` cycles."""
    _check_cycles(cycles)
    return rounds_per_cycle(field) * cycles


def round_pairings(
    players: Sequence[PlayerId], round_number: int, cycles: int = 1
) -> tuple[Pairing, ...]:
    """The games of round `round_number` (from 1); `players` in seed order."""
    turns = rounds_per_cycle(len(players))
    if not 1 <= round_number <= round_count(len(players), cycles):
        raise ValueError(f"round {round_number} is not in this round robin")
    cycle, turn = divmod(round_number - 1, turns)
    mirrored = cycle % 2 == 1
    if mirrored:
        turn = turns - 1 - turn
    pairings = []
    for up, down in _circle_pairs(len(players), turn):
        if up >= len(players) or down >= len(players):
            continue  # the empty place of an odd field: a rest
        first, second = (down, up) if mirrored else (up, down)
        pairings.append(Pairing(round_number, players[first], players[second]))
    return tuple(pairings)


def schedule(players: Sequence[PlayerId], cycles: int = 1) -> tuple[tuple[Pairing, ...], ...]:
    """Every round's games, in order."""
    return tuple(
        round_pairings(players, number, cycles)
        for number in range(1, round_count(len(players), cycles) + 1)
    )


def _circle_pairs(field: int, turn: int) -> list[tuple[int, int]]:
    """Seat pairs (first, second) of one turn of the circle; index `field` may be empty."""
    places = field + field % 2  # even
    circle = places - 1  # the turning places 0..circle-1; place `circle` stays fixed
    fixed = circle
    # The fixed place alternates seats; the top seed has the first seat in round one.
    pairs = [(turn, fixed) if turn % 2 == 0 else (fixed, turn)]
    for step in range(1, places // 2):
        up, down = (turn + step) % circle, (turn - step) % circle
        # Odd steps give the first seat to the player ahead, even steps to the one
        # behind: over a cycle each player meets every step once from either side,
        # which balances their seats to within one.
        pairs.append((up, down) if step % 2 else (down, up))
    return pairs


def _check_cycles(cycles: int) -> None:
    """Reject a number of cycles other than one or more."""
    if cycles < 1:
        raise ValueError(f"a round robin has at least one cycle, not {cycles}")
