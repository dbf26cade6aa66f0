"""Single elimination: a bracket seeded by rating, byes to the top seeds.

The bracket has the next power of two of places; seeds sit in the standard order
(1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight), so seeds 1 and 2 can only meet in the final and
the empty places, the byes, fall to the top seeds. Each later round pairs the winners
of neighbouring matches.

A drawn game is replayed at once with the seats reversed; if the replay is drawn too,
the better seed goes through (`MAX_GAMES`). A player who withdraws loses the match in
hand by forfeit and leaves an empty place: their next opponent goes through on a bye.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.competition.colours import FIRST, colour_difference, seat_histories
from bot.competition.records import Pairing, PlayerId, Result
from bot.competition.scoring import records
from bot.competition.standings import Standing, ranked

MAX_GAMES = 2
"""Games a match may take: the game and one replay after a draw; then the better seed wins."""


@dataclass(frozen=True, slots=True)
class Match:
    """One place of a bracket round: two sides, their games, and the winner once decided."""

    round: int
    """The round, counted from 1."""
    slot: int
    """The match's place in the round, from the top of the bracket (0 first)."""
    top: PlayerId | None
    """The better-seeded side, or None for an empty place."""
    bottom: PlayerId | None
    """The other side, or None for an empty place (a bye for `top`)."""
    games: tuple[Pairing, ...] = ()
    """The match's games so far, in order."""
    winner: PlayerId | None = None
    """Who goes through; None while undecided or when both places are empty."""
    decided: bool = False
    """True once the match is over."""


def bracket_size(field: int) -> int:
    """The places in the bracket: the smallest power of two holding `field` players."""
    if field < 2:
        raise ValueError("an elimination bracket needs at least two players")
    return 1 << (field - 1).bit_length()


def round_count(field: int) -> int:
    """The rounds needed to find a winner among `field` players."""
    return bracket_size(field).bit_length() - 1


def bracket_order(size: int) -> list[int]:
    """Seed numbers (from 1) in bracket order, so that seeds 1 and 2 meet last."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two of places, not {size}")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def rounds_of(
    players: Sequence[PlayerId],
    pairings: Iterable[Pairing],
    *,
    withdrawn: Iterable[PlayerId] = (),
    max_games: int = MAX_GAMES,
) -> list[list[Match]]:
    """The bracket as far as it has been paired: each round's matches, top to bottom."""
    by_round: dict[int, list[Pairing]] = {}
    for pairing in pairings:
        by_round.setdefault(pairing.round, []).append(pairing)
    seed = {player: index for index, player in enumerate(players)}
    gone = set(withdrawn)
    sides: list[tuple[PlayerId | None, PlayerId | None]] = list(_first_round_sides(players))
    rounds: list[list[Match]] = []
    for number in range(1, round_count(len(players)) + 1):
        if number not in by_round:
            break
        matches = [
            _match(
                number,
                slot,
                top,
                bottom,
                by_round[number],
                seed=seed,
                gone=gone,
                max_games=max_games,
            )
            for slot, (top, bottom) in enumerate(sides)
        ]
        rounds.append(matches)
        if len(matches) == 1 or not all(match.decided for match in matches):
            break
        sides = _next_sides(matches, seed)
    return rounds


def round_pairings(
    players: Sequence[PlayerId],
    pairings: Iterable[Pairing],
    round_number: int,
    *,
    withdrawn: Iterable[PlayerId] = (),
) -> tuple[Pairing, ...]:
    """The pairings that open round `round_number`, once the round before is decided.

    A withdrawn player's place is empty: their opponent gets a bye.
    """
    history = tuple(pairings)
    gone = set(withdrawn)
    if not 1 <= round_number <= round_count(len(players)):
        raise ValueError(f"round {round_number} is not in this bracket")
    rounds = rounds_of(players, history, withdrawn=gone)
    if len(rounds) >= round_number:
        raise ValueError(f"round {round_number} has been paired already")
    if round_number == 1:
        sides: list[tuple[PlayerId | None, PlayerId | None]] = list(_first_round_sides(players))
    else:
        if len(rounds) != round_number - 1 or not all(m.decided for m in rounds[-1]):
            raise ValueError(f"round {round_number - 1} must be decided first")
        sides = _next_sides(rounds[-1], {player: i for i, player in enumerate(players)})
    histories = seat_histories(history)
    opening = []
    for slot, (top, bottom) in enumerate(sides):
        present = [side for side in (top, bottom) if side is not None and side not in gone]
        if len(present) == 1:
            opening.append(Pairing(round_number, present[0]))
        elif len(present) == 2:
            first, second = _opening_seats(present[0], present[1], slot, histories)
            opening.append(Pairing(round_number, first, second))
    return tuple(opening)


def replays(
    players: Sequence[PlayerId],
    pairings: Iterable[Pairing],
    *,
    withdrawn: Iterable[PlayerId] = (),
    max_games: int = MAX_GAMES,
) -> tuple[Pairing, ...]:
    """The replays due now: one per match of the current round whose last game was drawn."""
    rounds = rounds_of(players, pairings, withdrawn=withdrawn, max_games=max_games)
    if not rounds:
        return ()
    due = []
    for match in rounds[-1]:
        last = match.games[-1] if match.games else None
        if match.decided or last is None or last.second is None or not last.is_finished:
            continue
        due.append(Pairing(last.round, last.second, last.first))
    return tuple(due)


def seed_decision(
    players: Sequence[PlayerId],
    pairings: Iterable[Pairing],
    game: Pairing,
    *,
    withdrawn: Iterable[PlayerId] = (),
) -> Match | None:
    """The match `game` ended by a draw that sent the better seed through (the match's
    last game allowed, drawn), or None when `game` did not decide a match that way."""
    if game.result is not Result.DRAW:
        return None
    for matches in rounds_of(players, pairings, withdrawn=withdrawn):
        for match in matches:
            if match.decided and match.winner is not None and match.games[-1:] == (game,):
                return match
    return None


def eliminated_before(
    players: Sequence[PlayerId],
    pairings: Iterable[Pairing],
    round_number: int,
    *,
    withdrawn: Iterable[PlayerId] = (),
) -> set[PlayerId]:
    """The players knocked out in the rounds before `round_number`."""
    out: set[PlayerId] = set()
    for matches in rounds_of(players, pairings, withdrawn=withdrawn)[: round_number - 1]:
        for match in matches:
            for side in (match.top, match.bottom):
                if match.decided and side is not None and side != match.winner:
                    out.add(side)
    return out


def stage_name(round_number: int, rounds: int) -> str:
    """A round's name: "the final", "the semi-final", "the quarter-final", "round 2"."""
    stage = _stage(round_number, rounds)
    return stage if stage.startswith("round") else f"the {stage}"


def standings(
    players: Sequence[PlayerId],
    pairings: Iterable[Pairing],
    *,
    withdrawn: Iterable[PlayerId] = (),
    max_games: int = MAX_GAMES,
) -> tuple[Standing, ...]:
    """Players ranked by how far they went; the losers of one round share their place."""
    history = tuple(pairings)
    gone = set(withdrawn)
    total = round_count(len(players))
    rounds = rounds_of(players, history, withdrawn=gone, max_games=max_games)
    reached = dict.fromkeys(players, 0)
    still_in = dict.fromkeys(players, 0)
    for matches in rounds:
        for match in matches:
            for side in (match.top, match.bottom):
                if side is None:
                    continue
                reached[side] = match.round
                out = match.decided and match.winner != side
                still_in[side] = 0 if out or side in gone else 1
    champion = rounds[-1][0].winner if len(rounds) == total and rounds[-1][0].decided else None
    notes = {player: _stage(reached[player], total) for player in players}
    if champion is not None:
        reached[champion] = total + 1
        notes[champion] = "winner"
    return ranked(
        players,
        records(players, history, bye_points=0.0),
        key=lambda player: (reached[player], still_in[player]),
        withdrawn=gone,
        notes=notes,
    )


def _first_round_sides(players: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId | None]]:
    """Round one's sides from the seeding; seeds beyond the field are byes."""
    order = bracket_order(bracket_size(len(players)))
    sides: list[tuple[PlayerId, PlayerId | None]] = []
    for i in range(0, len(order), 2):
        top, bottom = order[i], order[i + 1]
        sides.append((players[top - 1], players[bottom - 1] if bottom <= len(players) else None))
    return sides


def _match(
    number: int,
    slot: int,
    top: PlayerId | None,
    bottom: PlayerId | None,
    pairings: list[Pairing],
    *,
    seed: dict[PlayerId, int],
    gone: set[PlayerId],
    max_games: int,
) -> Match:
    """A match with its games (found in the round's pairings) and its state."""
    sides = [side for side in (top, bottom) if side is not None]
    for pairing in pairings:
        if pairing.is_bye and pairing.first in sides:
            return Match(number, slot, top, bottom, (), pairing.first, decided=True)
    games = tuple(
        pairing
        for pairing in pairings
        if pairing.second is not None and set(pairing.players) == set(sides)
    )
    if not games:
        # Nobody to play: an empty place, or sides that withdrew before the round.
        if len(sides) < 2 or all(side in gone for side in sides):
            present = [side for side in sides if side not in gone]
            return Match(number, slot, top, bottom, (), present[0] if present else None, True)
        return Match(number, slot, top, bottom)
    if not games[-1].is_finished:
        return Match(number, slot, top, bottom, games)
    last = games[-1]
    if last.result is Result.DOUBLE_FORFEIT:
        return Match(number, slot, top, bottom, games, None, decided=True)
    winner = last.winner()
    if winner is None and len(games) >= max_games:
        winner = min(sides, key=seed.__getitem__)
    return Match(number, slot, top, bottom, games, winner, decided=winner is not None)


def _next_sides(
    matches: list[Match], seed: dict[PlayerId, int]
) -> list[tuple[PlayerId | None, PlayerId | None]]:
    """The next round's sides: the winners of neighbouring matches, better seed on top."""
    sides = []
    for upper, lower in zip(matches[::2], matches[1::2], strict=True):
        one, other = upper.winner, lower.winner
        if one is None or (other is not None and seed[other] < seed[one]):
            one, other = other, one
        sides.append((one, other))
    return sides


def _opening_seats(
    top: PlayerId, bottom: PlayerId, slot: int, histories: dict[PlayerId, list[int]]
) -> tuple[PlayerId, PlayerId]:
    """(first, second) for a match's first game: balance colours, else alternate by slot."""
    top_seats, bottom_seats = histories.get(top, []), histories.get(bottom, [])
    top_difference, bottom_difference = (
        colour_difference(top_seats),
        colour_difference(bottom_seats),
    )
    if top_difference != bottom_difference:
        return (top, bottom) if top_difference < bottom_difference else (bottom, top)
    for mine, theirs in zip(reversed(top_seats), reversed(bottom_seats), strict=False):
        if mine != theirs:
            return (bottom, top) if mine == FIRST else (top, bottom)
    return (top, bottom) if slot % 2 == 0 else (bottom, top)


def _stage(reached: int, total: int) -> str:
    """The name of the round a player went out in (or is playing): "final", "round 1"."""
    if reached == 0:
        return ""
    from_end = total - reached
    names = {0: "final", 1: "semi-final", 2: "quarter-final"}
    return names.get(from_end, f"round {reached}")
