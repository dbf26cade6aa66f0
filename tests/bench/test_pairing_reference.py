"""The reference comparison reads a pairing program's board list and compares rounds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.bench.pairing_reference import ReferenceError, compare, reference_round
from bot.competition.tournament import Format, Tournament


def _program(tmp_path: Path, output: str, status: int = 0, message: str = "") -> Path:
    """A stand-in pairing program: writes `output` to the file after -p, or fails."""
    script = tmp_path / "pairer.py"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"if {status}:\n"
        f"    print({message!r})\n"
        f"    sys.exit({status})\n"
        "args = sys.argv[1:]\n"
        "assert args[0] == '--dutch' and open(args[1]).read().startswith('012 ')\n"
        f"open(args[args.index('-p') + 1], 'w').write({output!r})\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def test_board_list_by_starting_rank(tmp_path: Path) -> None:
    """`2` boards: 1-3 and 4-2, players named by seed position."""
    tournament = Tournament(Format.SWISS, (11, 12, 13, 14), rounds=3)
    program = _program(tmp_path, "2\n1 3\n4 2\n")
    assert reference_round(program, tournament) == {(11, 13), (14, 12)}
    made = tournament.advance()
    result = compare(program, tournament, made)
    assert {(p.first, p.second) for p in made} == {(11, 13), (14, 12)}
    assert result.same_pairs and result.same_seats
    other = compare(_program(tmp_path, "2\n3 1\n4 2\n"), tournament, made)
    assert other.same_pairs and not other.same_seats
    assert not result.refused


def test_refusal_and_garbage(tmp_path: Path) -> None:
    """A program that finds no valid pairing refuses; one that writes nonsense is an error."""
    tournament = Tournament(Format.SWISS, (1, 2, 3, 4), rounds=3)
    refusing = _program(tmp_path, "", status=1, message="No valid pairing exists")
    assert reference_round(refusing, tournament) is None
    assert compare(refusing, tournament, tournament.advance()).refused
    with pytest.raises(ReferenceError):
        reference_round(_program(tmp_path, "two boards\n"), tournament)
    with pytest.raises(ReferenceError):
        reference_round(tmp_path / "missing", tournament)
