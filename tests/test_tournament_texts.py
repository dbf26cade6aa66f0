"""Rating and tournament texts: tables, long tables cut to Discord's limit, labels."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.competition.glicko2 import Rating
from bot.competition.records import Result
from bot.competition.tournament import Format
from bot.services.ratings import LeaderboardEntry, RatingCard
from bot.services.tournament_views import TournamentView
from bot.storage.competition import (
    EntrantRecord,
    PairingRecord,
    PlayerRating,
    TournamentRecord,
    TournamentStatus,
)
from bot.tournament_texts import (
    TableMessage,
    board_label,
    leaderboard_message,
    rating_text,
    rounds_text,
    standings_message,
)

NOW = datetime(2025, 5, 1, tzinfo=UTC)


def card(name: str, rating: float, deviation: float, games: int) -> RatingCard:
    stored = PlayerRating(1, "groups", name, Rating(rating, deviation), games, games, 0, 0, NOW)
    return RatingCard(stored, stored.rating)


def tournament(format: Format = Format.SWISS, **changes: object) -> TournamentRecord:
    values: dict[str, object] = {
        "guild_id": 1, "channel_id": 2, "name": "Cup", "organiser_id": 3,
        "organiser_name": "carol", "game": "groups", "options": {}, "format": format,
        "swiss_rounds": None, "time_control": "none", "rated": True, "max_players": 128,
        "entry_closes_at": None, "created_at": NOW, "id": 7,
    }  # fmt: skip
    values.update(changes)
    return TournamentRecord(**values)  # type: ignore[arg-type]


def test_a_long_table_is_cut_to_the_limit_keeping_its_heading() -> None:
    """Whole lines are dropped from the end and the cut is said; short ones stay whole."""
    table = "\n".join(["#  Player"] + [f"{n:<3}player{n}" for n in range(1, 300)])
    message = TableMessage("**Cup** standings", table, "Tie-breaks: SB.")
    text, cut = message.shortened(2000)
    assert cut and len(text) <= 2000
    assert text.startswith("**Cup** standings\n```\n#  Player\n1  player1\n")
    assert "more lines (attached)\n```\nTie-breaks: SB." in text
    short = TableMessage("head", "a\nb")
    assert short.shortened() == ("head\n```\na\nb\n```", False)


def test_leaderboard_marks_provisional_ratings_and_aligns_wide_names() -> None:
    """Provisional ratings carry `?` and the footnote explains it; CJK names line up."""
    entries = [
        LeaderboardEntry(1, card("碁打ち", 1720.4, 60, 40)),
        LeaderboardEntry(2, card("bob", 1662.2, 290.2, 1)),
    ]
    message = leaderboard_message("groups", entries)
    assert message.head == "**Groups** leaderboard"
    assert message.table.splitlines() == [
        "#  Player  Rating    ±  Games   W-D-L",
        "1  碁打ち    1720   60     40  40-0-0",
        "2  bob      1662?  290      1   1-0-0",
    ]
    assert message.tail.startswith("? provisional")
    assert leaderboard_message("hexade", []).head == (
        "Nobody has played rated Hexade on this server yet."
    )


def test_rating_text_for_several_games_and_newcomers() -> None:
    """One line per game; a newcomer is told where ratings start."""
    hexade = RatingCard(
        PlayerRating(1, "hexade", "ann", Rating(1500, 80), 30, 10, 5, 15, NOW), Rating(1500, 80)
    )
    text = rating_text("ann", [card("ann", 1600, 200, 2), hexade], rank=None)
    assert text.splitlines() == [
        "Ratings of **ann**:",
        "**Groups**: 1600? (± 200) · 2 games: 2 won, 0 drawn, 0 lost",
        "**Hexade**: 1500 (± 80) · 30 games: 10 won, 5 drawn, 15 lost",
        "? provisional: the rating is still uncertain (deviation above 110) after few games "
        "or a long break.",
    ]
    assert rating_text("zed", []) == (
        "zed has not played a rated game yet: every rating starts at 1500?."
    )


def test_rounds_and_board_labels() -> None:
    """Rounds before the start by format; a replayed pairing is labelled as such."""
    assert rounds_text(TournamentView(tournament(Format.ROUND_ROBIN), (), ())) == (
        "everyone meets everyone once"
    )
    assert rounds_text(TournamentView(tournament(swiss_rounds=1), (), ())) == "1 round"
    pairings = (
        PairingRecord(1, 7, 1, 10, 20, Result.DRAW, 100, True),
        PairingRecord(2, 7, 1, 30, None),
        PairingRecord(3, 7, 1, 40, 50, None, 101, True),
        PairingRecord(4, 7, 1, 20, 10, None, 102, True),
    )
    view = TournamentView(tournament(Format.SINGLE_ELIMINATION), (), pairings)
    assert board_label(view, pairings[2]) == "round 1, board 2"
    assert board_label(view, pairings[3]) == "round 1, board 3, replay after a draw"


def test_standings_before_the_start_list_the_players() -> None:
    """Before the start, the standings say so and name the entrants."""
    entrants = (EntrantRecord(7, 10, "ann", NOW), EntrantRecord(7, 20, "bob", NOW))
    view = TournamentView(tournament(status=TournamentStatus.OPEN), entrants, ())
    message = standings_message(view)
    assert message.head == "**Cup** (#7) has not started yet.\nPlayers (2): ann, bob."
    assert message.table == ""
