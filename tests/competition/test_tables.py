"""Text tables: exact layouts, column widths with wide characters, number formats."""

from __future__ import annotations

import pytest

from bot.competition.records import Pairing, Result
from bot.competition.standings import rank_players
from bot.competition.tables import (
    display_width,
    fit,
    format_points,
    pairings_table,
    standings_table,
)
from bot.competition.tournament import Format
from tests.competition.test_standings import SWISS

NAMES = {1: "Alice", 2: "Bob", 3: "Chloé Château-Lafite", 4: "李小龍", 5: "Eve 🎲"}


@pytest.mark.parametrize(
    ("value", "text"),
    [(0, "0"), (0.5, "½"), (3, "3"), (2.5, "2½"), (12.75, "12¾"), (0.25, "¼"), (-1.5, "-1½")],
)
def test_format_points(value: float, text: str) -> None:
    """Whole numbers plain, quarters as fraction characters."""
    assert format_points(value) == text


def test_display_width_counts_columns() -> None:
    """Wide characters take two columns, combining marks none."""
    assert display_width("Alice") == 5
    assert display_width("李小龍") == 6
    assert display_width("Eve 🎲") == 6
    assert display_width("e\u0301") == 1


def test_fit_cuts_and_pads() -> None:
    """Long text ends in an ellipsis within the width; short text is padded."""
    assert fit("Chloé Château-Lafite", 10) == "Chloé Châ…"
    assert fit("李小龍李小龍", 7) == "李小龍…"
    assert fit("李小龍李小龍", 8) == "李小龍… "
    assert fit("Bob", 5) == "Bob  "


def test_swiss_standings_table() -> None:
    """The hand-checked Swiss as a table: aligned columns, fractions, notes."""
    standings = rank_players(
        [1, 2, 3, 4, 5], SWISS, tiebreaks=Format.SWISS.tiebreaks, bye_points=1.0, withdrawn=[3]
    )
    table = standings_table(standings, NAMES, tiebreaks=Format.SWISS.tiebreaks)
    assert table.splitlines() == [
        "#  Player              Pts  W  D  L  Bye  Bh  Bh-1  SB",
        "1  Alice                 3  3  0  0    0  3½    2½  3½",
        "2  Eve 🎲               2½  1  1  0    1   6     5   ½",
        "3  李小龍               1½  0  1  1    1  5½    4½   ½",
        "4  Bob                   1  0  2  1    0   7    5½   2",
        "5  Chloé Château-Laf…    1  0  0  2    1   5     4   0  withdrawn",
    ]
    widths = {display_width(line.removesuffix("  withdrawn")) for line in table.splitlines()}
    assert len(widths) == 1, "every line as wide as the header"


def test_pairings_table_with_bye_and_replay() -> None:
    """Boards numbered, points in brackets, results or "…", the bye last, replays marked."""
    pairings = [
        Pairing(3, 1, 2, Result.FIRST_WINS),
        Pairing(3, 5, 3, Result.DRAW),
        Pairing(3, 3, 5),
        Pairing(3, 4),
    ]
    points = {1: 2, 2: 1, 3: 1, 4: 0.5, 5: 1.5}
    table = pairings_table(pairings, NAMES, points=points, seats=("White", "Black"))
    assert table.splitlines() == [
        "   White               Black",
        "1  Alice (2)           Bob (1)             1-0",
        "2  Eve 🎲 (1½)         Chloé Château… (1)  ½-½",
        "3  Chloé Château… (1)  Eve 🎲 (1½)           …  replay",
        "   李小龍 (½)          bye",
    ]
