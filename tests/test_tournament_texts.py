"""Rating and tournament texts: tables, long tables cut to Discord's limit, labels."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.competition.glicko2 import Rating
from bot.competition.records import Result
from bot.competition.tournament import Format
from bot.services.competition.ratings import LeaderboardEntry, RatingCard
from bot.services.views.tournaments import TournamentPage, TournamentView
from bot.storage.competition import (
    EntrantRecord,
    PairingRecord,
    PlayerRating,
    TournamentRecord,
    TournamentStatus,
)
from bot.texts.tournaments import (
    TableMessage,
    board_label,
    leaderboard_message,
    names_list,
    pairings_message,
    rating_text,
    rounds_text,
    standings_message,
    tournament_list_message,
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
    """Before the start, the standings say so and list the entrants, one a line (so a
    long list is cut between names); a cancelled one says it was cancelled."""
    entrants = (EntrantRecord(7, 10, "ann", NOW), EntrantRecord(7, 20, "bob", NOW))
    view = TournamentView(tournament(status=TournamentStatus.OPEN), entrants, ())
    message = standings_message(view)
    assert message.head == (
        "**Cup** (#7) has not started yet. Players entered (2), in order of entry:"
    )
    assert message.table == "  1  ann\n  2  bob"
    nobody = TournamentView(tournament(status=TournamentStatus.OPEN), (), ())
    assert standings_message(nobody) == TableMessage(
        "**Cup** (#7) has not started yet. Nobody has entered yet.", ""
    )
    cancelled = TournamentView(tournament(status=TournamentStatus.CANCELLED), entrants, ())
    assert standings_message(cancelled).head == "**Cup** (#7) was cancelled before it started."
    assert pairings_message(cancelled).head == (
        "**Cup** (#7) was cancelled before any round was paired."
    )


def test_standings_of_many_entrants_are_cut_between_names_and_attached_whole() -> None:
    """128 entrants with 32-character names: the message stays within 2,000 characters,
    ends on a whole line, and the attachment holds every name."""
    names = [f"player-{n:03d}-" + "x" * 21 for n in range(128)]
    entrants = tuple(EntrantRecord(7, n, name, NOW) for n, name in enumerate(names))
    message = standings_message(
        TournamentView(tournament(status=TournamentStatus.OPEN), entrants, ())
    )
    text, cut = message.shortened()
    assert cut and len(text) <= 2000
    listed = [line.split()[-1] for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert listed == names[: len(listed)] and len(listed) > 40
    assert f"… {128 - len(listed)} more lines (attached)" in text
    assert all(name in message.plain() for name in names)


def test_a_message_whose_head_is_too_long_keeps_whole_lines() -> None:
    """Head and tail alone beyond the limit: whole lines from the start, then a note; the
    plain text (for the attachment) is never empty."""
    head = "\n".join(f"line {n} " + "y" * 50 for n in range(60))
    text, cut = TableMessage(head, "").shortened(500)
    assert cut and len(text) <= 500
    assert text.endswith("… (the whole message is attached)")
    assert all(line.startswith("line ") for line in text.splitlines()[:-1])
    assert all(len(line) == len("line 10 ") + 50 or len(line) == len("line 1 ") + 50
               for line in text.splitlines()[:-1])  # fmt: skip
    assert TableMessage(head, "").plain() == head + "\n"


def test_names_list_stops_between_names() -> None:
    """As many names as fit, then how many more; one name always shows."""
    assert names_list(["ann", "bob"]) == "ann, bob"
    assert names_list(["ann", "bob", "cy", "dee"], budget=20) == "ann, bob and 2 more"
    assert names_list(["ann", "bob", "cy", "dee"], budget=18) == "ann and 3 more"
    assert names_list(["a" * 30, "bob"], budget=10) == "a" * 30 + " and 1 more"


def test_the_tournament_list_is_one_line_each() -> None:
    """/tournament list: a head counting them and one line per tournament (ended ones
    too), not a code block; a list of several pages says which and where the next is;
    none at all says how to start one."""
    records = (
        tournament(id=3, name="Spring Swiss", status=TournamentStatus.RUNNING),
        tournament(Format.SINGLE_ELIMINATION, id=4),
        tournament(id=2, name="Winter", status=TournamentStatus.FINISHED),
    )
    message = tournament_list_message(TournamentPage(records, 1, 1, 3))
    assert message.text() == (
        "Tournaments on this server (3):\n"
        "#3 **Spring Swiss** · Groups · Swiss · running\n"
        "#4 **Cup** · Groups · Knockout · taking entries\n"
        "#2 **Winter** · Groups · Swiss · finished"
    )
    paged = tournament_list_message(TournamentPage(records, 1, 2, 20))
    assert paged.head == "Tournaments on this server (20), page 1 of 2:"
    assert paged.tail == "More on page 2 (the `page` option)."
    empty = tournament_list_message(TournamentPage((), 1, 1, 0))
    assert empty.head.startswith("No tournament has been held here yet.")
