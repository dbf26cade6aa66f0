"""Compare Tabula's Swiss rounds with an independent Dutch-system program, through TRF files.

The program is one the operator has on this machine (Tabula ships none). It is run as
pairing programs endorsed by FIDE are usually run, `PROGRAM --dutch IN.trf -p OUT.txt`,
and its output read as they write it: the number of boards on the first line, then one
`white black` line per board by starting rank, `0` for the bye's missing opponent.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.competition.records import Pairing, PlayerId
from bot.competition.tournament import Tournament
from bot.competition.trf import write_trf

TIMEOUT_SECONDS = 60
"""The longest one round may take the program."""


class ReferenceError(RuntimeError):
    """The program could not be run, or wrote something that is not a pairing."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """One round as Tabula paired it, against the program's pairing of the same round."""

    same_pairs: bool
    """The same pairs and the same bye."""
    same_seats: bool
    """And every pair with the same player in the first seat (white)."""
    refused: bool
    """The program found no pairing keeping its absolute criteria."""


def reference_round(
    program: Path, tournament: Tournament
) -> set[tuple[PlayerId, PlayerId | None]] | None:
    """The program's next round for `tournament` as (first seat, second seat or None),
    or None when it refuses (no pairing keeps the absolute criteria)."""
    text = write_trf(
        name="simulation",
        players=tournament.players,
        names={},
        ratings={},
        rounds=tournament.rounds,
        pairings=tournament.pairings,
        withdrawn=tournament.withdrawn,
    )
    with tempfile.TemporaryDirectory() as folder:
        source, output = Path(folder, "round.trf"), Path(folder, "pairs.txt")
        source.write_text(text, encoding="utf-8")
        try:
            done = subprocess.run(
                [str(program), "--dutch", str(source), "-p", str(output)],
                capture_output=True,
                text=True,
                timeout=TIMEOUT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise ReferenceError(f"cannot run {program}: {error}") from None
        if done.returncode != 0 or not output.is_file():
            if "no valid pairing" in (done.stdout + done.stderr).lower():
                return None
            raise ReferenceError(f"{program} failed: {(done.stdout + done.stderr).strip()[:200]}")
        words = output.read_text(encoding="utf-8").split()
    try:
        numbers = [int(word) for word in words]
    except ValueError:
        raise ReferenceError(f"{program} wrote something that is not a pairing") from None
    if not numbers or len(numbers) != 1 + 2 * numbers[0]:
        raise ReferenceError(f"{program} wrote something that is not a pairing")
    seeded = tournament.players
    made: set[tuple[PlayerId, PlayerId | None]] = set()
    for board in range(numbers[0]):
        white, black = numbers[1 + 2 * board], numbers[2 + 2 * board]
        made.add((seeded[white - 1], None if black == 0 else seeded[black - 1]))
    return made


def compare(program: Path, before: Tournament, made: tuple[Pairing, ...]) -> Comparison:
    """Tabula's round `made` against the program's for the same history."""
    theirs = reference_round(program, before)
    if theirs is None:
        return Comparison(same_pairs=False, same_seats=False, refused=True)
    ours = {(p.first, p.second) for p in made}

    def unordered(pairs: set[tuple[PlayerId, PlayerId | None]]) -> set[frozenset[PlayerId | None]]:
        return {frozenset(pair) for pair in pairs}

    return Comparison(
        same_pairs=unordered(ours) == unordered(theirs),
        same_seats=ours == theirs,
        refused=False,
    )
