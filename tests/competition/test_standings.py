"""Scores and tie-breaks on hand-checked examples, and the ranking built from them."""

from __future__ import annotations

import pytest

from bot.competition.records import Pairing, Result
from bot.competition.scoring import SWISS_BYE_POINTS, records
from bot.competition.standings import rank_players
from bot.competition.tiebreaks import Tiebreak, buchholz, buchholz_cut_1, sonneborn_berger
from bot.competition.tournament import Format

W, L, D = Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW
A, B, C, E = 1, 2, 3, 4

# A round robin of four (A, B, C, E), worked out by hand:
#   A beats B, A draws C, E beats A      A: 1 + ½ + 0 = 1½
#   B beats C, B beats E                 B: 0 + 1 + 1 = 2
#   C beats E                            C: ½ + 0 + 1 = 1½
#                                        E: 1 + 0 + 0 = 1
# Sonneborn-Berger (beaten opponents' scores + half of drawn opponents'):
#   A: B (2) + ½·C (1½) = 2¾       B: C (1½) + E (1) = 2½
#   C: ½·A (1½) + E (1) = 1¾       E: A (1½) = 1½
# A and C tie on 1½; SB puts A (2¾) ahead of C (1¾). Ranking: B, A, C, E.
ROUND_ROBIN = [
    Pairing(1, A, B, W),
    Pairing(1, C, E, W),
    Pairing(2, A, C, D),
    Pairing(2, E, B, L),
    Pairing(3, E, A, W),
    Pairing(3, B, C, W),
]

# A Swiss of five (1–5) over three rounds with byes and a forfeit, worked out by hand:
#   R1: 1-4 1-0, 2-5 ½-½, 3 bye      R2: 3-1 0-1, 4-2 ½-½, 5 bye
#   R3: 1-2 1-0, 5-3 won by 5 on forfeit (3 did not show), 4 bye
# Scores: 1: 3   2: ½+½+0 = 1   3: 1+0+0 = 1   4: 0+½+1 = 1½   5: ½+1+1 = 2½
# Buchholz (opponents' scores; a bye or forfeit counts the player's own score):
#   1: 4 (1½) + 3 (1) + 2 (1) = 3½          2: 5 (2½) + 4 (1½) + 1 (3) = 7
#   3: own 1 + 1 (3) + own 1 = 5            4: 1 (3) + 2 (1) + own 1½ = 5½
#   5: 2 (1) + own 2½ + own 2½ = 6
# Buchholz cut 1 (without the smallest term): 1: 2½  2: 5½  3: 4  4: 4½  5: 5
# Sonneborn-Berger (played games only): 1: 1½+1+1 = 3½  2: ½·2½ + ½·1½ = 2
#   3: 0  4: ½·1 = ½  5: ½·1 = ½ (the forfeit win adds nothing)
# Ranking: 1 (3), 5 (2½), 4 (1½), then 2 and 3 on 1: Buchholz 7 v 5 puts 2 fourth.
SWISS = [
    Pairing(1, 1, 4, W),
    Pairing(1, 2, 5, D),
    Pairing(1, 3),
    Pairing(2, 3, 1, L),
    Pairing(2, 4, 2, D),
    Pairing(2, 5),
    Pairing(3, 1, 2, W),
    Pairing(3, 5, 3, Result.FIRST_WINS_BY_FORFEIT),
    Pairing(3, 4),
]


def test_round_robin_scores_and_sonneborn_berger() -> None:
    """The hand-worked round robin: points and SB exactly."""
    table = records([A, B, C, E], ROUND_ROBIN, bye_points=SWISS_BYE_POINTS)
    points = {player: record.points for player, record in table.items()}
    assert points == {A: 1.5, B: 2.0, C: 1.5, E: 1.0}
    assert {p: sonneborn_berger(r, points) for p, r in table.items()} == {
        A: 2.75,
        B: 2.5,
        C: 1.75,
        E: 1.5,
    }


def test_round_robin_ranking_breaks_the_tie_by_sonneborn_berger() -> None:
    """B first, then A ahead of C on SB, then E."""
    standings = rank_players(
        [A, B, C, E], ROUND_ROBIN, tiebreaks=Format.ROUND_ROBIN.tiebreaks, bye_points=1.0
    )
    assert [(s.rank_label, s.player, s.points) for s in standings] == [
        ("1", B, 2.0),
        ("2", A, 1.5),
        ("3", C, 1.5),
        ("4", E, 1.0),
    ]
    assert standings[1].tiebreaks == (2.75, 1.0)  # SB, wins


def test_swiss_buchholz_values() -> None:
    """The hand-worked Swiss: scores, Buchholz, cut 1 and SB exactly."""
    table = records([1, 2, 3, 4, 5], SWISS, bye_points=SWISS_BYE_POINTS)
    points = {player: record.points for player, record in table.items()}
    assert points == {1: 3.0, 2: 1.0, 3: 1.0, 4: 1.5, 5: 2.5}
    assert {p: buchholz(r, points) for p, r in table.items()} == {
        1: 3.5,
        2: 7.0,
        3: 5.0,
        4: 5.5,
        5: 6.0,
    }
    assert {p: buchholz_cut_1(r, points) for p, r in table.items()} == {
        1: 2.5,
        2: 5.5,
        3: 4.0,
        4: 4.5,
        5: 5.0,
    }
    assert {p: sonneborn_berger(r, points) for p, r in table.items()} == {
        1: 3.5,
        2: 2.0,
        3: 0.0,
        4: 0.5,
        5: 0.5,
    }


def test_swiss_ranking_and_counts() -> None:
    """Buchholz orders 2 before 3; W/D/L/bye counts include the forfeit."""
    standings = rank_players(
        [1, 2, 3, 4, 5],
        SWISS,
        tiebreaks=Format.SWISS.tiebreaks,
        bye_points=SWISS_BYE_POINTS,
        withdrawn=[3],
    )
    assert [s.player for s in standings] == [1, 5, 4, 2, 3]
    five = standings[1]
    assert (five.wins, five.draws, five.losses, five.byes) == (1, 1, 0, 1)
    assert five.tiebreaks == (6.0, 5.0, 0.5, 1.0)
    assert standings[4].withdrawn and not standings[3].withdrawn


def test_complete_ties_share_a_place_in_seed_order() -> None:
    """Two players level on everything share "1-2", listed in seed order."""
    games = [Pairing(1, 7, 8, D), Pairing(2, 8, 7, D)]
    standings = rank_players(
        [7, 8], games, tiebreaks=Format.ROUND_ROBIN.tiebreaks, bye_points=SWISS_BYE_POINTS
    )
    assert [(s.rank_label, s.player) for s in standings] == [("1-2", 7), ("1-2", 8)]


def test_unfinished_games_do_not_count() -> None:
    """A game still being played adds nothing to anyone's record."""
    table = records([1, 2], [Pairing(1, 1, 2)], bye_points=SWISS_BYE_POINTS)
    assert table[1].encounters == () and table[2].points == 0


def test_strangers_in_pairings_are_refused() -> None:
    """A pairing with someone outside the field is a programming error, said clearly."""
    with pytest.raises(ValueError, match="player 9 is not in this tournament"):
        records([1, 2], [Pairing(1, 1, 9, W)], bye_points=SWISS_BYE_POINTS)


def test_result_values_and_scores() -> None:
    """Results store as stable strings and score each side as documented."""
    assert [r.value for r in Result] == ["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"]
    assert Result("1/2-1/2") is Result.DRAW and Result.DRAW.label == "½-½"
    scores = {r: (r.first_score, r.second_score) for r in Result}
    assert scores == {
        Result.FIRST_WINS: (1, 0),
        Result.SECOND_WINS: (0, 1),
        Result.DRAW: (0.5, 0.5),
        Result.FIRST_WINS_BY_FORFEIT: (1, 0),
        Result.SECOND_WINS_BY_FORFEIT: (0, 1),
        Result.DOUBLE_FORFEIT: (0, 0),
    }
    assert Result.from_winner(1) is Result.SECOND_WINS and Result.from_winner(None) is D
    assert Result.forfeit(True, True) is Result.DOUBLE_FORFEIT
    assert Tiebreak("Bh-1") is Tiebreak.BUCHHOLZ_CUT_1


def test_pairing_validation() -> None:
    """Impossible pairings are refused with a clear message."""
    with pytest.raises(ValueError, match="cannot play themselves"):
        Pairing(1, 5, 5)
    with pytest.raises(ValueError, match="counted from 1"):
        Pairing(0, 1, 2)
    with pytest.raises(ValueError, match="a bye has no result"):
        Pairing(1, 1, None, W)
